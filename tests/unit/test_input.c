/* test_input.c - base/input: an outside input is a regular file (a FIFO
 * with no writer, a character device, a directory, a socket are refused at
 * once, naming the path and what it is), larger than its cap is refused
 * naming the cap, and a line is read whole or refused with its number -
 * never cut into two.  Also the streamed trace reader (io/trace/trace.h):
 * fed in chunks of any size, it reads what the whole text reads. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "base/input.h"
#include "io/trace/trace.h"

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-input-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Refused, fast, with @want in the message and the path named. */
static void refused(const char *path, int rc_want, const char *want)
{
	char err[512] = "", *text = NULL;
	size_t len;
	double t0 = now();
	int rc = input_read_all(path, 1 << 20, "test input", &text, &len, err, sizeof(err));
	ck_assert_int_eq(rc, rc_want);
	ck_assert_ptr_null(text);
	ck_assert_msg(strstr(err, want) && strstr(err, path), "%s: '%s'", path, err);
	ck_assert_msg(now() - t0 < 2, "%s: took %.1f s", path, now() - t0);
	errno = 0;
	FILE *f = input_fopen(path, 1 << 20, "test input", err, sizeof(err));
	ck_assert_ptr_null(f);
	ck_assert_int_eq(errno, -rc_want);
}

START_TEST(test_not_regular)
{
	char p[128];
	mkdir_tmp();
	snprintf(p, sizeof(p), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	refused(p, -EINVAL, "is a FIFO"); /* no writer: a blocking open would hang */
	refused("/dev/zero", -EINVAL, "is a character device");
	refused("/dev/null", -EINVAL, "is a character device");
	refused(dir, -EISDIR, "is a directory");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", dir);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	char err[256];
	ck_assert_int_eq(input_open(sa.sun_path, 100, "x", err, sizeof(err)), -ENXIO);
	close(s);
	snprintf(p, sizeof(p), "%s/none", dir);
	refused(p, -ENOENT, "No such file");
	rm_tmp();
}
END_TEST

START_TEST(test_cap)
{
	char p[128], err[512] = "", *text;
	size_t len;
	mkdir_tmp();
	snprintf(p, sizeof(p), "%s/big", dir);
	int fd = open(p, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (4 << 20) + 1), 0); /* sparse: 4 MiB + 1 */
	close(fd);
	ck_assert_int_eq(input_read_all(p, 4 << 20, "job file", &text, &len, err, sizeof(err)),
			 -EFBIG);
	ck_assert_msg(strstr(err, "larger than the 4 MiB a job file may have"), "%s", err);
	/* exactly the cap: read whole, NUL-terminated, NULs kept */
	ck_assert_int_eq(truncate(p, 4 << 20), 0);
	ck_assert_int_eq(input_read_all(p, 4 << 20, "job file", &text, &len, err, sizeof(err)), 0);
	ck_assert_uint_eq(len, 4 << 20);
	ck_assert_int_eq(text[len], '\0');
	free(text);
	/* an empty file is text of length 0 */
	ck_assert_int_eq(truncate(p, 0), 0);
	ck_assert_int_eq(input_read_all(p, 10, "x", &text, &len, err, sizeof(err)), 0);
	ck_assert_uint_eq(len, 0);
	free(text);
	/* the O_NONBLOCK of the open is cleared */
	fd = input_open(p, 10, "x", err, sizeof(err));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	close(fd);
	char a[32];
	ck_assert_str_eq(input_fmt_size(512 << 10, a, sizeof(a)), "512 KiB");
	ck_assert_str_eq(input_fmt_size(100, a, sizeof(a)), "100 bytes");
	rm_tmp();
}
END_TEST

/* Lines: whole up to the cap, the last one without '\n' too; a longer
 * one is -E2BIG with its number - the text after it is never a line. */
START_TEST(test_lines)
{
	char p[128], *line = NULL, err[256];
	size_t cap = 0;
	unsigned n = 0;
	mkdir_tmp();
	snprintf(p, sizeof(p), "%s/lines", dir);
	char text[2000];
	memset(text, 'x', sizeof(text));
	memcpy(text, "a\n\nb\0c\n", 7);
	text[7 + 600] = '\n';		/* line 4: 600 bytes */
	text[7 + 600 + 1 + 601] = '\n'; /* line 5: 601 bytes, one too many */
	put(p, text, 7 + 600 + 1 + 601 + 1 + 3);
	FILE *f = input_fopen(p, 1 << 20, "x", err, sizeof(err));
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(input_getline(f, &line, &cap, 600, &n), 1);
	ck_assert_str_eq(line, "a");
	ck_assert_int_eq(input_getline(f, &line, &cap, 600, &n), 0);
	ck_assert_int_eq(input_getline(f, &line, &cap, 600, &n), 3); /* a NUL is kept */
	ck_assert_int_eq(memcmp(line, "b\0c", 3), 0);
	ck_assert_int_eq(input_getline(f, &line, &cap, 600, &n), 600); /* at the cap: whole */
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(input_getline(f, &line, &cap, 600, &n), -E2BIG); /* over it */
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_le(cap, 601);
	input_line_err(-E2BIG, p, n, 600, err, sizeof(err));
	ck_assert_msg(strstr(err, ":5: line longer than 600 bytes"), "%s", err);
	fclose(f);
	/* the same file with a larger cap: every line whole, the last without '\n' */
	f = input_fopen(p, 1 << 20, "x", err, sizeof(err));
	n = 0;
	long got, lens[8];
	unsigned k = 0;
	while ((got = input_getline(f, &line, &cap, 4096, &n)) >= 0 && k < 8)
		lens[k++] = got;
	ck_assert_int_eq(got, -1);
	ck_assert_uint_eq(k, 6);
	ck_assert_int_eq(lens[4], 601);
	ck_assert_int_eq(lens[5], 3);
	fclose(f);
	free(line);
	rm_tmp();
}
END_TEST

/* The streamed trace reader: chunks of every size from 1 byte give the
 * same I/Os as the whole text, and the same first error. */
static int stream(const char *txt, size_t len, size_t chunk, struct trace **t, char *err,
		  size_t errlen)
{
	struct trace_text st;
	int rc = 0;
	trace_text_init(&st, "s.log");
	for (size_t i = 0; i < len && !rc; i += chunk)
		rc = trace_text_feed(&st, txt + i, len - i < chunk ? len - i : chunk, err, errlen);
	return trace_text_finish(&st, rc, t, err, errlen);
}

START_TEST(test_trace_stream)
{
	static const char *const texts[] = {
	    "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n10 /dev/x read 0 4096\n"
	    "20 /dev/x write 8192 4096\n30 /dev/x trim 0 65536\n40 /dev/x close",
	    "fio version 2 iolog\r\n/dev/x add\r\n/dev/x write 0 512\r\n/dev/x wait 100\r\n"
	    "/dev/x read 512 512\r\n",
	    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
	    "128166372003061629,wdev,0,Read,3154152960,4096,1\n"
	    "128166372003071629,wdev,1,Write,0,512,1\n",
	    "fio version 2 iolog\n/dev/x add\n/dev/x read 0 4096\n/dev/x bogus 0 1\n",
	    "not a trace at all\n0 /dev/x read 0 4096\n",
	};
	for (unsigned i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct trace *whole = NULL;
		char ew[256] = "";
		size_t len = strlen(texts[i]);
		int rw = trace_parse_text("s.log", texts[i], len, &whole, ew, sizeof(ew));
		for (size_t chunk = 1; chunk <= len; chunk++) {
			struct trace *t = NULL;
			char e[256] = "";
			int rc = stream(texts[i], len, chunk, &t, e, sizeof(e));
			ck_assert_int_eq(rc, rw);
			ck_assert_str_eq(e, ew);
			if (rc)
				continue;
			ck_assert_uint_eq(t->n, whole->n);
			ck_assert_uint_eq(t->nfiles, whole->nfiles);
			/* member by member: the struct's padding is never set */
			for (size_t k = 0; k < t->n; k++) {
				const struct trace_io *x = &t->io[k], *y = &whole->io[k];
				ck_assert(x->t_ns == y->t_ns && x->off == y->off &&
					  x->len == y->len && x->line == y->line && x->op == y->op);
			}
			trace_free(t);
		}
		trace_free(whole);
	}
}
END_TEST

/* A line over TRACE_MAX_LINE is refused with its number, whole or
 * streamed; one at the cap is read. */
START_TEST(test_trace_long_line)
{
	size_t len = 20 + 4 + TRACE_MAX_LINE + 1 + 30;
	char *txt = malloc(len + 1), e[256];
	struct trace *t = NULL;
	ck_assert_ptr_nonnull(txt);
	int n = snprintf(txt, len + 1, "fio version 2 iolog\n/x add\n");
	memset(txt + n, ' ', TRACE_MAX_LINE + 1); /* line 3: blanks, one too many */
	snprintf(txt + n + TRACE_MAX_LINE + 1, len + 1 - (size_t)n - TRACE_MAX_LINE - 1,
		 "\n/x read 0 4096\n");
	len = strlen(txt);
	ck_assert_int_eq(trace_parse_text("l.log", txt, len, &t, e, sizeof(e)), -EINVAL);
	ck_assert_msg(strstr(e, "l.log:3: line longer than 4096 bytes"), "%s", e);
	ck_assert_int_eq(stream(txt, len, 1000, &t, e, sizeof(e)), -EINVAL);
	ck_assert_msg(strstr(e, "s.log:3: line longer than 4096 bytes"), "%s", e);
	txt[n] = '\n'; /* now line 3 is empty and line 4 holds TRACE_MAX_LINE blanks */
	ck_assert_int_eq(stream(txt, len, 1000, &t, e, sizeof(e)), 0);
	ck_assert_uint_eq(t->n, 1);
	ck_assert_uint_eq(t->io[0].line, 5);
	trace_free(t);
	free(txt);
}
END_TEST

/* A file whose line 1 is bad is refused after reading one chunk, not the
 * whole (a 64 MiB sparse file here; 2 GiB in the audit). */
START_TEST(test_trace_bad_line1_reads_little)
{
	char p[128], e[256];
	struct trace *t = NULL;
	mkdir_tmp();
	snprintf(p, sizeof(p), "%s/big.log", dir);
	put(p, "garbage\n", 8);
	ck_assert_int_eq(truncate(p, 64 << 20), 0);
	double t0 = now();
	ck_assert_int_eq(trace_load(p, &t, e, sizeof(e)), -EINVAL);
	ck_assert_msg(strstr(e, ":1: not a trace"), "%s", e);
	ck_assert_msg(now() - t0 < 0.5, "took %.2f s", now() - t0);
	rm_tmp();
}
END_TEST

Suite *input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("input");
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_cap);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_trace_stream);
	tcase_add_test(tc, test_trace_long_line);
	tcase_add_test(tc, test_trace_bad_line1_reads_little);
	suite_add_tcase(s, tc);
	return s;
}
