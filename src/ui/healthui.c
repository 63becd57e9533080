/* healthui.c - the per-drive health view (see healthui.h).  A reading (on
 * open, `r`) runs on a thread of its own: dev_health_read (the SMART /
 * health log, decoded with its validity flags), nvs_nvme_error_log and
 * nvs_nvme_selftest_status are admin commands that block for the kernel's
 * timeout on a stalled drive, and the console must go on drawing (and be
 * closed) meanwhile.  What the thread read is handed over through one
 * atomic state (release/acquire); a view closed first leaves the reading
 * to the thread, which frees it.  The lines are made from it once, then
 * only drawn: a line wider than the screen is cut with a marker
 * (devrows_fit), the lines out of sight are counted in the title bar. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check/judge.h"
#include "dev/nvme.h"
#include "ui/app.h"
#include "ui/healthui.h"

#define HU_LINES 96 /* more than the fields, 8 sensors and 8 warning bits need */
#define HU_LABEL 32 /* label column: values start at the same place */

struct hline {
	char text[256];
	int role;
};

/* One reading, made by its own thread (reader) and handed over at
 * HR_DONE; HR_LEFT: the view closed first, the thread frees it. */
enum { HR_READING, HR_DONE, HR_LEFT };
struct hread {
	char path[256];
	struct dev_health h;
	int hrc;
	char herr[160];
	struct nvs_errlog e;
	int erc;
	char eerr[160];
	struct nvs_selftest s;
	int src;
	char serr[160];
	_Atomic int state;
};

struct healthui {
	struct hread *rd; /* a reading under way, NULL when none */
	time_t rd_t0;	  /* when it began */
	int rd_shown;	  /* the seconds it had taken when last drawn */
	char path[256];	  /* the controller's node (NVMe), else the row's path */
	char name[64], model[64], serial[32], firmware[16];
	bool nvme;
	char when[16]; /* the time of the reading, HH:MM:SS */
	struct hline line[HU_LINES];
	int n, top;
	WINDOW *win;
};

static void add(struct healthui *u, int role, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A line "@label   value" (the label padded to the value column). */
static void add(struct healthui *u, int role, const char *label, const char *fmt, ...)
{
	char v[200];
	va_list ap;
	if (u->n >= HU_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	struct hline *l = &u->line[u->n++];
	snprintf(l->text, sizeof(l->text), "%-*.*s %s", HU_LABEL, HU_LABEL, label, v);
	l->role = role;
}

/* A line of text without a label. */
static void add_text(struct healthui *u, int role, const char *text)
{
	if (u->n >= HU_LINES)
		return;
	snprintf(u->line[u->n].text, sizeof(u->line[0].text), "%s", text);
	u->line[u->n++].role = role;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

/* The critical warning, then each set bit's label on a line of its own
 * (never a list cut at the screen's edge). */
static void add_warning(struct healthui *u, uint8_t cw)
{
	add(u, cw ? ROLE_ERROR : ROLE_OK, "Critical warning", "0x%02x%s", cw, cw ? "" : " (none)");
	for (unsigned b = 0; b < 8; b++) {
		const char *l = dev_cw_label(b);
		if (!(cw & (1u << b)))
			continue;
		char lab[24];
		snprintf(lab, sizeof(lab), "  bit %u", b);
		if (l)
			add(u, ROLE_ERROR, lab, "%s", l);
		else
			add(u, ROLE_ERROR, lab, "reserved bit %u", b);
	}
}

static void add_temps(struct app *a, struct healthui *u, const struct dev_health *h)
{
	const char *deg = a->paint.ascii ? "C"
					 : "\xc2\xb0"
					   "C";
	if (h->temperature_valid)
		add(u, ROLE_NORMAL, "Composite temperature", "%.0f %s", h->temperature_c, deg);
	else
		add(u, ROLE_DIM, "Composite temperature", "N/A");
	for (int i = 0; i < DEV_MAX_SENSORS; i++) {
		char lab[32];
		if (!h->sensor_valid[i])
			continue; /* as smart-log: the sensors the drive reports */
		snprintf(lab, sizeof(lab), "Temperature sensor %d", i + 1);
		add(u, ROLE_NORMAL, lab, "%.0f %s", h->sensors_c[i], deg);
	}
}

/* An optional 32-bit counter: N/A when the drive does not report it. */
static void add_opt(struct healthui *u, const char *label, uint32_t v, bool valid, const char *unit)
{
	if (valid)
		add(u, ROLE_NORMAL, label, "%u%s", v, unit);
	else
		add(u, ROLE_DIM, label, "N/A");
}

static void add_counts(struct healthui *u, const struct dev_health *h)
{
	add(u, ROLE_NORMAL, "Data units read", "%llu (%.3f TB)", ull(h->data_units_read),
	    dev_units_to_tb(h->data_units_read));
	add(u, ROLE_NORMAL, "Data units written", "%llu (%.3f TB)", ull(h->data_units_written),
	    dev_units_to_tb(h->data_units_written));
	add(u, ROLE_NORMAL, "Host read commands", "%llu", ull(h->host_read_commands));
	add(u, ROLE_NORMAL, "Host write commands", "%llu", ull(h->host_write_commands));
	add(u, ROLE_NORMAL, "Controller busy time", "%llu min", ull(h->ctrl_busy_minutes));
	add(u, ROLE_NORMAL, "Power cycles", "%llu", ull(h->power_cycles));
	add(u, ROLE_NORMAL, "Power-on hours", "%llu", ull(h->power_on_hours));
	add(u, ROLE_NORMAL, "Unsafe shutdowns", "%llu", ull(h->unsafe_shutdowns));
	add(u, h->media_errors ? ROLE_WARN : ROLE_NORMAL, "Media and data integrity errors", "%llu",
	    ull(h->media_errors));
	add(u, ROLE_NORMAL, "Error log entries (SMART)", "%llu", ull(h->error_log_entries));
	add_opt(u, "Warning temperature time", h->warning_temp_minutes, h->warning_temp_valid,
		" min");
	add_opt(u, "Critical temperature time", h->critical_temp_minutes, h->critical_temp_valid,
		" min");
	add_opt(u, "Thermal mgmt T1 transitions", h->thm_trans_count[0], h->thm_valid, "");
	add_opt(u, "Thermal mgmt T2 transitions", h->thm_trans_count[1], h->thm_valid, "");
	add_opt(u, "Thermal mgmt T1 total time", h->thm_total_seconds[0], h->thm_valid, " s");
	add_opt(u, "Thermal mgmt T2 total time", h->thm_total_seconds[1], h->thm_valid, " s");
}

static void add_smart(struct app *a, struct healthui *u, const struct dev_health *h)
{
	bool low = h->avail_spare < h->spare_thresh;
	add_warning(u, h->critical_warning);
	add_temps(a, u, h);
	add(u, low ? ROLE_ERROR : ROLE_NORMAL, "Available spare", "%u%% (threshold %u%%%s)",
	    h->avail_spare, h->spare_thresh, low ? ": below" : "");
	add(u, h->percent_used >= 100 ? ROLE_WARN : ROLE_NORMAL, "Percentage used", "%u%%",
	    h->percent_used);
	add_counts(u, h);
}

static void add_errlog(struct healthui *u, const struct hread *r)
{
	const struct nvs_errlog e = r->e;
	if (r->erc) {
		add(u, ROLE_DIM, "Error log page", "N/A (%s)", r->eerr);
		return;
	}
	add(u, e.used ? ROLE_WARN : ROLE_NORMAL, "Error log page entries", "%u of %u used", e.used,
	    e.capacity);
	if (!e.newest_count)
		return;
	add(u, ROLE_WARN, "  newest", "error count %llu, status 0x%x (%s)", ull(e.newest_count),
	    e.newest_status, nvs_nvme_status_str(e.newest_status));
	add(u, ROLE_WARN, "  newest at", "SQ %u, NSID %u, LBA %llu", e.newest_sqid, e.newest_nsid,
	    ull(e.newest_lba));
}

static const char *test_name(unsigned code)
{
	return code == 1 ? "short" : code == 2 ? "extended" : code == 0xe ? "vendor" : "other";
}

static void add_selftest(struct healthui *u, const struct hread *r)
{
	const struct nvs_selftest s = r->s;
	if (r->src) {
		add(u, ROLE_DIM, "Self-test", "N/A (%s)", r->serr);
		add(u, ROLE_DIM, "Most recent self-test", "N/A");
		return;
	}
	if (!s.supported)
		add(u, ROLE_DIM, "Self-test", "not supported (OACS)");
	else if (s.running)
		add(u, ROLE_WARN, "Self-test", "%s test running, %u%%", test_name(s.running_op),
		    s.percent);
	else
		add(u, ROLE_NORMAL, "Self-test", "none running");
	if (!s.have_last)
		add(u, ROLE_DIM, "Most recent self-test", "N/A (none in the log)");
	else
		add(u, s.last_result ? ROLE_ERROR : ROLE_OK, "Most recent self-test",
		    "%s: %s (at %llu power-on hours)", test_name(s.last_code),
		    judge_selftest_result_name(s.last_result), ull(s.last_poh));
}

/* The reading thread: the admin commands, then the hand-over. */
static void *reader(void *arg)
{
	struct hread *r = arg;
	int st = 0;
	r->hrc = dev_health_read(r->path, &r->h, NULL, r->herr, sizeof(r->herr));
	r->erc = nvs_nvme_error_log(r->path, &r->e, &st, r->eerr, sizeof(r->eerr));
	r->src = nvs_nvme_selftest_status(r->path, &r->s, &st, r->serr, sizeof(r->serr));
	int want = HR_READING;
	if (!atomic_compare_exchange_strong_explicit(&r->state, &want, HR_DONE,
						     memory_order_acq_rel, memory_order_acquire))
		free(r); /* the view closed while it read: nobody else holds it */
	return NULL;
}

/* The lines every reading begins with: who the drive is. */
static void head_lines(struct healthui *u)
{
	time_t now = time(NULL);
	struct tm tm;
	strftime(u->when, sizeof(u->when), "%H:%M:%S", localtime_r(&now, &tm));
	u->n = 0;
	add(u, ROLE_HEADER, "Device", "%s (%s)", u->name, u->path);
}

/* The lines of a finished reading. */
static void read_lines(struct app *a, struct healthui *u, const struct hread *r)
{
	head_lines(u);
	add(u, ROLE_HEADER, "Serial", "%s", u->serial);
	add(u, ROLE_NORMAL, "Model", "%s", u->model);
	add(u, ROLE_NORMAL, "Firmware", "%s", u->firmware);
	if (r->hrc)
		add(u, ROLE_ERROR, "SMART / health log", "cannot be read: %s", r->herr);
	else
		add_smart(a, u, &r->h);
	add_errlog(u, r);
	add_selftest(u, r);
}

/* While a reading goes on: who, and for how long (a stalled drive shows
 * as a reading that does not end; the view still closes). */
static void waiting_lines(struct healthui *u)
{
	int secs = (int)(time(NULL) - u->rd_t0);
	char t[160];
	head_lines(u);
	snprintf(t, sizeof(t), "Reading the health log%s (%d s)...",
		 secs >= 3 ? ": the drive has not answered yet" : "", secs);
	add_text(u, secs >= 3 ? ROLE_WARN : ROLE_DIM, t);
	u->rd_shown = secs;
}

/* Starts a reading (not NVMe: says so at once).  -errno when its thread
 * could not start (said on the screen). */
static int load(struct app *a, struct healthui *u)
{
	(void)a;
	if (!u->nvme) {
		char t[256];
		head_lines(u);
		snprintf(t, sizeof(t), "No NVMe health for %.200s: it is not an NVMe device.",
			 u->path);
		add_text(u, ROLE_WARN, t);
		add_text(
		    u, ROLE_DIM,
		    "A loop device, a file or another block device has no SMART / health log.");
		return 0;
	}
	struct hread *r = calloc(1, sizeof(*r));
	pthread_t th;
	pthread_attr_t at;
	int rc = r ? 0 : ENOMEM;
	if (r) {
		snprintf(r->path, sizeof(r->path), "%s", u->path);
		atomic_init(&r->state, HR_READING);
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		rc = pthread_create(&th, &at, reader, r);
		pthread_attr_destroy(&at);
	}
	if (rc) {
		free(r);
		head_lines(u);
		add(u, ROLE_ERROR, "SMART / health log", "not read: %s", strerror(rc));
		return -rc;
	}
	u->rd = r;
	u->rd_t0 = time(NULL);
	waiting_lines(u);
	return 0;
}

/* Who the row under the cursor is: its controller for NVMe rows. */
static void identify(struct app *a, const struct devrow *r, struct healthui *u)
{
	const struct dev_ctrl *c = NULL;
	u->nvme = r->nvme;
	snprintf(u->path, sizeof(u->path), "%s", r->nvme && r->depth ? r->ctrl : r->path);
	if (r->nvme && a->dev.devs)
		c = dev_list_find_nvme(a->dev.devs, u->path, NULL);
	snprintf(u->name, sizeof(u->name), "%s", c ? c->name : r->name);
	snprintf(u->model, sizeof(u->model), "%s", c ? c->model : r->model);
	snprintf(u->serial, sizeof(u->serial), "%s", c ? c->serial : r->serial);
	snprintf(u->firmware, sizeof(u->firmware), "%s", c ? c->firmware : r->firmware);
}

int healthui_open(struct app *a)
{
	if (a->dev.dev_cur < 0 || a->dev.dev_cur >= a->dev.ndrows) {
		app_message(a, ROLE_WARN,
			    a->dev.devs ? "no device under the cursor"
					: "scanning for devices: a moment");
		return -ENOENT;
	}
	if (app_remote_row(a, &a->dev.drows[a->dev.dev_cur], "the health view"))
		return -EREMOTE;
	struct healthui *u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	identify(a, &a->dev.drows[a->dev.dev_cur], u);
	load(a, u);
	a->vw.hui = u;
	app_dirty_all(a);
	return 0;
}

bool healthui_active(const struct app *a)
{
	return a->vw.hui != NULL;
}

/* Gives a reading under way to its thread (or frees a finished one). */
static void drop_read(struct healthui *u)
{
	int want = HR_READING;
	if (u->rd && !atomic_compare_exchange_strong_explicit(
			 &u->rd->state, &want, HR_LEFT, memory_order_acq_rel, memory_order_acquire))
		free(u->rd); /* done: ours to free */
	u->rd = NULL;
}

void healthui_tick(struct app *a)
{
	struct healthui *u = a->vw.hui;
	if (!u || !u->rd)
		return;
	if (atomic_load_explicit(&u->rd->state, memory_order_acquire) == HR_DONE) {
		read_lines(a, u, u->rd);
		free(u->rd);
		u->rd = NULL;
		app_dirty_all(a);
	} else if ((int)(time(NULL) - u->rd_t0) != u->rd_shown) {
		waiting_lines(u); /* the seconds it has taken */
		app_dirty_all(a);
	}
}

void healthui_free(struct app *a)
{
	struct healthui *u = a->vw.hui;
	if (!u)
		return;
	drop_read(u);
	if (u->win)
		delwin(u->win);
	free(u);
	a->vw.hui = NULL;
}

/* Rows of the list: between the title bar and the key line. */
static int body_rows(int rows)
{
	return rows - 2 > 1 ? rows - 2 : 1;
}

/* Scrolls @u by @d lines, clamped to a list of @rows rows. */
static void scroll_rows(struct healthui *u, int rows, int d)
{
	int max = u->n - body_rows(rows) > 0 ? u->n - body_rows(rows) : 0;
	long t = (long)u->top + d;
	u->top = t < 0 ? 0 : t > max ? max : (int)t;
}

bool healthui_key(struct app *a, int ch, bool is_key)
{
	struct healthui *u = a->vw.hui;
	int k = is_key ? -ch : ch,
	    page = body_rows(a->scr.rows) - 1 > 1 ? body_rows(a->scr.rows) - 1 : 1;
	if (!u)
		return false;
	if (k == 27 || k == 'q' || k == 'H') {
		healthui_free(a);
		app_dirty_all(a);
		return true;
	}
	if (k == 'r' && u->rd)
		app_message(a, ROLE_WARN, "the health log is still being read");
	else if (k == 'r')
		load(a, u);
	else if (k == 'j' || k == -KEY_DOWN)
		scroll_rows(u, a->scr.rows, 1);
	else if (k == 'k' || k == -KEY_UP)
		scroll_rows(u, a->scr.rows, -1);
	else if (k == 'J' || k == ' ' || k == -KEY_NPAGE)
		scroll_rows(u, a->scr.rows, page);
	else if (k == 'K' || k == -KEY_PPAGE)
		scroll_rows(u, a->scr.rows, -page);
	else if (k == 'g' || k == -KEY_HOME)
		u->top = 0;
	else if (k == 'G' || k == -KEY_END)
		scroll_rows(u, a->scr.rows, HU_LINES);
	app_dirty_all(a);
	return true; /* the view takes every key */
}

/* The title bar: the device on the left, the lines out of sight on the
 * right ("^3 v12 more (k j)"), as the per-QD table counts its rows. */
static void draw_title(struct paint *pa, WINDOW *w, int cols, struct healthui *u, int below)
{
	char right[64] = "", up[24] = "", down[24] = "", left[512], fit[1024];
	if (u->top)
		snprintf(up, sizeof(up), "%s%d ", pa->ascii ? "^" : "\xe2\x86\x91", u->top);
	if (below)
		snprintf(down, sizeof(down), "%s%d ", pa->ascii ? "v" : "\xe2\x86\x93", below);
	if (u->top || below)
		snprintf(right, sizeof(right), "%s%smore (k j) ", up, down);
	draw_fill(pa, w, 0, ROLE_TITLE);
	int rw = draw_width(right), lw = cols - rw - 1;
	snprintf(left, sizeof(left), " Health of %s%s%s", u->name, u->serial[0] ? ", serial " : "",
		 u->serial);
	if (lw > 4) {
		devrows_fit(fit, sizeof(fit), left, lw, pa->ascii);
		draw_str(pa, w, 0, 0, lw, ROLE_TITLE, fit);
	}
	if (rw)
		draw_str(pa, w, 0, cols - rw, rw, ROLE_TITLE, right);
}

void healthui_draw(struct healthui *u, struct paint *pa, const struct ui_screen *scr)
{
	if (!u)
		return;
	WINDOW *w = draw_screen(pa, &u->win);
	if (!w)
		return;
	int body = body_rows(scr->rows);
	scroll_rows(u, scr->rows, 0); /* a resize may have moved the last page */
	int below = u->n - u->top - body > 0 ? u->n - u->top - body : 0;
	draw_title(pa, w, scr->cols, u, below);
	char fit[1024];
	for (int i = 0; i < body && u->top + i < u->n; i++) {
		const struct hline *l = &u->line[u->top + i];
		devrows_fit(fit, sizeof(fit), l->text, scr->cols - 2,
			    pa->ascii); /* a cut is marked */
		draw_str(pa, w, 1 + i, 1, scr->cols - 2, l->role, fit);
	}
	char keys[128];
	snprintf(keys, sizeof(keys), "Esc q close  r re-read (read %s)  k j Up Down PgUp PgDn g G",
		 u->when);
	draw_fill(pa, w, scr->rows - 1, ROLE_STATUS);
	devrows_fit(fit, sizeof(fit), keys, scr->cols, pa->ascii);
	draw_str(pa, w, scr->rows - 1, 0, scr->cols, ROLE_STATUS, fit);
	wnoutrefresh(w);
}
