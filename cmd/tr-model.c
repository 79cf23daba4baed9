/* tr-model - predict per-phase compute and communication times from a
 * hierarchical model and measured parameters; compare with measured
 * phases. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const char *fflag, *wflag;
static char *nflag, *pflag;
static int iflag, zflag;
static char **defs, **pfiles;
static size_t ndefs, capdefs, npfiles, cappfiles;
static struct tr_phases *phases;
static size_t ncompared;

static const struct tr_opts opts = {
	"tr-model [-iz] -f model [-P params] [-D name=value] "
	"[-N N,... -n P,...] [-W what] [file ...]",
	"-D name=value\tdefine a constant, overriding the model's; may be "
	"repeated\n"
	"-f model\tthe model file\n"
	"-i\tphases on one side only are warnings, not errors\n"
	"-N N,...\tproblem sizes to predict for (with -n)\n"
	"-n P,...\tprocess counts to predict for (with -N)\n"
	"-P params\ta file of param records; may be repeated\n"
	"-W what\tcompare with the measured or the corrected (default) "
	"phases\n"
	"-z\twrite gzip\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	if (r->type == TR_PHASE)
		tr_phases_add(phases, in, r);
	return 1;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	ncompared += tr_phases_end(phases, in, o);
}

static void
done(struct tr_in *in, struct tr_out *o)
{
	(void)o;
	if (ncompared == 0 && tr_in_status(in) == 0)
		tr_in_die_all(in, "no measured or corrected phase records "
		    "(tr-barrier-correct makes them; -N and -n "
		    "predict without)");
}

static const struct tr_loop loop = {
	.rec = record, .end = section, .done = done,
};

/* A comma-separated list of positive numbers. */
static double *
list(int opt, char *s, size_t *n)
{
	double *v = NULL;
	size_t cap = 0;
	char *t, *end, what[64];

	*n = 0;
	for (t = strtok(s, ","); t; t = strtok(NULL, ",")) {
		tr_grow(&v, &cap, *n + 1, sizeof *v);
		v[*n] = strtod(t, &end);
		if (end == t || *end || !(v[*n] > 0) || !isfinite(v[*n]))
			tr_opt_bad(opt, t, "not a positive number");
		if (opt == 'n' && (v[*n] != floor(v[*n]) || v[*n] > TR_MAXNP)) {
			snprintf(what, sizeof what, "not a whole number of "
			    "ranks from 1 to %d", TR_MAXNP);
			tr_opt_bad(opt, t, what);
		}
		(*n)++;
	}
	if (*n == 0)
		tr_opt_bad(opt, "", "an empty list");
	return v;
}

int
main(int argc, char **argv)
{
	struct tr_model *model;
	struct tr_params *params = NULL;
	struct tr_out *o;
	double *Ns, *Ps;
	size_t nN, nP, i, j;
	int c, status = 0;

	tr_init(argv[0]);
	wflag = "corrected";
	while ((c = tr_getopt(argc, argv, "D:f:iN:n:P:W:z", &opts)) != -1) {
		switch (c) {
		case 'D':
			tr_grow(&defs, &capdefs, ndefs + 1, sizeof *defs);
			defs[ndefs++] = optarg;
			break;
		case 'f': fflag = optarg; break;
		case 'i': iflag = 1; break;
		case 'N': nflag = optarg; break;
		case 'P':
			tr_grow(&pfiles, &cappfiles, npfiles + 1,
			    sizeof *pfiles);
			pfiles[npfiles++] = optarg;
			break;
		case 'n': pflag = optarg; break;
		case 'W': wflag = optarg; break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!fflag || (!nflag) != (!pflag))
		usage();
	if (strcmp(wflag, "measured") && strcmp(wflag, "corrected"))
		tr_opt_bad('W', wflag, "not measured or corrected");
	model = tr_model_load(fflag, (int)ndefs, defs);
	if (npfiles)
		params = tr_params_load((int)npfiles, pfiles);
	phases = tr_phases_new(model, fflag, params, wflag, iflag);
	o = tr_out_open(1, zflag);
	if (nflag) {
		if (argc)
			usage();
		Ns = list('N', nflag, &nN);
		Ps = list('n', pflag, &nP);
		tr_out_begin(o);
		tr_out_printf(o, "#meta tool=tr-model %s\n", TR_VERSION);
		tr_out_fields(o, TR_PHASE);
		for (i = 0; i < nP; i++)
			for (j = 0; j < nN; j++)
				tr_phases_predict(phases, o, (int64_t)Ps[i],
				    Ns[j]);
		free(Ns);
		free(Ps);
		tr_out_close(o);
	} else {
		tr_out_declare(o, TR_PHASE);
		tr_out_declare(o, TR_PHASECMP);
		status = tr_loop(argc, argv, o, &loop);
	}
	tr_phases_free(phases);
	tr_model_free(model);
	tr_params_free(params);
	free(defs);
	free(pfiles);
	return status;
}
