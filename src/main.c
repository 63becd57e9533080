/* main.c - nvscope's entry: the commands are src/cmd/'s table (cmd.h). */
#include "cmd/cmd.h"
#include "dev/testbed.h"
#include "run/runjob.h"
#include "report/tracejson.h"

int main(int argc, char **argv)
{
	static const struct runjob_trace_fmt trace_fmt = {tracejson_build, tracejson_line};

	testbed_set_cmdline(argc, argv);  /* meta.json's "testbed" */
	runjob_set_trace_fmt(&trace_fmt); /* a replay's figures, for run, plan and the console */
	return cmd_main(argc, argv);
}
