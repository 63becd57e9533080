/* console.c - placeholder until its issue lands: refuses clearly. */
#include <stdio.h>
#include "nvscope.h"
#include "cmd/cmd.h"

int cmd_console(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "nvscope %s: not available in this build yet\n", argv[0]);
	return NVS_EXIT_USAGE;
}

int cmd_replay(int argc, char **argv)
{
	return cmd_console(argc, argv);
}
