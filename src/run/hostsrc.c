/* hostsrc.c - the hosts a console watches (declared in source.h): one
 * `nvscope agent` over ssh per host (run/remote.h), kept connected with
 * heartbeats, its drives and their health listed every HOSTSRC_LIST_S,
 * its clock offset estimated from the round trips; a host that stops
 * answering is lost within the heartbeat deadline and tried again on its
 * own, each change said once as an event (docs/hosts.md, "The console").
 *
 * Everything runs on the caller's thread and never blocks: source_hosts_poll
 * polls every host's pipes with no wait; a lost host's ssh is killed
 * (SIGKILL, reaped at once), never waited for. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "dev/devmodel.h"
#include "run/remote.h"
#include "run/source.h"

#define HOSTSRC_LIST_S	  10.0 /* the drives and their health listed again */
#define HOSTSRC_RETRY_S	  2.0  /* the first new try after a loss; doubled to ... */
#define HOSTSRC_RETRY_MAX 10.0 /* ... at most this */
#define HOSTSRC_EVENTS	  256  /* events kept for the console (older ones dropped, counted) */

struct host {
	char *name;
	struct remote *r; /* NULL between tries */
	enum source_host_state st;
	char *why;	       /* LOST: the one line */
	struct dev_list *devs; /* as last listed (kept while lost) */
	double t_state;	       /* when st last changed */
	double t_next;	       /* the next try (no r) or the next listing (UP) */
	double retry;	       /* the wait before the next try */
	double t_lost;	       /* when it was lost (for "back after N s") */
	bool ever_up, said_fail;
	bool listing;	     /* a listing asked, its reply not taken */
	bool said_list_fail; /* its listing's failure said (once until one works) */
	bool clk;
	double offset, rtt;
	char version[64];
};

struct source_hosts {
	struct host *h;
	size_t n;
	struct remote_opts o;
	struct source_host_event ev[HOSTSRC_EVENTS];
	size_t ev_head, ev_n, ev_dropped;
	char *ev_out; /* the line handed out last */
};

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void event(struct source_hosts *s, bool bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void event(struct source_hosts *s, bool bad, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;

	va_start(ap, fmt);
	int rc = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return;			 /* out of memory: the state shown still says it */
	if (s->ev_n == HOSTSRC_EVENTS) { /* the oldest goes, counted */
		free(s->ev[s->ev_head].text);
		s->ev_head = (s->ev_head + 1) % HOSTSRC_EVENTS;
		s->ev_n--;
		s->ev_dropped++;
	}
	s->ev[(s->ev_head + s->ev_n++) % HOSTSRC_EVENTS] = (struct source_host_event){line, bad};
}

static void set_state(struct host *h, enum source_host_state st, double now)
{
	if (h->st != st)
		h->t_state = now;
	h->st = st;
}

static void set_why(struct host *h, const char *why)
{
	if (why && !strncmp(why, "lost: ", 6)) /* said by the state: "LOST", "lost:" */
		why += 6;
	char *w = strdup(why && why[0] ? why : "no reason given");
	if (w) {
		free(h->why);
		h->why = w;
	}
}

/* Asks @h for its drives and their health. */
static void ask_list(struct host *h)
{
	cJSON *p = cJSON_CreateObject();

	if (!p || !cJSON_AddStringToObject(p, "format", "json") ||
	    !cJSON_AddBoolToObject(p, "health", true)) {
		cJSON_Delete(p); /* out of memory: asked again at the next listing */
		return;
	}
	if (!remote_request(h->r, "list", p)) /* @p taken either way */
		h->listing = true;
}

/* A new try: ssh started, the hello sent, the listing queued behind it (a
 * start that failed leaves @h's remote FAILED: poll_host says why). */
static void try_host(struct source_hosts *s, struct host *h, double now)
{
	char err[512];

	if (!(h->r = remote_new(h->name, &s->o, err, sizeof(err)))) {
		set_why(h, err);
		h->t_next = now + h->retry;
		return;
	}
	if (!remote_start(h->r))
		ask_list(h);
	if (h->st != SOURCE_HOST_LOST)
		set_state(h, SOURCE_HOST_CONNECTING, now);
}

/* @h's ssh failed: lost (or not reached yet), said once, tried again later. */
static void host_failed(struct source_hosts *s, struct host *h, double now)
{
	set_why(h, remote_error(h->r));
	remote_abort(h->r);
	h->r = NULL;
	h->clk = h->listing = false;
	if (h->st == SOURCE_HOST_UP) {
		h->t_lost = now;
		event(s, true, "%s: lost: %s", h->name, h->why);
	} else if (!h->said_fail) {
		event(s, true, "%s: %s (trying again)", h->name, h->why);
	}
	h->said_fail = true;
	if (h->st == SOURCE_HOST_UP || h->st == SOURCE_HOST_CONNECTING) {
		if (h->st == SOURCE_HOST_CONNECTING && !h->ever_up)
			h->t_lost = now;
		set_state(h, SOURCE_HOST_LOST, now);
		h->retry = HOSTSRC_RETRY_S;
	} else {
		h->retry = fmin(h->retry * 2, HOSTSRC_RETRY_MAX);
	}
	h->t_next = now + h->retry;
}

/* The hello came: up (again). */
static void host_up(struct source_hosts *s, struct host *h, double now)
{
	const struct proto_msg *hello = remote_hello(h->r);

	snprintf(h->version, sizeof(h->version), "%s", hello && hello->str ? hello->str : "?");
	if (h->st == SOURCE_HOST_LOST && h->ever_up)
		event(s, false, "%s: back after %.0f s (reconnected)", h->name, now - h->t_lost);
	else if (h->said_fail)
		event(s, false, "%s: connected after %.0f s (nvscope %s)", h->name, now - h->t_lost,
		      h->version);
	else
		event(s, false, "%s: connected (nvscope %s)", h->name, h->version);
	h->ever_up = true;
	h->said_fail = false;
	h->retry = HOSTSRC_RETRY_S;
	set_state(h, SOURCE_HOST_UP, now);
}

/* The listing's reply: the drives (kept as they were when it failed). */
static void host_listed(struct source_hosts *s, struct host *h, double now)
{
	const struct proto_msg *m = remote_reply(h->r);
	char err[256];
	struct dev_list *l = NULL;

	if (m && m->status == 0)
		l = dev_list_from_json(cJSON_GetObjectItemCaseSensitive(m->body, "devices"), err,
				       sizeof(err));
	else
		snprintf(err, sizeof(err), "%s", m && m->str ? m->str : "no answer");
	if (l) {
		dev_list_free(h->devs);
		h->devs = l;
		h->said_list_fail = false;
	} else if (!h->said_list_fail) { /* asked again every 10 s: said once */
		event(s, true, "%s: listing its drives failed: %s", h->name, err);
		h->said_list_fail = true;
	}
	h->t_next = now + HOSTSRC_LIST_S;
}

static void poll_host(struct source_hosts *s, struct host *h, double now)
{
	enum remote_state rs = remote_state(h->r);
	double off, rtt;

	if (rs == REMOTE_FAILED) {
		host_failed(s, h, now);
		return;
	}
	if (h->st != SOURCE_HOST_UP && remote_hello(h->r))
		host_up(s, h, now);
	if (rs == REMOTE_DONE && h->listing) {
		h->listing = false;
		host_listed(s, h, now);
	} else if (!h->listing && (rs == REMOTE_DONE || rs == REMOTE_READY) && now >= h->t_next) {
		ask_list(h);
	}
	if (remote_clock(h->r, &off, &rtt)) {
		h->clk = true;
		h->offset = off;
		h->rtt = rtt;
	}
}

struct source_hosts *source_hosts_new(const char *const *dests, size_t n,
				      const struct remote_opts *o, char *err, size_t len)
{
	struct source_hosts *s = calloc(1, sizeof(*s));

	if (!s || !(s->h = calloc(n ? n : 1, sizeof(*s->h))))
		goto nomem;
	s->n = n;
	s->o = *o;
	s->o.keepalive = true;
	if (!s->o.lost_ns) /* the console's deadline: lost within 5 s of a cut */
		s->o.lost_ns = 3 * NVS_NSEC_PER_SEC;
	for (size_t i = 0; i < n; i++) {
		if (!(s->h[i].name = strdup(dests[i])))
			goto nomem;
		s->h[i].retry = HOSTSRC_RETRY_S;
		s->h[i].st = SOURCE_HOST_CONNECTING;
	}
	return s;
nomem:
	snprintf(err, len, "out of memory");
	source_hosts_free(s);
	return NULL;
}

void source_hosts_poll(struct source_hosts *s)
{
	double now = mono_s();
	struct remote *rs[64];
	size_t k = 0;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct host *h = &s->h[i];
		if (!h->r && now >= h->t_next)
			try_host(s, h, now);
	}
	/* every host's pipes at once, in groups of what fits the array */
	for (size_t i = 0; i < s->n; i++) {
		if (s->h[i].r)
			rs[k++] = s->h[i].r;
		if (k == NVS_ARRAY_SIZE(rs) || (i + 1 == s->n && k)) {
			remote_poll(rs, k, 0, NULL, NULL);
			k = 0;
		}
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->h[i].r)
			poll_host(s, &s->h[i], now);
}

size_t source_hosts_count(const struct source_hosts *s)
{
	return s ? s->n : 0;
}

void source_hosts_get(const struct source_hosts *s, size_t i, struct source_host *out)
{
	const struct host *h = &s->h[i];

	*out = (struct source_host){
	    .name = h->name,
	    .state = h->st,
	    .why = h->st == SOURCE_HOST_LOST && h->why ? h->why : "",
	    .version = h->version,
	    .devs = h->devs,
	    .since = mono_s() - h->t_state,
	    .clock_valid = h->clk && h->st == SOURCE_HOST_UP,
	    .offset_s = h->offset,
	    .rtt_s = h->rtt,
	};
}

bool source_hosts_event(struct source_hosts *s, struct source_host_event *ev)
{
	free(s ? s->ev_out : NULL);
	if (s && s->ev_dropped) { /* never silent: the ring's oldest went */
		s->ev_out = NULL;
		if (asprintf(&s->ev_out, "hosts: %zu older events not shown (%d kept)",
			     s->ev_dropped, HOSTSRC_EVENTS) < 0)
			s->ev_out = NULL;
		s->ev_dropped = 0;
		if (s->ev_out) {
			*ev = (struct source_host_event){s->ev_out, true};
			return true;
		}
	}
	if (!s || !s->ev_n) {
		if (s)
			s->ev_out = NULL;
		return false;
	}
	*ev = s->ev[s->ev_head];
	s->ev_out = ev->text;
	s->ev_head = (s->ev_head + 1) % HOSTSRC_EVENTS;
	s->ev_n--;
	return true;
}

void source_hosts_free(struct source_hosts *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->h && i < s->n; i++) {
		remote_abort(s->h[i].r);
		dev_list_free(s->h[i].devs);
		free(s->h[i].why);
		free(s->h[i].name);
	}
	for (size_t i = 0; i < s->ev_n; i++)
		free(s->ev[(s->ev_head + i) % HOSTSRC_EVENTS].text);
	free(s->ev_out);
	free(s->h);
	free(s);
}
