/* termesc.h - text from outside (file and device names, plan and job names,
 * drive models and serials, messages that quote them) made safe for a
 * terminal: every control character becomes a visible escape, so no byte of
 * it can start a terminal sequence (ESC, CSI, OSC: set the title, write the
 * clipboard, clear the screen, move the cursor).
 *
 *   C0 controls and DEL          \xNN  (\n \t \r kept with TERMESC_KEEP_NL)
 *   C1 controls U+0080..U+009F   \uNNNN (C2 80..C2 9F in UTF-8)
 *   bidi overrides and isolates  \uNNNN (U+202A..U+202E, U+2066..U+2069)
 *   a byte not in well-formed UTF-8  \xNN
 *
 * Everything else (printable ASCII and well-formed UTF-8) is copied.  A
 * backslash is not escaped: the result is for eyes, not for parsing back.
 * Lowest layer: includes nothing from the rest of nvscope but base/. */
#ifndef NVS_TERMESC_H
#define NVS_TERMESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TERMESC_KEEP_NL 1u /* \n, \t and \r pass (whole messages, not one name) */

/* The escaped form of the @len bytes at @s into @dst (@cap bytes, always
 * NUL-terminated when @cap > 0), cut to at most @cols columns (a code point
 * or an escape's character is one column; (size_t)-1: no limit).  Never
 * splits an escape or a UTF-8 sequence.  Returns the length of the whole
 * escaped form (as snprintf: the result was cut when it is >= @cap or the
 * columns ran out; *@cut (may be NULL) says whether it was). */
size_t termesc(char *dst, size_t cap, const char *s, size_t len, size_t cols, unsigned flags,
	       bool *cut);
/* The escaped form of NUL-terminated @s in a static per-thread ring of
 * buffers (8 of 1024 bytes), cut with "..." past that: for a printf
 * argument.  Never NULL. */
const char *termesc_str(const char *s);
/* A stream that writes through termesc(TERMESC_KEEP_NL) to @fd (not closed
 * with it); @buffered: BUFSIZ, else unbuffered.  NULL when out of memory. */
FILE *termesc_fdopen(int fd, bool buffered);
/* Replaces stderr, and stdout when @out, by streams that pass everything
 * written through termesc(TERMESC_KEEP_NL) to the same file descriptor (a
 * UTF-8 sequence split between two writes is kept whole).  nvscope's own
 * terminal sequences (a progress line's erase) go by termesc_raw().  0, or
 * -errno (the streams unchanged). */
int termesc_install(bool out);
/* Writes NUL-terminated @s to @fd unfiltered, after flushing stdout and
 * stderr: nvscope's own terminal sequences only. */
void termesc_raw(int fd, const char *s);

#endif
