/* braille.h - a dot canvas drawn with Unicode braille (2x4 dots per cell)
 * or, without UTF-8, with ASCII.  Pure: no ncurses; the console copies the
 * cells to the screen. */
#ifndef NVS_UI_BRAILLE_H
#define NVS_UI_BRAILLE_H

#include <stdint.h>

#define BRAILLE_BASE 0x2800u /* U+2800, the blank braille pattern */

/* One terminal cell: its dot bits and the colour role of the last dot set
 * (0 = none). */
struct bcell {
	uint8_t bits;
	uint8_t role;
};

/* A canvas of w x h cells, i.e. 2w x 4h dots; (0,0) is the top-left dot. */
struct bcanvas {
	int w, h;
	struct bcell *cell; /* w * h, row-major */
};

/* Dot bit of dot (@dx, @dy) inside a cell, dx 0..1, dy 0..3 (top to
 * bottom); 0 when out of range. */
uint8_t braille_bit(int dx, int dy);
/* Code point of a cell with @bits: U+2800 + bits. */
uint32_t braille_char(uint8_t bits);
/* ASCII stand-in for @bits: ' ' none, '\'' top half only, '.' bottom half
 * only, ':' both halves. */
char braille_ascii(uint8_t bits);

/* Allocates a blank w x h canvas (w, h >= 0).  0 or -ENOMEM; frees with
 * bcanvas_release.  Reuses its memory when already big enough. */
int bcanvas_init(struct bcanvas *c, int w, int h);
void bcanvas_release(struct bcanvas *c);
/* Blanks every cell. */
void bcanvas_clear(struct bcanvas *c);
/* Sets dot (@x, @y) (dot coordinates, y down) with colour @role; dots off
 * the canvas are ignored. */
void bcanvas_set(struct bcanvas *c, int x, int y, uint8_t role);
/* The cell at column @cx, row @cy (NULL when outside). */
const struct bcell *bcanvas_cell(const struct bcanvas *c, int cx, int cy);

#endif
