/* health.c - `nvscope health DEV [--json]`: the SMART / health log of an
 * NVMe controller (/dev/nvme0) or of the controller behind a namespace. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "cmd/hostcmd.h"
#include "report/json.h"
#include "dev/devmodel.h"

enum { O_JSON = 'j' };

static const struct cmd_opt opts[] = {
    {{"json", no_argument, NULL, O_JSON},
     'j',
     NULL,
     "JSON with snake-case keys: temperature_c, sensors_c[],\n"
     "critical_warning (raw bits), critical_warning_names[], ..."},
    HOSTCMD_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_health(const struct cmd_entry *self, struct cmd_args *a)
{
	struct dev_health h;
	bool json = cmd_has(a, O_JSON);
	char err[256];
	int r, st = 0;
	struct hostcmd hc;

	if (hostcmd_take(&hc, self, a))
		return NVS_EXIT_USAGE;
	if (hostcmd_over(&hc, a)) { /* over hosts: docs/hosts.md */
		r = hostcmd_health(self, &hc, a, json);
		hostcmd_clear(&hc);
		return r;
	}
	hostcmd_clear(&hc);
	if (a->npos != 1) {
		cmd_say(self, "give exactly one device (try --help)");
		return NVS_EXIT_USAGE;
	}
	const char *dev = a->pos[0];
	r = dev_health_read(dev, &h, &st, err, sizeof(err));
	if (r) {
		fprintf(stderr, "nvscope health: %s\n", err);
		return r;
	}
	if (json) {
		cJSON *o = dev_health_to_json(&h, dev);

		r = json_puts(o, stdout);
		cJSON_Delete(o);
		if (r) {
			cmd_say(self, "cannot print the JSON: %s", strerror(-r));
			return r;
		}
	} else {
		dev_health_print(&h, dev, stdout);
	}
	return NVS_EXIT_OK;
}

const struct cmd_entry cmd_health_entry = {
    .name = "health",
    .summary = "show the SMART / health log of an NVMe device",
    .usage = "health DEV [--json]\n"
	     "health (HOST:DEV ... | --host DEST ... DEV) [host options] [--json]",
    .text = "Reads the SMART / health log page of the NVMe controller DEV\n"
	    "(/dev/nvme0) or of the controller behind a namespace (/dev/nvme0n1,\n"
	    "/dev/ng0n1).  Fields the drive does not report show as N/A (null).  Over\n"
	    "hosts (docs/hosts.md): DEV on every --host, HOST:DEV on that host; the JSON\n"
	    "is {\"hosts\":[...],\"health\":[...]} with \"host\" on each log.",
    .opts = opts,
    .exec = exec_health,
};
