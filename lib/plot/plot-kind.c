/* plot-kind.c - the chart kinds: their names, those the records read
 * allow, and drawing one. */
#include "plot-int.h"

static const char *kindnames[] = {"auto", "timeline", "hist", "scaling",
	"diff", "jobs", "bar", "matrix"};

const char *
tr_plot_kindname(int k)
{
	return k >= 0 && k < TR_PLOT_NKIND ? kindnames[k] : "?";
}

int
tr_plot_kinds(struct tr_plot *p, int *kinds)
{
	int n = 0;
	struct table *t;

	if (tr_tl_events(p->tl) > 0)
		kinds[n++] = TR_PLOT_TIMELINE;
	if ((t = plot_find(p, "model", NULL)) && t->n)
		kinds[n++] = TR_PLOT_SCALING;
	if (((t = plot_find(p, "bin", NULL)) && t->n) ||
	    (p->opt.type && p->opt.y && plot_find(p, p->opt.type, NULL)))
		kinds[n++] = TR_PLOT_HIST;
	if ((t = plot_find(p, "diff", NULL)) && t->n)
		kinds[n++] = TR_PLOT_DIFF;
	if ((t = plot_find(p, "job", NULL)) && t->n)
		kinds[n++] = TR_PLOT_JOBS;
	if (plot_matrix_has(p))
		kinds[n++] = TR_PLOT_MATRIX;
	if ((t = plot_bar_table(p)) && t->n)
		kinds[n++] = TR_PLOT_BAR;
	return n;
}

int
tr_plot_draw(struct tr_plot *p, int kind, struct tr_out *o)
{
	char id[64];

	switch (kind) {
	case TR_PLOT_TIMELINE:
		if (tr_tl_events(p->tl) == 0)
			return -1;
		tr_tl_draw(p->tl, o, plot_id(p, id, "tl"), p->opt.title,
		    p->opt.width);
		return 0;
	case TR_PLOT_HIST:
		return plot_hist_draw(p, o);
	case TR_PLOT_SCALING:
		return plot_scaling_draw(p, o);
	case TR_PLOT_DIFF:
		return plot_diff_draw(p, o);
	case TR_PLOT_JOBS:
		return plot_jobs_draw(p, o);
	case TR_PLOT_BAR:
		return plot_bar_draw(p, o);
	case TR_PLOT_MATRIX:
		return plot_matrix_draw(p, o);
	}
	return -1;
}
