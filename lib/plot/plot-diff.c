/* plot-diff.c - the diff chart: tr-diff's a and b per key as bars, their
 * ratio as points on a log axis. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

int
plot_diff_draw(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = plot_find(p, "diff", NULL);
	int ck, ca, cb, cr, co, n, i;
	double w = p->opt.width, left = 250, right = 60, top = 80, bh = 26;
	double h, vmax = 0, rlo = 1, rhi = 1;
	struct tr_scale xs, rs;
	char id[64], kb[64];
	static const char *names[] = {"a", "b", "ratio b/a"};
	const char *colors[3], *classes[] = {"s0", "s1", "s2"};

	if (!t || t->n == 0)
		return -1;
	ck = plot_col(t, "key");
	ca = plot_col(t, "a");
	cb = plot_col(t, "b");
	cr = plot_col(t, "ratio");
	co = plot_col(t, "only");
	n = (int)t->n < p->opt.topn ? (int)t->n : p->opt.topn;
	for (i = 0; i < n; i++) {
		double a = plot_num(t, (size_t)i, ca);
		double b = plot_num(t, (size_t)i, cb);
		double r = plot_num(t, (size_t)i, cr);

		vmax = fmax(vmax, fmax(isnan(a) ? 0 : a, isnan(b) ? 0 : b));
		if (r > 0 && isfinite(r)) {
			rlo = fmin(rlo, r);
			rhi = fmax(rhi, r);
		}
	}
	h = top + n * bh + 80;
	tr_scale_set(&xs, 0, vmax > 0 ? vmax : 1, left, w - right, 0);
	tr_scale_nice(&xs, 8);
	tr_scale_set(&rs, rlo, rhi, left, w - right, 1);
	tr_scale_nice(&rs, 6);
	tr_svg_begin(o, w, h, plot_id(p, id, "diff"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title :
	    "diff: a vs b per key, ratio as points");
	tr_svg_axis(o, &xs, TR_AXIS_X, top + n * bh, top, plot_unit(p,
	    TR_UNIT_NS), "time");
	/* The ratio axis on top, log scale, with 1 marked. */
	{
		double tk[TR_MAXTICKS], x1 = tr_scale_map(&rs, 1);
		char b[32];
		int m = tr_scale_ticks(&rs, 8, tk), j;

		tr_out_printf(o, "<g class=\"s2\"><line x1=\"%.1f\" "
		    "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
		    left, w - right, top - 4, top - 4);
		for (j = 0; j < m; j++)
			tr_svg_text(o, tr_scale_map(&rs, tk[j]), top - 8,
			    "middle", "font-size=\"10\"", tr_svg_num(b, tk[j]));
		tr_svg_text(o, (left + w - right) / 2, top - 22, "middle",
		    "font-size=\"11\"", "ratio b/a (log scale)");
		tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"3 3\"/>"
		    "</g>\n", x1, x1, top - 4, top + n * bh, tr_svg_color(2));
	}
	for (i = 0; i < n; i++) {
		size_t kn, on = 0;
		const char *k = plot_fld(t->rows[i], ck, &kn);
		const char *only = co >= 0 ? plot_fld(t->rows[i], co, &on) :
		    "-";
		double y = top + i * bh, a = plot_num(t, (size_t)i, ca);
		double b = plot_num(t, (size_t)i, cb);
		double r = plot_num(t, (size_t)i, cr);
		char lab[128];

		plot_trunc_key(kb, sizeof kb, k, kn);
		if (on && !(on == 1 && only[0] == '-'))
			snprintf(lab, sizeof lab, "%s (only %.*s)", kb,
			    (int)(on < 8 ? on : 8), only);
		else
			snprintf(lab, sizeof lab, "%s", kb);
		tr_svg_text(o, left - 6, y + bh / 2 + 4, "end", NULL, lab);
		if (!isnan(a) && a > 0)
			tr_out_printf(o, "<rect class=\"s0\" x=\"%.1f\" "
			    "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"%s\"><title>a: %g</title></rect>\n", left,
			    y + 3, tr_scale_map(&xs, a) - left, bh / 2 - 3,
			    tr_svg_color(0), a);
		if (!isnan(b) && b > 0)
			tr_out_printf(o, "<rect class=\"s1\" x=\"%.1f\" "
			    "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"%s\"><title>b: %g</title></rect>\n", left,
			    y + bh / 2, tr_scale_map(&xs, b) - left,
			    bh / 2 - 3, tr_svg_color(1), b);
		if (r > 0 && isfinite(r))
			tr_out_printf(o, "<circle class=\"s2\" cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"#000\">"
			    "<title>ratio %g</title></circle>\n",
			    tr_scale_map(&rs, r), y + bh / 2, tr_svg_color(2),
			    r);
	}
	colors[0] = tr_svg_color(0);
	colors[1] = tr_svg_color(1);
	colors[2] = tr_svg_color(2);
	tr_svg_legend(o, left, h - 20, w - left, 3, names, colors, classes);
	tr_svg_end(o);
	return 0;
}
