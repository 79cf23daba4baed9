/* tr-check - check a trace against the fitted models of its run: what
 * disagrees beyond the tolerance is said, and the check fails. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static double tnp = -1, tN = -1, tol = 10;
static int pflag, wflag;
/* File scope: still reachable when a bad record ends the tool. */
static struct tr_xp *xp;
static struct tr_vf *vf;
static struct tr_in *in, *min;
static char *gs;

static const struct tr_opts opts = {
	"tr-check [-pW] [-E pct] [-n np] [-N size] models [file ...]",
	"-E pct\tthe tolerance, percent beyond the models' own error "
	"(default 10)\n"
	"-N size\tthe trace's problem size (default its #meta N)\n"
	"-n np\tthe trace's process count (default its #meta np)\n"
	"-p\tpass the trace through too\n"
	"-W\twarn of disagreements, and exit 0\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* The models, evaluated at the trace's scale. */
static void
models(char *file)
{
	struct tr_rec r;
	int c, st;

	min = tr_open(1, &file);
	while ((c = tr_next(min, &r)) != TR_EOF)
		if (c == TR_REC && r.type == TR_MODEL)
			tr_xp_add(xp, min, &r);
	st = tr_in_status(min);
	tr_close(min);
	min = NULL;
	if (st)
		exit(st);
	if (tr_xp_count(xp) == 0)
		tr_die(TR_EXIT_DATA, "%s: no model records", file);
}

/* The scale of the trace, from its first section's metadata. */
static void
scale(struct tr_in *in)
{
	if (tnp < 0 && tr_meta_f64(in, "np", &tnp) < 0)
		tr_die_at(tr_in_file(in), 0, "the trace has no #meta np: "
		    "give -n");
	if (tN < 0 && tr_meta_f64(in, "N", &tN) < 0)
		tN = -1;
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_rec r;
	const char *g = NULL;
	int c, first = 1, status;
	long nbad;
	double worst, from;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "E:n:N:pW", &opts)) != -1) {
		switch (c) {
		case 'E': tol = tr_opt_pos('E', optarg); break;
		case 'n':
			tnp = (double)tr_opt_int('n', optarg, 1, 10000000);
			break;
		case 'N': tN = tr_opt_pos('N', optarg); break;
		case 'p': pflag = 1; break;
		case 'W': wflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	o = tr_out_open(1, 0);
	in = tr_open(argc - 1, argv + 1);
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR) {
			if (first) {
				scale(in);
				if ((g = tr_meta(in, "extrap.grid")))
					gs = tr_strdup(g);
				xp = tr_xp_new(tnp, tN);
				models(argv[0]);
				vf = tr_vf_new(xp, tnp, tol / 100);
				if (tr_meta_f64(in, "extrap.template.np",
				    &from) == 0)
					tr_vf_from(vf, from);
				if (gs && tr_vf_grid_str(vf, gs) < 0) {
					const char *f;
					long l = tr_meta_where(in,
					    "extrap.grid", &f);

					tr_die(TR_EXIT_DATA, "%s:%ld: #meta "
					    "extrap.grid=%s: not a grid", f, l,
					    gs);
				}
				first = 0;
			}
			if (pflag)
				tr_out_sync(o, in);
		} else if (c == TR_REC) {
			tr_vf_rec(vf, in, &r);
			if (pflag)
				tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	in = NULL;
	if (first && !status)
		tr_die_files(argc - 1, argv + 1, "no trace to check");
	if (!first) {
		if (!pflag)
			tr_out_begin(o);
		nbad = tr_vf_end(vf, o, "check", &worst);
		/* how near a trace that passes came to failing */
		if (*tr_vf_worst(vf))
			tr_warn("largest disagreement, %.2f times its "
			    "tolerance: %s", worst, tr_vf_worst(vf));
		if (nbad && !wflag && !status)
			status = TR_EXIT_CHECK;
	}
	tr_out_close(o);
	tr_vf_free(vf);
	tr_xp_free(xp);
	free(gs);
	return status;
}
