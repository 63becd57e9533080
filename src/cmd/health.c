/* health.c - `nvscope health DEV [--json]`: the SMART / health log of an
 * NVMe controller (/dev/nvme0) or of the controller behind a namespace. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "report/json.h"
#include "dev/devmodel.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: nvscope health DEV [--json]\n"
		   "  Reads the SMART / health log page of the NVMe controller DEV\n"
		   "  (/dev/nvme0) or of the controller behind a namespace (/dev/nvme0n1,\n"
		   "  /dev/ng0n1).  Fields the drive does not report show as N/A (null).\n"
		   "  --json   JSON with snake-case keys: temperature_c, sensors_c[],\n"
		   "           critical_warning (raw bits), critical_warning_names[], ...\n"
		   "  --help   this text\n");
}

int cmd_health(int argc, char **argv)
{
	static const struct option opts[] = { { "json", no_argument, NULL, 'j' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct dev_health h;
	bool json = false;
	char err[256];
	int c, r, st = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return NVS_EXIT_OK;
		default:
			fprintf(stderr, "nvscope health: unknown option '%s' (try --help)\n",
				argv[optind - 1]);
			return NVS_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "nvscope health: give exactly one device (try --help)\n");
		return NVS_EXIT_USAGE;
	}
	r = dev_health_read(argv[optind], &h, &st, err, sizeof(err));
	if (r) {
		fprintf(stderr, "nvscope health: %s\n", err);
		return r == -EIO ? NVS_EXIT_IOERR : NVS_EXIT_USAGE;
	}
	if (json) {
		cJSON *o = dev_health_to_json(&h, argv[optind]);
		char *s = o ? json_print(o) : NULL;

		if (!s) {
			cJSON_Delete(o);
			fprintf(stderr, "nvscope health: out of memory\n");
			return NVS_EXIT_IOERR;
		}
		printf("%s\n", s);
		free(s);
		cJSON_Delete(o);
	} else {
		dev_health_print(&h, argv[optind], stdout);
	}
	return NVS_EXIT_OK;
}
