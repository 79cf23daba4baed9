/* plot.c - charts of tr records as standalone SVG: it collects what the
 * charts need from any number of inputs (each input's sections are
 * series), then draws histograms, scaling plots, diff bars, workflow
 * time charts, bars and the timeline (timeline.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

#define MAXROWS 200000		/* rows kept per record type */
#define NSER 64

static const char *kindnames[] = {"auto", "timeline", "hist", "scaling",
	"diff", "jobs", "bar"};

struct series {
	char *label;
	int file, nsect;	/* input index; sections of that input */
	int pred;		/* #meta extrap: written by tr-extrap */
	int padj;		/* #meta diff.correction: TR_PADJ_* */
	double np, N;
};

/* The records of one declared type, kept as lines. */
struct table {
	char *type;
	int nf;
	char **names;
	char **rows;
	int *ser;
	size_t n, cap;
	int full;
};

/* A derived value as tr-fit sees it (flat.c), for the measured points
 * of scaling plots. */
struct fval {
	char *tkq;		/* type TAB key TAB quantity */
	int ser;
	double v;
};

struct tr_plot {
	struct tr_plotopt opt;
	struct fval *fv;
	size_t nfv, fvcap;
	struct series *ser;
	size_t nser, sercap;
	int nfile;
	struct table *tab;
	size_t ntab, tabcap;
	struct tr_tl *tl;
	int tlser;		/* the series whose ev records are drawn */
	int ids;
};

const char *
tr_plot_kindname(int k)
{
	return k >= 0 && k < TR_PLOT_NKIND ? kindnames[k] : "?";
}

int
tr_plot_kindnum(const char *s)
{
	int k;

	for (k = 0; k < TR_PLOT_NKIND; k++)
		if (strcmp(s, kindnames[k]) == 0)
			return k;
	return -1;
}

struct tr_plot *
tr_plot_new(const struct tr_plotopt *opt)
{
	struct tr_plot *p = tr_calloc(1, sizeof *p);

	p->opt = *opt;
	if (p->opt.width <= 0)
		p->opt.width = 1000;
	if (p->opt.topn <= 0)
		p->opt.topn = 12;
	p->tl = tr_tl_new(opt->limit);
	p->tlser = -1;
	return p;
}

void
tr_plot_free(struct tr_plot *p)
{
	size_t i, j;

	if (!p)
		return;
	for (i = 0; i < p->nser; i++)
		free(p->ser[i].label);
	free(p->ser);
	for (i = 0; i < p->ntab; i++) {
		struct table *t = &p->tab[i];

		free(t->type);
		for (j = 0; j < (size_t)t->nf; j++)
			free(t->names[j]);
		free(t->names);
		for (j = 0; j < t->n; j++)
			free(t->rows[j]);
		free(t->rows);
		free(t->ser);
	}
	free(p->tab);
	for (i = 0; i < p->nfv; i++)
		free(p->fv[i].tkq);
	free(p->fv);
	tr_tl_free(p->tl);
	free(p);
}

/* ---- collecting ---- */

static struct table *
table_for(struct tr_plot *p, const struct tr_decl *d)
{
	struct table *t;
	size_t i;
	int j;

	for (i = 0; i < p->ntab; i++) {
		t = &p->tab[i];
		if (strcmp(t->type, d->name) || t->nf != d->nf)
			continue;
		for (j = 0; j < d->nf; j++)
			if (strcmp(t->names[j], d->names[j]))
				break;
		if (j == d->nf)
			return t;
	}
	tr_grow(&p->tab, &p->tabcap, p->ntab + 1, sizeof *p->tab);
	t = &p->tab[p->ntab++];
	memset(t, 0, sizeof *t);
	t->type = tr_strdup(d->name);
	t->nf = d->nf;
	t->names = tr_malloc((size_t)d->nf * sizeof *t->names);
	for (j = 0; j < d->nf; j++)
		t->names[j] = tr_strdup(d->names[j]);
	return t;
}

static int
col(const struct table *t, const char *name)
{
	int j;

	for (j = 1; t && name && j < t->nf; j++)
		if (strcmp(t->names[j], name) == 0)
			return j;
	return -1;
}

/* Field c of a kept line; its length in *n. */
static const char *
fld(const char *line, int c, size_t *n)
{
	const char *e;

	while (c-- > 0) {
		line = strchr(line, '\t');
		if (!line) {
			*n = 0;
			return "";
		}
		line++;
	}
	e = strchr(line, '\t');
	*n = e ? (size_t)(e - line) : strlen(line);
	return line;
}

static double
num(const struct table *t, size_t r, int c)
{
	size_t n;
	const char *s;
	double v;

	if (c < 0)
		return NAN;
	s = fld(t->rows[r], c, &n);
	return tr_parse_f64(s, n, &v) == 0 ? v : NAN;
}

static int
streq(const struct table *t, size_t r, int c, const char *s, size_t sn)
{
	size_t n;
	const char *f = fld(t->rows[r], c, &n);

	return n == sn && memcmp(f, s, n) == 0;
}

static struct table *
find(struct tr_plot *p, const char *type, size_t *from)
{
	size_t i;

	for (i = from ? *from : 0; i < p->ntab; i++)
		if (strcmp(p->tab[i].type, type) == 0) {
			if (from)
				*from = i + 1;
			return &p->tab[i];
		}
	return NULL;
}

static void
new_series(struct tr_plot *p, const struct tr_in *in, const char *label)
{
	struct series *s;

	tr_grow(&p->ser, &p->sercap, p->nser + 1, sizeof *p->ser);
	s = &p->ser[p->nser++];
	s->label = tr_strdup(label);
	s->file = p->nfile;
	s->nsect = (int)tr_in_section(in);
	s->np = s->N = NAN;
	s->padj = TR_PADJ_HOLM;
}

/* Trace-sized record types: never kept whole. */
static int
bulky(const char *type)
{
	return !strcmp(type, "delta") || !strcmp(type, "sys") ||
	    !strcmp(type, "reg");
}

static void
flat_cb(void *ctx, const struct tr_flatval *v)
{
	struct tr_plot *p = ctx;
	struct fval *f;
	size_t n;

	if (p->nfv >= MAXROWS * 4)
		return;
	tr_grow(&p->fv, &p->fvcap, p->nfv + 1, sizeof *p->fv);
	f = &p->fv[p->nfv++];
	n = strlen(v->type) + strlen(v->key) + strlen(v->quantity) + 3;
	f->tkq = tr_malloc(n);
	snprintf(f->tkq, n, "%s\t%s\t%s", v->type, v->key, v->quantity);
	f->ser = (int)p->nser - 1;
	f->v = v->v;
}

/* Equal, or both unknown. */
static int
same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

int
tr_plot_read(struct tr_plot *p, int nfiles, char **files, const char *label)
{
	struct tr_flat *fl = tr_flat_new(NULL, NULL, NULL);
	const char *file = files[0];
	struct tr_in *in;
	struct tr_rec r;
	long sect = 0;
	int k, st, first = (int)p->nser;
	const char *base;

	in = tr_open(nfiles, files);
	if (!label) {
		base = strrchr(file, '/');
		label = base ? base + 1 : file;
		if (!strcmp(file, "-"))
			label = "stdin";
	}
	while ((k = tr_next(in, &r)) != TR_EOF) {
		struct series *s;
		const char *c;
		int64_t v;
		double f;

		if (k == TR_HDR) {
			if (tr_in_section(in) != sect) {
				sect = tr_in_section(in);
				new_series(p, in, label);
			}
			s = &p->ser[p->nser - 1];
			if (tr_meta_i64(in, "np", &v) == 0) {
				s->np = (double)v;
				if (p->tlser < 0 || p->tlser == (int)p->nser - 1)
					tr_tl_np(p->tl, v);
			}
			if (tr_meta_f64(in, "N", &f) == 0)
				s->N = f;
			s->pred = tr_meta(in, "extrap") != NULL;
			if ((c = tr_meta(in, "diff.correction")))
				s->padj = !strcmp(c, "bh") ? TR_PADJ_BH :
				    !strcmp(c, "none") ? TR_PADJ_NONE :
				    TR_PADJ_HOLM;
			continue;
		}
		if (k == TR_END)
			tr_flat_end(fl, flat_cb, p);
		if (k != TR_REC)
			continue;
		tr_flat_add(fl, in, &r, flat_cb, p);
		if (r.type == TR_EV) {
			if (p->tlser < 0)
				p->tlser = (int)p->nser - 1;
			if (p->tlser == (int)p->nser - 1)
				tr_tl_add(p->tl, &r.u.ev);
			continue;
		}
		if (r.type == TR_REG && (p->tlser < 0 ||
		    p->tlser == (int)p->nser - 1))
			tr_tl_reg(p->tl, &r.u.reg);
		if (r.type == TR_COMM) {
			if (p->tlser < 0 || p->tlser == (int)p->nser - 1)
				tr_tl_comm(p->tl, tr_get_i64(in, &r, 1),
				    tr_get_i64(in, &r, 2), r.f[4].p, r.f[4].n);
			continue;
		}
		if (bulky(r.decl->name) && !(p->opt.type &&
		    !strcmp(p->opt.type, r.decl->name)))
			continue;
		{
			struct table *t = table_for(p, r.decl);

			if (t->n >= MAXROWS) {
				if (!t->full)
					tr_warn("%s: more than %d %s records; "
					    "the rest are not drawn",
					    tr_in_file(in), MAXROWS, t->type);
				t->full = 1;
				continue;
			}
			tr_grow(&t->rows, &t->cap, t->n + 1, sizeof *t->rows);
			t->ser = tr_realloc(t->ser, t->cap * sizeof *t->ser);
			t->rows[t->n] = tr_strndup(r.line, r.len);
			t->ser[t->n++] = (int)p->nser - 1;
		}
	}
	st = tr_in_status(in);
	tr_close(in);
	tr_flat_free(fl);
	/* An input with several sections (runs at several np, or at one np
	 * and several problem sizes) names each series by what tells the
	 * sections apart; predictions say so. */
	{
		size_t i;
		int many = (int)p->nser - first > 1, bynp = 0, byN = 0;

		for (i = (size_t)first + 1; many && i < p->nser; i++) {
			bynp |= !same(p->ser[i].np, p->ser[first].np);
			byN |= !same(p->ser[i].N, p->ser[first].N);
		}
		for (i = (size_t)first; i < p->nser; i++) {
			char buf[300], np[80] = "";
			int n = 0;

			if (bynp && !isnan(p->ser[i].np))
				n = snprintf(np, sizeof np, " np=%g",
				    p->ser[i].np);
			if (byN && !isnan(p->ser[i].N))
				snprintf(np + n, sizeof np - (size_t)n,
				    " N=%g", p->ser[i].N);
			if (many && !np[0])
				snprintf(np, sizeof np, " #%d",
				    p->ser[i].nsect);
			snprintf(buf, sizeof buf, "%s%s%s", p->ser[i].label,
			    np, p->ser[i].pred ? " (predicted)" : "");
			free(p->ser[i].label);
			p->ser[i].label = tr_strdup(buf);
		}
	}
	p->nfile++;
	return st;
}

static struct table *
bar_table(struct tr_plot *p)
{
	struct table *t;

	if (p->opt.type)
		return find(p, p->opt.type, NULL);
	if ((t = find(p, "simrank", NULL)) != NULL)
		return t;
	if ((t = find(p, "opstat", NULL)) != NULL)
		return t;
	return NULL;
}

int
tr_plot_kinds(struct tr_plot *p, int *kinds)
{
	int n = 0;
	struct table *t;

	if (tr_tl_events(p->tl) > 0)
		kinds[n++] = TR_PLOT_TIMELINE;
	if ((t = find(p, "model", NULL)) && t->n)
		kinds[n++] = TR_PLOT_SCALING;
	if (((t = find(p, "bin", NULL)) && t->n) ||
	    (p->opt.type && p->opt.y && find(p, p->opt.type, NULL)))
		kinds[n++] = TR_PLOT_HIST;
	if ((t = find(p, "diff", NULL)) && t->n)
		kinds[n++] = TR_PLOT_DIFF;
	if ((t = find(p, "job", NULL)) && t->n)
		kinds[n++] = TR_PLOT_JOBS;
	if ((t = bar_table(p)) && t->n)
		kinds[n++] = TR_PLOT_BAR;
	return n;
}

/* ---- drawing helpers ---- */

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

static const char *
chart_id(struct tr_plot *p, char *buf, const char *kind)
{
	snprintf(buf, 64, "%s%s%d", p->opt.id ? p->opt.id : "", kind, p->ids++);
	return buf;
}

static int
unit_or(const struct tr_plot *p, int def)
{
	return p->opt.unit >= 0 ? p->opt.unit : def;
}

/* The unit of a quantity by its name: counts have none, sizes are bytes,
 * the rest of what the tools write is ns. "wall:max" is named by "wall". */
static int
unit_of(const char *q)
{
	static const char *counts[] = {"n", "ranks", "calls", "count", "msgs",
	    "points", "reps", "subrs", "events", "np", "N", "rank", NULL};
	size_t n = strcspn(q, ":");
	int i;

	for (i = 0; counts[i]; i++)
		if (strlen(counts[i]) == n && strncmp(q, counts[i], n) == 0)
			return TR_UNIT_NONE;
	if (n >= 5 && strncmp(q, "bytes", 5) == 0)
		return TR_UNIT_BYTES;
	return TR_UNIT_NS;
}

/* ---- histograms ---- */

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
	int cy = col(t, p->opt.y), ck = col(t, p->opt.key ? p->opt.key : "key");
	struct tr_map *km = tr_map_new();
	double *lo = NULL, *hi = NULL;
	size_t cap = 0, r, nk;
	long k;

	if (cy < 0)
		tr_die(TR_EXIT_USAGE, "%s records have no column %s", t->type,
		    p->opt.y);
	for (r = 0; r < t->n; r++) {
		size_t kn = 1;
		const char *ks = ck >= 0 ? fld(t->rows[r], ck, &kn) : "*";
		double v = num(t, r, cy);
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
				double v = num(t, r, cy);
				size_t n2 = 1;
				const char *k2 = ck >= 0 ?
				    fld(t->rows[r], ck, &n2) : "*";

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

/* K in at most MAX characters (MAX > 3), its start and end kept: the
 * call sites of an interval differ at either end. */
static void
cut_middle(char *buf, size_t bn, const char *k, size_t kn, size_t max)
{
	size_t head = (max - 3) / 2, tail = max - 3 - head;

	/* Cut between characters: a byte 10xxxxxx continues one. */
	while (kn > max && head > 0 && ((unsigned char)k[head] & 0xc0) == 0x80)
		head--;
	while (kn > max && tail > 0 &&
	    ((unsigned char)k[kn - tail] & 0xc0) == 0x80)
		tail--;
	if (kn > max)
		snprintf(buf, bn, "%.*s...%.*s", (int)head, k, (int)tail,
		    k + kn - tail);
	else
		snprintf(buf, bn, "%.*s", (int)kn, k);
}

/* A panel's bold title S at X, Y, cut in the middle to the panel's
 * width PW (about 7.5 px a character, centred 25 px right of the
 * panel's middle): a symbolized interval's key of 200 bytes ran into the
 * next panel. The whole title is the cut one's tooltip. */
static void
panel_title(struct tr_out *o, double x, double y, double pw, const char *s)
{
	char buf[512];
	size_t n = strlen(s), room = (size_t)fmax((pw - 60) / 7.5, 16);

	cut_middle(buf, sizeof buf, s, n, room < sizeof buf ? room :
	    sizeof buf - 1);
	tr_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	    "font-weight=\"bold\">", x, y);
	tr_svg_escs(o, buf);
	if (strlen(buf) < n) {
		tr_out_str(o, "<title>");
		tr_svg_escs(o, s);
		tr_out_str(o, "</title>");
	}
	tr_out_str(o, "</text>\n");
}

static int
draw_hist(struct tr_plot *p, struct tr_out *o)
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

	if (p->opt.y && p->opt.type && (t = find(p, p->opt.type, NULL)) &&
	    strcmp(p->opt.type, "bin")) {
		hist_raw(p, t, m, &g, &gcap, which, &nw);
		field = p->opt.y;
	} else {
		while ((t = find(p, "bin", &tn)) != NULL) {
			int ck = col(t, "key"), cf = col(t, "field");
			int cl = col(t, "lo"), chh = col(t, "hi");
			int cc = col(t, "count");

			for (j = 0; j < t->n; j++) {
				size_t kn, fn;
				const char *k = fld(t->rows[j], ck, &kn);
				const char *f = fld(t->rows[j], cf, &fn);
				struct hbin b;

				if (p->opt.key && (kn != strlen(p->opt.key) ||
				    memcmp(k, p->opt.key, kn)))
					continue;
				if (p->opt.y && (fn != strlen(p->opt.y) ||
				    memcmp(f, p->opt.y, fn)))
					continue;
				if (!fieldbuf)
					fieldbuf = tr_strndup(f, fn);
				b.lo = num(t, j, cl);
				b.hi = num(t, j, chh);
				b.count = num(t, j, cc);
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
	tr_svg_begin(o, w, h, chart_id(p, id, "hist"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title : nw > 1 ?
	    "histograms: series overlaid" : "histograms");
	for (i = 0; i < (size_t)np; i++) {
		struct hgroup *hg = &g[i];
		double x0 = (double)(i % cols) * pw + 75;
		double y0 = top + (double)(i / cols) * (ph + 60) + 20;
		double lo = INFINITY, hi = -INFINITY, cmax = 0;
		struct tr_scale xs, ys;
		int s;

		for (j = 0; j < hg->n; j++) {
			lo = fmin(lo, hg->b[j].lo);
			hi = fmax(hi, hg->b[j].hi);
			cmax = fmax(cmax, hg->b[j].count);
		}
		logx = p->opt.logx || (lo > 0 && hi / lo > 1000);
		if (logx && !(lo > 0))
			logx = 0;
		tr_scale_set(&xs, lo, hi, x0, x0 + pw - 100, logx);
		tr_scale_set(&ys, 0, cmax > 0 ? cmax : 1, y0 + ph - 40, y0,
		    0);
		tr_scale_nice(&ys, 5);
		panel_title(o, x0 + (pw - 100) / 2, y0 - 4, pw, hg->key);
		/* Bins are keyed "field key": each panel has its own field
		 * (wall, cpu, bytes), and so its own unit. */
		if (!p->opt.y && fieldbuf) {
			size_t fl = strcspn(hg->key, " ");

			free(fieldbuf);
			fieldbuf = tr_strndup(hg->key, fl);
			field = fieldbuf;
		}
		panel_frame(o, &xs, &ys,
		    unit_or(p, field ? unit_of(field) : TR_UNIT_NS),
		    field ? field : "value", TR_UNIT_NONE, "count");
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
				double y = tr_scale_map(&ys, b->count);
				char c1[32], c2[32];

				if (b->ser != s || b->count <= 0)
					continue;
				tr_out_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" "
				    "width=\"%.2f\" height=\"%.2f\"><title>"
				    "[%s, %s): %g</title></rect>\n", a, y,
				    fmax(z - a, 0.5), ys.r0 - y,
				    tr_svg_num(c1, b->lo), tr_svg_num(c2,
				    b->hi), b->count);
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

/* ---- scaling ---- */

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
	int cty = col(mt, "type"), ck = col(mt, "key"), cq = col(mt, "quantity");
	int ce = col(mt, "expr"), cf = col(mt, "family");
	size_t kn, qn, en, typen, fn, i, j, npt = 0;
	const char *ty = fld(mt->rows[mr], cty, &typen);
	const char *k = fld(mt->rows[mr], ck, &kn);
	const char *q = fld(mt->rows[mr], cq, &qn);
	const char *ex = fld(mt->rows[mr], ce, &en);
	const char *fam = fld(mt->rows[mr], cf, &fn);
	char tbuf[64], qbuf[64], ebuf[600], err[200], title[700];
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
	nfit = num(mt, mr, col(mt, "points"));
	target = p->opt.target;
	/* Without -T, a run beyond the points the model was fitted on is
	 * the extrapolation target. */
	if (target <= 0 && npt > 0 && !isnan(nfit) && (double)npt > nfit)
		target = pts[npt - 1].n;
	/* tr-accuracy's verdict stands in for a measured run at the
	 * target that is not among the inputs. */
	if ((at = find(p, "acc", NULL)) != NULL) {
		int a1 = col(at, "type"), a2 = col(at, "key");
		int a3 = col(at, "quantity");

		for (i = 0; i < at->n; i++) {
			double tn = p->ser[at->ser[i]].np;

			if (!streq(at, i, a1, tbuf, strlen(tbuf)) ||
			    !streq(at, i, a2, k, kn) ||
			    !streq(at, i, a3, qbuf, strlen(qbuf)))
				continue;
			if (target <= 0 && !isnan(tn))
				target = tn;
			if (target > 0 && (isnan(tn) || tn == target)) {
				accmeas = num(at, i, col(at, "meas"));
				accv = num(at, i, col(at, "acc"));
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
	panel_title(o, x0 + (pw - 110) / 2, y0 - 20, pw, title);
	snprintf(title, sizeof title, "%.*s: %s", (int)(fn < 40 ? fn : 40),
	    fam, e ? ebuf : "(unreadable model)");
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
		    unit_or(p, unit_of(qbuf)), qbuf);
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
			double acc = mv != 0 ? (1 - fabs(pv - mv) / fabs(mv)) *
			    100 : pv == 0 ? 100 : NAN;

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
		return streq(mt, r, col(mt, "key"), p->opt.key,
		    strlen(p->opt.key));
	return !streq(mt, r, col(mt, "expr"), "0", 1);
}

static int
draw_scaling(struct tr_plot *p, struct tr_out *o)
{
	struct table *mt = find(p, "model", NULL);
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
	tr_svg_begin(o, w, h, chart_id(p, id, "scaling"));
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

/* ---- horizontal bars: diff, and any key/value columns ---- */

static void
trunc_key(char *buf, size_t bn, const char *k, size_t kn)
{
	cut_middle(buf, bn, k, kn, 34);
}

static int
draw_diff(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = find(p, "diff", NULL);
	int ck, ca, cb, cr, co, n, i;
	double w = p->opt.width, left = 250, right = 60, top = 80, bh = 26;
	double h, vmax = 0, rlo = 1, rhi = 1;
	struct tr_scale xs, rs;
	char id[64], kb[64];
	static const char *names[] = {"a", "b", "ratio b/a"};
	const char *colors[3], *classes[] = {"s0", "s1", "s2"};

	if (!t || t->n == 0)
		return -1;
	ck = col(t, "key");
	ca = col(t, "a");
	cb = col(t, "b");
	cr = col(t, "ratio");
	co = col(t, "only");
	n = (int)t->n < p->opt.topn ? (int)t->n : p->opt.topn;
	for (i = 0; i < n; i++) {
		double a = num(t, (size_t)i, ca), b = num(t, (size_t)i, cb);
		double r = num(t, (size_t)i, cr);

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
	tr_svg_begin(o, w, h, chart_id(p, id, "diff"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title :
	    "diff: a vs b per key, ratio as points");
	tr_svg_axis(o, &xs, TR_AXIS_X, top + n * bh, top, unit_or(p,
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
		const char *k = fld(t->rows[i], ck, &kn);
		const char *only = co >= 0 ? fld(t->rows[i], co, &on) : "-";
		double y = top + i * bh, a = num(t, (size_t)i, ca);
		double b = num(t, (size_t)i, cb), r = num(t, (size_t)i, cr);
		char lab[128];

		trunc_key(kb, sizeof kb, k, kn);
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

/* Stacked horizontal bars of the columns in opt.y (comma-separated) per
 * value of column opt.x. */
static int
draw_bar(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = bar_table(p);
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
		if ((cy[ny] = col(t, sv)) < 0)
			tr_die(TR_EXIT_USAGE, "%s records have no column %s",
			    t->type, sv);
		ys[ny++] = sv;
	}
	if ((cx = col(t, xc)) < 0)
		tr_die(TR_EXIT_USAGE, "%s records have no column %s", t->type,
		    xc);
	n = (int)t->n < p->opt.topn * 8 ? (int)t->n : p->opt.topn * 8;
	for (i = 0; i < n; i++) {
		double s = 0;

		for (j = 0; j < ny; j++) {
			double v = num(t, (size_t)i, cy[j]);

			s += isnan(v) || v < 0 ? 0 : v;
		}
		vmax = fmax(vmax, s);
	}
	bh = n > 40 ? 8 : 20;
	h = top + n * bh + 80;
	tr_scale_set(&xs, 0, vmax > 0 ? vmax : 1, left, w - right, 0);
	tr_scale_nice(&xs, 8);
	tr_svg_begin(o, w, h, chart_id(p, id, "bar"));
	snprintf(tbuf, sizeof tbuf, "%s: %s by %s", t->type, yc, xc);
	tr_svg_title(o, w, p->opt.title ? p->opt.title : tbuf);
	tr_svg_axis(o, &xs, TR_AXIS_X, top + n * bh, top, unit_or(p,
	    TR_UNIT_NS), yc);
	for (i = 0; i < n; i++) {
		size_t kn;
		const char *k = fld(t->rows[i], cx, &kn);
		double x = left, y = top + i * bh;

		trunc_key(kb, sizeof kb, k, kn);
		if (n <= 40 || i % ((n + 39) / 40) == 0)
			tr_svg_text(o, left - 6, y + bh / 2 + 4, "end",
			    "font-size=\"11\"", kb);
		for (j = 0; j < ny; j++) {
			double v = num(t, (size_t)i, cy[j]), x1;

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

/* ---- workflow time chart ---- */

struct job {
	size_t row;
	double start, end;
	long host, cmd;
	int lane;
	long nin;		/* jobs nested in it (a recursive make's) */
};

/* By host, then the jobs that ran others (whose lanes come first), then
 * start. */
static int
job_cmp(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if ((x->nin > 0) != (y->nin > 0))
		return x->nin > 0 ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Counts into each job's nin the jobs that ran in it. */
static void
count_nested(const struct table *t, struct job *j)
{
	int cp = col(t, "parent"), cpid = col(t, "pid");
	struct tr_job *n;
	size_t i;

	if (cp < 0 || cpid < 0)
		return;
	n = tr_calloc(t->n, sizeof *n);
	for (i = 0; i < t->n; i++) {
		double pid = num(t, i, cpid), up = num(t, i, cp);

		n[i].host = j[i].host;
		n[i].pid = isnan(pid) ? -1 : (int64_t)pid;
		n[i].parent = isnan(up) ? -1 : (int64_t)up;
		n[i].start = (int64_t)j[i].start;
		n[i].end = (int64_t)j[i].end;
	}
	tr_jobs_nest(n, t->n);
	for (i = 0; i < t->n; i++)
		if (n[i].up >= 0)
			j[n[i].up].nin++;
	free(n);
}

static int
draw_jobs(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = find(p, "job", NULL);
	struct tr_map *hosts, *cmds;
	struct job *j;
	double *laneend = NULL, lo = INFINITY, hi = 0, w = p->opt.width;
	double left = 130, top = 50, lh = 22, h;
	size_t i, lcap = 0, nlane = 0, hostfirst = 0;
	long curhost = -1;
	int cs, ce, ch, cc, ct, k;
	char id[64];
	struct tr_scale xs;
	const char *names[13], *colors[13], *classes[13];
	char nm[13][48], cls[13][16];
	size_t *lanehost = NULL, lhcap = 0, lkcap = 0;
	unsigned char *lanemake = NULL;

	if (!t || t->n == 0)
		return -1;
	cs = col(t, "start");
	ce = col(t, "elapsed");
	ch = col(t, "host");
	cc = col(t, "cmd");
	ct = col(t, "target");
	hosts = tr_map_new();
	cmds = tr_map_new();
	j = tr_calloc(t->n, sizeof *j);
	for (i = 0; i < t->n; i++) {
		size_t hn, cn, m;
		const char *hs = fld(t->rows[i], ch, &hn);
		const char *c = fld(t->rows[i], cc, &cn);

		/* A command is named by its program, without its path. */
		while (cn && (*c == ' ' || *c == '\t'))
			c++, cn--;
		for (m = 0; m < cn && c[m] != ' '; m++)
			;
		cn = m;
		for (m = cn; m > 0 && c[m - 1] != '/'; m--)
			;
		c += m;
		cn -= m;
		j[i].row = i;
		j[i].start = num(t, i, cs);
		j[i].end = j[i].start + num(t, i, ce);
		j[i].host = tr_map_get(hosts, hs, hn, 1);
		j[i].cmd = tr_map_get(cmds, cn ? c : "-", cn ? cn : 1, 1);
		if (isnan(j[i].start) || isnan(j[i].end))
			tr_die(TR_EXIT_DATA, "job record %zu: bad start or "
			    "elapsed", i + 1);
		lo = fmin(lo, j[i].start);
		hi = fmax(hi, j[i].end);
	}
	count_nested(t, j);
	/* Jobs that overlap on one host ran on different workers: give
	 * each the first free lane of its host. A job that ran a sub-make
	 * held no worker while its jobs ran, and gets a lane of the
	 * host's makes. */
	tr_sort(j, t->n, sizeof *j, job_cmp);
	for (i = 0; i < t->n; i++) {
		size_t l;

		if (j[i].host != curhost) {
			curhost = j[i].host;
			hostfirst = nlane;
		}
		for (l = hostfirst; l < nlane; l++)
			if (laneend[l] <= j[i].start &&
			    lanemake[l] == (j[i].nin > 0))
				break;
		if (l == nlane) {
			tr_grow(&laneend, &lcap, nlane + 1, sizeof *laneend);
			tr_grow(&lanehost, &lhcap, nlane + 1, sizeof *lanehost);
			tr_grow(&lanemake, &lkcap, nlane + 1, 1);
			lanehost[nlane] = (size_t)curhost;
			lanemake[nlane] = j[i].nin > 0;
			nlane++;
		}
		laneend[l] = j[i].end;
		j[i].lane = (int)l;
	}
	h = top + (double)nlane * lh + 90;
	tr_scale_set(&xs, 0, hi - lo, left, w - 30, 0);
	tr_svg_begin(o, w, h, chart_id(p, id, "jobs"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title :
	    "workflow: jobs per worker");
	tr_svg_axis(o, &xs, TR_AXIS_X, top + (double)nlane * lh, top,
	    TR_UNIT_NS, "time since the first job");
	for (i = 0; i < nlane; i++) {
		size_t hn;
		const char *hs = tr_map_key(hosts, (long)lanehost[i], &hn);
		char lab[80];
		size_t w = 0, l;

		for (l = 0; l < i; l++)
			w += lanehost[l] == lanehost[i] &&
			    lanemake[l] == lanemake[i];
		snprintf(lab, sizeof lab, "%.*s/%s%zu",
		    (int)(hn < 60 ? hn : 60), hs, lanemake[i] ? "make" : "",
		    w);
		tr_svg_text(o, left - 6, top + (double)i * lh + lh / 2 + 4,
		    "end", "font-size=\"11\"", lab);
	}
	for (i = 0; i < t->n; i++) {
		double x0 = tr_scale_map(&xs, j[i].start - lo);
		double x1 = tr_scale_map(&xs, j[i].end - lo);
		int c = j[i].cmd < 12 ? (int)j[i].cmd : 12;
		size_t tn2, cn2;
		const char *tg = fld(t->rows[j[i].row], ct, &tn2);
		const char *cm = fld(t->rows[j[i].row], cc, &cn2);

		tr_out_printf(o, "<rect class=\"s%d\" x=\"%.2f\" y=\"%.1f\" "
		    "width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s "
		    "stroke=\"#fff\" stroke-width=\"0.5\"><title>", c, x0,
		    top + j[i].lane * lh + 2, fmax(x1 - x0, 0.5), lh - 4,
		    tr_svg_color(c), j[i].nin ? " fill-opacity=\"0.35\"" : "");
		tr_svg_esc(o, tg, tn2);
		tr_out_str(o, ": ");
		tr_svg_esc(o, cm, cn2 < 200 ? cn2 : 200);
		tr_out_printf(o, " (%.3f s", (j[i].end - j[i].start) / 1e9);
		if (j[i].nin)
			tr_out_printf(o, ", %ld job%s in it", j[i].nin,
			    j[i].nin > 1 ? "s" : "");
		tr_out_str(o, ")</title></rect>\n");
	}
	for (k = 0; k < 13 && (size_t)k < tr_map_len(cmds); k++) {
		size_t cn;
		const char *c = tr_map_key(cmds, k, &cn);

		if (k == 12)
			snprintf(nm[k], sizeof nm[k], "other");
		else
			snprintf(nm[k], sizeof nm[k], "%.*s",
			    (int)(cn < 40 ? cn : 40), c);
		snprintf(cls[k], sizeof cls[k], "s%d", k);
		names[k] = nm[k];
		colors[k] = tr_svg_color(k);
		classes[k] = cls[k];
	}
	tr_svg_legend(o, left, h - 30, w - left, k, names, colors, classes);
	tr_svg_end(o);
	free(j);
	free(laneend);
	free(lanehost);
	free(lanemake);
	tr_map_free(hosts);
	tr_map_free(cmds);
	return 0;
}

int
tr_plot_draw(struct tr_plot *p, int kind, struct tr_out *o)
{
	char id[64];

	switch (kind) {
	case TR_PLOT_TIMELINE:
		if (tr_tl_events(p->tl) == 0)
			return -1;
		tr_tl_draw(p->tl, o, chart_id(p, id, "tl"), p->opt.title,
		    p->opt.width);
		return 0;
	case TR_PLOT_HIST:
		return draw_hist(p, o);
	case TR_PLOT_SCALING:
		return draw_scaling(p, o);
	case TR_PLOT_DIFF:
		return draw_diff(p, o);
	case TR_PLOT_JOBS:
		return draw_jobs(p, o);
	case TR_PLOT_BAR:
		return draw_bar(p, o);
	}
	return -1;
}

int
tr_plot_table(const struct tr_plot *p, size_t i, struct tr_plottab *t)
{
	const struct table *s;

	if (i >= p->ntab)
		return -1;
	s = &p->tab[i];
	t->type = s->type;
	t->nf = s->nf;
	t->names = (const char *const *)s->names;
	t->n = s->n;
	t->rows = (const char *const *)s->rows;
	t->ser = s->ser;
	return 0;
}

int
tr_plot_padj(const struct tr_plot *p, int s)
{
	return s < 0 || (size_t)s >= p->nser ? TR_PADJ_HOLM : p->ser[s].padj;
}

const char *
tr_plot_series(const struct tr_plot *p, int s, double *np)
{
	if (s < 0 || (size_t)s >= p->nser)
		return NULL;
	if (np)
		*np = p->ser[s].np;
	return p->ser[s].label;
}
