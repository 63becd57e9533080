/* chartpub.c - the report's charts as files of their own (chartpub.h).
 *
 * Names: NN-STEP-CHART, NN the step's number from 01 (00: charts outside
 * any step), STEP and CHART slugs of the step's name and the chart's title
 * (its id when untitled), a -2, -3 ... suffix when a step has two charts of
 * the same title; the same results give the same names.  Files are written
 * in place (a report written again replaces them); the files of a previous
 * report that index.csv listed and this one does not are removed. */
#include "report/chartpub.h"
#include "dev/safety.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define NAME_LEN 160

struct entry {
	char name[NAME_LEN];
	char *step, *title;
};

struct chartpub {
	char *dir, *href;
	int dfd;
	unsigned kinds;
	unsigned step;
	char *stepname;
	char stepslug[48];
	char partslug[40]; /* "" or the drive's slug and a '-' */
	struct entry *e;
	size_t n, cap;
	int err; /* the first file error */
	char errmsg[256];
	char note[128];
};

void chartpub_slug(const char *s, char *out, size_t len)
{
	size_t o = 0;
	bool dash = false;
	for (; s && *s && o + 1 < len; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    (ch >= 'A' && ch <= 'Z')) {
			if (dash && o) {
				if (o + 2 >= len) /* never a '-' last */
					break;
				out[o++] = '-';
			}
			dash = false;
			out[o++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
		} else {
			dash = true;
		}
	}
	if (!o && len > 1)
		out[o++] = 'x';
	if (len)
		out[o < len ? o : len - 1] = '\0';
}

int chartpub_parse_kinds(const char *s, unsigned *kinds)
{
	unsigned k = 0;
	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "none")) {
		*kinds = 0;
		return 0;
	}
	while (*s) {
		size_t l = strcspn(s, ",");
		if (l == 3 && !strncmp(s, "svg", 3))
			k |= CHARTPUB_SVG;
		else if (l == 3 && !strncmp(s, "png", 3))
			k |= CHARTPUB_PNG;
		else if (l == 3 && !strncmp(s, "csv", 3))
			k |= CHARTPUB_CSV;
		else
			return -EINVAL;
		s += l;
		if (*s == ',' && !*++s)
			return -EINVAL;
	}
	*kinds = k;
	return 0;
}

/* Whether an executable @prog is in $PATH (as posix_spawnp finds it). */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t l = strcspn(path, ":");
		size_t n = l + strlen(prog) + 2;
		char *f = malloc(n);
		if (!f)
			return false;
		snprintf(f, n, "%.*s/%s", (int)(l ? l : 1), l ? path : ".", prog);
		bool ok = !access(f, X_OK);
		free(f);
		if (ok)
			return true;
		path += l + (path[l] == ':');
	}
	return false;
}

struct chartpub *chartpub_new(const char *dir, const char *href, unsigned kinds, char *err,
			      size_t errlen)
{
	struct chartpub *p = calloc(1, sizeof(*p));
	if (!p || !(p->dir = strdup(dir)) || !(p->href = strdup(href))) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto fail;
	}
	/* made when missing; never a symlink, another user's directory or
	 * a world-writable one without the sticky bit (dev/safety) */
	char msg[256] = "";
	p->dfd = safety_results_dir(dir, true, msg, sizeof(msg));
	if (p->dfd < 0) {
		snprintf(err, errlen, "%s: %s", dir, msg[0] ? msg : strerror(-p->dfd));
		goto fail;
	}
	p->kinds = kinds;
	if ((kinds & CHARTPUB_PNG) && !in_path("rsvg-convert")) {
		p->kinds &= ~(unsigned)CHARTPUB_PNG;
		snprintf(p->note, sizeof(p->note), "%s",
			 "PNGs skipped: rsvg-convert not found (Debian package librsvg2-bin)");
	}
	chartpub_step(p, (unsigned)-1, "report");
	return p;
fail:
	if (p) {
		free(p->dir);
		free(p->href);
		free(p);
	}
	return NULL;
}

void chartpub_step(struct chartpub *p, unsigned i, const char *name)
{
	if (!p)
		return;
	p->step = i + 1;
	free(p->stepname);
	p->stepname = strdup(name ? name : "");
	/* plan steps are named "01-precondition-...": their number once */
	const char *s = name ? name : "";
	size_t d = strspn(s, "0123456789");
	if (d && s[d] == '-' && s[d + 1])
		s += d + 1;
	chartpub_slug(s, p->stepslug, sizeof(p->stepslug));
	p->partslug[0] = '\0';
}

void chartpub_part(struct chartpub *p, const char *name)
{
	if (!p)
		return;
	p->partslug[0] = '\0';
	if (name && *name) {
		chartpub_slug(name, p->partslug, sizeof(p->partslug) - 1);
		strcat(p->partslug, "-");
	}
}

/* The first error: @name's, @msg (dev/safety's reason) or errno @e's text. */
static void file_error_msg(struct chartpub *p, const char *name, int e, const char *msg)
{
	if (p->err)
		return;
	p->err = -e;
	if (msg && *msg && strstr(msg, name)) /* it names the file */
		snprintf(p->errmsg, sizeof(p->errmsg), "%s: %s", p->dir, msg);
	else
		snprintf(p->errmsg, sizeof(p->errmsg), "%s/%s: %s", p->dir, name,
			 msg && *msg ? msg : strerror(e));
}

static void file_error(struct chartpub *p, const char *name, int e)
{
	file_error_msg(p, name, e, NULL);
}

/* @name in the folder, created or emptied by dev/safety's rule: never
 * through a symlink, never a FIFO, device or directory, never another
 * user's file or one with other hard links (-EPERM, one line). */
static FILE *open_file(struct chartpub *p, const char *name)
{
	char msg[256] = "";
	int fd = safety_openat_output(p->dfd, name, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		file_error_msg(p, name, fd < 0 ? -fd : errno, msg);
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static void close_file(struct chartpub *p, FILE *f, const char *name)
{
	bool bad = ferror(f);
	if (fclose(f) || bad)
		file_error(p, name, bad ? EIO : errno);
}

/* NN-STEP-CHART, unique among the charts so far. */
static void chart_name(const struct chartpub *p, const struct svg_item *c, char *out)
{
	char cs[48], base[NAME_LEN - 8];
	chartpub_slug(c->title && *c->title ? c->title : c->id, cs, sizeof(cs));
	snprintf(base, sizeof(base), "%02u-%s-%s%s", p->step, p->stepslug, p->partslug, cs);
	snprintf(out, NAME_LEN, "%s", base);
	for (unsigned k = 2;; k++) {
		size_t i = 0;
		while (i < p->n && strcmp(p->e[i].name, out))
			i++;
		if (i == p->n)
			return;
		snprintf(out, NAME_LEN, "%s-%u", base, k);
	}
}

static void write_files(struct chartpub *p, const struct svg_item *c, const char *name)
{
	char fn[NAME_LEN + 8];
	FILE *f;
	if (p->kinds & (CHARTPUB_SVG | CHARTPUB_PNG)) {
		snprintf(fn, sizeof(fn), "%s.svg", name);
		if ((f = open_file(p, fn))) {
			c->doc(f, c->arg);
			close_file(p, f, fn);
		}
	}
	if (p->kinds & CHARTPUB_CSV) {
		snprintf(fn, sizeof(fn), "%s.csv", name);
		if ((f = open_file(p, fn))) {
			c->csv(f, c->arg);
			close_file(p, f, fn);
		}
	}
}

static void write_links(const struct chartpub *p, FILE *f, const char *name)
{
	static const char *const ext[] = {"svg", "png", "csv"};
	fputs("<p class=\"chartfiles\">", f);
	svg_escape(f, name);
	fputs(":", f);
	for (unsigned k = 0; k < 3; k++) {
		if (!(p->kinds & (1u << k)))
			continue;
		fputs(" <a href=\"", f);
		svg_escape(f, p->href);
		fputc('/', f);
		svg_escape(f, name);
		fprintf(f, ".%s\">%s</a>", ext[k], ext[k]);
	}
	fputs("</p>\n", f);
}

void chartpub_chart(void *ctx, FILE *f, const struct svg_item *c)
{
	struct chartpub *p = ctx;
	if (!p || !p->kinds)
		return;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct entry *e = realloc(p->e, cap * sizeof(*e));
		if (!e) {
			file_error(p, "index.csv", ENOMEM);
			return;
		}
		p->e = e;
		p->cap = cap;
	}
	struct entry *e = &p->e[p->n];
	chart_name(p, c, e->name);
	e->step = strdup(p->stepname ? p->stepname : "");
	e->title = strdup(c->title ? c->title : c->id ? c->id : "");
	if (!e->step || !e->title) {
		free(e->step);
		free(e->title);
		file_error(p, "index.csv", ENOMEM);
		return;
	}
	p->n++;
	write_files(p, c, e->name);
	write_links(p, f, e->name);
}

/* rsvg-convert -z 2 NAME.svg > NAME.png, the PNG opened here by
 * dev/safety's rule (open_file) and given as the child's stdout: 0,
 * -ENOENT when it is not installed, -EIO when it fails (the error in @p). */
static int rasterise(struct chartpub *p, const char *name)
{
	size_t l = strlen(p->dir) + strlen(name) + 8;
	char *svg = malloc(l), png[NAME_LEN + 8];
	posix_spawn_file_actions_t fa;
	int rc = -ENOMEM, st;
	pid_t pid;
	FILE *out = NULL;
	if (!svg)
		goto out;
	snprintf(svg, l, "%s/%s.svg", p->dir, name);
	snprintf(png, sizeof(png), "%s.png", name);
	rc = -EIO;
	if (!(out = open_file(p, png)))
		goto out;
	if ((rc = -posix_spawn_file_actions_init(&fa)))
		goto out;
	char *argv[] = {"rsvg-convert", "-z", "2", svg, NULL};
	rc = -posix_spawn_file_actions_adddup2(&fa, fileno(out), STDOUT_FILENO);
	if (!rc)
		rc = -posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		goto out;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			rc = -errno;
			goto out;
		}
	rc = WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
	if (rc)
		file_error_msg(p, png, EIO, "rsvg-convert failed");
out:
	if (out)
		close_file(p, out, png);
	if (rc == -ENOENT)
		unlinkat(p->dfd, png, 0); /* no rsvg-convert: no empty PNG */
	free(svg);
	return rc;
}

static void rasterise_all(struct chartpub *p, char *note, size_t notelen)
{
	for (size_t i = 0; i < p->n; i++) {
		int rc = rasterise(p, p->e[i].name);
		if (rc == -ENOENT) {
			snprintf(note, notelen,
				 "PNGs skipped: rsvg-convert not found (Debian package "
				 "librsvg2-bin)");
			return;
		}
		if (rc && !p->err) {
			char fn[NAME_LEN + 8];
			snprintf(fn, sizeof(fn), "%s.png", p->e[i].name);
			file_error(p, fn, -rc);
		}
	}
}

static bool is_slug(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s);
}

static bool listed(const struct chartpub *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].name, name))
			return true;
	return false;
}

static void unlink_kinds(const struct chartpub *p, const char *name, unsigned kinds)
{
	static const char *const ext[] = {"svg", "png", "csv"};
	char fn[NAME_LEN + 8];
	for (unsigned k = 0; k < 3; k++)
		if (kinds & (1u << k)) {
			snprintf(fn, sizeof(fn), "%s.%s", name, ext[k]);
			unlinkat(p->dfd, fn, 0);
		}
}

/* The files of the previous report's index.csv that this one has not
 * written (a step renamed or gone, a kind no longer asked for). */
static void remove_stale(const struct chartpub *p)
{
	struct stat st;
	int fd = openat(p->dfd, "index.csv", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd); /* not ours: write_index() refuses it */
		return;
	}
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char line[NAME_LEN + 8];
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, ",\n")] = '\0';
		if (is_slug(line))
			unlink_kinds(p, line, listed(p, line) ? 0 : CHARTPUB_ALL);
	}
	fclose(f);
	for (size_t i = 0; i < p->n; i++)
		unlink_kinds(p, p->e[i].name, ~p->kinds & CHARTPUB_ALL);
}

static void write_index(struct chartpub *p)
{
	FILE *f = open_file(p, "index.csv");
	if (!f)
		return;
	fputs("name,step,title,svg,png,csv\n", f);
	for (size_t i = 0; i < p->n; i++) {
		const struct entry *e = &p->e[i];
		fprintf(f, "%s,", e->name);
		svg_csv_field(f, e->step);
		fputc(',', f);
		svg_csv_field(f, e->title);
		fprintf(
		    f, ",%s%s,%s%s,%s%s\n", p->kinds & CHARTPUB_SVG ? e->name : "",
		    p->kinds & CHARTPUB_SVG ? ".svg" : "", p->kinds & CHARTPUB_PNG ? e->name : "",
		    p->kinds & CHARTPUB_PNG ? ".png" : "", p->kinds & CHARTPUB_CSV ? e->name : "",
		    p->kinds & CHARTPUB_CSV ? ".csv" : "");
	}
	close_file(p, f, "index.csv");
}

int chartpub_finish(struct chartpub *p, char *note, size_t notelen, char *err, size_t errlen)
{
	if (p->kinds & CHARTPUB_PNG)
		rasterise_all(p, p->note, sizeof(p->note));
	if (p->note[0]) /* no PNG made: none listed, old ones removed */
		p->kinds &= ~(unsigned)CHARTPUB_PNG;
	remove_stale(p);
	write_index(p);
	snprintf(note, notelen, "%s", p->note);
	if (p->err)
		snprintf(err, errlen, "%s", p->errmsg);
	return p->err;
}

size_t chartpub_count(const struct chartpub *p)
{
	return p ? p->n : 0;
}

void chartpub_free(struct chartpub *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->e[i].step);
		free(p->e[i].title);
	}
	free(p->e);
	free(p->stepname);
	if (p->dfd >= 0)
		close(p->dfd);
	free(p->dir);
	free(p->href);
	free(p);
}
