/* braille.c - dot canvas encoded as Unicode braille patterns.
 *
 * The braille block (U+2800..U+28FF) encodes the eight dots of a 2x4 cell as
 * bits of the code point offset: the left column top to bottom holds dots
 * 1,2,3,7 (bits 0x01,0x02,0x04,0x40), the right column dots 4,5,6,8 (bits
 * 0x08,0x10,0x20,0x80) - the ordering comes from 6-dot braille extended to
 * eight dots (Unicode 3.0, "Braille Patterns" chart).  A terminal cell thus
 * holds 2x4 plot points, the trick used by drawille, btop and others.  Each
 * cell keeps the colour role of the last dot set in it: one colour per cell
 * is all a terminal allows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ui/braille.h"

static const uint8_t dot_bits[4][2] = {
    {0x01, 0x08},
    {0x02, 0x10},
    {0x04, 0x20},
    {0x40, 0x80},
};

uint8_t braille_bit(int dx, int dy)
{
	if (dx < 0 || dx > 1 || dy < 0 || dy > 3)
		return 0;
	return dot_bits[dy][dx];
}

uint32_t braille_char(uint8_t bits)
{
	return BRAILLE_BASE + bits;
}

char braille_ascii(uint8_t bits)
{
	int top = (bits & 0x1b) != 0; /* rows 0-1: 0x01 0x02 0x08 0x10 */
	int bot = (bits & 0xe4) != 0; /* rows 2-3: 0x04 0x20 0x40 0x80 */
	if (top && bot)
		return ':';
	if (top)
		return '\'';
	if (bot)
		return '.';
	return ' ';
}

int bcanvas_init(struct bcanvas *c, int w, int h)
{
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	size_t need = (size_t)w * (size_t)h;
	size_t have = (size_t)c->w * (size_t)c->h;
	if (!c->cell || need > have) {
		struct bcell *n = calloc(need ? need : 1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		free(c->cell);
		c->cell = n;
	}
	c->w = w;
	c->h = h;
	bcanvas_clear(c);
	return 0;
}

void bcanvas_release(struct bcanvas *c)
{
	free(c->cell);
	c->cell = NULL;
	c->w = c->h = 0;
}

void bcanvas_clear(struct bcanvas *c)
{
	if (c->cell)
		memset(c->cell, 0, (size_t)c->w * (size_t)c->h * sizeof(*c->cell));
}

void bcanvas_set(struct bcanvas *c, int x, int y, uint8_t role)
{
	if (x < 0 || y < 0 || x >= 2 * c->w || y >= 4 * c->h)
		return;
	struct bcell *cell = &c->cell[(y / 4) * c->w + x / 2];
	cell->bits |= dot_bits[y % 4][x % 2];
	cell->role = role;
}

const struct bcell *bcanvas_cell(const struct bcanvas *c, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= c->w || cy >= c->h)
		return NULL;
	return &c->cell[cy * c->w + cx];
}
