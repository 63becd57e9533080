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
#include "report/chartpub.h"
#include "report/html.h"

enum { O_OUTPUT = 'o', O_CHARTS = 256, O_COMPARE };

static const struct cmd_opt opts[] = {
    {{"output", required_argument, NULL, O_OUTPUT},
     'o',
     "FILE",
     "the report (default DIR/report.html; \"-\" = stdout)"},
    {{"charts", required_argument, NULL, O_CHARTS},
     0,
     "LIST",
     "each chart's own files in charts/ beside the report: svg,png,csv (default) or none"},
    {{"compare", no_argument, NULL, O_COMPARE},
     0,
     NULL,
     "the DIRs side by side (a competitor, another firmware, each run of a repeat): at least two, no limit"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* charts/ beside @out (its directory), for the files @kinds; NULL with
 * one line on stderr. */
static struct chartpub *charts_open(const char *out, unsigned kinds)
{
	char dir[1200], err[1400];
	const char *slash = strrchr(out, '/');
	int l = slash ? (int)(slash - out) : 0;
	if (snprintf(dir, sizeof(dir), "%.*s%scharts", l, out, slash ? "/" : "") >=
	    (int)sizeof(dir)) {
		fprintf(stderr, "nvscope report: directory name too long\n");
		return NULL;
	}
	if (slash == out) /* "/report.html" */
		snprintf(dir, sizeof(dir), "/charts");
	struct chartpub *p = chartpub_new(dir, "charts", kinds, err, sizeof(err));
	if (!p)
		fprintf(stderr, "nvscope report: %s\n", err);
	return p;
}

/* Rasterises and indexes the charts, frees @p: 0 or -errno with one line
 * in @err; a note ("PNGs skipped: ...") goes to stderr. */
static int charts_close(struct chartpub *p, char *err, size_t errlen)
{
	char note[200];
	int rc = chartpub_finish(p, note, sizeof(note), err, errlen);
	if (!rc && note[0])
		fprintf(stderr, "nvscope report: %s\n", note);
	chartpub_free(p);
	return rc;
}

static int exec_report(const struct cmd_entry *self, struct cmd_args *a)
{
	const char *out = cmd_get(a, O_OUTPUT), *charts = cmd_get(a, O_CHARTS);
	char path[1200], tmp[32], err[1400];
	unsigned kinds = CHARTPUB_ALL;
	struct chartpub *pub = NULL;

	unsigned n = a->npos;
	if (!n) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	if (cmd_has(a, O_COMPARE) && n < 2) {
		fprintf(stderr, "nvscope report: --compare needs two results directories or more\n");
		return NVS_EXIT_USAGE;
	}
	if (charts && chartpub_parse_kinds(charts, &kinds)) {
		fprintf(stderr,
			"nvscope report: --charts: svg, png, csv (comma-separated) or none\n");
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
	if (kinds && !(pub = charts_open(out, kinds)))
		rc = -EIO;
	else
		rc = html_write_report_pub(f, dirs, n, pub, err, sizeof(err));
	if (pub && !rc) {
		rc = charts_close(pub, err, sizeof(err));
	} else {
		chartpub_free(pub);
	}
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
    .usage = "report [--compare] DIR [DIR...] [-o FILE] [--charts LIST]",
    .text = "Writes a self-contained HTML report (SVG charts) of `nvscope plan` results\n"
	    "directories, side by side, and of `nvscope check` results directories (a\n"
	    "verdict row per serial), any number of them.  Every chart is also\n"
	    "written as its own SVG, PNG (rsvg-convert) and CSV in charts/ beside the\n"
	    "report (not with -o -), listed in charts/index.csv.",
    .opts = opts,
    .exec = exec_report,
};
