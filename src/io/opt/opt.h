/* opt.h - options as data (fio's options.c + parse.c idea): every option
 * of a workload is a row (name, kind, where the value goes in struct spec
 * or its own setter, the text an error names); the core options
 * (io/opt/spec.c), each feature module and the ignored and refused names
 * contribute their rows, and opt_set finds a name in the one table (sorted
 * once, a binary search) and applies its row (issue 21 item 3). */
#ifndef NVS_OPT_H
#define NVS_OPT_H

#include <stddef.h>
#include <stdint.h>
#include "io/opt/spec.h"

enum opt_kind {
	OPT_IGNORED, /* accepted, changes nothing (fio's deprecated ones) */
	OPT_BOOL,    /* 0/1 (spec_parse_bool) into a bool; OPT_INVERT stores !b */
	OPT_UINT,    /* num_parse_uint in [min, max], times scale, into 1-8 bytes */
	OPT_ENUM,    /* one of values[]: its index into 1-8 bytes */
	OPT_BOOL01,  /* a bool: "1" or none is true, "0" false, nothing else */
	OPT_TIME,    /* num_parse_time_ns (bare numbers: unit ns), up to max_ns, u64 */
	OPT_DOUBLE,  /* num_parse_double in [dmin, dmax] into a double */
	OPT_SIZE,    /* spec_parse_size into a u64 (written even when refused, as
		      * before), at most max_ns (a byte count here) */
	OPT_CUSTOM,  /* the row's set() (or seti(): with the key as typed)
		      * parses, stores and words its error */
	OPT_REFUSED, /* fio's option nvscope refuses: "KEY: refused: WHY" */
};

#define OPT_INVERT 1u

struct opt_row {
	const char *name; /* fio's, with '_' (opt_set maps '-') */
	enum opt_kind kind;
	size_t off;  /* offsetof(struct spec, field) */
	size_t size; /* sizeof that field */
	unsigned min, max;
	uint64_t scale;		   /* OPT_UINT: stored value = parsed * scale */
	const char *const *values; /* OPT_ENUM: NULL-terminated */
	unsigned flags;		   /* OPT_INVERT */
	const char *what;	   /* error: "NAME: 'V' is not WHAT" */
	uint64_t unit_ns, max_ns;  /* OPT_TIME */
	double dmin, dmax;	   /* OPT_DOUBLE */
	/* OPT_CUSTOM: @key is the row's name */
	int (*set)(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
	/* OPT_CUSTOM whose messages name the key as the user typed it
	 * (@key_in: '-' or '_'); used instead of set() when given */
	int (*seti)(struct spec *s, const char *key, const char *key_in, const char *v, char *err,
		    size_t errlen);
	const char *why; /* OPT_REFUSED */
};

/* The rows one module contributes. */
struct opt_list {
	const struct opt_row *rows;
	size_t n;
};

#define OPT_FIELD(f) offsetof(struct spec, f), sizeof(((struct spec *)0)->f)

/* io/opt/spec.c's rows: the core options (a custom setter each, naming the key
 * as typed), and fio's names accepted for nothing. */
#define SPEC_NOPTS 86
extern const struct opt_row spec_opts[SPEC_NOPTS];
#define SPEC_NIGNORED 11
extern const struct opt_row spec_ignored_opts[SPEC_NIGNORED];

/* Sets option @key (fio's name as typed; '-' and '_' are the same) to @v
 * (NULL for a flag) by its row: 0, -EINVAL with @err saying why (the
 * option and the value), or -ENOENT with @err "unknown option 'KEY'".
 * CLI flags, INI presets and fio job files all set options here. */
int opt_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
/* Every row, list by list (for the tests that walk the table). */
size_t opt_lists(const struct opt_list **out);
/* The row of @key (normalised: '_' only), NULL when none. */
const struct opt_row *opt_find(const char *key);

#endif
