/* report.c - `nvscope report DIR [DIR...] [-o FILE]`: the self-contained
 * HTML report (inline SVG charts, no network) of plan results directories;
 * several directories (drives) side by side.  Default output: report.html
 * in the first directory. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "report/html.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvscope report DIR [DIR...] [-o FILE]\n"
		"Writes a self-contained HTML report (SVG charts) of `nvscope plan` results\n"
		"directories, side by side; default FILE is DIR/report.html (\"-\" = stdout).\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	char path[1200], tmp[1300], err[1400];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return NVS_EXIT_OK;
		default:
			fprintf(stderr, "nvscope report: bad option '%s' (see --help)\n",
				argv[optind - 1]);
			return NVS_EXIT_USAGE;
		}
	}
	unsigned n = (unsigned)(argc - optind);
	if (!n) {
		usage(stderr);
		return NVS_EXIT_USAGE;
	}
	if (n > 8) {
		fprintf(stderr, "nvscope report: at most 8 directories\n");
		return NVS_EXIT_USAGE;
	}
	const char *const *dirs = (const char *const *)argv + optind;
	if (!out) {
		if (snprintf(path, sizeof(path), "%s/report.html", dirs[0]) >= (int)sizeof(path)) {
			fprintf(stderr, "nvscope report: directory name too long\n");
			return NVS_EXIT_USAGE;
		}
		out = path;
	}
	if (!strcmp(out, "-")) {
		if (html_write_report(stdout, dirs, n, err, sizeof(err))) {
			fprintf(stderr, "nvscope report: %s\n", err);
			return NVS_EXIT_USAGE;
		}
		return NVS_EXIT_OK;
	}
	/* written beside the target and renamed, so a failure leaves no half file */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp)) {
		fprintf(stderr, "nvscope report: %s: name too long\n", out);
		return NVS_EXIT_USAGE;
	}
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "nvscope report: %s: %s\n", tmp, strerror(errno));
		return NVS_EXIT_USAGE;
	}
	int rc = html_write_report(f, dirs, n, err, sizeof(err));
	if (fclose(f) && !rc) {
		rc = -EIO;
		snprintf(err, sizeof(err), "%s: write error", tmp);
	}
	if (rc) {
		unlink(tmp);
		fprintf(stderr, "nvscope report: %s\n", err);
		return rc == -EIO ? NVS_EXIT_IOERR : NVS_EXIT_USAGE;
	}
	if (rename(tmp, out)) {
		fprintf(stderr, "nvscope report: %s: %s\n", out, strerror(errno));
		unlink(tmp);
		return NVS_EXIT_IOERR;
	}
	printf("%s\n", out);
	return NVS_EXIT_OK;
}
