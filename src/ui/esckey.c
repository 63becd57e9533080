/* esckey.c - decodes escape sequences curses did not (see esckey.h):
 * xterm, VT220 and Linux console forms of the cursor and editing keys and
 * F1-F12. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "ui/esckey.h"

bool esckey_complete(const char *seq, size_t n)
{
	if (n == 0)
		return false;
	if (seq[0] == 'O')
		return n >= 2;
	if (seq[0] != '[')
		return true;
	if (n >= 2 && seq[1] == '[') /* Linux console F1-F5: ESC [ [ A */
		return n >= 3;
	for (size_t i = 1; i < n; i++)
		if ((unsigned char)seq[i] >= 0x40 && (unsigned char)seq[i] <= 0x7e)
			return true;
	return false;
}

/* ESC [ N ~ (VT220 / xterm) */
static int tilde_key(int n)
{
	static const int fkey[] = {/* 11..15 */ 1,  2, 3, 4, 5,	 0,
				   /* 17..21 */ 6,  7, 8, 9, 10, 0,
				   /* 23, 24 */ 11, 12};
	switch (n) {
	case 1:
	case 7:
		return KEY_HOME;
	case 4:
	case 8:
		return KEY_END;
	case 2:
		return KEY_IC;
	case 3:
		return KEY_DC;
	case 5:
		return KEY_PPAGE;
	case 6:
		return KEY_NPAGE;
	}
	if (n >= 11 && n <= 24 && fkey[n - 11])
		return KEY_F(fkey[n - 11]);
	return 0;
}

/* the final letter of ESC [ ... X or ESC O X */
static int letter_key(char c)
{
	switch (c) {
	case 'A':
		return KEY_UP;
	case 'B':
		return KEY_DOWN;
	case 'C':
		return KEY_RIGHT;
	case 'D':
		return KEY_LEFT;
	case 'H':
		return KEY_HOME;
	case 'F':
		return KEY_END;
	case 'P':
	case 'Q':
	case 'R':
	case 'S':
		return KEY_F(1 + c - 'P');
	}
	return 0;
}

int esckey_decode(const char *seq, size_t n)
{
	if (!esckey_complete(seq, n))
		return 0;
	if (seq[0] == 'O' && n == 2)
		return letter_key(seq[1]);
	if (seq[0] != '[')
		return 0;	     /* Alt-x and the like: dropped */
	if (n == 3 && seq[1] == '[') /* Linux console: ESC [ [ A = F1 .. E = F5 */
		return seq[2] >= 'A' && seq[2] <= 'E' ? KEY_F(1 + seq[2] - 'A') : 0;
	char fin = seq[n - 1];
	if (n == 2 && fin == 'Z')
		return KEY_BTAB;
	/* parameters: digits and ';' only (modifiers such as ESC [ 1 ; 5 H
	 * give the key without its modifier) */
	for (size_t i = 1; i + 1 < n; i++)
		if (!(seq[i] >= '0' && seq[i] <= '9') && seq[i] != ';')
			return 0;
	if (fin == '~')
		return n > 2 ? tilde_key(atoi(seq + 1)) : 0;
	return letter_key(fin);
}
