/* showfloor.c - showfloor mode's big figures (showfloor.h).  The digits are
 * draw_big's 3x5 font (block characters, '#' in ASCII), each cell scaled to
 * the room (showfloor_scale), readable from across a hall; units go in the
 * label under each figure, as the font has digits, '.', k, M, G and '-'
 * only. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ui/showfloor.h"
#include "ui/strips.h"

void showfloor_lat_text(double us, char *text, size_t tlen, char *label, size_t llen)
{
	const char *unit = "us";
	double v = us;
	if (isnan(us) || us < 0) {
		snprintf(text, tlen, "-");
		snprintf(label, llen, "p99 latency");
		return;
	}
	if (us >= 1e6)
		v = us / 1e6, unit = "s";
	else if (us >= 999.5)
		v = us / 1e3, unit = "ms";
	if (!strcmp(unit, "us") || v >= 99.95)
		snprintf(text, tlen, "%.0f", v);
	else if (v >= 9.995)
		snprintf(text, tlen, "%.1f", v);
	else
		snprintf(text, tlen, "%.2f", v);
	snprintf(label, llen, "p99 latency %s", unit);
}

static void mbps_text(double bps, char *text, size_t len)
{
	if (isnan(bps) || bps < 0)
		snprintf(text, len, "-");
	else if (bps / 1e6 >= 99.95 || bps == 0)
		snprintf(text, len, "%.0f", bps / 1e6);
	else
		snprintf(text, len, "%.1f", bps / 1e6);
}

void showfloor_numbers(const struct pane_ctx *c, WINDOW *w)
{
	const struct point *lp = strips_now_point(pane_series(c, -1));
	char txt[3][24], lab[3][32];
	double iops = lp ? point_iops(lp) : NAN;
	if (isnan(iops))
		snprintf(txt[0], sizeof(txt[0]), "-");
	else
		axis_fmt(iops, UNIT_IOPS, true, txt[0], sizeof(txt[0]));
	snprintf(lab[0], sizeof(lab[0]), "IOPS");
	mbps_text(lp ? point_bw(lp) : NAN, txt[1], sizeof(txt[1]));
	snprintf(lab[1], sizeof(lab[1]), "MB/s");
	showfloor_lat_text(lp ? lp->lat_p99_all_us : NAN, txt[2], sizeof(txt[2]), lab[2],
			   sizeof(lab[2]));
	draw_header(c->p, w, "nvscope showfloor", "b leaves (asks)");
	int wd = getmaxx(w), h = getmaxy(w);
	const char *tp[3] = {txt[0], txt[1], txt[2]}, *lp3[3] = {lab[0], lab[1], lab[2]};
	int sc = showfloor_scale(wd, h, tp, lp3);
	/* spread the figures over the width: equal columns when all fit */
	int need = 0;
	for (int i = 0; i < 3; i++)
		need += draw_big_width(txt[i], sc);
	int gap = (wd - 2 - need) / 3;
	if (gap < 2)
		gap = 2;
	int x = 1, text_x = 1;
	for (int i = 0; i < 3; i++) {
		int used =
		    h >= 7 ? draw_big(c->p, w, 1, x, wd - x - 1, ROLE_BIGNUM, txt[i], sc) : 0;
		if (used) {
			draw_str(c->p, w, 1 + 5 * sc, x, wd - x - 1, ROLE_HEADER, lab[i]);
			x += (used > draw_width(lab[i]) ? used : draw_width(lab[i])) + gap;
		} else { /* too narrow for it: plain text below, whole */
			char line[256];
			snprintf(line, sizeof(line), "%s %s  ", lab[i], txt[i]);
			int row = h >= 8 ? 7 : h - 1;
			if (text_x + draw_width(line) <= wd)
				text_x +=
				    draw_str(c->p, w, row, text_x, wd - text_x, ROLE_BIGNUM, line);
		}
	}
}

int showfloor_scale(int wd, int h, const char *const txt[3], const char *const lab[3])
{
	int best = 1;
	for (int sc = 2; 2 + 5 * sc <= h; sc++) {
		int need = 2 + 2 * 2; /* the borders, two gaps at least */
		for (int i = 0; i < 3; i++) {
			/* at least 5 characters a figure: the size holds as they change */
			int n = (int)strlen(txt[i]) > 5 ? (int)strlen(txt[i]) : 5;
			int fw = (n * 4 - 1) * sc, lw = draw_width(lab[i]);
			need += fw > lw ? fw : lw;
		}
		if (need > wd)
			break;
		best = sc;
	}
	return best;
}
