/* list.c - `nvscope list [--json] [--tree]`: NVMe controllers with their
 * namespaces (libnvme), then the other block devices, as a table in the
 * spirit of `nvme list`, a controller/namespace tree, or JSON. */
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

enum { O_JSON = 'j', O_TREE = 't' };

static const struct cmd_opt opts[] = {
    {{"json", no_argument, NULL, O_JSON},
     'j',
     NULL,
     "machine-readable: {\"controllers\":[...],\"block_devices\":[...]}"},
    {{"tree", no_argument, NULL, O_TREE},
     't',
     NULL,
     "controller -> namespace tree instead of the table"},
    HOSTCMD_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_list(const struct cmd_entry *self, struct cmd_args *a)
{
	bool json = cmd_has(a, O_JSON), tree = cmd_has(a, O_TREE);
	char err[256];
	struct dev_list *l;
	int rc = NVS_EXIT_OK;
	struct hostcmd h;

	if (hostcmd_take(&h, self, a))
		return NVS_EXIT_USAGE;
	if (hostcmd_count(&h)) { /* over hosts: docs/hosts.md */
		rc = hostcmd_list(self, &h, a, json, tree);
		hostcmd_clear(&h);
		return rc;
	}
	hostcmd_clear(&h);
	l = dev_scan(err, sizeof(err));
	if (!l) {
		fprintf(stderr, "nvscope list: %s\n", err);
		return NVS_EXIT_IOERR;
	}
	for (unsigned i = 0; i < a->npos; i++) {
		int r = dev_list_add_file(l, a->pos[i]);

		if (r) {
			fprintf(stderr, "nvscope list: %s: cannot stat it\n", a->pos[i]);
			rc = NVS_EXIT_USAGE;
			goto free_list;
		}
	}
	if (json) {
		cJSON *o = dev_list_to_json(l);
		int r = json_puts(o, stdout);

		cJSON_Delete(o);
		if (r) {
			cmd_say(self, "cannot print the JSON: %s", strerror(-r));
			rc = r;
		}
	} else if (tree) {
		dev_list_print_tree(l, stdout);
	} else {
		dev_list_print_table(l, stdout);
	}
free_list:
	dev_list_free(l);
	return rc;
}

const struct cmd_entry cmd_list_entry = {
    .name = "list",
    .summary = "list NVMe controllers, namespaces and other targets",
    .usage = "list [--json] [--tree] [FILE ...]\n"
	     "list (--host DEST ... | --hosts FILE) [host options] [--json] [--tree] [FILE ...]",
    .text = "Lists NVMe controllers and namespaces (node, generic node, serial, model,\n"
	    "namespace, usage, LBA format, firmware, in-use state) and the other block\n"
	    "devices; FILE arguments are added as plain-file targets.  Over hosts\n"
	    "(docs/hosts.md): each host's list, grouped by host; the JSON is one tree with\n"
	    "\"host\" on every controller and block device, and \"hosts\" (reachable or why not).",
    .notes = "exit status: 0 listed, 1 a host could not be reached (named on stderr), 2 bad\n"
	     "input.",
    .opts = opts,
    .exec = exec_list,
};
