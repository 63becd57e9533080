/* report.c - `nvscope report DIR [DIR...] [-o FILE]`: the self-contained
 * HTML report (inline SVG charts, no network) of plan results directories
 * and of check results directories (a verdict row per serial);
 * several directories (drives) side by side.  Default output: report.html
 * in the first directory. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "dev/safety.h"
#include "report/html.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvscope report DIR [DIR...] [-o FILE]\n"
		"Writes a self-contained HTML report (SVG charts) of `nvscope plan` results\n"
		"directories, side by side, and of `nvscope check` results directories (a\n"
		"verdict row per serial); default FILE is DIR/report.html (\"-\" = stdout).\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	char path[1200], tmp[32], err[1400];
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
	/* a fresh temporary file beside the target, renamed over it, so a
	 * failure leaves no half file; both checked by safety_out.c (never a
	 * device, a symlink, another user's file or directory) */
	const char *name;
	int dfd = safety_output_dir(out, &name, err, sizeof(err)), fd = -1, rc;
	FILE *f = NULL;
	if (dfd < 0 || (fd = safety_tmp_create(dfd, tmp, err, sizeof(err))) < 0 ||
	    !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "nvscope report: %s: %s\n", out,
			dfd < 0 || fd < 0 ? err : strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlinkat(dfd, tmp, 0);
		}
		if (dfd >= 0)
			close(dfd);
		return NVS_EXIT_USAGE;
	}
	rc = html_write_report(f, dirs, n, err, sizeof(err));
	if (fflush(f) && !rc) {
		rc = -EIO;
		snprintf(err, sizeof(err), "%s: write error", out);
	}
	if (!rc && (rc = safety_tmp_commit(dfd, fileno(f), tmp, name, err, sizeof(err))))
		snprintf(err + strlen(err), sizeof(err) - strlen(err), " (%s)", out);
	else if (rc)
		unlinkat(dfd, tmp, 0);
	fclose(f);
	close(dfd);
	if (rc) {
		fprintf(stderr, "nvscope report: %s\n", err);
		return rc == -EIO || rc == -ENOSPC ? NVS_EXIT_IOERR : NVS_EXIT_USAGE;
	}
	printf("%s\n", out);
	return NVS_EXIT_OK;
}
