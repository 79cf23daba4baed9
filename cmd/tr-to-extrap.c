/* tr-to-extrap - the series tr-fit reads (a type's key and quantity over
 * runs at several scales) as Extra-P's text input format. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const char *nname = "p", *Nname = "n";
static int iflag;
static struct tr_expt *ex;
static const struct tr_in *cur_in;
static double cur_n, cur_N;
static int have_np, saw_N, saw_noN;

static const struct tr_opts opts = {
	"tr-to-extrap [-i] [-k keys] [-n param] [-N param] [-q quantities] "
	"[-t types] [file ...]",
	"-i\tleave out series without a value at every point\n"
	"-k keys\tthe key columns, as tr-fit takes them\n"
	"-n param\tthe name of the process-count parameter (default p)\n"
	"-N param\tthe name of the problem-size parameter (default n)\n"
	"-q quantities\tthe quantity columns, as tr-fit takes them\n"
	"-t types\tthe record types read, as tr-fit takes them\n",
	NULL
};

static _Noreturn void
usage(void)
{
	tr_usage(&opts);
}

/* A series' region is its key, its metric the quantity; metric records
 * give back the region and metric they came with. */
static void
add(void *ctx, const struct tr_flatval *fv)
{
	char *region = NULL, *metric = NULL;
	long s, p;

	(void)ctx;
	if (!have_np)
		tr_in_die(cur_in, "no np in the header: Extra-P needs the "
		    "process count of every run");
	if (strcmp(fv->type, "metric") == 0 &&
	    (region = tr_flat_keyval(fv->key, "region")) &&
	    (metric = tr_flat_keyval(fv->key, "metric")))
		s = tr_expt_series(ex, region, metric);
	else
		s = tr_expt_series(ex, fv->key, fv->quantity);
	free(region);
	free(metric);
	if (!ex->ser[s].type)
		ex->ser[s].type = tr_strdup(fv->type);
	else if (strcmp(ex->ser[s].type, fv->type) != 0)
		tr_in_die(cur_in, "REGION %s METRIC %s from types %s and %s: "
		    "choose one with -t", ex->ser[s].region,
		    ex->ser[s].metric, ex->ser[s].type, fv->type);
	p = tr_expt_point(ex, cur_n, cur_N, 1);
	tr_expt_add(ex, s, p, fv->v);
}

/* Extra-P needs a value at every point: a key absent from a run
 * cannot be written. */
static int
complete(int nf, char **files)
{
	size_t s, p, o = 0, left = 0;
	char name[1024];

	for (s = 0; s < ex->nser; s++) {
		for (p = 0; p < ex->npt; p++)
			if (!tr_expt_nvals(ex, (long)s, (long)p))
				break;
		if (p == ex->npt) {
			ex->ser[o++] = ex->ser[s];
			continue;
		}
		if (!left++)
			tr_warn("%s: REGION %s METRIC %s: no value at np=%g%s: "
			    "Extra-P needs one at every point",
			    tr_files_str(name, sizeof name, nf, files),
			    ex->ser[s].region, ex->ser[s].metric, ex->pt[p].n,
			    iflag ? ", left out" : "");
		free(ex->ser[s].region);
		free(ex->ser[s].metric);
		free(ex->ser[s].type);
		for (p = 0; p < ex->ser[s].nat; p++)
			free(ex->ser[s].at[p].v);
		free(ex->ser[s].at);
	}
	ex->nser = o;
	if (left > 1)
		tr_warn("%zu series lack a point%s", left,
		    iflag ? " and were left out (-i)" : "");
	return left == 0;
}

int
main(int argc, char **argv)
{
	const char *types = NULL, *keycols = NULL, *qcols = NULL;
	struct tr_flat *fl;
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status;
	char name[1024];

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "ik:n:N:q:t:", &opts)) != -1) {
		switch (c) {
		case 'i': iflag = 1; break;
		case 'k': keycols = optarg; break;
		case 'n': nname = optarg; break;
		case 'N': Nname = optarg; break;
		case 'q': qcols = optarg; break;
		case 't': types = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!*nname || !*Nname || strcmp(nname, Nname) == 0 ||
	    strpbrk(nname, " \t()") || strpbrk(Nname, " \t()"))
		usage();
	ex = tr_expt_new();
	fl = tr_flat_new(types, keycols, qcols);
	tr_flat_quantiles(fl, 1);
	in = tr_open(argc, argv);
	cur_in = in;
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR) {
			int64_t np;

			have_np = tr_meta_i64(in, "np", &np) == 0;
			cur_n = have_np ? (double)np : 0;
			if (tr_meta_f64(in, "N", &cur_N) < 0)
				cur_N = 0;
		} else if (c == TR_REC) {
			tr_flat_add(fl, in, &r, add, NULL);
		} else if (c == TR_END) {
			tr_flat_end(fl, add, NULL);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_flat_free(fl);
	if (status)
		return status;
	for (c = 0; (size_t)c < ex->npt; c++) {
		saw_N |= ex->pt[c].N > 0;
		saw_noN |= ex->pt[c].N == 0;
	}
	if (saw_N && saw_noN)
		tr_die_files(argc, argv, "#meta N in some runs only: "
		    "Extra-P needs both parameters at every point");
	if (!ex->nser)
		tr_die(types || keycols || qcols ? TR_EXIT_USAGE : TR_EXIT_DATA,
		    "%s: no series to write", tr_files_str(name, sizeof name,
		    argc, argv));
	if (!complete(argc, argv) && !iflag)
		return TR_EXIT_DATA;
	if (!ex->nser)
		tr_die_files(argc, argv, "no series has a value at every "
		    "point");
	ex->param[0] = tr_strdup(nname);
	ex->param[1] = saw_N ? tr_strdup(Nname) : NULL;
	ex->nparam = saw_N ? 2 : 1;
	o = tr_out_open(1, 0);
	tr_expt_write_text(ex, o);
	tr_out_close(o);
	tr_expt_free(ex);
	return 0;
}
