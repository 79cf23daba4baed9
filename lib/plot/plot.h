/* plot/plot.h - charts as SVG, and the HTML report of them. */
#ifndef TR_PLOT_H
#define TR_PLOT_H

#include "../cmp/cmp.h"

/* ---- svg.c: the pieces of SVG charts ---- */

#define TR_MAXTICKS 32
enum { TR_AXIS_X, TR_AXIS_Y };
enum { TR_UNIT_NONE, TR_UNIT_NS, TR_UNIT_BYTES };

/* Maps the domain [d0, d1] to the range [r0, r1] (pixels), linearly or
 * by log10 (log: the domain must be positive). */
struct tr_scale {
	double d0, d1, r0, r1;
	int log;
};
void tr_scale_set(struct tr_scale *s, double d0, double d1, double r0,
    double r1, int log);
double tr_scale_map(const struct tr_scale *s, double v);
/* Widens the domain to round values for about max ticks. */
void tr_scale_nice(struct tr_scale *s, int max);
/* Up to max (at most TR_MAXTICKS) round values in the domain, into t. */
int tr_scale_ticks(const struct tr_scale *s, int max, double *t);
/* The divisor and unit name (ns..s, B..TB) that suit values of size
 * step; 1 and NULL for TR_UNIT_NONE. */
double tr_svg_unit(int unit, double step, const char **name);
/* A short label for a tick value, in a buffer of 32 bytes. */
char *tr_svg_num(char *buf, double v);
/* V in the unit that suits it, "1.5 ms" or "2.048 KB", into BUF of N
 * bytes (UNIT: TR_UNIT_NS or TR_UNIT_BYTES). */
char *tr_svg_qty(char *buf, size_t n, int unit, double v);
/* Colour of series i; i < 0 is the neutral grey of compute time. */
const char *tr_svg_color(int i);
/* Writes s with XML's special characters escaped. */
void tr_svg_esc(struct tr_out *o, const char *s, size_t n);
void tr_svg_escs(struct tr_out *o, const char *s);
void tr_svg_begin(struct tr_out *o, double w, double h, const char *id);
void tr_svg_end(struct tr_out *o);
void tr_svg_text(struct tr_out *o, double x, double y, const char *anchor,
    const char *attr, const char *s);
void tr_svg_title(struct tr_out *o, double w, const char *title);
void tr_svg_axis(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label);
/* The same with ticks at the n values t (e.g. the process counts). */
void tr_svg_axis_at(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label,
    const double *t, int n);
double tr_svg_legend(struct tr_out *o, double x, double y, double w, int n,
    const char *const *names, const char *const *colors,
    const char *const *classes);

/* ---- timeline.c: the timeline chart of ev records ---- */

struct tr_tl;
/* Up to limit events are drawn one by one (with messages and
 * collective waits); beyond it, lanes become time bins. */
struct tr_tl *tr_tl_new(long limit);
void tr_tl_np(struct tr_tl *t, int64_t np);
void tr_tl_add(struct tr_tl *t, const struct tr_ev *e);
/* Calls' tooltips name their call sites (e->site). */
void tr_tl_sites(struct tr_tl *t);
void tr_tl_reg(struct tr_tl *t, const struct tr_reg *g);
/* A comm record: which communicator RANK's id ID is. */
void tr_tl_comm(struct tr_tl *t, int64_t rank, int64_t id,
    const char *members, size_t n);
long tr_tl_events(const struct tr_tl *t);
void tr_tl_draw(struct tr_tl *t, struct tr_out *o, const char *id,
    const char *title, double width);
void tr_tl_free(struct tr_tl *t);

/* ---- plot.c, plot-kind.c: charts of tr records (tr-plot, tr-report) ---- */

enum { TR_PLOT_AUTO, TR_PLOT_TIMELINE, TR_PLOT_HIST, TR_PLOT_SCALING,
	TR_PLOT_DIFF, TR_PLOT_JOBS, TR_PLOT_BAR, TR_PLOT_MATRIX,
	TR_PLOT_NKIND };

struct tr_plotopt {
	const char *title;
	double width;		/* pixels; 0: 1000 */
	long limit;		/* timeline events drawn one by one; 0: 20000 */
	int topn;		/* panels, bars; 0: 12 */
	int logx, logy;
	int unit;		/* TR_UNIT_*, or -1 for each chart's own */
	const char *type, *x, *y, *key;	/* record type, columns, a key */
	double target;		/* np of the extrapolation target; 0: guess */
	const char *id;		/* prefix of element ids */
	int sites;		/* timeline tooltips name call sites,
				 * symbolized where the modules exist */
	int matrix;		/* raw traces' messages counted, for the
				 * matrix (a cost on every ev record) */
};

struct tr_plot;
struct tr_plot *tr_plot_new(const struct tr_plotopt *opt);
/* Reads FILES ("-": stdin) as one stream (e.g. the per-rank files of a
 * run); its sections become series named LABEL (NULL: the first file's
 * name). Returns 0, or TR_EXIT_SYS if some file could not be read. */
int tr_plot_read(struct tr_plot *p, int nfiles, char **files,
    const char *label);
/* The charts the records read allow, most telling first, into kinds
 * (TR_PLOT_NKIND entries); returns how many. */
int tr_plot_kinds(struct tr_plot *p, int *kinds);
/* Writes one standalone <svg> element; -1 (nothing written) if the
 * records read hold nothing for that kind. */
int tr_plot_draw(struct tr_plot *p, int kind, struct tr_out *o);
const char *tr_plot_kindname(int kind);
/* The records kept, per declared type (every type but ev, comm and the
 * trace-sized delta, reg and sys), as lines with their series. */
struct tr_plottab {
	const char *type;
	int nf;
	const char *const *names;
	size_t n;
	const char *const *rows;
	const int *ser;
};
int tr_plot_table(const struct tr_plot *p, size_t i, struct tr_plottab *t);
/* Series s's label and np (NaN if unknown); NULL past the last. */
const char *tr_plot_series(const struct tr_plot *p, int s, double *np);
/* How series s's diff p-values are adjusted for the keys tested
 * (#meta diff.correction; Holm, tr-diff's default, when unsaid). */
int tr_plot_padj(const struct tr_plot *p, int s);
void tr_plot_free(struct tr_plot *p);

/* ---- inputs.c: the inputs of a report (tr-report) ---- */

/* One file, or the rank files of one run, labelled by its directory. */
struct tr_input {
	char *label;
	char **files;
	int n;
};
struct tr_inputs {		/* zeroed: none */
	struct tr_input *v;
	size_t n, cap;
};
/* Adds PATH ("-": stdin): a file, or the streams (plain or gzip) under
 * a directory, four levels deep at most, in natural order (np4 before
 * np16), rank.N.tr files together. 0, or TR_EXIT_SYS after a warning
 * if some of it could not be read. */
int tr_inputs_add(struct tr_inputs *s, const char *path);
void tr_inputs_free(struct tr_inputs *s);

/* ---- report.c: the sections of an HTML report (tr-report) ---- */

/* The section of IN, the IDX-th input: its series, its records as
 * tables (comparisons first and open, TOPN rows each) and its charts
 * but the scaling models. Returns tr_plot_read's status. */
int tr_report_input(struct tr_out *o, const struct tr_plotopt *opt,
    int topn, const struct tr_input *in, int idx);
/* What needs several inputs at once: models with the measurements at
 * every np, and histograms of several inputs overlaid (measured vs
 * predicted); nothing if there is none. */
int tr_report_across(struct tr_out *o, const struct tr_plotopt *opt,
    const struct tr_inputs *s);

#endif
