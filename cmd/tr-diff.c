/* tr-diff - relative profiling: compare runs A and B key by key, ranked
 * by PARP's metric m = (t_a/T_a) ln(t_a/t_b). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static char *kname, *vname, *order = "m";
static long topn = -1;
static double failpct = -1, alpha = 0.05, minshare = 0.01;
static int tflag, correction = TR_PADJ_HOLM;
static const char *const corrections[] = {"none", "holm", "bh", NULL};
/* -o, in the order of TR_DIFF_* */
static const char *const orders[] = {"m", "a", "b", "delta", "ratio", "p",
	"key", NULL};

static const struct option longopts[] = {
	{"correction", required_argument, NULL, 'C'},
	{"fail-above", required_argument, NULL, 'f'},
	{"text", no_argument, NULL, 'T'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-diff [-T] [-a alpha] [-C correction] [-c count] [-f pct] "
	"[-k key] [-S pct] [-s order] [-v value] a b",
	"-a alpha\tsignificance level for -f (default 0.05)\n"
	"-C, --correction correction\thow p-values are adjusted for the keys "
	"tested: holm (default), bh or none\n"
	"-c count\twrite the first count keys only (and the total)\n"
	"-f, --fail-above pct\texit 1 when a key got slower in b by more "
	"than pct percent, significantly\n"
	"-k key\tgroup by this column (site, path, class, cmd, host, rank, "
	"...)\n"
	"-S pct\tsmallest share of the total, in percent, of a key that -f "
	"considers (default 1)\n"
	"-s order\tsort by m (default), a, b, delta, ratio, p or key\n"
	"-T, --text\twrite a text table instead of records\n"
	"-v value\tcompare this value column (incl, bytes, user, io, cpu, "
	"...)\n",
	longopts
};

static _Noreturn void
usage(void)
{
	tr_usage(&opts);
}

/* Reads one condition; B's runs must be by A's key and value. */
static struct tr_cmp *
side(char *file, const struct tr_cmp *a, int *status)
{
	struct tr_cmp *c = tr_cmp_new(kname, vname);
	int st;

	if (a)
		tr_cmp_like(c, a);
	if ((st = tr_cmp_read(c, 1, &file)) != 0)
		*status = st;
	tr_cmp_finish(c);
	return c;
}

static void
put(struct tr_out *o, const struct tr_diff *w)
{
	if (tflag) {
		tr_out_printf(o, "%-32.*s %12.4g %12.4g %+12.4g ", (int)w->kn,
		    w->key, w->a, w->b, w->delta);
		if (w->a == 0 && w->b != 0)
			tr_out_printf(o, "%8s", w->b > 0 ? "inf" : "-inf");
		else
			tr_out_printf(o, "%8.3f", w->ratio);
		tr_out_printf(o, " %8.4f ", w->m);
		if (w->p >= 0)
			tr_out_printf(o, "%8.2g %8.2g", w->p, w->padj);
		else
			tr_out_printf(o, "%8s %8s", "-", "-");
		tr_out_printf(o, " %3.0f %3.0f %s\n", w->na, w->nb,
		    w->only == 'a' ? "only-a" : w->only == 'b' ? "only-b" : "");
		return;
	}
	tr_out_str(o, "diff\t");
	tr_out_write(o, w->key, w->kn);
	tr_out_tf64(o, w->a);
	tr_out_tf64(o, w->b);
	tr_out_tf64(o, w->delta);
	tr_out_tf64(o, w->ratio);
	tr_out_tf64(o, w->m);
	tr_out_tf64(o, w->p);
	tr_out_ti64(o, (int64_t)w->na);
	tr_out_ti64(o, (int64_t)w->nb);
	tr_out_c(o, '\t');
	tr_out_c(o, w->only);
	tr_out_tf64(o, w->padj);
	tr_out_c(o, '\n');
}

/* A regression worth failing for: slower by more than failpct, not
 * noise by Welch's test (or no test possible), and not negligible. */
static int
regressed(const struct tr_diff *w, double ta)
{
	if (!(w->b > w->a * (1 + failpct / 100)))
		return 0;
	if (w->p >= 0 && w->padj >= alpha)
		return 0;
	return ta > 0 && w->b / ta >= minshare;
}

static void
warn_row(const struct tr_diff *w)
{
	char p[64] = "no test";

	if (w->p >= 0 && correction != TR_PADJ_NONE)
		snprintf(p, sizeof p, "p=%.2g, %s-adjusted %.2g", w->p,
		    correction == TR_PADJ_HOLM ? "Holm" : "BH", w->padj);
	else if (w->p >= 0)
		snprintf(p, sizeof p, "p=%.2g", w->p);
	if (w->a == 0)
		tr_warn("%.*s: new in b (%.4g, %s)", (int)w->kn, w->key, w->b,
		    p);
	else
		tr_warn("%.*s: %.1f%% slower (%.4g -> %.4g, %s)", (int)w->kn,
		    w->key, (w->ratio - 1) * 100, w->a, w->b, p);
}

int
main(int argc, char **argv)
{
	struct tr_cmp *ca, *cb;
	struct tr_out *o;
	struct tr_diff *rows, tot;
	size_t i, nr, ntests;
	double ta, tb;
	int c, status = 0, bad = 0;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "a:C:c:f:k:S:s:Tv:", &opts)) != -1) {
		switch (c) {
		case 'a': alpha = tr_opt_num('a', optarg, 0, INFINITY); break;
		case 'C':
			correction = tr_opt_oneof('C', optarg, corrections);
			break;
		case 'c':
			topn = (long)tr_opt_int('c', optarg, 0, LONG_MAX);
			break;
		case 'f': failpct = tr_opt_num('f', optarg, 0, INFINITY); break;
		case 'k': kname = optarg; break;
		case 'S':
			minshare = tr_opt_num('S', optarg, 0, INFINITY) / 100;
			break;
		case 's':
			order = optarg;
			tr_opt_oneof('s', order, orders);
			break;
		case 'T': tflag = 1; break;
		case 'v': vname = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	ca = side(argv[0], NULL, &status);
	cb = side(argv[1], ca, &status);
	if (status) {
		tr_cmp_free(ca);
		tr_cmp_free(cb);
		return status;
	}
	ta = tr_diff_total(ca);
	tb = tr_diff_total(cb);
	rows = tr_diff_rows(ca, cb, tr_opt_oneof('s', order, orders), &nr,
	    &tot);
	ntests = tr_diff_adjust(rows, nr, &tot, correction);

	o = tr_out_open(1, 0);
	if (tflag) {
		tr_out_printf(o, "%-32s %12s %12s %12s %8s %8s %8s %8s %3s "
		    "%3s\n", "key", "a", "b", "b-a", "b/a", "m", "p", "p.adj",
		    "na", "nb");
	} else {
		tr_out_begin(o);
		tr_out_printf(o, "#meta diff.a=%s\n#meta diff.b=%s\n", argv[0],
		    argv[1]);
		tr_out_printf(o, "#meta diff.correction=%s\n#meta diff.tests="
		    "%zu\n", corrections[correction], ntests);
		tr_out_fields(o, TR_DIFF);
	}
	if (failpct >= 0 && (tr_cmp_reps(ca) < 2 || tr_cmp_reps(cb) < 2))
		tr_warn("no significance test: %s has %ld run%s, %s %ld (Welch's "
		    "test needs 2 a side): keys more than %g%% slower fail on "
		    "size alone", argv[0], tr_cmp_reps(ca), tr_cmp_reps(ca) == 1 ?
		    "" : "s", argv[1], tr_cmp_reps(cb), failpct);
	for (i = 0; i < nr; i++) {
		if (topn < 0 || (long)i < topn)
			put(o, &rows[i]);
		if (failpct >= 0 && regressed(&rows[i], ta > tb ? ta : tb)) {
			warn_row(&rows[i]);
			bad = 1;
		}
	}
	put(o, &tot);
	if (failpct >= 0 && regressed(&tot, ta > tb ? ta : tb)) {
		warn_row(&tot);
		bad = 1;
	}
	tr_out_close(o);
	free(rows);
	tr_cmp_free(ca);
	tr_cmp_free(cb);
	return bad ? TR_EXIT_CHECK : 0;
}
