/* plot-scaling.c - the scaling chart: a panel per tr-fit model, its
 * curve over the measured points and the extrapolation target. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

static int
nN_lookup(void *ctx, const char *name, size_t n)
{
	(void)ctx;
	if (n == 1 && name[0] == 'n')
		return 0;
	if (n == 1 && name[0] == 'N')
		return 1;
	return -1;
}

static double
eval_at(const struct tr_expr *e, double n, double N)
{
	struct tr_val v[2];

	memset(v, 0, sizeof v);
	v[0].num = n;
	v[1].num = N;
	return tr_expr_num(e, v);
}

struct pt {
	double n, sum, min, max, cnt;
};

static int
pt_cmp(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

static void
scaling_panel(struct tr_plot *p, struct tr_out *o, struct table *mt,
    size_t mr, double x0, double y0, double pw, double ph)
{
	int cty = plot_col(mt, "type"), ck = plot_col(mt, "key");
	int cq = plot_col(mt, "quantity");
	int ce = plot_col(mt, "expr"), cf = plot_col(mt, "family");
	size_t kn, qn, en, typen, fn, i, j, npt = 0;
	const char *ty = plot_fld(mt->rows[mr], cty, &typen);
	const char *k = plot_fld(mt->rows[mr], ck, &kn);
	const char *q = plot_fld(mt->rows[mr], cq, &qn);
	const char *ex = plot_fld(mt->rows[mr], ce, &en);
	const char *fam = plot_fld(mt->rows[mr], cf, &fn);
	char tbuf[64], qbuf[64], ebuf[600], lbuf[600], err[200], title[700];
	struct pt pts[NSER];
	struct tr_expr *e;
	struct tr_scale xs, ys;
	double nlo = INFINITY, nhi = 0, vlo = INFINITY, vhi = 0, target, N = 0;
	double nfit = 0, accmeas = NAN, accv = NAN;
	struct table *at;
	int errcol, logy;

	snprintf(tbuf, sizeof tbuf, "%.*s", (int)(typen < 63 ? typen : 63), ty);
	snprintf(qbuf, sizeof qbuf, "%.*s", (int)(qn < 63 ? qn : 63), q);
	snprintf(ebuf, sizeof ebuf, "%.*s", (int)(en < 599 ? en : 599), ex);
	e = tr_expr_parse(ebuf, nN_lookup, NULL, err, sizeof err, &errcol);
	/* Measured points: the values tr-fit would have read (flat.c) of
	 * every series with an np; several of one np (repeated runs) give
	 * the mean and a min-max bar. */
	snprintf(title, sizeof title, "%s\t%.*s\t%s", tbuf,
	    (int)(kn < 500 ? kn : 500), k, qbuf);
	for (i = 0; i < p->nfv; i++) {
		double n = p->ser[p->fv[i].ser].np, v = p->fv[i].v;

		/* tr-extrap's predictions are not measurements. */
		if (strcmp(p->fv[i].tkq, title) || isnan(n) || isnan(v) ||
		    p->ser[p->fv[i].ser].pred)
			continue;
		if (!isnan(p->ser[p->fv[i].ser].N))
			N = p->ser[p->fv[i].ser].N;
		for (j = 0; j < npt; j++)
			if (pts[j].n == n)
				break;
		if (j == npt) {
			if (npt == NSER)
				continue;
			pts[npt].n = n;
			pts[npt].sum = pts[npt].cnt = 0;
			pts[npt].min = INFINITY;
			pts[npt].max = -INFINITY;
			npt++;
		}
		pts[j].sum += v;
		pts[j].cnt++;
		pts[j].min = fmin(pts[j].min, v);
		pts[j].max = fmax(pts[j].max, v);
	}
	tr_sort(pts, npt, sizeof *pts, pt_cmp);
	nfit = plot_num(mt, mr, plot_col(mt, "points"));
	target = p->opt.target;
	/* Without -T, a run beyond the points the model was fitted on is
	 * the extrapolation target. */
	if (target <= 0 && npt > 0 && !isnan(nfit) && (double)npt > nfit)
		target = pts[npt - 1].n;
	/* tr-accuracy's verdict stands in for a measured run at the
	 * target that is not among the inputs. */
	if ((at = plot_find(p, "acc", NULL)) != NULL) {
		int a1 = plot_col(at, "type"), a2 = plot_col(at, "key");
		int a3 = plot_col(at, "quantity");

		for (i = 0; i < at->n; i++) {
			double tn = p->ser[at->ser[i]].np;

			if (!plot_streq(at, i, a1, tbuf, strlen(tbuf)) ||
			    !plot_streq(at, i, a2, k, kn) ||
			    !plot_streq(at, i, a3, qbuf, strlen(qbuf)))
				continue;
			if (target <= 0 && !isnan(tn))
				target = tn;
			if (target > 0 && (isnan(tn) || tn == target)) {
				accmeas = plot_num(at, i, plot_col(at, "meas"));
				accv = plot_num(at, i, plot_col(at, "acc"));
			}
		}
		if (!isnan(accmeas)) {
			vlo = fmin(vlo, accmeas);
			vhi = fmax(vhi, accmeas);
		}
	}
	for (i = 0; i < npt; i++) {
		nlo = fmin(nlo, pts[i].n);
		nhi = fmax(nhi, pts[i].n);
		vlo = fmin(vlo, pts[i].min);
		vhi = fmax(vhi, pts[i].max);
	}
	if (target > 0) {
		nlo = fmin(nlo, target);
		nhi = fmax(nhi, target);
	}
	if (nhi <= 0) {
		nlo = 1;
		nhi = 64;
	}
	if (e)
		for (i = 0; i <= 60; i++) {
			double n = nlo * pow(nhi / nlo, i / 60.0);
			double v = eval_at(e, n, N);

			if (isfinite(v)) {
				vlo = fmin(vlo, v);
				vhi = fmax(vhi, v);
			}
		}
	if (!isfinite(vlo))
		vlo = 0, vhi = 1;
	logy = p->opt.logy && vlo > 0;
	tr_scale_set(&xs, nlo / 1.25, nhi * 1.25, x0, x0 + pw - 110, 1);
	tr_scale_set(&ys, logy ? vlo : fmin(0, vlo), vhi * 1.05,
	    y0 + ph - 45, y0, logy);
	tr_scale_nice(&ys, 5);
	snprintf(title, sizeof title, "%s %.*s: %s", tbuf,
	    (int)(kn < 500 ? kn : 500), k, qbuf);
	plot_panel_title(o, x0 + (pw - 110) / 2, y0 - 20, pw, title);
	if (e)
		plot_expr_label(lbuf, sizeof lbuf, ebuf);
	snprintf(title, sizeof title, "%.*s: %s", (int)(fn < 40 ? fn : 40),
	    fam, e ? lbuf : "(unreadable model)");
	tr_svg_text(o, x0 + (pw - 110) / 2, y0 - 5, "middle",
	    "font-size=\"10\" fill=\"#555\"", title);
	{
		double tk[NSER + 1];
		int m = 0;

		for (i = 0; i < npt && m < TR_MAXTICKS - 1; i++)
			tk[m++] = pts[i].n;
		if (target > 0 && (npt == 0 || target > pts[npt - 1].n))
			tk[m++] = target;
		tr_svg_axis_at(o, &xs, TR_AXIS_X, ys.r0, ys.r1, TR_UNIT_NONE,
		    "processes n", tk, m);
		tr_svg_axis(o, &ys, TR_AXIS_Y, xs.r0, xs.r1,
		    plot_unit(p, plot_unit_of(qbuf)), qbuf);
	}
	if (e) {
		tr_out_printf(o, "<path class=\"s1\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"2\" d=\"", tr_svg_color(1));
		for (i = 0, j = 0; i <= 80; i++) {
			double n = nlo * pow(nhi / nlo, i / 80.0);
			double v = eval_at(e, n, N);

			if (!isfinite(v) || (logy && v <= 0))
				continue;
			tr_out_printf(o, "%c%.1f,%.1f", j++ ? 'L' : 'M',
			    tr_scale_map(&xs, n), fmax(ys.r1 - 20,
			    fmin(ys.r0 + 20, tr_scale_map(&ys, v))));
		}
		tr_out_str(o, "\"/>\n");
	}
	tr_out_printf(o, "<g class=\"s0\" fill=\"%s\" stroke=\"%s\">\n",
	    tr_svg_color(0), tr_svg_color(0));
	for (i = 0; i < npt; i++) {
		double x = tr_scale_map(&xs, pts[i].n);
		double m = pts[i].sum / pts[i].cnt;

		if (pts[i].n == target)
			continue;
		if (pts[i].max > pts[i].min)
			tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.1f\" y2=\"%.1f\"/>", x, x,
			    tr_scale_map(&ys, pts[i].min),
			    tr_scale_map(&ys, pts[i].max));
		tr_out_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\">"
		    "<title>n=%g: %g</title></circle>\n", x,
		    tr_scale_map(&ys, m), pts[i].n, m);
	}
	tr_out_str(o, "</g>\n");
	if (target > 0 && e) {
		double pv = eval_at(e, target, N), x = tr_scale_map(&xs, target);
		char lab[128];

		for (i = 0; i < npt && pts[i].n != target; i++)
			;
		tr_out_printf(o, "<g class=\"s2\"><line x1=\"%.1f\" "
		    "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" "
		    "stroke-dasharray=\"4 3\"/>\n", x, x, ys.r0, ys.r1);
		if (isfinite(pv))
			tr_out_printf(o, "<path d=\"M%.1f,%.1fl6,6h-12z\" "
			    "transform=\"translate(0,-3)\" fill=\"%s\"><title>"
			    "predicted at n=%g: %g</title></path>\n", x,
			    tr_scale_map(&ys, pv), tr_svg_color(2), target, pv);
		if (i < npt) {
			double mv = pts[i].sum / pts[i].cnt;
			double acc = mv == 0 && pv != 0 ? NAN :
			    tr_accuracy(pv, mv);

			tr_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" "
			    "width=\"8\" height=\"8\" fill=\"%s\"><title>"
			    "measured at n=%g: %g</title></rect>\n", x - 4,
			    tr_scale_map(&ys, mv) - 4, tr_svg_color(2), target,
			    mv);
			if (isnan(acc))
				snprintf(lab, sizeof lab, "n=%g: measured 0, "
				    "predicted %g", target, pv);
			else
				snprintf(lab, sizeof lab, "n=%g: accuracy "
				    "%.1f %%", target, acc);
		} else if (!isnan(accmeas)) {
			tr_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" "
			    "width=\"8\" height=\"8\" fill=\"%s\"><title>"
			    "measured at n=%g: %g</title></rect>\n", x - 4,
			    tr_scale_map(&ys, accmeas) - 4, tr_svg_color(2),
			    target, accmeas);
			snprintf(lab, sizeof lab, "n=%g: accuracy %.1f %%",
			    target, accv);
		} else {
			snprintf(lab, sizeof lab, "n=%g: predicted %s", target,
			    tr_svg_num(ebuf, pv));
		}
		tr_svg_text(o, x - 6, ys.r1 + 14, "end", "font-size=\"11\"",
		    lab);
		tr_out_str(o, "</g>\n");
	}
	tr_expr_free(e);
}

/* The key asked for; else every model but those of a constant 0 (an
 * interval that never takes time says nothing about scaling). */
static int
model_wanted(struct tr_plot *p, struct table *mt, size_t r)
{
	if (p->opt.key)
		return plot_streq(mt, r, plot_col(mt, "key"), p->opt.key,
		    strlen(p->opt.key));
	return !plot_streq(mt, r, plot_col(mt, "expr"), "0", 1);
}

int
plot_scaling_draw(struct tr_plot *p, struct tr_out *o)
{
	struct table *mt = plot_find(p, "model", NULL);
	size_t r, n;
	double w = p->opt.width, pw, ph = 280, h, top = 40;
	int cols;
	char id[64];
	static const char *names[] = {"measured", "model",
		"target: measured (square), predicted (triangle)"};
	const char *colors[3], *classes[] = {"s0", "s1", "s2"};

	if (!mt || mt->n == 0)
		return -1;
	n = 0;
	for (r = 0; r < mt->n; r++)
		if (model_wanted(p, mt, r))
			n++;
	if (n == 0)
		return -1;
	if ((int)n > p->opt.topn)
		n = (size_t)p->opt.topn;
	cols = n == 1 ? 1 : 2;
	pw = w / cols;
	h = top + (double)((n + (size_t)cols - 1) / (size_t)cols) * (ph + 50) +
	    40;
	tr_svg_begin(o, w, h, plot_id(p, id, "scaling"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title : "scaling: measured "
	    "points and fitted models");
	for (r = 0, n = 0; r < mt->n && (int)n < p->opt.topn; r++) {
		if (!model_wanted(p, mt, r))
			continue;
		scaling_panel(p, o, mt, r, (double)(n % (size_t)cols) * pw + 80,
		    top + 40 + (double)(n / (size_t)cols) * (ph + 50), pw, ph);
		n++;
	}
	colors[0] = tr_svg_color(0);
	colors[1] = tr_svg_color(1);
	colors[2] = tr_svg_color(2);
	tr_svg_legend(o, 80, h - 20, w - 100, 3, names, colors, classes);
	tr_svg_end(o);
	return 0;
}
