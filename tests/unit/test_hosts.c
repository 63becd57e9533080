/* test_hosts.c - addressing the hosts of a rack (config/hosts.h,
 * docs/hosts.md, "Addressing"): targets local or HOST:PATH, destinations
 * [user@]host[:port] with IPv6 in brackets, every refusal (a leading '-',
 * shell metacharacters, blanks, bad ports, relative remote paths), ranges
 * expanded with their padding and limit, duplicates dropped, hosts files
 * with comments and FILE:LINE errors, all or nothing. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/hosts.h"

static char err[512];

/* split: the result, and dest/path when remote */
static void split_ok(const char *t, int want, const char *dest, const char *path)
{
	char *d = (char *)1, *p = (char *)1;
	int rc = hosts_split_target(t, &d, &p, err, sizeof(err));

	ck_assert_msg(rc == want, "%s: rc %d (%s)", t, rc, err);
	if (want == 1) {
		ck_assert_str_eq(d, dest);
		ck_assert_str_eq(p, path);
	} else {
		ck_assert_ptr_null(d);
		ck_assert_ptr_null(p);
	}
	free(d);
	free(p);
}

/* split refused, the message holding @needle */
static void split_bad(const char *t, const char *needle)
{
	char *d = (char *)1, *p = (char *)1;

	err[0] = '\0';
	ck_assert_msg(hosts_split_target(t, &d, &p, err, sizeof(err)) == -EINVAL, "%s accepted", t);
	ck_assert_ptr_null(d);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(err, needle), "%s: '%s' lacks '%s'", t, err, needle);
}

START_TEST(targets_local_and_remote)
{
	split_ok("/dev/nvme0n1", 0, NULL, NULL);
	split_ok("/tmp/a:b", 0, NULL, NULL); /* starts with '/' */
	split_ok("./a:b", 0, NULL, NULL);    /* starts with '.' */
	split_ok("../x:/dev/y", 0, NULL, NULL);
	split_ok(".hidden:/x", 0, NULL, NULL);
	split_ok("disk.img", 0, NULL, NULL); /* no ':' */
	split_ok("dir/a:b", 0, NULL, NULL);  /* a '/' before the ':' */
	split_ok("a@b", 0, NULL, NULL);
	split_ok("[::1]", 0, NULL, NULL);
	split_ok("[::1]x:/dev/x", 0, NULL, NULL); /* no "]:", then a '/': scp's local */
	split_ok("h1:/dev/nvme0n1", 1, "h1", "/dev/nvme0n1");
	split_ok("root@h1:/dev/nvme0n1", 1, "root@h1", "/dev/nvme0n1");
	split_ok("h1:2222:/dev/x", 1, "h1:2222", "/dev/x");
	split_ok("u@10.0.0.7:22:/dev/x", 1, "u@10.0.0.7:22", "/dev/x");
	split_ok("[::1]:/dev/x", 1, "[::1]", "/dev/x");
	split_ok("[::1]:2222:/dev/x", 1, "[::1]:2222", "/dev/x");
	split_ok("u@[fe80::1%eth0]:/dev/x", 1, "u@[fe80::1%eth0]", "/dev/x");
	/* the path keeps its own colons */
	split_ok("h1:/dev/disk/by-path/pci-0000:01:00.0-nvme-1", 1, "h1",
		 "/dev/disk/by-path/pci-0000:01:00.0-nvme-1");
	split_ok("h1:22:/a:b", 1, "h1:22", "/a:b");
	split_ok("rack3-n01.lab_x:/f", 1, "rack3-n01.lab_x", "/f");
}
END_TEST

START_TEST(targets_refused)
{
	split_bad("", "empty");
	split_bad("a:b", "must be absolute");
	split_bad("a:b", "./a:b"); /* the hint */
	split_bad("h1:", "must be absolute");
	split_bad("h1:2222", "must be absolute");
	split_bad("h1::/dev/x", "must be absolute");
	split_bad(":/dev/x", "no host");
	split_bad("-oProxyCommand=x:/dev/x", "starts with '-'");
	split_bad("u@-h:/dev/x", "starts with '-'");
	split_bad("-u@h:/dev/x", "starts with '-'");
	split_bad("h;rm -rf:/dev/x", "';'");
	split_bad("h$(x):/dev/x", "'$'");
	split_bad("a b:/dev/x", "0x20");
	split_bad("h`x`:/dev/x", "'`'");
	split_bad("h\t:/dev/x", "0x09");
	split_bad("n[01-16]:/dev/x", "'['"); /* a target is one host */
	split_bad("[1.2.3.4]:/dev/x", "IPv6");
	split_bad("[::g]:/dev/x", "not an IPv6");
	split_bad("@h:/dev/x", "no user");
	split_bad("h;x:/dev/x", "target 'h;x:/dev/x': "); /* names the target */
}
END_TEST

START_TEST(dests)
{
	struct hosts_dest d;

	ck_assert_int_eq(hosts_parse_dest("h1", &d, err, sizeof(err)), 0);
	ck_assert_ptr_null(d.user);
	ck_assert_str_eq(d.host, "h1");
	ck_assert_uint_eq(d.port, 0);
	hosts_dest_clear(&d);
	ck_assert_int_eq(hosts_parse_dest("root@h1:2222", &d, err, sizeof(err)), 0);
	ck_assert_str_eq(d.user, "root");
	ck_assert_str_eq(d.host, "h1");
	ck_assert_uint_eq(d.port, 2222);
	hosts_dest_clear(&d);
	ck_assert_ptr_null(d.host);
	ck_assert_int_eq(hosts_parse_dest("[::1]:65535", &d, err, sizeof(err)), 0);
	ck_assert_str_eq(d.host, "::1");
	ck_assert_uint_eq(d.port, 65535);
	hosts_dest_clear(&d);
	ck_assert_int_eq(hosts_parse_dest("a_b@[2001:db8::7%eth0]", &d, err, sizeof(err)), 0);
	ck_assert_str_eq(d.user, "a_b");
	ck_assert_str_eq(d.host, "2001:db8::7%eth0");
	hosts_dest_clear(&d);
	ck_assert_int_eq(hosts_parse_dest("10.1.2.3:1", &d, err, sizeof(err)), 0);
	ck_assert_uint_eq(d.port, 1);
	hosts_dest_clear(&d);
	hosts_dest_clear(NULL);

	const struct {
		const char *dest, *needle;
	} bad[] = {
	    {"", "empty"},
	    {"h1:0", "1..65535"},
	    {"h1:65536", "1..65535"},
	    {"h1:", "1..65535"},
	    {"h1:+22", "1..65535"},
	    {"h1:22x", "1..65535"},
	    {"h1:0x16", "1..65535"},
	    {"h1: 22", "1..65535"},
	    {"h1:99999999999999999999", "1..65535"},
	    {"::1", "brackets"},
	    {"fe80::1:22", "brackets"},
	    {"[::1", "without its ']'"},
	    {"[]", "IPv6"},
	    {"[h1]", "IPv6"},
	    {"[::1]22", "':PORT'"},
	    {"[fe80::1%]", "zone"},
	    {"[fe80::1%e;x]", "zone"},
	    {"[::1]:0", "1..65535"},
	    {"-h", "starts with '-'"},
	    {"-oProxyCommand=sh", "starts with '-'"},
	    {"u@-h", "starts with '-'"},
	    {"-u@h", "starts with '-'"},
	    {"@h", "no user"},
	    {"u@", "no host"},
	    {"u@:22", "no host"},
	    {"h|x", "'|'"},
	    {"h&", "'&'"},
	    {"h>x", "'>'"},
	    {"h'x", "'''"},
	    {"h\"x", "'\"'"},
	    {"h\\x", "'\\'"},
	    {"h*", "'*'"},
	    {"h x", "0x20"},
	    {"h\nx", "0x0a"},
	    {"h\x1b[2J", "0x1b"},
	    {"h\xc3\xa9", "0xc3"},
	    {"u;x@h", "';'"},
	    {"u x@h", "0x20"},
	    {"a@b@h", "'@'"},
	    {"h/x", "'/'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		d.host = (char *)1;
		ck_assert_msg(hosts_parse_dest(bad[i].dest, &d, err, sizeof(err)) == -EINVAL,
			      "%s accepted", bad[i].dest);
		ck_assert_ptr_null(d.host);
		ck_assert_ptr_null(d.user);
		ck_assert_msg(strstr(err, bad[i].needle), "%s: '%s' lacks '%s'", bad[i].dest, err,
			      bad[i].needle);
	}
	/* names up to 255 characters; longer refused */
	char longname[300];
	memset(longname, 'a', 255);
	longname[255] = '\0';
	ck_assert_int_eq(hosts_parse_dest(longname, &d, err, sizeof(err)), 0);
	hosts_dest_clear(&d);
	longname[255] = 'a';
	longname[256] = '\0';
	ck_assert_int_eq(hosts_parse_dest(longname, &d, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "longer than 255"));
}
END_TEST

/* the list's destinations joined by ' ' */
static const char *joined(const struct hosts_list *l)
{
	static char buf[65536];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < hosts_list_count(l); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? " " : "",
				      hosts_list_get(l, i));
	return buf;
}

static void expands(const char *pattern, const char *want)
{
	struct hosts_list *l = hosts_list_new();

	ck_assert_ptr_nonnull(l);
	ck_assert_msg(hosts_list_add(l, pattern, err, sizeof(err)) == 0, "%s: %s", pattern, err);
	ck_assert_msg(!strcmp(joined(l), want), "%s: '%s', not '%s'", pattern, joined(l), want);
	hosts_list_free(l);
}

static void refused(const char *pattern, const char *needle)
{
	struct hosts_list *l = hosts_list_new();

	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(hosts_list_add(l, "before", err, sizeof(err)), 0);
	err[0] = '\0';
	ck_assert_msg(hosts_list_add(l, pattern, err, sizeof(err)) == -EINVAL, "%s accepted",
		      pattern);
	ck_assert_msg(strstr(err, needle), "%s: '%s' lacks '%s'", pattern, err, needle);
	ck_assert_str_eq(joined(l), "before"); /* all or nothing */
	hosts_list_free(l);
}

START_TEST(ranges)
{
	expands("h1", "h1");
	expands("n[1-3]", "n1 n2 n3");
	expands("rack3-n[01-03]", "rack3-n01 rack3-n02 rack3-n03");
	expands("n[08-11]", "n08 n09 n10 n11");
	expands("n[8-11]", "n8 n9 n10 n11");
	expands("n[098-101]", "n098 n099 n100 n101");
	expands("n[01-03,100]x", "n01x n02x n03x n100x"); /* the width of the low bound */
	expands("n[1-02]", "n1 n2");
	expands("n[1-3,7,10-12]", "n1 n2 n3 n7 n10 n11 n12");
	expands("n[0]", "n0");
	expands("n[00]", "n00");
	expands("n[7]", "n7");
	expands("r[1-2]-n[01-02]", "r1-n01 r1-n02 r2-n01 r2-n02");
	expands("[1-2]x[3-4]", "1x3 1x4 2x3 2x4");
	expands("u@n[1-2]:22", "u@n1:22 u@n2:22");
	expands("u[1-2]@h", "u1@h u2@h");
	expands("h:[2221-2222]", "h:2221 h:2222");
	expands("n[3-3]", "n3");
	expands("n[1,1,2]", "n1 n2"); /* duplicates dropped */
	expands("n[2,1]", "n2 n1");   /* order kept */
	expands("[::1]", "[::1]");    /* an address, not a range */
	expands("[::1]:22", "[::1]:22");
	expands("u@[fe80::1]", "u@[fe80::1]");

	struct hosts_list *l = hosts_list_new();
	ck_assert_int_eq(hosts_list_add(l, "n[1-64][0001-0064]", err, sizeof(err)), 0);
	ck_assert_uint_eq(hosts_list_count(l), 4096); /* the limit itself is allowed */
	ck_assert_str_eq(hosts_list_get(l, 0), "n10001");
	ck_assert_str_eq(hosts_list_get(l, 4095), "n640064");
	hosts_list_free(l);
}
END_TEST

START_TEST(ranges_refused)
{
	refused("n[]", "'['"); /* empty brackets are text, and a bad name */
	refused("n[1-]", "range bound");
	refused("n[-1]", "range bound");
	refused("n[1,]", "range bound");
	refused("n[,1]", "range bound");
	refused("n[1-2-3]", "range bound");
	refused("n[3-1]", "backwards");
	refused("n[1-3", "'['");
	refused("n1-3]", "']'");
	refused("n[a-c]", "'['");
	refused("n[1-2]]", "']'");
	refused("n[[1-2]]", "'['");
	refused("n[1234567890123456789]", "longer than 18");
	refused("n[1-4097]", "more than 4096");
	refused("n[0-99999999999]", "more than 4096");
	refused("n[1-64][1-65]", "more than 4096");
	refused("n[1-2000,3000-5100]", "more than 4096"); /* 2000 + 2101 */
	refused("-n[1-2]", "starts with '-'");
	refused("n[1-2];x", "';'");
	refused("n[1-2] x", "0x20");
	refused("n[1-2]:0", "1..65535");
	refused("", "empty");
	/* the message names the pattern and the expansion */
	refused("n[1-2]:0", "'n[1-2]:0': 'n1:0'");
}
END_TEST

START_TEST(duplicates)
{
	struct hosts_list *l = hosts_list_new();

	ck_assert_int_eq(hosts_list_add(l, "h1", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "H1", err, sizeof(err)), 0);	     /* no case */
	ck_assert_int_eq(hosts_list_add(l, "root@h1", err, sizeof(err)), 0); /* another user */
	ck_assert_int_eq(hosts_list_add(l, "h1:22", err, sizeof(err)), 0);   /* another port */
	ck_assert_int_eq(hosts_list_add(l, "h1:22", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "root@h1", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "[::1]", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "[0:0::1]", err, sizeof(err)), 0); /* by value */
	ck_assert_int_eq(hosts_list_add(l, "[::1]:22", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "[fe80::1%eth0]", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "[fe80::1%eth1]", err, sizeof(err)), 0);
	ck_assert_int_eq(hosts_list_add(l, "[FE80::1%eth1]", err, sizeof(err)), 0);
	ck_assert_str_eq(joined(l),
			 "h1 root@h1 h1:22 [::1] [::1]:22 [fe80::1%eth0] [fe80::1%eth1]");
	ck_assert_uint_eq(hosts_list_count(l), 7);
	ck_assert_ptr_null(hosts_list_get(l, 7));
	hosts_list_free(l);
	hosts_list_free(NULL);
	ck_assert_uint_eq(hosts_list_count(NULL), 0);
}
END_TEST

START_TEST(list_limit)
{
	struct hosts_list *l = hosts_list_new();

	ck_assert_int_eq(hosts_list_add(l, "a[1-4000]", err, sizeof(err)), 0);
	ck_assert_uint_eq(hosts_list_count(l), 4000);
	ck_assert_str_eq(hosts_list_get(l, 0), "a1");
	ck_assert_str_eq(hosts_list_get(l, 3999), "a4000");
	ck_assert_int_eq(hosts_list_add(l, "a[1-4000]", err, sizeof(err)), 0); /* all there */
	ck_assert_int_eq(hosts_list_add(l, "b[1-96]", err, sizeof(err)), 0);
	ck_assert_uint_eq(hosts_list_count(l), HOSTS_MAX);
	ck_assert_int_eq(hosts_list_add(l, "b[90-97]", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "more than 4096"));
	ck_assert_uint_eq(hosts_list_count(l), HOSTS_MAX); /* b90..b96 not re-added either */
	ck_assert_int_eq(hosts_list_add(l, "b96", err, sizeof(err)), 0);
	hosts_list_free(l);
}
END_TEST

static char *write_file(const char *text, size_t len)
{
	const char *t = getenv("TMPDIR");
	char *path;
	FILE *f;

	ck_assert_int_ge(asprintf(&path, "%s/nvs-hosts-XXXXXX", t && *t ? t : "/tmp"), 0);
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

static int add_text(struct hosts_list *l, const char *text, size_t len)
{
	char *p = write_file(text, len);
	char *e;
	int rc = hosts_list_add_file(l, p, err, sizeof(err));

	/* an error names the file */
	if (rc)
		ck_assert_msg(!strncmp(err, p, strlen(p)), "'%s' does not name %s", err, p);
	if (rc && (e = strchr(err, ':')))
		memmove(err, e, strlen(e) + 1); /* ":LINE: ..." */
	unlink(p);
	free(p);
	return rc;
}

START_TEST(hosts_files)
{
	struct hosts_list *l = hosts_list_new();
	const char ok[] = "# the rack\n"
			  "\n"
			  "   rack3-n[01-02]   \n"
			  "root@h9:2222 # the odd one\n"
			  "\t[::1]\r\n"
			  "#h10\n"
			  "   # indented comment\n"
			  "rack3-n02\n" /* a duplicate */
			  "last";	/* no newline at the end */

	ck_assert_int_eq(add_text(l, ok, sizeof(ok) - 1), 0);
	ck_assert_str_eq(joined(l), "rack3-n01 rack3-n02 root@h9:2222 [::1] last");
	ck_assert_int_eq(add_text(l, "", 0), 0); /* empty: nothing added */
	ck_assert_uint_eq(hosts_list_count(l), 5);

	/* errors: FILE:LINE, and the list unchanged */
	const struct {
		const char *text, *needle;
	} bad[] = {
	    {"h1\nh2\nh3 h4\n", ":3: 'h3 h4'"},
	    {"h1\n-oProxyCommand=x\n", ":2: '-oProxyCommand=x': the host name starts with '-'"},
	    {"a\n\n\n# x\nn[5-1]\n", ":5: 'n[5-1]': the range 5-1 runs backwards"},
	    {"h1:0\n", ":1: 'h1:0'"},
	    {"n[1-5000]\n", ":1: 'n[1-5000]' names more than 4096"},
	    {"x;y # fine comment\n", ":1: 'x;y'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(add_text(l, bad[i].text, strlen(bad[i].text)), -EINVAL);
		ck_assert_msg(strstr(err, bad[i].needle), "'%s' lacks '%s'", err, bad[i].needle);
		ck_assert_uint_eq(hosts_list_count(l), 5);
	}
	ck_assert_int_eq(add_text(l, "new1\nh\0x\n", 9), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, ":2: a NUL byte"));
	ck_assert_uint_eq(hosts_list_count(l), 5);

	/* a long line: no buffer cuts it (a 5000-character name is refused whole) */
	char *big = malloc(6000);
	memset(big, 'a', 5000);
	strcpy(big + 5000, "\nb\n");
	ck_assert_int_eq(add_text(l, big, strlen(big)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, ":1: "));
	ck_assert_ptr_nonnull(strstr(err, "longer than 255"));
	memset(big, ' ', 4000);
	strcpy(big + 4000, "long-padded # and a comment\n");
	ck_assert_int_eq(add_text(l, big, strlen(big)), 0);
	ck_assert_str_eq(hosts_list_get(l, 5), "long-padded");
	free(big);

	/* unreadable: -errno and the path */
	ck_assert_int_eq(hosts_list_add_file(l, "/nonexistent/hosts", err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/hosts: "));
	ck_assert_int_eq(hosts_list_add_file(l, "/", err, sizeof(err)), -EISDIR);
	ck_assert_uint_eq(hosts_list_count(l), 6);
	hosts_list_free(l);
}
END_TEST

Suite *hosts_suite(void)
{
	Suite *s = suite_create("hosts");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, targets_local_and_remote);
	tcase_add_test(tc, targets_refused);
	tcase_add_test(tc, dests);
	tcase_add_test(tc, ranges);
	tcase_add_test(tc, ranges_refused);
	tcase_add_test(tc, duplicates);
	tcase_add_test(tc, list_limit);
	tcase_add_test(tc, hosts_files);
	suite_add_tcase(s, tc);
	return s;
}
