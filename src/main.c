/* main.c - nvscope's entry: the commands are src/cmd/'s table (cmd.h). */
#include <stdio.h>
#include <stdlib.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "dev/devmodel.h"
#include "dev/probe.h"
#include "dev/testbed.h"
#include "run/runjob.h"
#include "report/tracejson.h"

int main(int argc, char **argv)
{
	static const struct runjob_trace_fmt trace_fmt = {tracejson_build, tracejson_line};

	probe_helper_main(argc, argv); /* a device probe's helper (dev/probe.h): ends there */
	char err[256];
	if (dev_scope_set(getenv("NVSCOPE_DEVICES"), err, sizeof(err))) {
		fprintf(stderr, "nvscope: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	testbed_set_cmdline(argc, argv);  /* meta.json's "testbed" */
	runjob_set_trace_fmt(&trace_fmt); /* a replay's figures, for run, plan and the console */
	return cmd_main(argc, argv);
}
