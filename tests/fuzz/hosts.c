/* hosts.c - fuzzes the addressing of remote hosts (config/hosts.h): the
 * input as a target (split; a remote one's destination parsed again and
 * checked: no leading '-', only the allowed bytes, port in range), as a
 * --host pattern (ranges expanded, each destination parsed again) and as a
 * hosts file (comments, ranges, FILE:LINE errors).  Any crash, leak or a
 * destination that should have been refused fails. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "config/hosts.h"
#include "fuzz.h"

/* A destination the module accepted: nothing ssh could take for an option
 * or a shell could read as syntax. */
static void check_dest(const char *dest)
{
	struct hosts_dest d;
	char err[256];

	if (hosts_parse_dest(dest, &d, err, sizeof(err)))
		abort(); /* accepted once, accepted again */
	if (d.host[0] == '-' || (d.user && d.user[0] == '-') || d.port > 65535 || !d.host[0])
		abort();
	if (d.host[strspn(d.host,
			  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:%")])
		abort();
	if (d.user &&
	    d.user[strspn(d.user,
			  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")])
		abort();
	hosts_dest_clear(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], *dest, *path;
	struct hosts_list *l;
	char *s;
	int rc;

	if (size > 2048) /* a file of ranges: each line up to HOSTS_MAX parses */
		return -1;
	s = fuzz_text(data, size);
	rc = hosts_split_target(s, &dest, &path, err, sizeof(err));
	if (rc == 1) {
		if (path[0] != '/')
			abort();
		check_dest(dest);
		free(dest);
		free(path);
	} else if (rc == 0 && (dest || path)) {
		abort();
	} else if (rc < 0 && rc != -EINVAL) {
		abort();
	}
	l = hosts_list_new();
	if (!l)
		abort();
	rc = hosts_list_add(l, s, err, sizeof(err));
	if (rc && hosts_list_count(l))
		abort(); /* all or nothing */
	rc = hosts_list_add_file(l, fuzz_file(data, size), err, sizeof(err));
	if (hosts_list_count(l) > HOSTS_MAX)
		abort();
	for (size_t i = 0; i < hosts_list_count(l); i++)
		check_dest(hosts_list_get(l, i));
	hosts_list_free(l);
	free(s);
	return 0;
}
