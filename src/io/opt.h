/* opt.h - options as data (fio's options.c + parse.c idea): a feature
 * module lists its options as rows (name, kind, where the value goes in
 * struct spec, the text an error names) and opt_set walks the lists with
 * one parser.  First step of issue 21 item 3: flow, pagecache, nvcmd,
 * lattarget, speclog, zones and filesize are rows; the other feature
 * modules still have their *_spec_set chains. */
#ifndef NVS_OPT_H
#define NVS_OPT_H

#include <stddef.h>
#include <stdint.h>
#include "io/spec.h"

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
	OPT_CUSTOM,  /* the row's set() parses, stores and words its error */
};

#define OPT_INVERT 1u

struct opt_row {
	const char *name; /* fio's, with '_' (spec_set maps '-') */
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
};

/* The rows one module contributes. */
struct opt_list {
	const struct opt_row *rows;
	size_t n;
};

#define OPT_FIELD(f) offsetof(struct spec, f), sizeof(((struct spec *)0)->f)

/* Sets @key (normalised: '_' only) from @v (NULL for a flag) by its row:
 * 0, -EINVAL with @err naming the row and value, or -ENOENT (no row). */
int opt_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
/* Every row, list by list (for the tests that walk the table). */
size_t opt_lists(const struct opt_list **out);

#endif
