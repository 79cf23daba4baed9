/* report.c - the sections of an HTML report: each input's tables and
 * charts, and the charts across inputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

static int
tcol(const struct tr_plottab *t, const char *name)
{
	int j;

	for (j = 1; j < t->nf; j++)
		if (!strcmp(t->names[j], name))
			return j;
	return -1;
}

/* A number with a fraction is shown to 6 significant digits (more for
 * 1e6 and up, so that nanoseconds stay whole), the value as written in
 * its title: a ratio of 0.9920702696108332 is read, not studied.
 * Integers and text are shown as written. */
static void
cell(struct tr_out *o, const char *f, size_t fn)
{
	char b[32];
	double v;

	if (tr_parse_f64(f, fn, &v) != 0) {
		tr_out_str(o, "<td>");
		tr_svg_esc(o, f, fn);
	} else if (!memchr(f, '.', fn) && !memchr(f, 'e', fn) &&
	    !memchr(f, 'E', fn)) {
		tr_out_str(o, "<td class=\"n\">");
		tr_svg_esc(o, f, fn);
	} else {
		tr_out_str(o, "<td class=\"n\" title=\"");
		tr_svg_esc(o, f, fn);
		tr_out_str(o, "\">");
		tr_out_str(o, tr_f64text(b, v));
	}
	tr_out_str(o, "</td>");
}

/* Types that are drawn rather than listed, or too big to list. */
static int
listed(const char *type)
{
	return strcmp(type, "bin") && strcmp(type, "hist") &&
	    strcmp(type, "job");
}

static int
is_cmp(const struct tr_plottab *t)
{
	return (tcol(t, "pred") >= 0 && tcol(t, "meas") >= 0) ||
	    (tcol(t, "predicted") >= 0 && tcol(t, "measured") >= 0) ||
	    !strcmp(t->type, "diff") || !strcmp(t->type, "accsum") ||
	    !strcmp(t->type, "hdist");
}

/* A diff's p is its key's own test: among dozens of keys some pass
 * p < 0.05 by chance. The reader gets the p tr-diff judged the key by,
 * adjusted for the keys tested (its padj column): only tr-diff saw
 * them all, as -n keeps the top keys. A diff of before that column is
 * adjusted here as tr-diff did (diff.correction) over the keys of its
 * series. NULL if T has no p to adjust. */
static double *
padjust(const struct tr_plot *p, const struct tr_plottab *t)
{
	int pc = tcol(t, "p"), ac = tcol(t, "padj"), s;
	double *raw, *adj, *sp, *sa;
	size_t r, m;

	if (strcmp(t->type, "diff") || pc < 0 || !t->n)
		return NULL;
	raw = tr_calloc(t->n, sizeof *raw);
	adj = tr_calloc(t->n, sizeof *adj);
	for (r = 0; r < t->n; r++) {
		size_t fn;
		const char *f = plot_fld(t->rows[r], ac >= 0 ? ac : pc, &fn);

		if (tr_parse_f64(f, fn, &raw[r]) || !(raw[r] >= 0 &&
		    raw[r] <= 1))
			raw[r] = -1;
	}
	if (ac >= 0) {
		free(adj);
		return raw;
	}
	sp = tr_calloc(t->n, sizeof *sp);
	sa = tr_calloc(t->n, sizeof *sa);
	for (s = 0; tr_plot_series(p, s, NULL); s++) {
		for (m = 0, r = 0; r < t->n; r++)
			if (t->ser[r] == s)
				sp[m++] = raw[r];
		tr_padjust(sp, sa, m, tr_plot_padj(p, s));
		for (m = 0, r = 0; r < t->n; r++)
			if (t->ser[r] == s)
				adj[r] = sa[m++];
	}
	free(raw);
	free(sp);
	free(sa);
	return adj;
}

static void
table(struct tr_out *o, const struct tr_plot *p, const struct tr_plottab *t,
    int topn)
{
	int pc = tcol(t, "pred"), mc = tcol(t, "meas"), j, acc;
	int pvc = tcol(t, "p"), pac = tcol(t, "padj");
	size_t r, n = t->n < (size_t)topn ? t->n : (size_t)topn;
	int multi = tr_plot_series(p, 1, NULL) != NULL;
	double *adj = padjust(p, t);

	if (pc < 0)
		pc = tcol(t, "predicted");
	if (mc < 0)
		mc = tcol(t, "measured");
	acc = pc >= 0 && mc >= 0 && tcol(t, "acc") < 0 &&
	    tcol(t, "accuracy") < 0;
	/* Comparisons are what a reader came for; other records stay
	 * folded. */
	tr_out_str(o, is_cmp(t) ? "<details open class=\"tbl\"><summary>" :
	    "<details class=\"tbl\"><summary>");
	if (pc >= 0 && mc >= 0)
		tr_out_str(o, "predicted vs measured: ");
	else if (!strcmp(t->type, "diff"))
		tr_out_printf(o, "top %d differences: ", topn);
	tr_svg_escs(o, t->type);
	if (t->n > n)
		tr_out_printf(o, " <small>(first %zu of %zu)</small>", n, t->n);
	else
		tr_out_printf(o, " <small>(%zu)</small>", t->n);
	tr_out_printf(o, "</summary>\n<table data-type=\"");
	tr_svg_escs(o, t->type);
	tr_out_str(o, "\"><thead><tr>");
	if (multi)
		tr_out_str(o, "<th>series</th>");
	for (j = 1; j < t->nf; j++) {
		/* shown beside p */
		if (adj && j == pac)
			continue;
		tr_out_str(o, "<th>");
		tr_svg_escs(o, t->names[j]);
		tr_out_str(o, "</th>");
		if (adj && j == pvc)
			tr_out_str(o, "<th title=\"p adjusted for the keys "
			    "tested, as tr-diff -t and --fail-above take it\">"
			    "p.adj</th>");
	}
	if (acc)
		tr_out_str(o, "<th>accuracy %</th>");
	tr_out_str(o, "</tr></thead><tbody>\n");
	for (r = 0; r < n; r++) {
		tr_out_str(o, "<tr>");
		if (multi) {
			tr_out_str(o, "<td>");
			tr_svg_escs(o, tr_plot_series(p, t->ser[r], NULL));
			tr_out_str(o, "</td>");
		}
		for (j = 1; j < t->nf; j++) {
			size_t fn;
			const char *f = plot_fld(t->rows[r], j, &fn);

			if (adj && j == pac)
				continue;
			cell(o, f, fn);
			if (adj && j == pvc && adj[r] < 0)
				tr_out_str(o, "<td>-</td>");
			else if (adj && j == pvc)
				tr_out_printf(o, "<td class=\"n\">%.6g</td>",
				    adj[r]);
		}
		if (acc) {
			size_t a, b;
			const char *ps = plot_fld(t->rows[r], pc, &a);
			const char *ms = plot_fld(t->rows[r], mc, &b);
			double pv, mv;

			if (!tr_parse_f64(ps, a, &pv) &&
			    !tr_parse_f64(ms, b, &mv))
				tr_out_printf(o, "<td class=\"n\">%.1f</td>",
				    tr_accuracy(pv, mv));
			else
				tr_out_str(o, "<td>-</td>");
		}
		tr_out_str(o, "</tr>\n");
	}
	tr_out_str(o, "</tbody></table></details>\n");
	free(adj);
}

static void
figure(struct tr_out *o, struct tr_plot *p, int kind)
{
	tr_out_printf(o, "<figure class=\"chart\" data-kind=\"%s\">\n",
	    tr_plot_kindname(kind));
	tr_plot_draw(p, kind, o);
	tr_out_str(o, "</figure>\n");
}

int
tr_report_across(struct tr_out *o, const struct tr_plotopt *po,
    const struct tr_inputs *v)
{
	const struct tr_input *ins = v->v;
	size_t nins = v->n;
	struct tr_plotopt opt = *po;
	struct tr_plot *p;
	struct tr_plottab t;
	int kinds[TR_PLOT_NKIND], nk, k, st = 0, s, have = 0;
	size_t i, r;

	opt.id = "all-";
	p = tr_plot_new(&opt);
	for (i = 0; i < nins; i++)
		if (strcmp(ins[i].files[0], "-") && (s = tr_plot_read(p,
		    ins[i].n, ins[i].files, ins[i].label)) != 0)
			st = s;
	nk = tr_plot_kinds(p, kinds);
	for (k = 0; k < nk; k++) {
		int multi = 0;

		if (kinds[k] == TR_PLOT_HIST) {
			for (i = 0; tr_plot_table(p, i, &t) == 0; i++)
				if (!strcmp(t.type, "bin"))
					for (r = 1; r < t.n; r++)
						multi |= t.ser[r] != t.ser[0];
			if (!multi)
				continue;
		} else if (kinds[k] != TR_PLOT_SCALING) {
			continue;
		}
		if (!have++)
			tr_out_str(o, "<section class=\"input\" id=\"across\">"
			    "<h2>across inputs</h2>\n<p class=\"meta\">"
			    "models with the measurements of every input; "
			    "histograms of several inputs overlaid</p>\n");
		figure(o, p, kinds[k]);
	}
	if (have)
		tr_out_str(o, "</section>\n");
	tr_plot_free(p);
	return st;
}

int
tr_report_input(struct tr_out *o, const struct tr_plotopt *po, int topn,
    const struct tr_input *in, int idx)
{
	struct tr_plotopt opt = *po;
	struct tr_plot *p;
	struct tr_plottab t;
	int kinds[TR_PLOT_NKIND], nk, k, st;
	size_t i;
	double np;
	char id[32];

	snprintf(id, sizeof id, "r%d-", idx);
	opt.id = id;
	p = tr_plot_new(&opt);
	st = tr_plot_read(p, in->n, in->files, in->label);
	tr_out_printf(o, "<section class=\"input\" id=\"in%d\"><h2>", idx);
	tr_svg_escs(o, in->label);
	if (in->n > 1)
		tr_out_printf(o, " <small>(%d rank files)</small>", in->n);
	tr_out_str(o, "</h2>\n<p class=\"meta\">");
	for (k = 0; tr_plot_series(p, k, &np); k++) {
		if (k)
			tr_out_str(o, ", ");
		tr_svg_escs(o, tr_plot_series(p, k, NULL));
		if (!isnan(np) && !strstr(tr_plot_series(p, k, NULL), "np="))
			tr_out_printf(o, " (np=%g)", np);
	}
	tr_out_str(o, "</p>\n");
	/* Tables first: comparisons, then the rest. */
	for (k = 0; k < 2; k++)
		for (i = 0; tr_plot_table(p, i, &t) == 0; i++)
			if (t.n && listed(t.type) && is_cmp(&t) == !k)
				table(o, p, &t, topn);
	nk = tr_plot_kinds(p, kinds);
	for (k = 0; k < nk; k++) {
		/* Models are drawn with the measurements of every input,
		 * in the first section. */
		if (kinds[k] == TR_PLOT_SCALING)
			continue;
		tr_out_printf(o, "<figure class=\"chart\" data-kind=\"%s\">",
		    tr_plot_kindname(kinds[k]));
		if (kinds[k] == TR_PLOT_TIMELINE)
			tr_out_str(o, "<div class=\"controls\">"
			    "<button data-act=\"in\">zoom in</button>"
			    "<button data-act=\"out\">zoom out</button>"
			    "<button data-act=\"left\">&#8592;</button>"
			    "<button data-act=\"right\">&#8594;</button>"
			    "<button data-act=\"reset\">reset</button>"
			    "<button data-act=\"all\">whole run</button>"
			    "<span> wheel: zoom, drag: pan</span></div>");
		tr_out_c(o, '\n');
		tr_plot_draw(p, kinds[k], o);
		tr_out_str(o, "</figure>\n");
	}
	tr_out_str(o, "</section>\n");
	tr_plot_free(p);
	return st;
}
