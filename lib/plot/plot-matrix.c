/* plot-matrix.c - the communication matrix: a heat map of the bytes (or
 * messages) each rank sent each other, of cmat records (tr-stat) or of
 * the messages of the ev records drawn; many ranks are binned. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

#define MAXCELLS 128		/* rows and columns at most */

struct mat {
	int64_t n, g, nc;	/* ranks, ranks per row, rows */
	double *bytes, *msgs;	/* nc x nc, row: sender */
	int64_t *src, *dst, *m, *b;	/* the pairs, before binning */
	size_t np, cap;
};

static void
pair_cb(void *ctx, int64_t src, int64_t dst, int64_t msgs, int64_t bytes)
{
	struct mat *x = ctx;

	if (src < 0 || dst < 0)
		return;
	tr_grow(&x->src, &x->cap, x->np + 1, sizeof *x->src);
	x->dst = tr_realloc(x->dst, x->cap * sizeof *x->dst);
	x->m = tr_realloc(x->m, x->cap * sizeof *x->m);
	x->b = tr_realloc(x->b, x->cap * sizeof *x->b);
	x->src[x->np] = src;
	x->dst[x->np] = dst;
	x->m[x->np] = msgs;
	x->b[x->np++] = bytes;
	if (src + 1 > x->n)
		x->n = src + 1;
	if (dst + 1 > x->n)
		x->n = dst + 1;
}

/* The pairs of the first series with cmat records, else of the
 * messages counted in the ev records. */
static void
pairs(struct tr_plot *p, struct mat *x)
{
	struct table *t;
	size_t from = 0, r;

	while ((t = plot_find(p, "cmat", &from)) != NULL) {
		int cs = plot_col(t, "src"), cd = plot_col(t, "dst");
		int cm = plot_col(t, "msgs"), cb = plot_col(t, "bytes");

		for (r = 0; r < t->n; r++) {
			double s = plot_num(t, r, cs), d = plot_num(t, r, cd);
			double m = plot_num(t, r, cm), b = plot_num(t, r, cb);

			if (t->ser[r] != t->ser[0] || isnan(s) || isnan(d))
				continue;
			pair_cb(x, (int64_t)s, (int64_t)d, isnan(m) ? 0 :
			    (int64_t)m, isnan(b) ? 0 : (int64_t)b);
		}
		if (x->np)
			return;
	}
	if (p->ost)
		tr_opstat_cmat(p->ost, pair_cb, x);
}

static void
mat_free(struct mat *x)
{
	free(x->bytes);
	free(x->msgs);
	free(x->src);
	free(x->dst);
	free(x->m);
	free(x->b);
}

int
plot_matrix_has(struct tr_plot *p)
{
	struct mat x;
	int n;

	memset(&x, 0, sizeof x);
	pairs(p, &x);
	n = x.np > 0;
	mat_free(&x);
	return n;
}

/* A light-to-dark sequential ramp (viridis reversed), at f in [0, 1]. */
static void
ramp(char *buf, double f)
{
	static const double st[5][3] = {{253, 231, 37}, {94, 201, 98},
	    {33, 145, 140}, {59, 82, 139}, {68, 1, 84}};
	double u = f < 0 ? 0 : f > 1 ? 4 : f * 4;
	int i = u >= 4 ? 3 : (int)u;
	double a = u - i;

	snprintf(buf, 16, "#%02x%02x%02x",
	    (int)lround(st[i][0] + a * (st[i + 1][0] - st[i][0])),
	    (int)lround(st[i][1] + a * (st[i + 1][1] - st[i][1])),
	    (int)lround(st[i][2] + a * (st[i + 1][2] - st[i][2])));
}

static void
ranks(char *buf, size_t n, const struct mat *x, int64_t c)
{
	int64_t a = c * x->g, z = a + x->g - 1;

	if (z >= x->n)
		z = x->n - 1;
	if (a == z)
		snprintf(buf, n, "%lld", (long long)a);
	else
		snprintf(buf, n, "%lld-%lld", (long long)a, (long long)z);
}

int
plot_matrix_draw(struct tr_plot *p, struct tr_out *o)
{
	struct mat x;
	size_t i;
	int64_t r, c;
	double *v, vmin = INFINITY, vmax = 0, w = p->opt.width, side, cs;
	double left = 90, top = 60, lx, lh;
	int bybytes = 0, k;
	char id[64], buf[256], col[16], b1[64], b2[64], b3[32];
	struct tr_scale ts;
	double tk[TR_MAXTICKS];
	int nt;

	memset(&x, 0, sizeof x);
	pairs(p, &x);
	if (x.np == 0) {
		mat_free(&x);
		return -1;
	}
	x.g = (x.n + MAXCELLS - 1) / MAXCELLS;
	x.nc = (x.n + x.g - 1) / x.g;
	x.bytes = tr_calloc((size_t)(x.nc * x.nc), sizeof *x.bytes);
	x.msgs = tr_calloc((size_t)(x.nc * x.nc), sizeof *x.msgs);
	for (i = 0; i < x.np; i++) {
		size_t at = (size_t)(x.src[i] / x.g * x.nc + x.dst[i] / x.g);

		x.bytes[at] += (double)x.b[i];
		x.msgs[at] += (double)x.m[i];
		bybytes |= x.b[i] > 0;
	}
	/* Bytes tell the volume; messages of no bytes only their count. */
	v = bybytes ? x.bytes : x.msgs;
	for (i = 0; i < (size_t)(x.nc * x.nc); i++)
		if (v[i] > 0) {
			vmin = fmin(vmin, v[i]);
			vmax = fmax(vmax, v[i]);
		}
	side = fmin(w - left - 150, 720);
	if (side < 100)
		side = 100;
	cs = side / (double)x.nc;
	tr_svg_begin(o, w, top + side + 70, plot_id(p, id, "mat"));
	snprintf(buf, sizeof buf, "%s", p->opt.title ? p->opt.title :
	    "communication matrix");
	tr_svg_title(o, w, buf);
	if (x.g > 1)
		snprintf(buf, sizeof buf, "%s sent, sender by row, receiver "
		    "by column; %lld ranks in %lld-rank bins",
		    bybytes ? "bytes" : "messages", (long long)x.n,
		    (long long)x.g);
	else
		snprintf(buf, sizeof buf, "%s sent, sender by row, receiver "
		    "by column; %lld ranks", bybytes ? "bytes" : "messages",
		    (long long)x.n);
	tr_svg_text(o, w / 2, 38, "middle", "fill=\"#555\"", buf);
	tr_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\" fill=\"#fff\" stroke=\"#999\"/>\n", left, top,
	    side, side);
	/* Log colours: halos and reductions differ by orders of
	 * magnitude. */
	tr_out_str(o, "<g class=\"cells\">\n");
	for (r = 0; r < x.nc; r++)
		for (c = 0; c < x.nc; c++) {
			size_t at = (size_t)(r * x.nc + c);
			double f;

			if (x.msgs[at] <= 0)
				continue;
			f = vmax > vmin ? log(v[at] / vmin) / log(vmax / vmin) :
			    1;
			/* messages of no bytes: off the scale, in grey */
			if (v[at] <= 0)
				snprintf(col, sizeof col, "#cccccc");
			else
				ramp(col, f);
			ranks(b1, sizeof b1, &x, r);
			ranks(b2, sizeof b2, &x, c);
			tr_svg_qty(b3, sizeof b3, TR_UNIT_BYTES, x.bytes[at]);
			tr_out_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" "
			    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
			    "<title>%s to %s: %.0f messages, %s</title>"
			    "</rect>\n", left + (double)c * cs,
			    top + (double)r * cs, cs, cs, col, b1, b2,
			    x.msgs[at], b3);
		}
	tr_out_str(o, "</g>\n");
	/* Rank ticks, the same on both axes. */
	tr_scale_set(&ts, 0, (double)x.n, 0, side, 0);
	nt = tr_scale_ticks(&ts, 8, tk);
	tr_out_str(o, "<g class=\"ticks\" font-size=\"11\">\n");
	for (k = 0; k < nt; k++) {
		/* a rank of its own: its label at the middle of its row */
		double at = (tk[k] + (x.g == 1 ? 0.5 : 0)) / (double)x.n * side;

		if (tk[k] >= (double)x.n)
			continue;
		snprintf(b1, sizeof b1, "%.0f", tk[k]);
		tr_svg_text(o, left + at, top + side + 16, "middle", NULL, b1);
		tr_svg_text(o, left - 6, top + at + 4, "end", NULL, b1);
	}
	tr_out_str(o, "</g>\n");
	tr_svg_text(o, left + side / 2, top + side + 40, "middle", NULL,
	    "receiver rank");
	snprintf(buf, sizeof buf, "transform=\"rotate(-90 %.1f %.1f)\"",
	    left - 50, top + side / 2);
	tr_svg_text(o, left - 50, top + side / 2, "middle", buf,
	    "sender rank");
	/* The colour scale, light (least) to dark (most). */
	lx = left + side + 30;
	lh = side < 300 ? side : 300;
	tr_out_printf(o, "<defs><linearGradient id=\"%s-ramp\" x1=\"0\" "
	    "y1=\"1\" x2=\"0\" y2=\"0\">", id);
	for (k = 0; k <= 4; k++) {
		ramp(col, k / 4.0);
		tr_out_printf(o, "<stop offset=\"%d%%\" stop-color=\"%s\"/>",
		    k * 25, col);
	}
	tr_out_str(o, "</linearGradient></defs>\n");
	tr_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" "
	    "height=\"%.1f\" fill=\"url(#%s-ramp)\" stroke=\"#999\"/>\n", lx,
	    top, lh, id);
	if (bybytes) {
		tr_svg_qty(b1, sizeof b1, TR_UNIT_BYTES, vmax);
		tr_svg_qty(b2, sizeof b2, TR_UNIT_BYTES, vmin);
	} else {
		snprintf(b1, sizeof b1, "%.0f msgs", vmax);
		snprintf(b2, sizeof b2, "%.0f msgs", vmin);
	}
	tr_svg_text(o, lx + 22, top + 10, "start", "font-size=\"11\"", b1);
	tr_svg_text(o, lx + 22, top + lh, "start", "font-size=\"11\"", b2);
	tr_svg_text(o, lx, top + lh + 18, "start", "font-size=\"11\"",
	    "log scale");
	tr_svg_end(o);
	mat_free(&x);
	return 0;
}
