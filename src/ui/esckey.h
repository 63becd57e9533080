/* esckey.h - escape sequences the terminal's terminfo does not describe
 * (a vt100 entry knows arrows and F1-F4 only, but the terminal may send
 * Home, End, PgUp, Shift-Tab... as xterm or the Linux console do).  With
 * keypad() on, curses hands such a sequence over as separate characters:
 * ESC, '[', '4', '~'.  The console collects them after an ESC and decodes
 * them here, so no part of a sequence is ever taken as a letter (End used
 * to jump to a preset).  Pure: no ncurses calls, only its KEY_* codes. */
#ifndef NVS_UI_ESCKEY_H
#define NVS_UI_ESCKEY_H

#include <stdbool.h>
#include <stddef.h>

/* Whether @seq (@n bytes, after the ESC) is a complete sequence: CSI
 * ('[' parameters final byte 0x40-0x7e), SS3 ('O' and one byte), or any
 * single other byte (Alt-x).  False while more bytes are due. */
bool esckey_complete(const char *seq, size_t n);
/* The curses key code (KEY_HOME, KEY_END, KEY_PPAGE, KEY_NPAGE, KEY_UP...,
 * KEY_BTAB, KEY_F(n), KEY_DC, KEY_IC) of complete sequence @seq (after the
 * ESC), or 0: an unknown sequence, to be dropped whole. */
int esckey_decode(const char *seq, size_t n);

#endif
