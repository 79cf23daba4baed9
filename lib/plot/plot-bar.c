/* plot-bar.c - the bar chart: stacked horizontal bars of any value
 * columns of a record type, simrank or opstat unless told. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

struct table *
plot_bar_table(struct tr_plot *p)
{
	struct table *t;

	if (p->opt.type)
		return plot_find(p, p->opt.type, NULL);
	if ((t = plot_find(p, "simrank", NULL)) != NULL)
		return t;
	if ((t = plot_find(p, "opstat", NULL)) != NULL)
		return t;
	return NULL;
}

/* Stacked horizontal bars of the columns in opt.y (comma-separated) per
 * value of column opt.x. */
int
plot_bar_draw(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = plot_bar_table(p);
	const char *xc, *yc;
	char ybuf[256], tbuf[320], *ys[8], *sv, id[64], kb[64];
	int cy[8], ny = 0, cx, i, j, n;
	double w = p->opt.width, left = 200, right = 40, top = 50, bh, h;
	double vmax = 0;
	struct tr_scale xs;
	const char *colors[8], *classes[8];
	char cls[8][16];

	if (!t || t->n == 0)
		return -1;
	xc = p->opt.x ? p->opt.x : !strcmp(t->type, "simrank") ? "rank" :
	    !strcmp(t->type, "opstat") ? "op" : t->names[1];
	yc = p->opt.y ? p->opt.y : !strcmp(t->type, "simrank") ?
	    "compute,comm,wait" : !strcmp(t->type, "opstat") ? "time" :
	    t->nf > 2 ? t->names[2] : t->names[1];
	snprintf(ybuf, sizeof ybuf, "%s", yc);
	for (sv = strtok(ybuf, ","); sv && ny < 8; sv = strtok(NULL, ",")) {
		if ((cy[ny] = plot_col(t, sv)) < 0)
			tr_die(TR_EXIT_USAGE, "%s records have no column %s",
			    t->type, sv);
		ys[ny++] = sv;
	}
	if ((cx = plot_col(t, xc)) < 0)
		tr_die(TR_EXIT_USAGE, "%s records have no column %s", t->type,
		    xc);
	n = (int)t->n < p->opt.topn * 8 ? (int)t->n : p->opt.topn * 8;
	for (i = 0; i < n; i++) {
		double s = 0;

		for (j = 0; j < ny; j++) {
			double v = plot_num(t, (size_t)i, cy[j]);

			s += isnan(v) || v < 0 ? 0 : v;
		}
		vmax = fmax(vmax, s);
	}
	bh = n > 40 ? 8 : 20;
	h = top + n * bh + 80;
	tr_scale_set(&xs, 0, vmax > 0 ? vmax : 1, left, w - right, 0);
	tr_scale_nice(&xs, 8);
	tr_svg_begin(o, w, h, plot_id(p, id, "bar"));
	snprintf(tbuf, sizeof tbuf, "%s: %s by %s", t->type, yc, xc);
	tr_svg_title(o, w, p->opt.title ? p->opt.title : tbuf);
	tr_svg_axis(o, &xs, TR_AXIS_X, top + n * bh, top, plot_unit(p,
	    TR_UNIT_NS), yc);
	for (i = 0; i < n; i++) {
		size_t kn;
		const char *k = plot_fld(t->rows[i], cx, &kn);
		double x = left, y = top + i * bh;

		plot_trunc_key(kb, sizeof kb, k, kn);
		if (n <= 40 || i % ((n + 39) / 40) == 0)
			tr_svg_text(o, left - 6, y + bh / 2 + 4, "end",
			    "font-size=\"11\"", kb);
		for (j = 0; j < ny; j++) {
			double v = plot_num(t, (size_t)i, cy[j]), x1;

			if (isnan(v) || v <= 0)
				continue;
			x1 = x + tr_scale_map(&xs, v) - left;
			tr_out_printf(o, "<rect class=\"s%d\" x=\"%.1f\" "
			    "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"%s\"><title>%s: %g</title></rect>\n", j, x,
			    y + 1, x1 - x, bh - 2, tr_svg_color(j), ys[j], v);
			x = x1;
		}
	}
	for (j = 0; j < ny; j++) {
		colors[j] = tr_svg_color(j);
		snprintf(cls[j], sizeof cls[j], "s%d", j);
		classes[j] = cls[j];
	}
	tr_svg_legend(o, left, h - 20, w - left, ny, (const char *const *)ys,
	    colors, classes);
	tr_svg_end(o);
	return 0;
}
