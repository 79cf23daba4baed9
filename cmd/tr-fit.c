/* tr-fit - fit a model per key and quantity to values measured at several
 * process counts (and problem sizes). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const char *family = "pmnf", *uexpr, *types, *keycols, *qcols;
static int red = TR_RED_MEDIAN, iflag;

static struct tr_series *ser;
static struct tr_flat *fl;
static int have_np;
/* The distinct process counts of runs with a problem size: their
 * models' form in n was chosen on these alone (#meta fit.scales). */
static double nps[256];
static int nnp, sized;
static int saw_rec;
static int failed, quiet;

static const struct tr_opts opts = {
	"tr-fit [-iQ] [-e expr] [-f pmnf|scalaextrap] [-k columns] "
	"[-q quantities] [-r median|mean|min|max] [-t types] [file ...]",
	"-e expr\tfit this model, an expression in n, N and coefficients\n"
	"-f family\tpmnf (default) or scalaextrap\n"
	"-i\tleave out the series that cannot be fitted, with a warning\n"
	"-k columns\tthe key columns, comma-separated (default: the string "
	"columns)\n"
	"-q quantities\tthe quantity columns, comma-separated (default: the "
	"numeric columns)\n"
	"-Q\tno progress on stderr when it is a terminal\n"
	"-r how\treduce repeats at one scale by median (default), mean, min "
	"or max\n"
	"-t types\tthe record types fitted, comma-separated\n",
	NULL
};

static const char *const families[] = {"pmnf", "scalaextrap", NULL};
static const char *const rednames[] = {"median", "mean", "min", "max", NULL};
static const int reds[] = {TR_RED_MEDIAN, TR_RED_MEAN, TR_RED_MIN,
	TR_RED_MAX};

static void
usage(void)
{
	tr_usage(&opts);
}

static void
add(void *ctx, const struct tr_flatval *fv)
{
	if (!have_np)
		tr_in_die(ctx, "no np in the header: tr-fit needs the "
		    "process count of every run");
	tr_series_add(ser, fv);
}

static int
anyname(void *ctx, const char *name, size_t n)
{
	(void)ctx;
	(void)name;
	(void)n;
	return 0;
}

/* Types or columns that no record has gave no series: a misspelt name
 * would pass for a run without models. */
static _Noreturn void
nothing_chosen(void)
{
	char b[512] = "";
	size_t n = 0;

	if (types)
		n += (size_t)snprintf(b, sizeof b, " -t %s", types);
	if (keycols && n < sizeof b)
		n += (size_t)snprintf(b + n, sizeof b - n, " -k %s", keycols);
	if (qcols && n < sizeof b)
		snprintf(b + n, sizeof b - n, " -q %s", qcols);
	tr_die(TR_EXIT_USAGE, "%s: no record of the input has such a type "
	    "or column: nothing to fit", b + 1);
}

static void
header(struct tr_in *in, struct tr_out *o)
{
	int64_t np;
	double N;

	(void)o;
	have_np = tr_meta_i64(in, "np", &np) == 0;
	if (tr_meta_f64(in, "N", &N) < 0)
		N = 0;
	else if (have_np) {
		int i;

		sized = 1;
		for (i = 0; i < nnp && nps[i] != (double)np; i++)
			;
		if (i == nnp && nnp < (int)(sizeof nps / sizeof nps[0]))
			nps[nnp++] = (double)np;
	}
	tr_series_run(ser, have_np ? (double)np : 0, N);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	saw_rec = 1;
	return !tr_flat_add(fl, in, r, add, in);
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	(void)o;
	tr_flat_end(fl, add, in);
}

static void
models(struct tr_in *in, struct tr_out *o)
{
	size_t i, len;
	struct tr_progress *prog = quiet ? NULL : tr_progress_new();

	if (!tr_in_status(in) && !tr_series_len(ser) && saw_rec &&
	    (types || keycols || qcols))
		nothing_chosen();
	tr_out_begin(o);
	tr_out_printf(o, "#meta tool=tr-fit %s\n#meta fit.family=%s\n",
	    TR_VERSION, uexpr ? "expr" : family);
	if (sized)
		tr_out_printf(o, "#meta fit.scales=%d\n", nnp);
	tr_out_fields(o, TR_MODEL);
	for (i = 0; i < tr_series_len(ser); i++) {
		const char *name = tr_series_key(ser, i, &len);
		struct tr_fit f;

		tr_progress_items(prog, (long)i, (long)tr_series_len(ser),
		    "series fitted");
		if (tr_series_fit(ser, i, &f) < 0) {
			failed++;
			continue;
		}
		tr_out_str(o, "model\t");
		tr_out_write(o, name, len);
		tr_out_c(o, '\t');
		tr_out_str(o, f.family);
		tr_out_c(o, '\t');
		tr_out_str(o, f.expr);
		tr_out_tf64(o, f.rss);
		tr_out_tf64(o, f.adjr2);
		tr_out_tf64(o, f.smape);
		tr_out_tf64(o, f.cvsmape);
		tr_out_ti64(o, f.points);
		tr_out_ti64(o, f.reps);
		tr_out_c(o, '\n');
	}
	tr_progress_end(prog);
}

/* Headers go out only with records passed through. */
static struct tr_loop loop = {
	.hdr = header, .rec = record, .end = section, .done = models,
	.lazy = 1, .progress = 1,
};

int
main(int argc, char **argv)
{
	size_t n;
	int c, status;
	char names[1024];

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "e:f:ik:q:Qr:t:", &opts)) != -1) {
		switch (c) {
		case 'e': uexpr = optarg; break;
		case 'f':
			family = optarg;
			tr_opt_oneof('f', family, families);
			break;
		case 'i': iflag = 1; break;
		case 'k': keycols = optarg; break;
		case 'q': qcols = optarg; break;
		case 'Q': loop.progress = 0; quiet = 1; break;
		case 'r':
			red = reds[tr_opt_oneof('r', optarg, rednames)];
			break;
		case 't': types = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (uexpr) {
		char err[128];
		int col;
		struct tr_expr *e = tr_expr_parse(uexpr, anyname, NULL, err,
		    sizeof err, &col);

		if (!e) {
			tr_expr_perror(uexpr, err, col);
			exit(TR_EXIT_USAGE);
		}
		tr_expr_free(e);
	}
	ser = tr_series_new(uexpr, family, red);
	fl = tr_flat_new(types, keycols, qcols);
	tr_flat_quantiles(fl, 1);
	status = tr_loop(argc, argv, tr_out_open(1, 0), &loop);
	/* Under -i too: a series left out should be named, not only
	 * counted, or a key missing downstream has no explanation. */
	tr_series_warn(ser, tr_files_str(names, sizeof names, argc, argv));
	n = tr_series_len(ser);
	tr_series_free(ser);
	tr_flat_free(fl);
	if (status)
		return status;
	if (failed && !iflag)
		return TR_EXIT_DATA;
	if (failed)
		tr_warn("%d of %zu series could not be fitted and were "
		    "left out (-i)", failed, n);
	/* Not a success that leaves tr-extrap to find no model. */
	if (failed && (size_t)failed == n) {
		tr_warn("none of the %zu series could be fitted: no models "
		    "written", n);
		return TR_EXIT_CHECK;
	}
	return 0;
}
