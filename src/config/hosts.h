/* hosts.h - addressing the hosts of a rack (issue 24; the rules are in
 * docs/hosts.md, "Addressing"): a target as the user wrote it, local or
 * HOST:PATH (scp style); an ssh destination [user@]host[:port]; and an
 * ordered list of destinations from --host patterns and --hosts files, host
 * ranges expanded (ClusterShell/Slurm form: rack3-n[01-16]).
 *
 * Everything here is text from outside (a command line, a hosts file) that
 * becomes an argument of ssh: a destination is refused unless its user and
 * host are made of letters, digits, '.', '_' and '-' (an IPv6 address in
 * brackets), never starting with '-' (ssh would read it as an option).
 * Every function returns 0 or a negative errno and, on -EINVAL, a message
 * in @err naming what was refused. */
#ifndef NVS_HOSTS_H
#define NVS_HOSTS_H

#include <stddef.h>

/* The most destinations one pattern expands to, and one list holds. */
#define HOSTS_MAX 4096

/* A target as the user wrote it.  1: remote, *@dest ("h1", "root@h1:2222",
 * "[::1]") and *@path ("/dev/nvme0n1") malloc'd; 0: local (a path on this
 * machine: no ':' before the first '/', or it starts with '/' or '.'),
 * *@dest and *@path NULL; -EINVAL (a remote target whose destination is
 * refused or whose path is not absolute) or -ENOMEM. */
int hosts_split_target(const char *target, char **dest, char **path, char *err, size_t errlen);

/* An ssh destination, parsed: host without brackets, user NULL when not
 * given, port 0 when not given (ssh's own default or its config's). */
struct hosts_dest {
	char *user;
	char *host;
	unsigned port;
};
/* [user@]host[:port], host an IPv6 address in brackets ("[::1]:2222").
 * 0 (@out filled, free with hosts_dest_clear), -EINVAL or -ENOMEM (@out
 * zeroed). */
int hosts_parse_dest(const char *dest, struct hosts_dest *out, char *err, size_t errlen);
void hosts_dest_clear(struct hosts_dest *d);

/* An ordered list of destinations; a destination already in it (the same
 * user, host and port; host names compared without case, IPv6 addresses by
 * value) is not added again. */
struct hosts_list;
struct hosts_list *hosts_list_new(void);
/* Adds the destinations of @pattern, its ranges expanded ("n[1-3,7]",
 * "rack[1-2]-n[01-16]": each bracket group of numbers is a range, groups
 * multiply; "[::1]" is an address).  All or nothing: on error the list is
 * unchanged.  -EINVAL (a destination refused, a bad range, more than
 * HOSTS_MAX destinations in the pattern or in the list), -ENOMEM. */
int hosts_list_add(struct hosts_list *l, const char *pattern, char *err, size_t errlen);
/* Adds the destinations of a hosts file: one destination or pattern per
 * line, '#' starts a comment (a whole line or its end), blank lines
 * skipped, blanks around trimmed.  All or nothing; an error names
 * FILE:LINE.  -errno when the file cannot be read, -EINVAL, -ENOMEM. */
int hosts_list_add_file(struct hosts_list *l, const char *path, char *err, size_t errlen);
size_t hosts_list_count(const struct hosts_list *l);
/* The @i-th destination as written, ranges expanded; NULL past the end. */
const char *hosts_list_get(const struct hosts_list *l, size_t i);
void hosts_list_free(struct hosts_list *l);

#endif
