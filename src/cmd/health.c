/* health.c - placeholder until its issue lands: refuses clearly. */
#include <stdio.h>
#include "nvscope.h"
#include "cmd/cmd.h"

int cmd_health(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "nvscope %s: not available in this build yet\n", argv[0]);
	return NVS_EXIT_USAGE;
}
