/* test_proto.c - the host protocol (run/proto): frames round-trip split
 * anywhere; the payload limit, the magic, the reserved byte and unknown
 * types are refused by name, and nothing is allocated for a length a peer
 * claims; every message's fields are checked.  And the pieces of
 * run/remote and run/allow that need no host: the ssh argument vector and
 * its quoting, the one line per failed host (key paths taken out), the
 * --allow comparison by identity; the options a run over hosts refuses. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "cmd/hostrun.h"
#include "run/allow.h"
#include "run/proto.h"
#include "run/remote.h"

struct got {
	unsigned n, type[16];
	char payload[16][256];
};

static int on_frame(void *arg, unsigned type, const char *payload, size_t len)
{
	struct got *g = arg;
	ck_assert_uint_lt(g->n, 16);
	ck_assert_uint_eq(strlen(payload), len); /* NUL after it */
	g->type[g->n] = type;
	snprintf(g->payload[g->n++], 256, "%s", payload);
	return 0;
}

static void frame(struct proto_out *o, unsigned type, const char *json)
{
	cJSON *x = cJSON_Parse(json);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(proto_out_frame(o, type, x), 0);
	cJSON_Delete(x);
}

START_TEST(test_roundtrip_split_anywhere)
{
	struct proto_out o = {0};
	char err[256];

	frame(&o, PROTO_HELLO, "{\"proto\":1,\"nvscope\":\"0.1.0\",\"role\":\"agent\"}");
	frame(&o, PROTO_REQUEST, "{\"id\":7,\"method\":\"list\",\"params\":{}}");
	frame(&o, PROTO_PING, "{\"seq\":3}");
	ck_assert_mem_eq(o.buf, "NV\x01\x00\x00\x00\x00", 7);
	for (size_t step = 1; step <= o.len; step++) {
		struct proto_dec *d = proto_dec_new(0);
		struct got g = {0};
		for (size_t off = 0; off < o.len; off += step) {
			size_t n = o.len - off < step ? o.len - off : step;
			ck_assert_int_eq(
			    proto_dec_feed(d, o.buf + off, n, on_frame, &g, err, sizeof(err)), 0);
		}
		ck_assert_uint_eq(g.n, 3);
		ck_assert_uint_eq(g.type[1], PROTO_REQUEST);
		ck_assert_uint_eq(proto_dec_pending(d), 0);
		struct proto_msg m;
		ck_assert_int_eq(proto_msg_parse(PROTO_REQUEST, g.payload[1], strlen(g.payload[1]),
						 &m, err, sizeof(err)),
				 0);
		ck_assert_uint_eq(m.id, 7);
		ck_assert_str_eq(m.str, "list");
		proto_msg_clear(&m);
		proto_dec_free(d);
	}
	proto_out_free(&o);
}
END_TEST

START_TEST(test_limit_never_allocated)
{
	/* a header claiming 4 GiB - 1: refused at the header, by name */
	const unsigned char big[] = {'N', 'V', PROTO_REPLY, 0, 0xff, 0xff, 0xff, 0xff, '{'};
	const unsigned char ok[] = {'N', 'V', PROTO_BYE, 0, 0, 0, 0, 2, '{', '}'};
	struct proto_dec *d = proto_dec_new(1024);
	struct got g = {0};
	char err[256];

	ck_assert_int_eq(proto_dec_feed(d, big, sizeof(big), on_frame, &g, err, sizeof(err)),
			 -EMSGSIZE);
	ck_assert_ptr_nonnull(
	    strstr(err, "a reply frame of 4294967295 bytes, over the limit of 1024"));
	ck_assert_uint_le(proto_dec_pending(d), PROTO_HDR);
	/* the decoder stays refused */
	ck_assert_int_eq(proto_dec_feed(d, ok, sizeof(ok), on_frame, &g, err, sizeof(err)),
			 -EMSGSIZE);
	ck_assert_uint_eq(g.n, 0);
	proto_dec_free(d);
	/* exactly at the limit: taken */
	d = proto_dec_new(2);
	ck_assert_int_eq(proto_dec_feed(d, ok, sizeof(ok), on_frame, &g, err, sizeof(err)), 0);
	ck_assert_uint_eq(g.n, 1);
	proto_dec_free(d);
}
END_TEST

START_TEST(test_bad_headers)
{
	struct proto_dec *d = proto_dec_new(0);
	struct got g = {0};
	char err[256];
	const char banner[] = "Welcome to rack3-n01\n\033]0;title\007";

	ck_assert_int_eq(
	    proto_dec_feed(d, banner, sizeof(banner) - 1, on_frame, &g, err, sizeof(err)), -EPROTO);
	ck_assert_ptr_nonnull(strstr(err, "not an nvscope agent: it sent \"Welcome to rack3-n01"));
	ck_assert_ptr_null(strchr(err, '\033')); /* escaped */
	proto_dec_free(d);

	const unsigned char resv[] = {'N', 'V', PROTO_PING, 1, 0, 0, 0, 0};
	d = proto_dec_new(0);
	ck_assert_int_eq(proto_dec_feed(d, resv, sizeof(resv), on_frame, &g, err, sizeof(err)),
			 -EPROTO);
	ck_assert_ptr_nonnull(strstr(err, "reserved"));
	proto_dec_free(d);

	const unsigned char type[] = {'N', 'V', 42, 0, 0, 0, 0, 0};
	d = proto_dec_new(0);
	ck_assert_int_eq(proto_dec_feed(d, type, sizeof(type), on_frame, &g, err, sizeof(err)),
			 -EPROTO);
	ck_assert_ptr_nonnull(strstr(err, "unknown frame type 42"));
	proto_dec_free(d);
	ck_assert_uint_eq(g.n, 0);
}
END_TEST

static int parse(unsigned type, const char *json, struct proto_msg *m)
{
	char err[256];
	return proto_msg_parse(type, json, strlen(json), m, err, sizeof(err));
}

START_TEST(test_messages_checked)
{
	struct proto_msg m;

	ck_assert_int_eq(parse(PROTO_HELLO,
			       "{\"proto\":2,\"nvscope\":\"0.9\",\"role\":\"agent\","
			       "\"host\":\"n1\",\"restricted\":true}",
			       &m),
			 0);
	ck_assert_uint_eq(m.proto, 2);
	ck_assert_str_eq(m.str, "0.9");
	ck_assert(m.restricted);
	proto_msg_clear(&m);
	static const struct {
		unsigned type;
		const char *json;
	} bad[] = {
	    {PROTO_HELLO, "{\"nvscope\":\"1\",\"role\":\"agent\"}"},
	    {PROTO_HELLO, "{\"proto\":1.5,\"nvscope\":\"1\",\"role\":\"agent\"}"},
	    {PROTO_HELLO, "{\"proto\":0,\"nvscope\":\"1\",\"role\":\"agent\"}"},
	    {PROTO_HELLO, "{\"proto\":1,\"nvscope\":\"1\",\"role\":\"spy\"}"},
	    {PROTO_HELLO, "{\"proto\":1,\"nvscope\":7,\"role\":\"agent\"}"},
	    {PROTO_REQUEST, "{\"id\":-1,\"method\":\"list\"}"},
	    {PROTO_REQUEST, "{\"id\":1e300,\"method\":\"list\"}"},
	    {PROTO_REQUEST, "{\"id\":1,\"method\":\"\"}"},
	    {PROTO_REQUEST, "{\"id\":1,\"method\":\"list\",\"params\":[]}"},
	    {PROTO_REPLY, "{\"id\":1,\"status\":256}"},
	    {PROTO_REPLY, "{\"id\":1,\"status\":0,\"result\":\"x\"}"},
	    {PROTO_EVENT, "{\"id\":1}"},
	    {PROTO_PONG, "{\"seq\":1,\"t\":\"now\"}"},
	    {PROTO_ERROR, "{}"},
	    {PROTO_CANCEL, "{\"id\":0}"},
	    {PROTO_GO, "{}"},
	    {PROTO_GO, "{\"id\":0}"},
	    {PROTO_GO, "{\"id\":\"1\"}"},
	    {PROTO_BYE, "[]"},
	    {PROTO_BYE, "{} {}"},
	    {PROTO_BYE, "nul"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(bad[i].type, bad[i].json, &m) == -EPROTO, "taken: %s",
			      bad[i].json);
		ck_assert_ptr_null(m.root);
	}
	/* GO: a run's one start, by the request's id */
	ck_assert_int_eq(parse(PROTO_GO, "{\"id\":7}", &m), 0);
	ck_assert_uint_eq(m.id, 7);
	ck_assert_str_eq(proto_type_name(PROTO_GO), "go");
	proto_msg_clear(&m);
	ck_assert_int_eq(parse(PROTO_REPLY, "{\"id\":3,\"status\":2,\"error\":\"no\"}", &m), 0);
	ck_assert_int_eq(m.status, 2);
	ck_assert_str_eq(m.str, "no");
	proto_msg_clear(&m);
}
END_TEST

START_TEST(test_ssh_argv)
{
	char *argv[24], buf[4096];
	int n = remote_argv("ops", "rack3-n01", 2222, "/opt/it's/nvscope", NULL, argv, 24, buf,
			    sizeof(buf));
	const char *want[] = {"ssh",
			      "-T",
			      "-o",
			      "BatchMode=yes",
			      "-p",
			      "2222",
			      "--",
			      "ops@rack3-n01",
			      "'/opt/it'\\''s/nvscope' 'agent'"};

	ck_assert_int_eq(n, 9);
	for (int i = 0; i < n; i++)
		ck_assert_str_eq(argv[i], want[i]);
	ck_assert_ptr_null(argv[n]);
	n = remote_argv(NULL, "h1", 0, NULL, "ssh -F cfg", argv, 24, buf, sizeof(buf));
	ck_assert_int_eq(n, 10);
	ck_assert_str_eq(argv[0], "/bin/sh");
	ck_assert_str_eq(argv[2], "ssh -F cfg \"$@\"");
	ck_assert_str_eq(argv[3], "nvscope-ssh");
	ck_assert_str_eq(argv[8], "h1");
	ck_assert_str_eq(argv[9], "'nvscope' 'agent'");
}
END_TEST

START_TEST(test_explain)
{
	char out[640];

	remote_explain(127, "bash: line 1: /nonexistent: No such file or directory\n", false, false,
		       "/nonexistent", out, sizeof(out));
	ck_assert_ptr_nonnull(strstr(out, "not on the host as '/nonexistent'"));
	ck_assert_ptr_nonnull(strstr(out, "--remote-nvscope"));
	remote_explain(255,
		       "Warning: Identity file /root/.ssh/id_test not accessible\n"
		       "ops@h2: Permission denied (publickey).\n",
		       false, false, "nvscope", out, sizeof(out));
	ck_assert_str_eq(out, "key refused: Permission denied (publickey).");
	remote_explain(255, "ssh: connect to host 127.0.0.9 port 22: Connection refused\n", false,
		       false, "nvscope", out, sizeof(out));
	ck_assert_str_eq(out, "unreachable: ssh: connect to host 127.0.0.9 port 22: Connection "
			      "refused");
	remote_explain(255, "Load key \"/home/u/.ssh/id_ed25519\": bad permissions\n", false, false,
		       "nvscope", out, sizeof(out));
	ck_assert_ptr_null(strstr(out, ".ssh"));
	ck_assert_ptr_nonnull(strstr(out, "[path]"));
	remote_explain(255, "", true, true, "nvscope", out, sizeof(out));
	ck_assert_ptr_nonnull(strstr(out, "lost: the connection ended during the request"));
}
END_TEST

/* run over hosts: an option naming a file on the host never travels (the
 * client refuses it, the agent again); the key compared whole */
START_TEST(test_run_refused_keys)
{
	static const char *const bad[] = {"read_iolog",	     "write_iolog", "write_lat_log",
					  "replay_redirect", "directory",   "exec_prerun"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_str_eq(hostrun_refused_key(bad[i], strlen(bad[i])), bad[i]);
	ck_assert_ptr_null(hostrun_refused_key("rw", 2));
	ck_assert_ptr_null(hostrun_refused_key("write_iolog_x", 13));
	ck_assert_ptr_null(hostrun_refused_key("write_iolo", 10));
	/* the key of "--write_iolog=f" (klen stops at '=') */
	ck_assert_ptr_nonnull(hostrun_refused_key("write_iolog=f", 11));
}
END_TEST

START_TEST(test_allow_by_identity)
{
	char dir[] = "/tmp/nvs-allow.XXXXXX", a[64], b[64], l[64], err[512];
	struct allow *al = NULL;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(l, sizeof(l), "%s/link", dir);
	close(open(a, O_CREAT | O_WRONLY, 0600));
	close(open(b, O_CREAT | O_WRONLY, 0600));
	ck_assert_int_eq(symlink(a, l), 0);
	ck_assert_int_eq(allow_add(&al, "relative", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(allow_add(&al, a, err, sizeof(err)), 0);
	ck_assert_int_eq(allow_check(al, a, err, sizeof(err)), 0);
	ck_assert_int_eq(allow_check(al, l, err, sizeof(err)), 0); /* the same file */
	ck_assert_int_eq(allow_check(al, b, err, sizeof(err)), -EPERM);
	ck_assert_ptr_nonnull(strstr(err, b));
	ck_assert_int_eq(allow_check(NULL, b, err, sizeof(err)), 0);
	/* /dev/null and /dev/zero: character devices, told apart by st_rdev */
	ck_assert_int_eq(allow_add(&al, "/dev/null", err, sizeof(err)), 0);
	ck_assert_int_eq(allow_check(al, "/dev/null", err, sizeof(err)), 0);
	ck_assert_int_eq(allow_check(al, "/dev/zero", err, sizeof(err)), -EPERM);
	allow_free(al);
	unlink(l);
	unlink(a);
	unlink(b);
	rmdir(dir);
}
END_TEST

Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("proto");
	tcase_add_test(tc, test_roundtrip_split_anywhere);
	tcase_add_test(tc, test_limit_never_allocated);
	tcase_add_test(tc, test_bad_headers);
	tcase_add_test(tc, test_messages_checked);
	tcase_add_test(tc, test_ssh_argv);
	tcase_add_test(tc, test_explain);
	tcase_add_test(tc, test_allow_by_identity);
	tcase_add_test(tc, test_run_refused_keys);
	suite_add_tcase(s, tc);
	return s;
}
