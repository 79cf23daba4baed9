/* plot-int.h - the internals the chart kinds of plot*.c share. */
#ifndef TR_PLOT_INT_H
#define TR_PLOT_INT_H

#include "plot.h"

#define NSER 64		/* series a chart tells apart */

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
	struct tr_opstat *ost;	/* its communication matrix */
	int ids;
};

/* ---- plot.c: the records kept ---- */

/* The first table of TYPE from the one after *FROM (NULL: from the
 * first); *FROM is then the one after it. */
struct table *plot_find(struct tr_plot *p, const char *type, size_t *from);
/* Column NAME of T, or -1. */
int plot_col(const struct table *t, const char *name);
/* Field c of a kept line; its length in *n. */
const char *plot_fld(const char *line, int c, size_t *n);
/* Field c of row r as a number, NaN if it is none. */
double plot_num(const struct table *t, size_t r, int c);
int plot_streq(const struct table *t, size_t r, int c, const char *s,
    size_t sn);

/* ---- plot-label.c: what the charts' labels share ---- */

/* A new element id of kind KIND, in BUF of 64 bytes. */
const char *plot_id(struct tr_plot *p, char *buf, const char *kind);
/* The unit asked for, else DEF. */
int plot_unit(const struct tr_plot *p, int def);
int plot_unit_of(const char *q);
void plot_cut_middle(char *buf, size_t bn, const char *k, size_t kn,
    size_t max);
void plot_panel_title(struct tr_out *o, double x, double y, double pw,
    const char *s);
/* A bar's key, cut to fit left of the bars. */
void plot_trunc_key(char *buf, size_t bn, const char *k, size_t kn);
/* Expression E with its constants to six significant digits, in BUF. */
void plot_expr_label(char *buf, size_t bn, const char *e);

/* ---- plot-hist.c, plot-scaling.c, plot-diff.c, plot-bar.c,
 * plot-jobs.c: the chart kinds ---- */

/* Each writes one <svg> element, or returns -1 having written nothing
 * if the records read hold nothing for it. */
int plot_hist_draw(struct tr_plot *p, struct tr_out *o);
int plot_scaling_draw(struct tr_plot *p, struct tr_out *o);
int plot_diff_draw(struct tr_plot *p, struct tr_out *o);
int plot_bar_draw(struct tr_plot *p, struct tr_out *o);
/* The table the bar chart draws, or NULL. */
struct table *plot_bar_table(struct tr_plot *p);
int plot_jobs_draw(struct tr_plot *p, struct tr_out *o);
/* Whether there is a communication matrix: cmat records, or the
 * messages of the ev records drawn. */
int plot_matrix_has(struct tr_plot *p);
int plot_matrix_draw(struct tr_plot *p, struct tr_out *o);

#endif
