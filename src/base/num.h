/* num.h - strict numbers: the one place where text from outside (command
 * lines, job, plan and theme files, CSV and JSON readers) becomes a number,
 * and where an untrusted double becomes an integer.  Lowest layer: includes
 * nothing from the rest of nvscope.
 *
 * Every parser takes the whole string (no leading or trailing blanks, no
 * trailing junk), is independent of the locale ('.' is the decimal point),
 * rejects NaN, infinities, hex and overflow, and leaves *out untouched on
 * error.  Returns 0, -EINVAL (not a number of that kind) or -ERANGE (a
 * number, but outside [min, max] or the type). */
#ifndef NVS_NUM_H
#define NVS_NUM_H

#include <stdint.h>

/* Decimal digits only ("+" or "-" refused), in [@min, @max]. */
int num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Same for unsigned (32-bit) fields: "4294967297" is -ERANGE, never 1. */
int num_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
/* An optional '-' then decimal digits, in [@min, @max]. */
int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* A finite decimal number ("12", "-0.5", "1e3"), in [@min, @max]. */
int num_parse_double(const char *s, double min, double max, double *out);
/* A percentage 0..100: "50", "50%", "12.5%". */
int num_parse_pct(const char *s, double *out);
/* A byte count, fio style (kb_base=1024, the default): an integer with an
 * optional unit, case-insensitive: b; k, kb = 2^10; m, mb = 2^20; g, gb;
 * t, tb; p, pb = 2^50.  As in fio, the IEC spellings are the decimal
 * ones: kib = 10^3 ... pib = 10^15.  No fractions, no sign. */
int num_parse_size(const char *s, uint64_t *out);
/* A duration into ns: a non-negative decimal (fractions allowed, "0.5s")
 * with an optional unit ns, us/usec, ms/msec, s/sec, m/min, h, d; a bare
 * number is in @unit_ns (1e9 for fio's seconds).  Overflow is -ERANGE. */
int num_parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out);

/* Scans a finite decimal double at the start of @s (same grammar as
 * num_parse_double) and sets *@end after it: for CSV-style readers that
 * check the separator themselves.  0, -EINVAL or -ERANGE (not finite). */
int num_scan_double(const char *s, const char **end, double *out);
/* Scans decimal digits at the start of @s into a u64 (no sign), *@end after. */
int num_scan_u64(const char *s, const char **end, uint64_t *out);

/* An untrusted double into an integer without undefined behaviour: NaN,
 * negatives, and values above @max (or 2^64) are -ERANGE; fractions are
 * truncated toward zero as a C cast would. */
int num_to_u64(double v, uint64_t max, uint64_t *out);
/* Same into [@min, @max] for signed integers. */
int num_to_i64(double v, int64_t min, int64_t max, int64_t *out);

#endif
