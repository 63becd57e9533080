/* test_trace.c - trace readers: fio iolog v2/v3, MSR CSV, blktrace binary;
 * bad input refused with file and line/record named. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/trace/replay.h"
#include "io/trace/trace.h"

static struct trace *ok_text(const char *txt)
{
	struct trace *t = NULL;
	char err[256] = "";
	int rc = trace_parse_text("t.log", txt, strlen(txt), &t, err, sizeof(err));
	ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
	return t;
}

static void bad_text(const char *txt, const char *want)
{
	struct trace *t = NULL;
	char err[256] = "";
	int rc = trace_parse_text("t.log", txt, strlen(txt), &t, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
}

START_TEST(test_iolog_v2)
{
	struct trace *t = ok_text("fio version 2 iolog\n"
				  "/dev/sdb add\n/dev/sdb open\n"
				  "/dev/sdb write 4096 8192\n"
				  "/dev/sdb wait 1500 0\n"
				  "/dev/sdb read 0 4096\r\n"
				  "\n"
				  "/dev/sdb trim 1048576 65536\n"
				  "/dev/sdb sync 0 0\n"
				  "/dev/sdb close\n");
	ck_assert_int_eq(t->fmt, TRACE_IOLOG2);
	ck_assert_uint_eq(t->n, 4);
	ck_assert(t->timed);
	ck_assert_uint_eq(t->io[0].op, TRACE_WRITE);
	ck_assert_uint_eq(t->io[0].off, 4096);
	ck_assert_uint_eq(t->io[0].len, 8192);
	ck_assert_uint_eq(t->io[0].t_ns, 0);
	ck_assert_uint_eq(t->io[0].line, 4);
	ck_assert_uint_eq(t->io[1].op, TRACE_READ);
	ck_assert_uint_eq(t->io[1].t_ns, 1500000); /* wait is in microseconds */
	ck_assert_uint_eq(t->io[2].op, TRACE_TRIM);
	ck_assert_uint_eq(t->io[3].op, TRACE_SYNC);
	/* the extent covers the trim (it is replayed), the buffer size only
	 * the data I/O's */
	ck_assert_uint_eq(t->max_end, 1048576 + 65536);
	ck_assert_uint_eq(t->max_len, 8192);
	ck_assert_uint_eq(t->nfiles, 1);
	trace_free(t);
}
END_TEST

START_TEST(test_iolog_v3)
{
	/* as fio 3.33 writes it (write_iolog): microseconds since the start */
	struct trace *t = ok_text("fio version 3 iolog\n"
				  "0 /dev/loop0 add\n1 /dev/loop0 open\n"
				  "250 /dev/loop0 read 0 4096\n"
				  "1250 /dev/loop0 write 8192 4096\n"
				  "1000 /dev/loop0 read 4096 512\n" /* out of order: at once */
				  "9000 /dev/loop1 read 0 4096\n"
				  "9100 /dev/loop0 close\n");
	ck_assert_int_eq(t->fmt, TRACE_IOLOG3);
	ck_assert_uint_eq(t->n, 4);
	ck_assert_uint_eq(t->io[0].t_ns, 0);
	ck_assert_uint_eq(t->io[1].t_ns, 1000000);
	ck_assert_uint_eq(t->io[2].t_ns, 1000000);
	ck_assert_uint_eq(t->io[3].t_ns, 8750000);
	ck_assert_uint_eq(t->nops[TRACE_READ], 3);
	ck_assert_uint_eq(t->nops[TRACE_WRITE], 1);
	ck_assert_uint_eq(t->nfiles, 2);
	trace_free(t);
}
END_TEST

START_TEST(test_iolog_bad)
{
	bad_text("fio version 4 iolog\n/dev/x read 0 1\n", "t.log:1: unknown iolog version");
	bad_text("hello\n", "t.log:1: not a trace");
	bad_text("fio version 2 iolog\n/dev/x read 0\n", "t.log:2: expected");
	bad_text("fio version 2 iolog\n/dev/x read -1 4096\n", "t.log:2: bad offset");
	bad_text("fio version 2 iolog\n/dev/x read 0 4096\n/dev/x read 0x10 4096\n",
		 "t.log:3: bad offset");
	bad_text("fio version 2 iolog\n/dev/x write 0 4096k\n", "t.log:2: bad length");
	bad_text("fio version 2 iolog\n/dev/x write 0 0\n", "t.log:2: length 0 out of range");
	bad_text("fio version 2 iolog\n/dev/x write 0 2147483648\n", "t.log:2: length 2147483648");
	{ /* a 2 GiB trim, as in fio's t/jobs/t0038.iolog: taken, not replayed */
		struct trace *t = ok_text("fio version 3 iolog\n10736 /dev/null trim 0 2147483648\n"
					  "10752 /dev/null write 0 4096\n");
		ck_assert_uint_eq(t->nops[TRACE_TRIM], 1);
		ck_assert_uint_eq(t->max_len, 4096);
		trace_free(t);
	}
	bad_text("fio version 2 iolog\n/dev/x write 18446744073709551615 4096\n",
		 "t.log:2: offset + length overflows");
	bad_text("fio version 2 iolog\n/dev/x read 99999999999999999999 1\n", "bad offset");
	bad_text("fio version 2 iolog\n/dev/x frob 0 1\n", "t.log:2: unknown action 'frob'");
	bad_text("fio version 2 iolog\n/dev/x delete\n", "t.log:2: unknown file action");
	bad_text("fio version 2 iolog\n/dev/x read 0 nan\n", "bad length");
	bad_text("fio version 3 iolog\n5 /dev/x wait 10 0\n", "t.log:2: 'wait' is not allowed");
	bad_text("fio version 3 iolog\ninf /dev/x read 0 512\n", "t.log:2: bad timestamp");
	bad_text("fio version 3 iolog\n18446744073709552 /dev/x read 0 512\n", "bad timestamp");
	bad_text("fio version 2 iolog\n/dev/x add\n", "no I/O");
	bad_text("fio version 2 iolog\n/dev/x read 0 512 extra\n", "t.log:2: expected");
	{
		static const char nul[] = "fio version 2 iolog\n/dev/x read 0 5\0 12\n";
		struct trace *t = NULL;
		char err[256];
		ck_assert_int_eq(
		    trace_parse_text("n.log", nul, sizeof(nul) - 1, &t, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "n.log:2: NUL byte"), "%s", err);
	}
}
END_TEST

START_TEST(test_msr_csv)
{
	struct trace *t = ok_text("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
				  "128166372003061629,hm,1,Read,7014609920,24576,41286\n"
				  "128166372016382155,hm,1,Write,1317441536,8192,1963\n"
				  "128166372026382245,hm,1,write,2436440064,4096,1151\n");
	ck_assert_int_eq(t->fmt, TRACE_MSR_CSV);
	ck_assert_uint_eq(t->n, 3);
	ck_assert_uint_eq(t->io[0].op, TRACE_READ);
	ck_assert_uint_eq(t->io[0].off, 7014609920ULL);
	ck_assert_uint_eq(t->io[0].len, 24576);
	ck_assert_uint_eq(t->io[1].t_ns, (128166372016382155ULL - 128166372003061629ULL) * 100);
	ck_assert_uint_eq(t->io[2].op, TRACE_WRITE);
	ck_assert_uint_eq(t->io[2].line, 4);
	trace_free(t);
	/* no header, as the published files */
	t = ok_text("128166372003061629,hm,1,Read,0,512,1\n");
	ck_assert_uint_eq(t->n, 1);
	trace_free(t);
	bad_text("1,hm,1,Read,0,512\n", "t.log:1: expected 7");
	bad_text("1,hm,1,Read,0,512,1,9\n", "t.log:1: expected 7");
	bad_text("1,hm,1,Read,0,512,1\n2,hm,1,Flush,0,512,1\n", "t.log:2: unknown type");
	bad_text("1,hm,1,Read,0,512,1\n2.5,hm,1,Read,0,512,1\n", "t.log:2: bad timestamp");
	bad_text("1,hm,1,Read,0,512,1\n2,hm,1,Read,0,-512,1\n", "t.log:2: bad length");
	bad_text("0,hm,1,Read,0,512,1\n1844674407370955161,hm,1,Read,0,512,1\n", "out of range");
}
END_TEST

/* One struct blk_io_trace, native endian. */
static size_t blk_rec(unsigned char *p, uint64_t time, uint64_t sector, uint32_t bytes,
		      uint32_t action, uint16_t pdu)
{
	uint32_t magic = 0x65617407, seq = 1, pid = 42, dev = (7u << 20) | 3, cpu = 0;
	uint16_t error = 0;
	memcpy(p, &magic, 4);
	memcpy(p + 4, &seq, 4);
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, &sector, 8);
	memcpy(p + 24, &bytes, 4);
	memcpy(p + 28, &action, 4);
	memcpy(p + 32, &pid, 4);
	memcpy(p + 36, &dev, 4);
	memcpy(p + 40, &cpu, 4);
	memcpy(p + 44, &error, 2);
	memcpy(p + 46, &pdu, 2);
	memset(p + 48, 'x', pdu);
	return 48 + pdu;
}

#define TA(a, cat) ((a) | ((cat) << 16))
enum {
	Q = 1,
	D = 7,
	C = 8,
	WR = 1 << 1,
	ISSUE = 1 << 6,
	QUEUE = 1 << 4,
	NOTIFY = 1 << 10,
	DISCARD = 1 << 13,
	FLUSH = 1 << 2
};

START_TEST(test_blktrace)
{
	unsigned char a[1024], b[1024];
	size_t na = 0, nb = 0;
	/* cpu 0: a queue, its issue (a write), a notify with a payload, a completion */
	na += blk_rec(a + na, 1000, 8, 4096, TA(Q, QUEUE | WR), 0);
	na += blk_rec(a + na, 2000, 8, 4096, TA(D, ISSUE | WR), 0);
	na += blk_rec(a + na, 2100, 0, 0, TA(0, NOTIFY), 16);
	na += blk_rec(a + na, 9000, 8, 4096, TA(C, WR), 0);
	na += blk_rec(a + na, 9500, 0, 0, TA(D, ISSUE | FLUSH | WR), 0);
	/* cpu 1: a read issued earlier, a discard later */
	nb += blk_rec(b + nb, 1500, 100, 512, TA(D, ISSUE), 0);
	nb += blk_rec(b + nb, 5000, 2048, 1 << 20, TA(D, ISSUE | DISCARD | WR), 0);
	const char *names[] = {"x.blktrace.0", "x.blktrace.1"};
	const void *bufs[] = {a, b};
	size_t lens[] = {na, nb};
	struct trace *t;
	char err[256];
	int rc = trace_parse_blktrace(names, bufs, lens, 2, &t, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(t->n, 4);
	ck_assert_uint_eq(t->io[0].op, TRACE_READ);
	ck_assert_uint_eq(t->io[0].off, 100 * 512);
	ck_assert_uint_eq(t->io[0].t_ns, 0);
	ck_assert_uint_eq(t->io[1].op, TRACE_WRITE);
	ck_assert_uint_eq(t->io[1].off, 4096);
	ck_assert_uint_eq(t->io[1].t_ns, 500);
	ck_assert_uint_eq(t->io[2].op, TRACE_TRIM);
	ck_assert_uint_eq(t->io[2].len, 1 << 20);
	ck_assert_uint_eq(t->io[3].op, TRACE_SYNC);
	ck_assert_uint_eq(t->nfiles, 1);
	trace_free(t);

	/* truncated record, truncated payload, corrupt magic */
	lens[1] = nb - 10;
	rc = trace_parse_blktrace(names, bufs, lens, 2, &t, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_msg(strstr(err, "x.blktrace.1: record 2: truncated"), "%s", err);
	lens[1] = nb;
	lens[0] = 48 * 2 + 48 + 8;
	rc = trace_parse_blktrace(names, bufs, lens, 2, &t, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_msg(strstr(err, "x.blktrace.0: record 3: truncated payload"), "%s", err);
	lens[0] = na;
	a[51] ^= 0x55;
	rc = trace_parse_blktrace(names, bufs, lens, 2, &t, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_msg(strstr(err, "x.blktrace.0: record 2: bad magic"), "%s", err);
	a[51] ^= 0x55;
	a[48] = 0x06;
	rc = trace_parse_blktrace(names, bufs, lens, 2, &t, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_msg(strstr(err, "record 2: blktrace version 6"), "%s", err);
}
END_TEST

START_TEST(test_load_files_and_fit)
{
	char dir[] = "/tmp/nvs-trace-XXXXXX", path[256], err[256];
	struct trace *t;
	unsigned char rec[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* blktrace: two per-CPU files found from either name */
	for (int c = 0; c < 2; c++) {
		snprintf(path, sizeof(path), "%s/loop9.blktrace.%d", dir, c);
		FILE *f = fopen(path, "we");
		size_t n = blk_rec(rec, 100 + c, 8 * (uint64_t)c, 4096, TA(D, ISSUE), 0);
		ck_assert_uint_eq(fwrite(rec, 1, n, f), n);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/loop9.blktrace.1", dir);
	ck_assert_int_eq(trace_load(path, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->n, 2);
	ck_assert_uint_eq(t->io[1].off, 4096);
	ck_assert_int_eq(trace_check_fit(t, 8192, 4096, err, sizeof(err)), 0);
	ck_assert_int_eq(trace_check_fit(t, 8191, 0, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "record 2: offset 4096 + 4096 bytes is beyond"), "%s", err);
	trace_free(t);
	/* iolog: fit, alignment, scale/align mapping */
	snprintf(path, sizeof(path), "%s/a.log", dir);
	FILE *f = fopen(path, "we");
	fputs("fio version 2 iolog\n/dev/x read 1000000 4096\n/dev/x write 6000 512\n", f);
	fclose(f);
	ck_assert_int_eq(trace_load(path, &t, err, sizeof(err)), 0);
	ck_assert_int_eq(trace_check_fit(t, 1 << 20, 512, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "a.log: line 2:") && strstr(err, "logical block size"), "%s",
		      err);
	trace_map(t, 10, 4096);
	ck_assert_uint_eq(t->io[0].off, 98304); /* 100000 down to 4 KiB */
	ck_assert_uint_eq(t->io[1].off, 0);
	ck_assert_uint_eq(t->max_end, 98304 + 4096);
	trace_free(t);
	ck_assert_int_eq(trace_load(dir, &t, err, sizeof(err)), -EISDIR); /* a directory */
	ck_assert_msg(strstr(err, "is a directory"), "%s", err);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(trace_load(path, &t, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "none"), "%s", err);
	/* clean up */
	const char *files[] = {"loop9.blktrace.0", "loop9.blktrace.1", "a.log"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}
END_TEST

START_TEST(test_replay_options)
{
	struct spec s;
	char err[256];
	spec_init(&s);
	ck_assert_uint_eq(s.replay.time_scale, 100);
	ck_assert_uint_eq(s.replay.copies, 1);
	ck_assert_int_eq(opt_set(&s, "replay_time_scale", "200", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.replay.time_scale, 200);
	const char *bad_scale[] = {"0",	  "-5",	 "nan", "inf",
				   "1e3", "50%", "",	"99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad_scale) / sizeof(bad_scale[0]); i++)
		ck_assert_int_eq(opt_set(&s, "replay_time_scale", bad_scale[i], err, sizeof(err)),
				 -EINVAL);
	ck_assert_int_eq(opt_set(&s, "replay_align", "4k", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.replay.align, 4096);
	ck_assert_int_eq(opt_set(&s, "replay_align", "3000", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "replay_scale", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "trace_copies", "100000", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "trace_copies", "4", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "trace_stagger", "250ms", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.replay.stagger_ns, 250000000);
	ck_assert_int_eq(opt_set(&s, "replay_no_stall", "maybe", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "replay_redirect", "/dev/loop7", err, sizeof(err)), 0);
	ck_assert_str_eq(s.targets[0], "/dev/loop7");
	ck_assert_int_eq(opt_set(&s, "replay_redirect", "/dev/loop8", err, sizeof(err)), -EINVAL);
	/* copies without a trace, a trace on two targets, numjobs with a trace */
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert(!spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "read_iolog", "x.log", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s)); /* may write: confirmations assume it does */
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "numjobs", "2", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "trace_copies"), "%s", err);
	ck_assert_int_eq(opt_set(&s, "numjobs", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "rate_iops", "100", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "rate_iops"), "%s", err);
	char big[2000];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(opt_set(&s, "read_iolog", big, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_replay_time_scale)
{
	char dir[] = "/tmp/nvs-replay-XXXXXX", path[256], err[256];
	struct spec s;
	struct trace *t;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.log", dir);
	FILE *f = fopen(path, "we");
	fputs("fio version 3 iolog\n100 /dev/x read 8192 4096\n1100 /dev/x read 12288 4096\n", f);
	fclose(f);
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "read_iolog", path, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "replay_time_scale", "200", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "replay_scale", "2", err, sizeof(err)), 0);
	ck_assert_int_eq(replay_prepare(&s, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->io[1].t_ns, 500000); /* twice the rate: half the time */
	ck_assert_uint_eq(t->io[0].off, 4096);
	ck_assert_uint_eq(t->io[1].off, 6144);
	ck_assert(!replay_writes(t));
	trace_free(t);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_ftrace_text)
{
	static const char txt[] =
	    "# tracer: nop\n#\n"
	    "  fio-812 [001] ..... 3000.000250: block_rq_issue: 7,2 WS 4096 () 16 + 8 be,0,4 "
	    "[fio]\n"
	    "  fio-812 [000] ..... 3000.000100: block_rq_issue: 7,2 R 65536 () 0 + 128 none,0,0 "
	    "[fio]\n"
	    "  kw-1 [000] ..... 3000.000300: block_rq_issue: 7,3 R 4096 () 8 + 8 none,0,0 [x]\n"
	    "  kw-1 [000] ..... 3000.000400: block_rq_issue: 7,2 DS 1048576 () 2048 + 2048 "
	    "none,0,0 [x]\n"
	    "  kw-1 [000] ..... 3000.000500: block_rq_issue: 7,2 FN 0 () 0 + 0 none,0,0 [x]\n"
	    "  kw-1 [000] ..... 3000.000600: block_rq_complete: 7,2 R () 0 + 128 [0]\n";
	struct trace *t;
	char err[256];
	ck_assert_int_eq(
	    trace_parse_ftrace("p.txt", txt, sizeof(txt) - 1, (7u << 20) | 2, &t, err, sizeof(err)),
	    0);
	ck_assert_uint_eq(t->n, 4);
	ck_assert_uint_eq(t->io[0].op, TRACE_READ);
	ck_assert_uint_eq(t->io[0].len, 65536);
	ck_assert_uint_eq(t->io[1].op, TRACE_WRITE);
	ck_assert_uint_eq(t->io[1].off, 16 * 512);
	ck_assert_uint_eq(t->io[1].t_ns, 150000);
	ck_assert_uint_eq(t->io[2].op, TRACE_TRIM);
	ck_assert_uint_eq(t->io[3].op, TRACE_SYNC);
	/* iolog v3 written and read back: the same I/Os at microsecond times */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(trace_write_iolog3(f, t, "/dev/loop2"), 0);
	fclose(f);
	ck_assert_int_eq(trace_write_iolog3(stdout, t, "/dev/a b"), -EINVAL);
	struct trace *r;
	ck_assert_int_eq(trace_parse_text("r.log", buf, len, &r, err, sizeof(err)), 0);
	ck_assert_uint_eq(r->n, t->n);
	for (size_t i = 0; i < t->n; i++) {
		ck_assert_uint_eq(r->io[i].op, t->io[i].op);
		ck_assert_uint_eq(r->io[i].off, t->io[i].op == TRACE_SYNC ? 0 : t->io[i].off);
		ck_assert_uint_eq(r->io[i].t_ns, t->io[i].t_ns / 1000 * 1000);
	}
	trace_free(r);
	free(buf);
	trace_free(t);
	/* found by content in a text trace; bad events named */
	ck_assert_int_eq(trace_parse_text("p.txt", txt, sizeof(txt) - 1, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->n, 5); /* every device */
	trace_free(t);
	static const char bad[] = "x [0] . 12.34: block_rq_issue: 7,2 R 4096 () 0 + 8 [x]\n";
	ck_assert_int_eq(trace_parse_text("b.txt", bad, sizeof(bad) - 1, &t, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "b.txt:1: bad timestamp"), "%s", err);
	static const char bad2[] = "x [0] . 12.000001: block_rq_issue: 7,2 R 4096 () 0 - 8 [x]\n";
	ck_assert_int_eq(trace_parse_text("b.txt", bad2, sizeof(bad2) - 1, &t, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "b.txt:1: no 'SECTOR + COUNT'"), "%s", err);
}
END_TEST

Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_iolog_v2);
	tcase_add_test(tc, test_iolog_v3);
	tcase_add_test(tc, test_iolog_bad);
	tcase_add_test(tc, test_msr_csv);
	tcase_add_test(tc, test_blktrace);
	tcase_add_test(tc, test_load_files_and_fit);
	tcase_add_test(tc, test_replay_options);
	tcase_add_test(tc, test_ftrace_text);
	tcase_add_test(tc, test_replay_time_scale);
	suite_add_tcase(s, tc);
	return s;
}
