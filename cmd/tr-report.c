/* tr-report - one self-contained HTML page (inline SVG, CSS and script,
 * nothing fetched) of a pipeline's outputs: tables and charts. */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libtr.h"
#include "report-asset.h"

static struct tr_plotopt opt;
static const char *title = "tr report";
static int topn = 15;
/* An input: one file, or the per-rank files of one run. */
struct input {
	char *label;
	char **files;
	int n;
};
static struct input *ins;
static size_t nins, incap;

static const struct tr_opts opts = {
	"tr-report [-c count] [-H title] [-m limit] [-n np] [-w width] "
	"[file|dir ...]",
	"-c count\trows of each table (default 15)\n"
	"-H title\tthe page's title (default \"tr report\")\n"
	"-m limit\tcalls a timeline draws one by one before it bins "
	"(default 20000)\n"
	"-n np\tthe process count of the extrapolation target\n"
	"-w width\twidth of the charts in pixels, 300 to 20000 (default "
	"1000)\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Names in natural order: np4 before np16, rank.2 before rank.10. */
static int
natcmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			const char *p = x, *q = y;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			for (p = x; *p >= '0' && *p <= '9'; p++)
				;
			for (q = y; *q >= '0' && *q <= '9'; q++)
				;
			if (p - x != q - y)
				return p - x < q - y ? -1 : 1;
			for (; x < p; x++, y++)
				if (*x != *y)
					return *x < *y ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		x++;
		y++;
	}
	return *x ? 1 : *y ? -1 : 0;
}

/* A stream of the format, plain or gzip: the rest of a directory (a
 * Makefile, logs) is left out. */
static int
is_stream(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char b[4] = {0};
	size_t n;

	if (!f)
		return 0;
	n = fread(b, 1, 4, f);
	fclose(f);
	return (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) ||
	    (n == 4 && !memcmp(b, "#tr ", 4));
}

static void
add_file(const char *path)
{
	tr_grow(&ins, &incap, nins + 1, sizeof *ins);
	ins[nins].label = tr_strdup(path);
	ins[nins].files = tr_malloc(sizeof *ins[nins].files);
	ins[nins].files[0] = tr_strdup(path);
	ins[nins++].n = 1;
}

/* rank.N.tr, rank.N.tr.gz: tr-record's per-rank files. */
static int
is_rankfile(const char *path)
{
	const char *b = strrchr(path, '/'), *p;

	b = b ? b + 1 : path;
	if (strncmp(b, "rank.", 5))
		return 0;
	for (p = b + 5; *p >= '0' && *p <= '9'; p++)
		;
	return p > b + 5 && (!strcmp(p, ".tr") || !strcmp(p, ".tr.gz"));
}

static void
add_rankfile(const char *dir, size_t dirn, const char *path, size_t *group)
{
	struct input *in;

	if (!*group) {
		add_file(path);
		free(ins[nins - 1].label);
		ins[nins - 1].label = tr_strndup(dir, dirn);
		*group = nins;
		return;
	}
	in = &ins[*group - 1];
	in->files = tr_realloc(in->files, (size_t)(in->n + 1) *
	    sizeof *in->files);
	in->files[in->n++] = tr_strdup(path);
}

static int
collect(const char *path, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i, plen;
	size_t group = 0;	/* 1 + the input of the rank files */
	int status = 0;

	if (!strcmp(path, "-")) {
		add_file(path);
		return 0;
	}
	if (stat(path, &st) < 0) {
		tr_warn("%s:", path);
		return TR_EXIT_SYS;
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return 0;
	}
	if (depth > 4 || !(d = opendir(path))) {
		if (depth <= 4)
			tr_warn("%s:", path);
		return depth > 4 ? 0 : TR_EXIT_SYS;
	}
	/* out/, as a shell completes it: its files are out/x, not out//x,
	 * in the report's names and labels */
	plen = strlen(path);
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		tr_grow(&names, &cap, n + 1, sizeof *names);
		names[n] = tr_malloc(plen + strlen(e->d_name) + 2);
		sprintf(names[n++], "%.*s%s%s", (int)plen, path,
		    path[plen - 1] == '/' ? "" : "/", e->d_name);
	}
	closedir(d);
	tr_sort(names, n, sizeof *names, natcmp);
	for (i = 0; i < n; i++) {
		if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			int s = collect(names[i], depth + 1);

			if (s)
				status = s;
		} else if (is_stream(names[i])) {
			/* A run's rank files make one input, one timeline. */
			if (is_rankfile(names[i]))
				add_rankfile(path, plen, names[i], &group);
			else
				add_file(names[i]);
		}
		free(names[i]);
	}
	free(names);
	return status;
}

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
	char b[40];
	double v;

	if (tr_parse_f64(f, fn, &v) != 0) {
		tr_out_str(o, "<td>");
		tr_svg_esc(o, f, fn);
	} else if (!memchr(f, '.', fn) && !memchr(f, 'e', fn) &&
	    !memchr(f, 'E', fn)) {
		tr_out_str(o, "<td class=\"n\">");
		tr_svg_esc(o, f, fn);
	} else {
		snprintf(b, sizeof b, "%.*g", fabs(v) < 1e6 ? 6 : 12, v);
		tr_out_str(o, "<td class=\"n\" title=\"");
		tr_svg_esc(o, f, fn);
		tr_out_str(o, "\">");
		tr_out_str(o, b);
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
		const char *f = fld(t->rows[r], ac >= 0 ? ac : pc, &fn);

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
table(struct tr_out *o, const struct tr_plot *p, const struct tr_plottab *t)
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
			const char *f = fld(t->rows[r], j, &fn);

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
			const char *ps = fld(t->rows[r], pc, &a);
			const char *ms = fld(t->rows[r], mc, &b);
			double pv, mv;

			if (!tr_parse_f64(ps, a, &pv) &&
			    !tr_parse_f64(ms, b, &mv) && mv != 0)
				tr_out_printf(o, "<td class=\"n\">%.1f</td>",
				    (1 - fabs(pv - mv) / fabs(mv)) * 100);
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

/* What needs several inputs at once: models with the measurements at
 * every np, and histograms of several inputs overlaid (measured vs
 * predicted). */
static int
across(struct tr_out *o)
{
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

static int
input(struct tr_out *o, const struct input *in, int idx)
{
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
				table(o, p, &t);
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
			    "<span> wheel: zoom, drag: pan</span></div>");
		tr_out_c(o, '\n');
		tr_plot_draw(p, kinds[k], o);
		tr_out_str(o, "</figure>\n");
	}
	tr_out_str(o, "</section>\n");
	tr_plot_free(p);
	return st;
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status = 0, s;
	size_t i;

	tr_init(argv[0]);
	memset(&opt, 0, sizeof opt);
	opt.unit = -1;
	while ((c = tr_getopt(argc, argv, "c:H:m:n:w:", &opts)) != -1)
		switch (c) {
		case 'c': topn = (int)tr_opt_int('c', optarg, 1, 1000); break;
		case 'H': title = optarg; break;
		case 'm':
			opt.limit = (long)tr_opt_int('m', optarg, 1, LONG_MAX);
			break;
		case 'n':
			opt.target = (double)tr_opt_int('n', optarg, 1,
			    INT64_MAX);
			break;
		case 'w':
			opt.width = (double)tr_opt_int('w', optarg, 300, 20000);
			break;
		default: usage();
		}
	argc -= optind;
	argv += optind;
	tr_need_input(argc);
	if (argc == 0)
		status = collect("-", 0);
	for (; argc > 0; argc--, argv++)
		if ((s = collect(*argv, 0)) != 0)
			status = s;
	/* An input that could not be read has been reported: one cause,
	 * one line. */
	if (nins == 0 && status)
		return status;
	if (nins == 0)
		tr_die(TR_EXIT_DATA, "no tr streams to report on");
	o = tr_out_open(1, 0);
	tr_out_str(o, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\"><title>");
	tr_svg_escs(o, title);
	tr_out_str(o, "</title>\n<style>");
	tr_out_str(o, report_css);
	tr_out_str(o, "</style></head>\n<body>\n<header><h1>");
	tr_svg_escs(o, title);
	tr_out_printf(o, "</h1><p>%zu input%s, made by tr-report "
	    TR_VERSION "</p><nav>", nins, nins == 1 ? "" : "s");
	for (i = 0; i < nins; i++) {
		tr_out_printf(o, "<a href=\"#in%zu\">", i);
		tr_svg_escs(o, ins[i].label);
		tr_out_str(o, "</a> ");
	}
	tr_out_str(o, "</nav></header>\n<main>\n");
	if (nins > 1 && (s = across(o)) != 0)
		status = s;
	for (i = 0; i < nins; i++) {
		int j;

		if ((s = input(o, &ins[i], (int)i)) != 0)
			status = s;
		for (j = 0; j < ins[i].n; j++)
			free(ins[i].files[j]);
		free(ins[i].files);
		free(ins[i].label);
	}
	free(ins);
	tr_out_str(o, "</main>\n<pre id=\"selftest\" hidden></pre>\n<script>");
	tr_out_str(o, report_js);
	tr_out_str(o, "</script>\n</body></html>\n");
	tr_out_close(o);
	return status;
}
