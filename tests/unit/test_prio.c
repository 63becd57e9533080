/* test_prio.c - fio's I/O priority options (io/feat/prio.c): parsing and refusals,
 * the io_uring backend putting the ioprio in the SQE, and the per-I/O pick
 * (cmdprio_percentage's share within a statistical bound, cmdprio_bssplit's
 * entries by block size). */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/backend.h"
#include "io/feat/prio.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/target.h"
#include "report/json.h"
#include "stats/result.h"

/* @s's priorities resolved (io/feat/prio.h: once per job in a worker) */
static struct prio_plan plan_;
static const struct prio_plan *P(const struct spec *s)
{
	prio_resolve(&s->prio, &plan_);
	return &plan_;
}

static int set(struct spec *s, const char *k, const char *v)
{
	char err[256] = "";
	int rc = opt_set(s, k, v, err, sizeof(err));
	if (rc)
		ck_assert_ptr_nonnull(strstr(err, k)); /* the message names the option */
	return rc;
}

START_TEST(test_parse)
{
	struct spec s;

	spec_init(&s);
	ck_assert_uint_eq(P(&s)->dflt, 0);
	ck_assert(!prio_active(&s));
	ck_assert_int_eq(set(&s, "prio", "7"), 0);
	ck_assert_uint_eq(P(&s)->dflt, (2 << 13) | 7); /* no class: best effort (fio) */
	ck_assert_int_eq(set(&s, "prioclass", "3"), 0);
	ck_assert_uint_eq(P(&s)->dflt, (3 << 13) | 7);
	ck_assert(prio_active(&s));
	const char *bad[][2] = {{"prio", "8"},
				{"prio", "-1"},
				{"prio", "nan"},
				{"prioclass", "4"},
				{"prioclass", ""},
				{"cmdprio_percentage", "101"},
				{"cmdprio_percentage", "inf"},
				{"cmdprio_percentage", "1e2"},
				{"cmdprio_class", "0"},
				{"cmdprio_class", "4"},
				{"cmdprio", "8"},
				{"cmdprio", "99999999999999999999"},
				{"cmdprio_bssplit", "64k/101"},
				{"cmdprio_bssplit", "64k/50/1"},
				{"cmdprio_bssplit", "64k/50/4/0"},
				{"cmdprio_bssplit", "64k/50/1/8"},
				{"cmdprio_bssplit", "64k/60:64k/50"},
				{"cmdprio_bssplit", "x/10"},
				{"log_prio", "2"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(set(&s, bad[i][0], bad[i][1]) == -EINVAL, "%s=%s accepted", bad[i][0],
			      bad[i][1]);
	ck_assert_uint_eq(P(&s)->dflt, (3 << 13) | 7); /* refusals change nothing */

	spec_init(&s);
	ck_assert_int_eq(set(&s, "cmdprio_percentage", "20"), 0);
	ck_assert_uint_eq(P(&s)->cmd_mode, PRIO_CMD_PERC);
	ck_assert_uint_eq(s.prio.pct[0], 20);
	ck_assert_uint_eq(s.prio.pct[1], 20);
	ck_assert_uint_eq(P(&s)->cmd[0], 1 << 13); /* fio: RT by default */
	ck_assert_int_eq(set(&s, "cmdprio_class", "3,2"), 0);
	ck_assert_int_eq(set(&s, "cmdprio", ",5"), 0);
	ck_assert_uint_eq(P(&s)->cmd[0], 3 << 13);
	ck_assert_uint_eq(P(&s)->cmd[1], (2 << 13) | 5);
	ck_assert_uint_eq(P(&s)->dflt, 0);

	/* fio's cmdprio-bssplit.fio: sorted by size, zero entries dropped, an
	 * entry's own class/level or cmdprio's, a fifth (hint) field ignored */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", "1024k/0:64k/25/1/1:64k/75/3/2/9,1024k/0"), 0);
	ck_assert_uint_eq(P(&s)->cmd_mode, PRIO_CMD_BSSPLIT);
	ck_assert_uint_eq(s.prio.nsplit[0], 2);
	ck_assert_uint_eq(s.prio.nsplit[1], 0);
	ck_assert_uint_eq(P(&s)->val[0][P(&s)->split_idx[0][0]], (1 << 13) | 1);
	ck_assert_uint_eq(P(&s)->val[0][P(&s)->split_idx[0][1]], (3 << 13) | 2);
	/* fio's clat_prio order: the job's own first, then as met */
	ck_assert_uint_eq(P(&s)->nval[0], 3);
	ck_assert_uint_eq(P(&s)->val[0][0], 0);
	ck_assert_uint_eq(P(&s)->val[0][1], (1 << 13) | 1);
	ck_assert_uint_eq(P(&s)->val[0][2], (3 << 13) | 2);
	ck_assert_uint_eq(P(&s)->nval[1], 1);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", "64k/100"), 0);
	ck_assert_uint_eq(s.prio.nsplit[1], 1);
	ck_assert_uint_eq(P(&s)->val[1][P(&s)->split_idx[1][0]], 1 << 13);
	ck_assert_int_eq(set(&s, "cmdprio", "4"), 0); /* given later: still applies */
	ck_assert_uint_eq(P(&s)->val[1][P(&s)->split_idx[1][0]], (1 << 13) | 4);

	/* fio refuses both at once */
	char err[256];
	ck_assert_int_eq(set(&s, "cmdprio_percentage", "10"), 0);
	ck_assert_int_eq(opt_set(&s, "target", "/dev/null", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "cmdprio_bssplit"));

	ck_assert_int_eq(set(&s, "log_prio", "1"), 0);
	ck_assert(s.prio.log);
}
END_TEST

START_TEST(test_sqe)
{
	struct target t;
	struct io_uring_sqe sqe;
	char buf[4096];
	struct backend_io io = {.fd = 3,
				.buf = buf,
				.buf_index = -1,
				.len = 4096,
				.off = 8192,
				.dir = NVS_READ,
				.t = &t};

	memset(&t, 0, sizeof(t));
	t.kind = TARGET_BLOCK;
	memset(&sqe, 0xa5, sizeof(sqe));
	io.ioprio = (1 << 13) | 3;
	backend_io_uring.prep(&sqe, &io);
	ck_assert_uint_eq(sqe.ioprio, (1 << 13) | 3);
	memset(&sqe, 0xa5, sizeof(sqe));
	io.dir = NVS_WRITE;
	io.ioprio = prio_value(0, 7);
	backend_io_uring.prep(&sqe, &io);
	ck_assert_uint_eq(sqe.ioprio, (2 << 13) | 7);
	memset(&sqe, 0xa5, sizeof(sqe));
	io.ioprio = 0; /* none: the kernel's default */
	backend_io_uring.prep(&sqe, &io);
	ck_assert_uint_eq(sqe.ioprio, 0);
	io.buf_index = 0; /* registered buffers too */
	io.ioprio = 3 << 13;
	backend_io_uring.prep(&sqe, &io);
	ck_assert_uint_eq(sqe.ioprio, 3 << 13);
}
END_TEST

START_TEST(test_share)
{
	struct spec s;
	struct frand rng;
	unsigned hi = 0, n = 100000;

	frand_init(&rng, 12345, false);

	spec_init(&s);
	ck_assert_int_eq(set(&s, "prioclass", "2"), 0);
	ck_assert_int_eq(set(&s, "prio", "6"), 0);
	ck_assert_int_eq(set(&s, "cmdprio_percentage", "30"), 0);
	for (unsigned i = 0; i < n; i++) {
		uint16_t p =
		    prio_ioprio(P(&s), NVS_READ, prio_pick(&s.prio, P(&s), NVS_READ, 4096, &rng));
		if (p == 1 << 13)
			hi++;
		else
			ck_assert_uint_eq(p, (2 << 13) | 6);
	}
	/* binomial(1e5, 0.3): sd 145; 5 sd either side */
	ck_assert_msg(hi > 30000 - 725 && hi < 30000 + 725, "%u of %u", hi, n);
	ck_assert_uint_eq(prio_ioprio(P(&s), NVS_TRIM, 0), 0);

	/* bssplit: only the 64k I/Os, 25% + 75% of them */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1024k/0,1024k/0"), 0);
	unsigned c[2] = {0, 0};
	for (unsigned i = 0; i < n; i++) {
		uint16_t p =
		    prio_ioprio(P(&s), NVS_READ, prio_pick(&s.prio, P(&s), NVS_READ, 65536, &rng));
		ck_assert(p == ((1 << 13) | 1) || p == ((3 << 13) | 2));
		c[p >> 14]++; /* class 1 -> 0, class 3 -> 1 */
		ck_assert_uint_eq(prio_pick(&s.prio, P(&s), NVS_READ, 1 << 20, &rng), 0);
		ck_assert_uint_eq(P(&s)->val[NVS_READ][0], 0); /* none given */
		ck_assert_uint_eq(prio_pick(&s.prio, P(&s), NVS_WRITE, 65536, &rng), 0);
	}
	/* binomial(1e5, 0.25): sd 137 */
	ck_assert_msg(c[0] > 25000 - 685 && c[0] < 25000 + 685, "%u", c[0]);
}
END_TEST

/* fio's draw: rand_between(0, 99) from prio_state (seed slot
 * FIO_RAND_PRIO_CMDS of the job's thread), only for an I/O with a share */
START_TEST(test_fio_draw)
{
	struct spec s;
	struct frand f, ref;
	uint64_t seeds[FRAND_NSEEDS];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", "64k/40/1/1:64k/20/3/2,4k/10"), 0);
	frand_job_seeds(seeds, FRAND_DEFAULT_SEED, 2);
	frand_init(&ref, seeds[FRAND_PRIO], false);
	prio_seed(&f, &s, 2);
	ck_assert_mem_eq(&f, &ref, sizeof(f));
	for (unsigned i = 0; i < 1000; i++) {
		/* sizes and directions without a share draw nothing */
		ck_assert_uint_eq(prio_pick(&s.prio, P(&s), NVS_READ, 4096, &f), 0);
		ck_assert_uint_eq(prio_pick(&s.prio, P(&s), NVS_WRITE, 65536, &f), 0);
		ck_assert_uint_eq(prio_pick(&s.prio, P(&s), NVS_TRIM, 65536, &f), 0);
		ck_assert_mem_eq(&f, &ref, sizeof(f));
		/* 64k reads: 0..39 the first entry, 40..59 the second */
		unsigned r = (unsigned)frand_between(&ref, 0, 99);
		uint16_t p =
		    prio_ioprio(P(&s), NVS_READ, prio_pick(&s.prio, P(&s), NVS_READ, 65536, &f));
		ck_assert_uint_eq(p, r < 40 ? (1 << 13) | 1 : r < 60 ? (3 << 13) | 2 : 0);
		/* 4k writes: 10% of cmdprio_class/cmdprio's (RT, 0) */
		r = (unsigned)frand_between(&ref, 0, 99);
		p = prio_ioprio(P(&s), NVS_WRITE, prio_pick(&s.prio, P(&s), NVS_WRITE, 4096, &f));
		ck_assert_uint_eq(p, r < 10 ? 1 << 13 : 0);
	}
}
END_TEST

/* fio's JSON "prios" lists every priority a direction used: none is dropped.
 * nvscope keeps RESULT_MAX_PRIOS per direction and refuses a job with more
 * distinct ones (rather than dropping the rest from "prios"). */
static void split_of(char *buf, size_t len, unsigned n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) /* 4k: n entries of class 1 level i (i < 8) or class 2 */
		o += (size_t)snprintf(buf + o, len - o, "%s4k/%u/%u/%u", i ? ":" : "", 100 / n,
				      i < 8 ? 1 : 2, i % 8);
}

START_TEST(test_prios_bound)
{
	struct spec s;
	char v[256], err[256] = "";
	unsigned n = RESULT_MAX_PRIOS - 1; /* + the job's own: the bound */

	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/dev/x"), 0);
	split_of(v, sizeof(v), n);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", v), 0);
	ck_assert_uint_eq(P(&s)->nval[NVS_READ], RESULT_MAX_PRIOS);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	split_of(v, sizeof(v), n + 1);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", v), 0);
	ck_assert_uint_eq(P(&s)->nval[NVS_READ], RESULT_MAX_PRIOS + 1);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "cmdprio_bssplit") && strstr(err, "priorities"), "%s", err);

	/* at the bound, the JSON lists every one used */
	split_of(v, sizeof(v), n);
	ck_assert_int_eq(set(&s, "cmdprio_bssplit", v), 0);
	struct result *r = calloc(1, sizeof(*r));
	ck_assert_ptr_nonnull(r);
	result_init(r);
	snprintf(r->name, sizeof(r->name), "p");
	r->runtime_s = 1;
	for (unsigned i = 0; i < RESULT_MAX_PRIOS; i++) {
		hist_add(&r->dir[NVS_READ].lat, 1000 + i);
		hist_add(&r->dir[NVS_READ].clat, 1000 + i);
		hist_add(&r->dir[NVS_READ].slat, 1);
		hist_add(&r->prio_lat[NVS_READ][i], 1000 + i);
	}
	r->dir[NVS_READ].ios = RESULT_MAX_PRIOS;
	r->dir[NVS_READ].bytes = 4096ull * RESULT_MAX_PRIOS;
	struct json_job info = {.spec = &s, .elapsed_s = 1};
	struct json_run run = {.spec = &s, .jobs = r, .njobs = 1, .info = &info};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(json_write_run(f, &run), 0);
	fclose(f);
	cJSON *doc = cJSON_Parse(buf);
	cJSON *rd =
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "jobs"), 0), "read");
	cJSON *prios = cJSON_GetObjectItem(rd, "prios");
	ck_assert_int_eq(cJSON_GetArraySize(prios), RESULT_MAX_PRIOS);
	cJSON *last = cJSON_GetArrayItem(prios, RESULT_MAX_PRIOS - 1);
	ck_assert_int_eq(cJSON_GetObjectItem(last, "prioclass")->valueint, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(last, "prio")->valueint, (int)n - 1);
	cJSON_Delete(doc);
	free(buf);
	free(r);
}
END_TEST

Suite *prio_suite(void)
{
	Suite *s = suite_create("prio");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_sqe);
	tcase_add_test(t, test_share);
	tcase_add_test(t, test_fio_draw);
	tcase_add_test(t, test_prios_bound);
	suite_add_tcase(s, t);
	return s;
}
