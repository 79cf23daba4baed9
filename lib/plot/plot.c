/* plot.c - what the charts of tr records (tr-plot, tr-report) are drawn
 * from: the records of any number of inputs kept per type, each input's
 * sections a series, and the values tr-fit would derive from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

#define MAXROWS 200000		/* rows kept per record type */

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
	if (opt->sites)
		tr_tl_sites(p->tl);
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
	tr_opstat_free(p->ost);
	free(p);
}

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

int
plot_col(const struct table *t, const char *name)
{
	int j;

	for (j = 1; t && name && j < t->nf; j++)
		if (strcmp(t->names[j], name) == 0)
			return j;
	return -1;
}

/* Field c of a kept line; its length in *n. */
const char *
plot_fld(const char *line, int c, size_t *n)
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

double
plot_num(const struct table *t, size_t r, int c)
{
	size_t n;
	const char *s;
	double v;

	if (c < 0)
		return NAN;
	s = plot_fld(t->rows[r], c, &n);
	return tr_parse_f64(s, n, &v) == 0 ? v : NAN;
}

int
plot_streq(const struct table *t, size_t r, int c, const char *s, size_t sn)
{
	size_t n;
	const char *f = plot_fld(t->rows[r], c, &n);

	return n == sn && memcmp(f, s, n) == 0;
}

struct table *
plot_find(struct tr_plot *p, const char *type, size_t *from)
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
	struct tr_symbolize *y = NULL;
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
			if (p->tlser == (int)p->nser - 1 && p->opt.matrix) {
				if (!p->ost)
					p->ost = tr_opstat_new(0, 0);
				tr_opstat_rec(p->ost, in, &r);
			}
			if (p->tlser == (int)p->nser - 1) {
				struct tr_ev e = r.u.ev;
				const char *sym;

				if (p->opt.sites) {
					if (!y)
						y = tr_symbolize_new(0);
					if ((sym = tr_symbolize_site(y, in,
					    e.site)) != NULL) {
						e.site.p = sym;
						e.site.n = strlen(sym);
					}
				}
				tr_tl_add(p->tl, &e);
			}
			continue;
		}
		if (r.type == TR_REG && (p->tlser < 0 ||
		    p->tlser == (int)p->nser - 1)) {
			tr_tl_reg(p->tl, &r.u.reg);
			if (p->ost)
				tr_opstat_rec(p->ost, in, &r);
		}
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
	if (y)
		tr_symbolize_free(y);
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
