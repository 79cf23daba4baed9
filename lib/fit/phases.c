/* phases.c - a phase model's predictions, compared with measured phases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

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

struct tr_phases {
	const struct tr_model *model;
	const struct tr_params *params;
	const char *path, *what;
	int lenient;
	size_t nph;
	struct meas *ms;
	size_t nms, capms;
};

struct tr_phases *
tr_phases_new(const struct tr_model *m, const char *path,
    const struct tr_params *p, const char *what, int lenient)
{
	struct tr_phases *ph = tr_calloc(1, sizeof *ph);

	ph->model = m;
	ph->path = path;
	ph->params = p;
	ph->what = what;
	ph->lenient = lenient;
	ph->nph = tr_model_nphase(m);
	return ph;
}

void
tr_phases_free(struct tr_phases *ph)
{
	if (!ph)
		return;
	free(ph->ms);
	free(ph);
}

static void
out_pred(struct tr_out *o, const char *name, int64_t np, double N,
    int64_t comp, int64_t comm)
{
	tr_out_str(o, "phase\tpredicted\t");
	tr_out_str(o, name);
	tr_out_ti64(o, np);
	tr_out_tf64(o, N);
	tr_out_ti64(o, comp);
	tr_out_ti64(o, comm);
	tr_out_ti64(o, comp + comm);
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
		tr_out_ti64(o, np);
		tr_out_tf64(o, N);
		tr_out_c(o, '\t');
		tr_out_str(o, part[k]);
		tr_out_ti64(o, llround(m));
		tr_out_ti64(o, pred[k]);
		/* Hundredths of a percent: more digits would be noise. */
		tr_out_tf64(o, m == 0 ? 0 : (double)llround(1e4 *
		    ((double)pred[k] - m) / fabs(m)) / 100);
		tr_out_c(o, '\n');
	}
}

/* Every measured phase must be in the model, and every phase of the
 * model measured: else the comparison is of something else. */
static void
check_names(const struct tr_phases *ph, const struct meas *u, int *has,
    double *mc, const char *where)
{
	const char *name, *mn;
	size_t i, nn;
	long k;

	for (i = 0; i < ph->nph; i++) {
		name = tr_model_phase(ph->model, i, NULL);
		mc[i] = NAN;
		k = u ? tr_map_get(u->names, name, strlen(name), 0) : -1;
		if (k >= 0) {
			mc[i] = u->v[k][0];
			has[i] = 1;
		} else if (u && !ph->lenient) {
			tr_die(TR_EXIT_DATA, "%s:%ld: phase %s of the model is "
			    "not in the measurement at np=%lld N=%g", where,
			    u->line, name, (long long)u->np, u->N);
		} else if (u) {
			tr_warn("%s:%ld: phase %s of the model is not in the "
			    "measurement at np=%lld N=%g", where, u->line, name,
			    (long long)u->np, u->N);
		}
	}
	for (k = 0; u && (size_t)k < tr_map_len(u->names); k++) {
		mn = tr_map_key(u->names, k, &nn);
		for (i = 0; i < ph->nph; i++)
			if (strlen(tr_model_phase(ph->model, i, NULL)) == nn &&
			    memcmp(tr_model_phase(ph->model, i, NULL), mn,
			    nn) == 0)
				break;
		if (i < ph->nph)
			continue;
		if (!ph->lenient)
			tr_die(TR_EXIT_DATA, "%s:%ld: measured phase %.*s "
			    "(np=%lld N=%g) is not in the model %s", where,
			    u->at[k], (int)nn, mn, (long long)u->np, u->N,
			    ph->path);
		tr_warn("%s:%ld: measured phase %.*s (np=%lld N=%g) is not in "
		    "the model %s", where, u->at[k], (int)nn, mn,
		    (long long)u->np, u->N, ph->path);
	}
}

/* Predicts at (np, N); with a measurement, also compares. */
static void
predict(const struct tr_phases *ph, struct tr_out *o, int64_t np, double N,
    const struct meas *u, const char *where)
{
	struct tr_phase_pred *pp = tr_calloc(ph->nph, sizeof *pp);
	double *mc = tr_calloc(ph->nph, sizeof *mc), msum[3] = {0, 0, 0};
	int64_t pr[3], psum[3] = {0, 0, 0};
	int *has = tr_calloc(ph->nph, sizeof *has);
	char err[512];
	size_t i;
	long k;
	const char *name;

	check_names(ph, u, has, mc, where);
	if (tr_model_eval(ph->model, ph->params, N, (double)np, mc, pp, err,
	    sizeof err) < 0)
		tr_die(TR_EXIT_DATA, "%s", err);
	for (i = 0; i < ph->nph; i++) {
		name = tr_model_phase(ph->model, i, NULL);
		pr[0] = llround(pp[i].compute);
		pr[1] = llround(pp[i].comm);
		pr[2] = pr[0] + pr[1];
		out_pred(o, name, np, N, pr[0], pr[1]);
		for (k = 0; k < 3; k++)
			psum[k] += pr[k];
	}
	out_pred(o, "*", np, N, psum[0], psum[1]);
	for (i = 0; u && i < ph->nph; i++) {
		if (!has[i])
			continue;
		name = tr_model_phase(ph->model, i, NULL);
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

void
tr_phases_predict(const struct tr_phases *ph, struct tr_out *o, int64_t np,
    double N)
{
	predict(ph, o, np, N, NULL, ph->path);
}

void
tr_phases_add(struct tr_phases *ph, const struct tr_in *in,
    const struct tr_rec *r)
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
	if (w->n == strlen(ph->what) && memcmp(w->p, ph->what, w->n) == 0)
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
	for (i = 0; i < ph->nms; i++)
		if (ph->ms[i].np == np && ph->ms[i].N == N)
			u = &ph->ms[i];
	if (!u) {
		tr_grow(&ph->ms, &ph->capms, ph->nms + 1, sizeof *ph->ms);
		u = &ph->ms[ph->nms++];
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

size_t
tr_phases_end(struct tr_phases *ph, const struct tr_in *in,
    struct tr_out *o)
{
	char where[512];
	size_t i, n = ph->nms;

	snprintf(where, sizeof where, "%s", tr_in_file(in));
	for (i = 0; i < ph->nms; i++) {
		predict(ph, o, ph->ms[i].np, ph->ms[i].N, &ph->ms[i], where);
		tr_map_free(ph->ms[i].names);
		free(ph->ms[i].v);
		free(ph->ms[i].at);
	}
	ph->nms = 0;
	return n;
}
