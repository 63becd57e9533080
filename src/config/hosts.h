/* hosts.h - TEMPORARY STUB (agent branch) until the hosts branch's module
 * is merged: the addressing of remote targets.  Deleted at that merge. */
#ifndef NVS_CONFIG_HOSTS_H
#define NVS_CONFIG_HOSTS_H

#include <stddef.h>

int hosts_split_target(const char *target, char **dest, char **path, char *err, size_t errlen);
struct hosts_dest {
	char *user;
	char *host;
	unsigned port;
};
int hosts_parse_dest(const char *dest, struct hosts_dest *out, char *err, size_t errlen);
void hosts_dest_clear(struct hosts_dest *d);
struct hosts_list;
struct hosts_list *hosts_list_new(void);
int hosts_list_add(struct hosts_list *l, const char *pattern, char *err, size_t errlen);
int hosts_list_add_file(struct hosts_list *l, const char *path, char *err, size_t errlen);
size_t hosts_list_count(const struct hosts_list *l);
const char *hosts_list_get(const struct hosts_list *l, size_t i);
void hosts_list_free(struct hosts_list *l);

#endif
