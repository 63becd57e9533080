/* utf8.h - UTF-8 validation and repair for text from outside (paths, job
 * names, drive model/serial strings) before it is written as JSON.  Lowest
 * layer: includes nothing from the rest of nvscope. */
#ifndef NVS_UTF8_H
#define NVS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* True when the @len bytes at @s are well-formed UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF).  NUL is valid. */
bool utf8_valid(const char *s, size_t len);
/* Length of the well-formed UTF-8 sequence at @s (1..4), 0 when the bytes
 * at @s (up to @len) do not start one. */
size_t utf8_seq_len(const char *s, size_t len);
/* A malloc'ed copy of the NUL-terminated @s in which every byte that is not
 * part of a well-formed sequence is replaced by U+FFFD (EF BF BD).  NULL
 * when out of memory. */
char *utf8_repair(const char *s);

#endif
