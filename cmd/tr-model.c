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
static struct tr_model *model;
static struct tr_params *params;
static size_t nph;

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

/* The measured phases of one (np, N) of a section. */
struct meas {
	int64_t np;
	double N;
	int what;		/* 2 the kind asked for, 1 the fallback */
	struct tr_map *names;
	double (*v)[3];		/* compute, comm, total */
	long *at;		/* the line of each phase's record */
	size_t cap, atcap;
	long line;		/* the first record's, for a phase missing */
};

static struct meas *ms;
static size_t nms, capms, ncompared;

static void
out_pred(struct tr_out *o, const char *name, int64_t np, double N,
    int64_t comp, int64_t comm)
{
	tr_out_str(o, "phase\tpredicted\t");
	tr_out_str(o, name);
	tr_out_c(o, '\t');
	tr_out_i64(o, np);
	tr_out_c(o, '\t');
	tr_out_f64(o, N);
	tr_out_c(o, '\t');
	tr_out_i64(o, comp);
	tr_out_c(o, '\t');
	tr_out_i64(o, comm);
	tr_out_c(o, '\t');
	tr_out_i64(o, comp + comm);
	tr_out_str(o, "\t-1\t-1\n");
}

static void
out_cmp(struct tr_out *o, const char *name, int64_t np, double N,
    const double *meas, const int64_t *pred)
{
	static const char *const part[3] = { "compute", "comm", "total" };
	int k;
	double m;

	for (k = 0; k < 3; k++) {
		m = meas[k];
		if (m == 0 && pred[k] != 0)
			continue;
		tr_out_str(o, "phasecmp\t");
		tr_out_str(o, name);
		tr_out_c(o, '\t');
		tr_out_i64(o, np);
		tr_out_c(o, '\t');
		tr_out_f64(o, N);
		tr_out_c(o, '\t');
		tr_out_str(o, part[k]);
		tr_out_c(o, '\t');
		tr_out_i64(o, llround(m));
		tr_out_c(o, '\t');
		tr_out_i64(o, pred[k]);
		tr_out_c(o, '\t');
		/* Hundredths of a percent: more digits would be noise. */
		tr_out_f64(o, m == 0 ? 0 : (double)llround(1e4 *
		    ((double)pred[k] - m) / fabs(m)) / 100);
		tr_out_c(o, '\n');
	}
}

/* Predicts at (np, N); with a measurement, also compares. */
static void
predict(struct tr_out *o, int64_t np, double N, const struct meas *u,
    const char *where)
{
	struct tr_phase_pred *pp = tr_calloc(nph, sizeof *pp);
	double *mc = tr_calloc(nph, sizeof *mc), msum[3] = {0, 0, 0};
	int64_t pr[3], psum[3] = {0, 0, 0};
	int *has = tr_calloc(nph, sizeof *has);
	char err[512];
	size_t i, nn;
	long k;
	int measured;
	const char *name;

	for (i = 0; i < nph; i++) {
		name = tr_model_phase(model, i, &measured);
		mc[i] = NAN;
		k = u ? tr_map_get(u->names, name, strlen(name), 0) : -1;
		if (k >= 0) {
			mc[i] = u->v[k][0];
			has[i] = 1;
		} else if (u && !iflag) {
			tr_die(TR_EXIT_DATA, "%s:%ld: phase %s of the model is "
			    "not in the measurement at np=%lld N=%g", where,
			    u->line, name, (long long)np, N);
		} else if (u) {
			tr_warn("%s:%ld: phase %s of the model is not in the "
			    "measurement at np=%lld N=%g", where, u->line, name,
			    (long long)np, N);
		}
	}
	for (k = 0; u && (size_t)k < tr_map_len(u->names); k++) {
		const char *mn = tr_map_key(u->names, k, &nn);

		for (i = 0; i < nph; i++)
			if (strlen(tr_model_phase(model, i, NULL)) == nn &&
			    memcmp(tr_model_phase(model, i, NULL), mn, nn) == 0)
				break;
		if (i < nph)
			continue;
		if (!iflag)
			tr_die(TR_EXIT_DATA, "%s:%ld: measured phase %.*s "
			    "(np=%lld N=%g) is not in the model %s", where,
			    u->at[k], (int)nn, mn, (long long)np, N, fflag);
		tr_warn("%s:%ld: measured phase %.*s (np=%lld N=%g) is not in "
		    "the model %s", where, u->at[k], (int)nn, mn,
		    (long long)np, N, fflag);
	}
	if (tr_model_eval(model, params, N, (double)np, mc, pp, err,
	    sizeof err) < 0)
		tr_die(TR_EXIT_DATA, "%s", err);
	for (i = 0; i < nph; i++) {
		name = tr_model_phase(model, i, NULL);
		pr[0] = llround(pp[i].compute);
		pr[1] = llround(pp[i].comm);
		pr[2] = pr[0] + pr[1];
		out_pred(o, name, np, N, pr[0], pr[1]);
		for (k = 0; k < 3; k++)
			psum[k] += pr[k];
	}
	out_pred(o, "*", np, N, psum[0], psum[1]);
	for (i = 0; u && i < nph; i++) {
		if (!has[i])
			continue;
		name = tr_model_phase(model, i, NULL);
		k = tr_map_get(u->names, name, strlen(name), 0);
		pr[0] = llround(pp[i].compute);
		pr[1] = llround(pp[i].comm);
		pr[2] = pr[0] + pr[1];
		out_cmp(o, name, np, N, u->v[k], pr);
		for (k = 0; k < 3; k++)
			msum[k] += u->v[tr_map_get(u->names, name,
			    strlen(name), 0)][k];
	}
	if (u)
		out_cmp(o, "*", np, N, msum, psum);
	free(pp);
	free(mc);
	free(has);
}

static void
on_phase(const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_field *w = &r->f[1];
	struct meas *u = NULL;
	int64_t np;
	double N;
	int what;
	size_t i;
	long k;

	if (r->f[2].n == 1 && *r->f[2].p == '*')
		return;
	if (w->n == strlen(wflag) && memcmp(w->p, wflag, w->n) == 0)
		what = 2;
	else if (w->n == 8 && memcmp(w->p, "measured", 8) == 0)
		what = 1;
	else
		return;
	np = tr_get_i64(in, r, 3);
	N = tr_get_f64(in, r, 4);
	if (N <= 0)
		tr_in_die(in, "phase %.*s: N unknown (%g): the model needs the "
		    "problem size", (int)r->f[2].n, r->f[2].p, N);
	for (i = 0; i < nms; i++)
		if (ms[i].np == np && ms[i].N == N)
			u = &ms[i];
	if (!u) {
		tr_grow(&ms, &capms, nms + 1, sizeof *ms);
		u = &ms[nms++];
		memset(u, 0, sizeof *u);
		u->np = np;
		u->N = N;
		u->names = tr_map_new();
		u->line = tr_in_line(in);
	}
	if (what < u->what)
		return;
	if (what > u->what) {
		tr_map_clear(u->names);
		u->what = what;
	}
	k = tr_map_get(u->names, r->f[2].p, r->f[2].n, 1);
	if ((size_t)k >= u->cap)
		tr_grow(&u->v, &u->cap, (size_t)k + 1, sizeof *u->v);
	tr_grow(&u->at, &u->atcap, (size_t)k + 1, sizeof *u->at);
	u->at[k] = tr_in_line(in);
	u->v[k][0] = (double)tr_get_i64(in, r, 5);
	u->v[k][1] = (double)tr_get_i64(in, r, 6);
	u->v[k][2] = (double)tr_get_i64(in, r, 7);
}

static void
end_section(const struct tr_in *in, struct tr_out *o)
{
	char where[512];
	size_t i;

	snprintf(where, sizeof where, "%s", tr_in_file(in));
	for (i = 0; i < nms; i++) {
		predict(o, ms[i].np, ms[i].N, &ms[i], where);
		ncompared++;
		tr_map_free(ms[i].names);
		free(ms[i].v);
		free(ms[i].at);
	}
	nms = 0;
}

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
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
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
	nph = tr_model_nphase(model);
	if (npfiles)
		params = tr_params_load((int)npfiles, pfiles);
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
				predict(o, (int64_t)Ps[i], Ns[j], NULL, fflag);
		free(Ns);
		free(Ps);
	} else {
		tr_out_declare(o, TR_PHASE);
		tr_out_declare(o, TR_PHASECMP);
		in = tr_open(argc, argv);
		while ((c = tr_next(in, &r)) != TR_EOF) {
			if (c == TR_HDR)
				tr_out_sync(o, in);
			else if (c == TR_END)
				end_section(in, o);
			else if (c == TR_REC) {
				if (r.type == TR_PHASE)
					on_phase(in, &r);
				tr_out_rec(o, &r);
			}
		}
		status = tr_in_status(in);
		if (ncompared == 0 && status == 0)
			tr_die(TR_EXIT_DATA, "no measured or corrected phase "
			    "records in the input (tr-barrier-correct makes them; "
			    "-N and -n predict without)");
		tr_close(in);
	}
	tr_out_close(o);
	tr_model_free(model);
	tr_params_free(params);
	free(ms);
	free(defs);
	free(pfiles);
	return status;
}
