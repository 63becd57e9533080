/* specval.h - fio's value syntaxes for opt_set (specval.c).  Each returns 0
 * or -EINVAL with @err saying why (the bs setters, filename, percentiles);
 * the others -EINVAL alone. */
#ifndef NVS_SPECVAL_H
#define NVS_SPECVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"

/* "r,w[,t]": one value for every direction; an empty part is ""; a trim
 * part must be empty or equal the write part.  @part points into @buf. */
int specval_split_rw(const char *v, char *part[2], char *buf, size_t blen);
/* rate_iops=r,w (counts) or rate=r,w (@bytes: fio's sizes) into @out. */
int specval_rate(uint64_t out[2], const char *v, bool bytes);
/* percentile_list=99:99.9 (sorted, at most 20). */
int specval_pct_list(struct spec *s, const char *v, char *err, size_t errlen);
/* bssplit=LIST[,LIST], bs=SIZE[,SIZE], bsrange=MIN-MAX[,MIN-MAX]. */
int specval_bssplit(struct spec *s, const char *v, char *err, size_t errlen);
int specval_bs(struct spec *s, const char *v, char *err, size_t errlen);
int specval_bsrange(struct spec *s, const char *v, char *err, size_t errlen);
/* filename=PATH[:PATH..]: fio's "\:" escape; a ':' list is one job over
 * the files (s->fileset). */
int specval_filename(struct spec *s, const char *v, char *err, size_t errlen);
/* fio's buffer_pattern (and verify_pattern) syntax: 0x hex, "string",
 * decimal integers, concatenated in any order.  Returns the length (> 0)
 * or -EINVAL; at most @max bytes. */
int specval_pattern(const char *str, uint8_t *out, size_t max);
/* random_distribution=zoned:A/S[:A/S..][,read-list...] (fio's syntax). */
int specval_zoned(struct spec *s, const char *v, char *err, size_t errlen);
/* file_service_type=roundrobin|sequential|random[:N]. */
int specval_file_service(struct spec *s, const char *v, char *err, size_t errlen);
/* fio's options nvscope refuses, each with why (OPT_REFUSED rows; and
 * fallocate, accepted as none or 0 only): rows of io/opt/opt.c's table. */
#define SPECVAL_NREFUSED 9
extern const struct opt_row specval_refused_opts[SPECVAL_NREFUSED];

#endif
