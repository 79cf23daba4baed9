/* plot-hist.c - the histogram chart: of tr-hist's bin records, or of
 * raw values of any column, a panel per key, series overlaid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

struct hbin {
	double lo, hi, count;
	int ser;
};

struct hgroup {
	char *key;
	double total;
	struct hbin *b;
	size_t n, cap;
};

static int
hgroup_cmp(const void *a, const void *b)
{
	const struct hgroup *x = a, *y = b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

/* Series numbers in order of appearance, for legends and colours. */
static int
ser_slot(int *which, int *nw, int s)
{
	int i;

	for (i = 0; i < *nw; i++)
		if (which[i] == s)
			return i;
	if (*nw >= NSER)
		return NSER - 1;
	which[*nw] = s;
	return (*nw)++;
}

static void
hist_add(struct tr_map *m, struct hgroup **g, size_t *gcap, const char *k,
    size_t kn, struct hbin b)
{
	size_t had = tr_map_len(m);
	long i = tr_map_get(m, k, kn, 1);
	struct hgroup *h;

	if ((size_t)i == had) {
		tr_grow(g, gcap, had + 1, sizeof **g);
		memset(&(*g)[i], 0, sizeof **g);
		(*g)[i].key = tr_strndup(k, kn);
	}
	h = &(*g)[i];
	tr_grow(&h->b, &h->cap, h->n + 1, sizeof *h->b);
	h->b[h->n++] = b;
	/* Time spent, not calls, makes a histogram worth a panel. */
	h->total += b.count * (1 + fabs(b.lo + b.hi) / 2);
}

/* Bins raw values of column y of the chosen type, 30 bins per key over
 * the range of all series, for per-rank totals such as dsum. */
static void
hist_raw(struct tr_plot *p, struct table *t, struct tr_map *m,
    struct hgroup **g, size_t *gcap, int *which, int *nw)
{
	int cy = plot_col(t, p->opt.y);
	int ck = plot_col(t, p->opt.key ? p->opt.key : "key");
	struct tr_map *km = tr_map_new();
	double *lo = NULL, *hi = NULL;
	size_t cap = 0, r, nk;
	long k;

	if (cy < 0)
		tr_die(TR_EXIT_USAGE, "%s records have no column %s", t->type,
		    p->opt.y);
	for (r = 0; r < t->n; r++) {
		size_t kn = 1;
		const char *ks = ck >= 0 ? plot_fld(t->rows[r], ck, &kn) : "*";
		double v = plot_num(t, r, cy);
		size_t had = tr_map_len(km);

		if (isnan(v))
			continue;
		k = tr_map_get(km, ks, kn, 1);
		tr_grow(&lo, &cap, (size_t)k + 1, sizeof *lo);
		hi = tr_realloc(hi, cap * sizeof *hi);
		if ((size_t)k == had)
			lo[k] = hi[k] = v;
		lo[k] = v < lo[k] ? v : lo[k];
		hi[k] = v > hi[k] ? v : hi[k];
	}
	nk = tr_map_len(km);
	for (k = 0; k < (long)nk; k++) {
		size_t kn;
		const char *ks = tr_map_key(km, k, &kn);
		double w = (hi[k] - lo[k]) / 30;
		int s;

		if (w <= 0)
			w = lo[k] != 0 ? fabs(lo[k]) / 10 : 1;
		for (s = 0; s < (int)p->nser; s++) {
			double cnt[30];
			int i, any = 0;

			memset(cnt, 0, sizeof cnt);
			for (r = 0; r < t->n; r++) {
				double v = plot_num(t, r, cy);
				size_t n2 = 1;
				const char *k2 = ck >= 0 ?
				    plot_fld(t->rows[r], ck, &n2) : "*";

				if (t->ser[r] != s || isnan(v) || n2 != kn ||
				    memcmp(k2, ks, kn))
					continue;
				i = (int)((v - lo[k]) / w);
				cnt[i < 0 ? 0 : i > 29 ? 29 : i]++;
				any = 1;
			}
			if (!any)
				continue;
			for (i = 0; i < 30; i++) {
				struct hbin b = {lo[k] + i * w, lo[k] + (i + 1) * w,
				    cnt[i], ser_slot(which, nw, s)};

				hist_add(m, g, gcap, ks, kn, b);
			}
		}
	}
	free(lo);
	free(hi);
	tr_map_free(km);
}

/* Whether the bins of a panel differ in width by more than rounding. */
static int
unequal(const struct hgroup *h)
{
	size_t j;
	double w0 = h->n ? h->b[0].hi - h->b[0].lo : 0;

	for (j = 1; j < h->n; j++)
		if (fabs(h->b[j].hi - h->b[j].lo - w0) > 1e-6 * fabs(w0))
			return 1;
	return 0;
}

static double
height(const struct hbin *b, int dens)
{
	return dens && b->hi > b->lo ? b->count / (b->hi - b->lo) : b->count;
}

static void
panel_frame(struct tr_out *o, const struct tr_scale *x,
    const struct tr_scale *y, int xunit, const char *xl, int yunit,
    const char *yl)
{
	tr_svg_axis(o, x, TR_AXIS_X, y->r0, y->r1, xunit, xl);
	tr_svg_axis(o, y, TR_AXIS_Y, x->r0, x->r1, yunit, yl);
}

static void
ser_legend(struct tr_plot *p, struct tr_out *o, double x, double y,
    double w, int nser, const int *which)
{
	const char *names[NSER], *colors[NSER], *classes[NSER];
	char cls[NSER][16];
	int i;

	for (i = 0; i < nser && i < NSER; i++) {
		names[i] = p->ser[which[i]].label;
		colors[i] = tr_svg_color(i);
		snprintf(cls[i], sizeof cls[i], "s%d", i);
		classes[i] = cls[i];
	}
	tr_svg_legend(o, x, y, w, i, names, colors, classes);
}

int
plot_hist_draw(struct tr_plot *p, struct tr_out *o)
{
	struct tr_map *m = tr_map_new();
	struct hgroup *g = NULL;
	size_t gcap = 0, ng, i, j, tn = 0;
	struct table *t;
	int which[NSER], nw = 0, np, cols, logx;
	double pw, ph = 230, w = p->opt.width, h, top = 50;
	char id[64];
	const char *field = NULL;
	char *fieldbuf = NULL, *key = NULL;
	size_t keycap = 0;

	if (p->opt.y && p->opt.type && (t = plot_find(p, p->opt.type, NULL)) &&
	    strcmp(p->opt.type, "bin")) {
		hist_raw(p, t, m, &g, &gcap, which, &nw);
		field = p->opt.y;
	} else {
		while ((t = plot_find(p, "bin", &tn)) != NULL) {
			int ck = plot_col(t, "key"), cf = plot_col(t, "field");
			int cl = plot_col(t, "lo"), chh = plot_col(t, "hi");
			int cc = plot_col(t, "count");

			for (j = 0; j < t->n; j++) {
				size_t kn, fn;
				const char *k = plot_fld(t->rows[j], ck, &kn);
				const char *f = plot_fld(t->rows[j], cf, &fn);
				struct hbin b;

				if (p->opt.key && (kn != strlen(p->opt.key) ||
				    memcmp(k, p->opt.key, kn)))
					continue;
				if (p->opt.y && (fn != strlen(p->opt.y) ||
				    memcmp(f, p->opt.y, fn)))
					continue;
				if (!fieldbuf)
					fieldbuf = tr_strndup(f, fn);
				b.lo = plot_num(t, j, cl);
				b.hi = plot_num(t, j, chh);
				b.count = plot_num(t, j, cc);
				b.ser = ser_slot(which, &nw, t->ser[j]);
				if (isnan(b.lo) || isnan(b.hi) ||
				    isnan(b.count))
					continue;
				/* the whole key: C++ names of 300 bytes
				 * and more may differ only at the end */
				tr_grow(&key, &keycap, fn + kn + 2, 1);
				memcpy(key, f, fn);
				key[fn] = ' ';
				memcpy(key + fn + 1, k, kn);
				hist_add(m, &g, &gcap, key, fn + 1 + kn, b);
			}
		}
		field = fieldbuf;
	}
	free(key);
	ng = tr_map_len(m);
	if (ng == 0) {
		tr_map_free(m);
		free(fieldbuf);
		return -1;
	}
	/* The panels keep the order of the input; only when there are too
	 * many do the biggest histograms win. */
	if ((int)ng > p->opt.topn)
		tr_sort(g, ng, sizeof *g, hgroup_cmp);
	np = (int)ng < p->opt.topn ? (int)ng : p->opt.topn;
	cols = np == 1 ? 1 : 2;
	pw = w / cols;
	h = top + ((np + cols - 1) / cols) * (ph + 60) + 40;
	tr_svg_begin(o, w, h, plot_id(p, id, "hist"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title : nw > 1 ?
	    "histograms: series overlaid" : "histograms");
	for (i = 0; i < (size_t)np; i++) {
		struct hgroup *hg = &g[i];
		double x0 = (double)(i % cols) * pw + 75;
		double y0 = top + (double)(i / cols) * (ph + 60) + 20;
		double lo = INFINITY, hi = -INFINITY, cmax = 0;
		struct tr_scale xs, ys;
		int s, xunit, dens;

		/* Bins of unequal width (tr-hist -l) are drawn as densities:
		 * as counts, a wide bin would look the most frequent. */
		dens = unequal(hg);
		for (j = 0; j < hg->n; j++) {
			lo = fmin(lo, hg->b[j].lo);
			hi = fmax(hi, hg->b[j].hi);
			cmax = fmax(cmax, height(&hg->b[j], dens));
		}
		logx = p->opt.logx || (lo > 0 && hi / lo > 1000);
		if (logx && !(lo > 0))
			logx = 0;
		tr_scale_set(&xs, lo, hi, x0, x0 + pw - 100, logx);
		tr_scale_set(&ys, 0, cmax > 0 ? cmax : 1, y0 + ph - 40, y0,
		    0);
		tr_scale_nice(&ys, 5);
		plot_panel_title(o, x0 + (pw - 100) / 2, y0 - 4, pw, hg->key);
		/* Bins are keyed "field key": each panel has its own field
		 * (wall, cpu, bytes), and so its own unit. */
		if (!p->opt.y && fieldbuf) {
			size_t fl = strcspn(hg->key, " ");

			free(fieldbuf);
			fieldbuf = tr_strndup(hg->key, fl);
			field = fieldbuf;
		}
		xunit = plot_unit(p, field ? plot_unit_of(field) : TR_UNIT_NS);
		panel_frame(o, &xs, &ys, xunit, field ? field : "value",
		    TR_UNIT_NONE, !dens ? "count" : xunit == TR_UNIT_NS ?
		    "density (count per ns)" : xunit == TR_UNIT_BYTES ?
		    "density (count per byte)" : "density (count per unit)");
		/* The first series filled, the others as outlines over it:
		 * measured vs predicted stay readable where they overlap. */
		for (s = 0; s < nw; s++) {
			tr_out_printf(o, "<g class=\"s%d\" fill=\"%s\" "
			    "fill-opacity=\"%s\" stroke=\"%s\" "
			    "stroke-width=\"%s\">\n", s, tr_svg_color(s),
			    s == 0 ? "0.55" : "0", tr_svg_color(s),
			    s == 0 ? "0.5" : "2");
			for (j = 0; j < hg->n; j++) {
				struct hbin *b = &hg->b[j];
				double a = tr_scale_map(&xs, b->lo);
				double z = tr_scale_map(&xs, b->hi);
				double y = tr_scale_map(&ys, height(b, dens));
				char c1[32], c2[32], c3[32];

				if (b->ser != s || b->count <= 0)
					continue;
				tr_out_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" "
				    "width=\"%.2f\" height=\"%.2f\"><title>"
				    "[%s, %s): %g", a, y, fmax(z - a, 0.5),
				    ys.r0 - y, tr_svg_num(c1, b->lo),
				    tr_svg_num(c2, b->hi), b->count);
				if (dens)
					tr_out_printf(o, ", density %s",
					    tr_svg_num(c3, height(b, dens)));
				tr_out_str(o, "</title></rect>\n");
			}
			tr_out_str(o, "</g>\n");
		}
	}
	ser_legend(p, o, 75, h - 20, w - 100, nw, which);
	tr_svg_end(o);
	for (i = 0; i < ng; i++) {
		free(g[i].key);
		free(g[i].b);
	}
	free(g);
	free(fieldbuf);
	tr_map_free(m);
	return 0;
}
