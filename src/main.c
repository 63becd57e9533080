/* main.c - nvscope's entry: picks the subcommand (or the console). */
#include <stdio.h>
#include <string.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "run/runjob.h"
#include "report/tracejson.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"run", cmd_run, "run one workload headless, print results, write JSON/CSV"},
	{"list", cmd_list, "list NVMe controllers, namespaces and other targets"},
	{"health", cmd_health, "show the SMART / health log of an NVMe device"},
	{"purge", cmd_purge, "format, sanitize or trim a device (destroys data)"},
	{"plan", cmd_plan, "run a test plan (purge, fill, precondition, sweep)"},
	{"steady", cmd_steady, "apply the SNIA steady-state rule to a saved series"},
	{"report", cmd_report, "write an HTML/SVG report from result directories"},
	{"check", cmd_check, "check drives with a profile: PASS/WARN/FAIL per serial"},
	{"replay", cmd_replay, "replay a results directory in the console"},
	{"trace", cmd_trace, "record a block trace (blktrace) as a fio iolog; show one"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: nvscope [console options]        full-screen console\n"
		   "       nvscope COMMAND [options]          (nvscope COMMAND --help)\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NVS_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nconsole options: --target PATH (repeatable) --preset NAME --theme NAME\n"
		   "  --ascii --demo, plus any workload option of `run`\n"
		   "  --version, --help\n"
		   "See nvscope(1) (docs/nvscope.1).\n");
}

int main(int argc, char **argv)
{
	static const struct runjob_trace_fmt trace_fmt = {tracejson_build, tracejson_line};

	runjob_set_trace_fmt(&trace_fmt); /* a replay's figures, for run, plan and the console */
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("nvscope %s\n", NVS_VERSION);
		return NVS_EXIT_OK;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return NVS_EXIT_OK;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < NVS_ARRAY_SIZE(commands); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
		if (strcmp(argv[1], "console")) {
			fprintf(stderr, "nvscope: unknown command '%s' (try nvscope --help)\n",
				argv[1]);
			return NVS_EXIT_USAGE;
		}
		return cmd_console(argc - 1, argv + 1);
	}
	return cmd_console(argc, argv);
}
