/* list.c - `nvscope list [--json] [--tree]`: NVMe controllers with their
 * namespaces (libnvme), then the other block devices, as a table in the
 * spirit of `nvme list`, a controller/namespace tree, or JSON. */
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
	fprintf(f, "usage: nvscope list [--json] [--tree] [FILE ...]\n"
		   "  Lists NVMe controllers and namespaces (node, generic node, serial, model,\n"
		   "  namespace, usage, LBA format, firmware, in-use state) and the other block\n"
		   "  devices; FILE arguments are added as plain-file targets.\n"
		   "  --json   machine-readable: {\"controllers\":[...],\"block_devices\":[...]}\n"
		   "  --tree   controller -> namespace tree instead of the table\n"
		   "  --help   this text\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = { { "json", no_argument, NULL, 'j' },
					      { "tree", no_argument, NULL, 't' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	bool json = false, tree = false;
	char err[256];
	struct dev_list *l;
	int c, rc = NVS_EXIT_OK;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "jth", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 't':
			tree = true;
			break;
		case 'h':
			usage(stdout);
			return NVS_EXIT_OK;
		default:
			fprintf(stderr, "nvscope list: unknown option '%s' (try --help)\n",
				argv[optind - 1]);
			return NVS_EXIT_USAGE;
		}
	}
	l = dev_scan(err, sizeof(err));
	if (!l) {
		fprintf(stderr, "nvscope list: %s\n", err);
		return NVS_EXIT_IOERR;
	}
	for (int i = optind; i < argc; i++) {
		int r = dev_list_add_file(l, argv[i]);

		if (r) {
			fprintf(stderr, "nvscope list: %s: cannot stat it\n", argv[i]);
			rc = NVS_EXIT_USAGE;
			goto free_list;
		}
	}
	if (json) {
		cJSON *o = dev_list_to_json(l);
		char *s = o ? json_print(o) : NULL;

		if (!s) {
			fprintf(stderr, "nvscope list: out of memory\n");
			rc = NVS_EXIT_IOERR;
		} else {
			printf("%s\n", s);
		}
		free(s);
		cJSON_Delete(o);
	} else if (tree) {
		dev_list_print_tree(l, stdout);
	} else {
		dev_list_print_table(l, stdout);
	}
free_list:
	dev_list_free(l);
	return rc;
}
