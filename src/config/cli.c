/* cli.c - command-line workload options into jobs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/cli.h"
#include "config/preset.h"

/* Boolean options: "--flag" alone means 1 and takes no separate value. */
static const char *const flags[] = {
	"time_based", "direct", "buffered", "norandommap", "sqthread_poll", "sqpoll", "hipri",
	"fixedbufs", "registerfiles", "force_destroy", "continue_on_error", "group_reporting",
	"thread", "randrepeat",
	"scramble_buffers", "refill_buffers", "zero_buffers",
	"replay_no_stall",
};

/* Accepted without effect but they take a value: never flags. */
static const char *const valued[] = {"description", "percentile_list", "ioscheduler"};

/* A flag is an option that is complete without a value: the ones above
 * and any option opt_set takes alone (booleans, fio's stonewall,
 * refill_buffers...).  A flag never takes the next argument. */
static bool is_flag(const char *key, size_t len)
{
	char k[64], e[16];
	struct spec probe;

	if (len >= sizeof(k))
		return false;
	memcpy(k, key, len);
	k[len] = '\0';
	for (char *p = k; *p; p++)
		if (*p == '-')
			*p = '_';
	for (size_t i = 0; i < NVS_ARRAY_SIZE(flags); i++)
		if (!strcmp(k, flags[i]))
			return true;
	for (size_t i = 0; i < NVS_ARRAY_SIZE(valued); i++)
		if (!strcmp(k, valued[i]))
			return false;
	spec_init(&probe);
	return opt_set(&probe, k, NULL, e, sizeof(e)) == 0;
}

int cli_take(struct cli *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *a = argv[*i];
	const char *eq, *key, *val;
	size_t klen;

	if (strncmp(a, "--", 2) || !a[2])
		return 0;
	key = a + 2;
	eq = strchr(key, '=');
	klen = eq ? (size_t)(eq - key) : strlen(key);
	val = eq ? eq + 1 : NULL;
#define IS(name) (klen == strlen(name) && !strncmp(key, name, klen))
	if (!IS("target") && !IS("filename") && !IS("preset") && !IS("job")) {
		/* not a workload option at all: the caller's (--help, --output...) */
		struct spec probe;
		char k[64], e[16];
		snprintf(k, sizeof(k), "%.*s", (int)klen, key);
		spec_init(&probe);
		if (klen >= sizeof(k) || opt_set(&probe, k, "1", e, sizeof(e)) == -ENOENT)
			return 0;
	}
	if (!val && !is_flag(key, klen)) {
		if (*i + 1 >= argc) {
			snprintf(err, errlen, "option '--%.*s' needs a value", (int)klen, key);
			return -EINVAL;
		}
		val = argv[*i + 1];
		/* `--target --rw=randrw` (an empty shell variable before it):
		 * an option is not taken as the value - it would name a file
		 * to create or a device to write */
		if (!strncmp(val, "--", 2)) {
			snprintf(err, errlen,
				 "option '--%.*s' needs a value, not the option '%s' (a path of "
				 "that name: ./%s)",
				 (int)klen, key, val, val);
			return -EINVAL;
		}
	}
	if (IS("filename") && strchr(val, ':')) {
		/* fio's file set: ONE job over the files (spec.fileset), not one
		 * worker per target; checked now for a clear error */
		struct spec scratch;
		spec_init(&scratch);
		if (opt_set(&scratch, "filename", val, err, errlen))
			return -EINVAL;
		c->fileset = val;
		*i += eq ? 1 : 2;
		return 1;
	}
	if (IS("target") || IS("filename")) {
		/* comma lists: keep pointers into argv */
		for (const char *tok = val; *tok;) {
			size_t len = strcspn(tok, ",");
			if (len >= sizeof(((struct spec *)0)->targets[0])) {
				snprintf(err, errlen,
					 "--target: path longer than %zu bytes: %.60s...",
					 sizeof(((struct spec *)0)->targets[0]) - 1, tok);
				return -EINVAL;
			}
			if (len && c->ntargets == NVS_MAX_TARGETS) {
				snprintf(err, errlen, "too many targets (max %d)", NVS_MAX_TARGETS);
				return -EINVAL;
			}
			if (len)
				c->targets[c->ntargets++] = tok;
			tok += len + (tok[len] == ',');
		}
	} else if (IS("preset")) {
		c->preset = val;
	} else if (IS("job")) {
		c->job = val;
	} else {
		/* any fio option: checked now against a scratch spec for a clear error */
		struct spec scratch;
		char k[64];
		if (klen >= sizeof(k)) {
			snprintf(err, errlen, "unknown option '%s'", a);
			return -EINVAL;
		}
		memcpy(k, key, klen);
		k[klen] = '\0';
		spec_init(&scratch);
		int rc = opt_set(&scratch, k, val, err, errlen);
		if (rc == -ENOENT)
			return 0; /* not a workload option: the caller's */
		if (rc)
			return -EINVAL;
		if (c->nkv == CLI_MAX_KV) {
			snprintf(err, errlen, "too many options");
			return -EINVAL;
		}
		c->kv[c->nkv].key = key;
		c->kv[c->nkv].klen = klen;
		c->kv[c->nkv].val = val;
		c->nkv++;
	}
#undef IS
	*i += eq || is_flag(key, klen) ? 1 : 2;
	return 1;
}

int cli_jobs(const struct cli *c, struct spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
	struct spec base;
	struct spec *list = NULL;
	unsigned n = 0;
	int rc;

	spec_init(&base);
	if (c->preset || c->job) {
		char path[PATH_MAX];
		const char *what = c->preset ? c->preset : c->job;
		if (preset_find(what, path, sizeof(path))) {
			snprintf(err, errlen, "%s '%s' not found%s", c->preset ? "preset" : "job file",
				 what, c->preset ? " (see presets/, or give a path)" : "");
			return -ENOENT;
		}
		rc = (c->preset ? preset_load_ex : preset_load_fio_ex)(path, &base, c->extra, &list,
								       &n, err, errlen);
		if (rc)
			return rc;
	} else {
		list = malloc(sizeof(*list));
		if (!list)
			return -ENOMEM;
		list[0] = base;
		n = 1;
	}
	for (unsigned j = 0; j < n; j++) {
		for (unsigned k = 0; k < c->nkv; k++) {
			char key[64];
			snprintf(key, sizeof(key), "%.*s", (int)c->kv[k].klen, c->kv[k].key);
			rc = opt_set(&list[j], key, c->kv[k].val, err, errlen);
			if (rc)
				goto free_list;
		}
		if (c->ntargets) {
			list[j].ntargets = 0;
			for (unsigned t = 0; t < c->ntargets; t++) {
				size_t len = strcspn(c->targets[t], ",");
				/* cli_take refuses these already */
				if (len >= sizeof(list[j].targets[t])) {
					snprintf(err, errlen, "target path too long");
					goto free_list;
				}
				memcpy(list[j].targets[t], c->targets[t], len);
				list[j].targets[t][len] = '\0';
			}
			list[j].ntargets = c->ntargets;
		}
		if (c->fileset && c->ntargets) {
			snprintf(err, errlen, "--filename=a:b (one job over the files) and --target "
					      "(one worker per target) exclude each other");
			goto free_list;
		}
		if (c->fileset) { /* replaces the file's filename=, as --target does */
			list[j].ntargets = 0;
			list[j].fileset = false;
			rc = opt_set(&list[j], "filename", c->fileset, err, errlen);
			if (rc)
				goto free_list;
		}
		if (!list[j].ntargets && c->no_target_ok) {
			struct spec probe = list[j]; /* everything else is still checked */
			snprintf(probe.targets[0], sizeof(probe.targets[0]), "-");
			probe.ntargets = 1;
			rc = spec_validate(&probe, err, errlen);
		} else {
			rc = spec_validate(&list[j], err, errlen);
		}
		if (rc)
			goto free_list;
	}
	*jobs = list;
	*njobs = n;
	return 0;

free_list:
	free(list);
	return -EINVAL;
}
