/* report.c - `nvscope report DIR [DIR...] [-o FILE]`: the self-contained
 * HTML report (inline SVG charts, no network) of plan results directories
 * and of check results directories (a verdict row per serial);
 * several directories (drives) side by side.  Default output: report.html
 * in the first directory. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "dev/safety.h"
#include "report/html.h"

enum { O_OUTPUT = 'o' };

static const struct cmd_opt opts[] = {
    {{"output", required_argument, NULL, O_OUTPUT}, 'o', "FILE",
     "the report (default DIR/report.html; \"-\" = stdout)"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_report(const struct cmd_entry *self, struct cmd_args *a)
{
	const char *out = cmd_get(a, O_OUTPUT);
	char path[1200], tmp[32], err[1400];

	unsigned n = a->npos;
	if (!n) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	if (n > 8) {
		fprintf(stderr, "nvscope report: at most 8 directories\n");
		return NVS_EXIT_USAGE;
	}
	const char *const *dirs = (const char *const *)a->pos;
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
	/* never a file in use (the image behind a loop device) */
	int rc = safety_fileset_check_output(NULL, out, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "nvscope report: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	int dfd = safety_output_dir(out, &name, err, sizeof(err)), fd = -1;
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
		return rc;
	}
	printf("%s\n", out);
	return NVS_EXIT_OK;
}

const struct cmd_entry cmd_report_entry = {
    .name = "report",
    .summary = "write an HTML/SVG report from result directories",
    .usage = "report DIR [DIR...] [-o FILE]",
    .text = "Writes a self-contained HTML report (SVG charts) of `nvscope plan` results\n"
	    "directories, side by side, and of `nvscope check` results directories (a\n"
	    "verdict row per serial); at most 8 directories.",
    .opts = opts,
    .exec = exec_report,
};
