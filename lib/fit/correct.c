/* correct.c - per-phase times less the cost of the timer reads and
 * barriers the measurement itself added (tr-barrier-correct). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

/* Counts given with -k: per rank, for one phase or (name NULL) all. */
struct tr_corrcount {
	char *name;
	double timers, barriers;
};

struct phase {
	double wall, comm, timers, barriers;	/* sums over ranks */
	double cpu;		/* CPU ns outside MPI, for opt.cpu */
};

/* One run: a trace section, or the phase records of one (np, N) of a
 * table. */
struct run {
	int64_t np;
	double N;
	int table;
	struct tr_map *names;
	struct phase *ph;
	size_t cap;
};

struct rank {
	long *stack;
	size_t depth, cap;
	int64_t t, w;
	int64_t seq;		/* of the last ev, if any (ev) */
	int ev;
};

/* What the overhead table needs of every run, kept to the end. */
struct total {
	char *config;
	int64_t np;
	double N;
	double meas, corr;
};

struct tr_corr {
	struct tr_corropt opt;
	struct run *runs;
	size_t nrun, caprun;
	long trun;		/* the run of this section's trace records */
	double sectN;
	int newsect, sawreg, sawprof;
	int saidN;		/* the unknown N was warned about */
	struct rank *rk;
	size_t caprk;
	int64_t maxrank;
	struct total *tot;
	size_t ntot, captot;
	double ptimer;		/* from params; barriers by size below */
	struct {
		int64_t size;
		double cost;
	} *pbar;
	size_t npbar, cappbar;
};

/* ---- options ---- */

/* A unit cost: a duration with an optional unit, kept fractional. */
double
tr_corr_cost(int opt, const char *s)
{
	static const struct {
		const char *u;
		double mul;
	} u[] = { {"", 1}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9} };
	char *end, what[80];
	double x;
	size_t i;
	int64_t junk;

	x = strtod(s, &end);
	if (end == s || !isfinite(x) || *s == ' ')
		tr_opt_bad(opt, s, "not a duration");
	for (i = 0; i < sizeof u / sizeof u[0]; i++)
		if (strcmp(end, u[i].u) == 0)
			break;
	if (i == sizeof u / sizeof u[0]) {
		if (tr_parse_size(s, &junk) == 0)
			tr_opt_bad(opt, s, "a size, not a duration (units: ns "
			    "us ms s)");
		tr_opt_bad(opt, s, "unknown unit (units: ns us ms s)");
	}
	x *= u[i].mul;
	if (x < 0)
		tr_opt_bad(opt, s, "a negative cost");
	if (x > 0 && x < 1) {
		snprintf(what, sizeof what, "under 1 ns; a bare number is ns "
		    "(seconds? write %gus)", x * 1e6);
		tr_opt_bad(opt, s, what);
	}
	if (x > 1e9)
		tr_opt_bad(opt, s, "over a second per call; unit mix-up?");
	return x;
}

void
tr_corr_count(struct tr_corropt *o, char *s)
{
	char *arg = tr_strdup(s), *c1 = strrchr(s, ':'), *c2, *e1, *e2;
	struct tr_corrcount k;

	if (!c1)
		goto bad;
	*c1 = '\0';
	c2 = strrchr(s, ':');
	k.name = NULL;
	if (c2) {
		*c2 = '\0';
		if (!*s || strcmp(s, "*") == 0)
			goto bad;
		k.name = tr_strdup(s);
		s = c2 + 1;
	}
	k.timers = strtod(s, &e1);
	k.barriers = strtod(c1 + 1, &e2);
	/* NaN fails the tests; at most 1e12 of each per rank keeps the
	 * times they take (a second per call at most) in range. */
	if (e1 == s || *e1 || e2 == c1 + 1 || *e2 || !(k.timers >= 0) ||
	    !(k.barriers >= 0) || k.timers > 1e12 || k.barriers > 1e12)
		goto bad;
	tr_grow(&o->count, &o->capcount, o->ncount + 1, sizeof *o->count);
	o->count[o->ncount++] = k;
	free(arg);
	return;
bad:
	tr_opt_bad('m', arg, "not [phase:]timers:barriers, counts per rank "
	    "from 0 to 1e12");
}

/* The -k counts of phase NAME, or NULL. */
static const struct tr_corrcount *
given(const struct tr_corr *c, const char *name, size_t n)
{
	const struct tr_corrcount *def = NULL, *k = c->opt.count;
	size_t i;

	for (i = 0; i < c->opt.ncount; i++) {
		if (!k[i].name)
			def = &k[i];
		else if (strlen(k[i].name) == n &&
		    memcmp(k[i].name, name, n) == 0)
			return &k[i];
	}
	return def;
}

/* ---- unit costs ---- */

static void
read_params(struct tr_corr *c, const char *path)
{
	struct tr_in *in;
	struct tr_rec r;
	char *files[1];
	int t;

	files[0] = (char *)path;
	in = tr_open(1, files);
	while ((t = tr_next(in, &r)) != TR_EOF) {
		if (t != TR_REC || r.type != TR_PARAM)
			continue;
		if (r.f[1].n == 5 && memcmp(r.f[1].p, "timer", 5) == 0) {
			c->ptimer = tr_get_f64(in, &r, 4);
		} else if (r.f[1].n == 11 &&
		    memcmp(r.f[1].p, "MPI_Barrier", 11) == 0 &&
		    r.f[2].n == 5 && memcmp(r.f[2].p, "world", 5) == 0) {
			tr_grow(&c->pbar, &c->cappbar, c->npbar + 1,
			    sizeof *c->pbar);
			c->pbar[c->npbar].size = tr_get_i64(in, &r, 3);
			c->pbar[c->npbar++].cost = tr_get_f64(in, &r, 4);
		}
	}
	if (tr_in_status(in))
		exit(tr_in_status(in));
	tr_close(in);
	if (c->ptimer < 0 && c->npbar == 0)
		tr_die(TR_EXIT_DATA, "%s: no param records for timer or "
		    "MPI_Barrier (is it tr-bench output?)", path);
}

/* The barrier cost measured on the communicator size nearest np. */
static double
param_barrier(const struct tr_corr *c, int64_t np)
{
	size_t i, best = 0;

	if (c->npbar == 0)
		return -1;
	for (i = 1; i < c->npbar; i++)
		if (llabs(c->pbar[i].size - np) <
		    llabs(c->pbar[best].size - np))
			best = i;
	if (c->pbar[best].size != np)
		tr_warn("no MPI_Barrier parameter for %lld ranks: using the "
		    "one for %lld", (long long)np,
		    (long long)c->pbar[best].size);
	return c->pbar[best].cost;
}

/* Unit costs for a run at np ranks: options, then params, then the
 * header. */
static void
costs(const struct tr_corr *c, const struct tr_in *in, int64_t np,
    double *ct, double *cb)
{
	double v;

	*ct = c->opt.timer;
	*cb = c->opt.barrier;
	if (*ct < 0)
		*ct = c->ptimer;
	if (*cb < 0)
		*cb = param_barrier(c, np);
	if (*ct < 0 && tr_meta_f64(in, "timer.cost", &v) == 0)
		*ct = v;
	if (*cb < 0 && tr_meta_f64(in, "barrier.cost", &v) == 0)
		*cb = v;
	if ((*ct > 0 && *ct < 1) || (*cb > 0 && *cb < 1))
		tr_in_die(in, "timer.cost or barrier.cost under 1 ns: costs "
		    "are ns, not seconds");
	if (*ct > 1e9 || *cb > 1e9)
		tr_in_die(in, "timer.cost or barrier.cost over a second per "
		    "call: unit mix-up?");
}

/* ---- runs, phases and ranks ---- */

static struct run *
run_get(struct tr_corr *c, int64_t np, double N, int table)
{
	struct run *u;
	size_t i;

	for (i = 0; i < c->nrun; i++)
		if (c->runs[i].np == np && c->runs[i].N == N)
			return &c->runs[i];
	tr_grow(&c->runs, &c->caprun, c->nrun + 1, sizeof *c->runs);
	u = &c->runs[c->nrun++];
	memset(u, 0, sizeof *u);
	u->np = np;
	u->N = N;
	u->table = table;
	u->names = tr_map_new();
	return u;
}

static struct phase *
phase_get(struct run *u, const char *name, size_t n)
{
	long k = tr_map_get(u->names, name, n, 1);

	tr_growz(&u->ph, &u->cap, (size_t)k + 1, sizeof *u->ph);
	return &u->ph[k];
}

static struct rank *
rank_get(struct tr_corr *c, int64_t r)
{
	tr_growz(&c->rk, &c->caprk, (size_t)r + 1, sizeof *c->rk);
	if (r > c->maxrank)
		c->maxrank = r;
	return &c->rk[r];
}

static double
meta_N(const struct tr_corr *c, const struct tr_in *in)
{
	double N;

	if (c->opt.N > 0)
		return c->opt.N;
	if (tr_meta_f64(in, "N", &N) == 0)
		return N;
	return -1;
}

static double
cpu_of(const struct tr_in *in, int64_t cpu)
{
	if (cpu < 0)
		tr_in_die(in, "-C: this record has no CPU time (recorded with "
		    "TR_RECORD_CPU=0?)");
	return (double)cpu;
}

static struct run *
trace_run(struct tr_corr *c)
{
	if (c->trun < 0)
		c->trun = run_get(c, -1, c->sectN, 0) - c->runs;
	return &c->runs[c->trun];
}

/* ---- records ---- */

static void
on_reg(struct tr_corr *c, const struct tr_in *in, const struct tr_reg *g)
{
	struct run *u;
	struct rank *p = rank_get(c, g->rank);
	struct phase *ph;
	size_t nn;
	const char *top;
	long k;
	int flush;

	if (g->name.n == 1 && *g->name.p == '*')
		tr_in_die(in, "region name '*' is reserved for the total");
	u = trace_run(c);
	/* the recorder's flush is in no phase */
	flush = tr_reg_flush(g);
	if (p->depth > 0 && !(flush && g->leave)) {
		ph = &u->ph[p->stack[p->depth - 1]];
		ph->wall += (double)(g->time - p->t);
		if (c->opt.cpu)
			ph->cpu += cpu_of(in, g->cpu);
		ph->timers += (double)(g->wtime - p->w);
	}
	p->t = g->time;
	p->w = g->wtime;
	if (flush)
		return;
	if (!g->leave) {
		k = (long)(phase_get(u, g->name.p, g->name.n) - u->ph);
		tr_grow(&p->stack, &p->cap, p->depth + 1, sizeof *p->stack);
		p->stack[p->depth++] = k;
		return;
	}
	if (p->depth == 0)
		tr_in_die(in, "rank %lld leaves region %.*s it never entered",
		    (long long)g->rank, (int)g->name.n, g->name.p);
	top = tr_map_key(u->names, p->stack[p->depth - 1], &nn);
	if (nn != g->name.n || memcmp(top, g->name.p, nn) != 0)
		tr_in_die(in, "rank %lld leaves region %.*s inside %.*s",
		    (long long)g->rank, (int)g->name.n, g->name.p, (int)nn,
		    top);
	p->depth--;
}

static void
on_ev(struct tr_corr *c, const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *p = rank_get(c, e->rank);
	struct phase *ph;

	/* A call completing several requests (MPI_Waitall) is one record
	 * per request, all with its seq and its times: one call. */
	if (p->ev && e->seq == p->seq)
		return;
	p->ev = 1;
	p->seq = e->seq;
	if (p->depth == 0)
		return;
	ph = &trace_run(c)->ph[p->stack[p->depth - 1]];
	ph->comm += (double)(e->end - e->start);
	if (c->opt.cpu)
		ph->cpu += cpu_of(in, e->cpu);
	if (e->op.n == 11 && memcmp(e->op.p, "MPI_Barrier", 11) == 0)
		ph->barriers += 1;
}

/* tr-profile's record of a user region on one rank: its MPI time is
 * what the region holds beyond its exclusive time, which supposes the
 * regions do not nest. */
static void
on_prof(struct tr_corr *c, const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_field *nm = &r->f[2];
	struct phase *ph;
	double excl, incl;

	if ((nm->n >= 4 && memcmp(nm->p, "MPI_", 4) == 0) ||
	    (nm->n == 7 && memcmp(nm->p, "compute", 7) == 0))
		return;
	if (nm->n == 1 && *nm->p == '*')
		tr_in_die(in, "region name '*' is reserved for the total");
	rank_get(c, tr_get_i64(in, r, 1));
	excl = tr_get_f64(in, r, 5);
	incl = tr_get_f64(in, r, 6);
	ph = phase_get(trace_run(c), nm->p, nm->n);
	ph->wall += incl;
	ph->comm += incl - excl;
}

/* A phase record of a user table (or of our own earlier output). */
static int
on_phase(struct tr_corr *c, const struct tr_in *in, const struct tr_rec *r)
{
	struct run *u;
	struct phase *ph;
	double comp, comm, total, n;

	/* Corrections are made anew; predictions are not ours. */
	if (r->f[1].n == 9 && memcmp(r->f[1].p, "corrected", 9) == 0)
		return 1;
	if (!(r->f[1].n == 8 && memcmp(r->f[1].p, "measured", 8) == 0))
		return 0;
	if (r->f[2].n == 1 && *r->f[2].p == '*')
		return 1;
	u = run_get(c, tr_get_i64(in, r, 3), tr_get_f64(in, r, 4), 1);
	if (tr_map_get(u->names, r->f[2].p, r->f[2].n, 0) >= 0)
		tr_in_die(in, "phase %.*s given twice for np=%lld N=%g",
		    (int)r->f[2].n, r->f[2].p, (long long)u->np, u->N);
	comp = (double)tr_get_i64(in, r, 5);
	comm = (double)tr_get_i64(in, r, 6);
	total = (double)tr_get_i64(in, r, 7);
	if (comp + comm != total)
		tr_in_die(in, "phase %.*s: total %.0f is not compute + comm "
		    "(%.0f)", (int)r->f[2].n, r->f[2].p, total, comp + comm);
	if (comp < 0 || comm < 0)
		tr_in_die(in, "phase %.*s: negative measured time",
		    (int)r->f[2].n, r->f[2].p);
	ph = phase_get(u, r->f[2].p, r->f[2].n);
	ph->wall = total;
	ph->comm = comm;
	n = tr_get_f64(in, r, 8);
	ph->timers = n < 0 ? 0 : n;
	n = tr_get_f64(in, r, 9);
	ph->barriers = n < 0 ? 0 : n;
	return 1;
}

int
tr_corr_add(struct tr_corr *c, const struct tr_in *in,
    const struct tr_rec *r)
{
	switch (r->type) {
	case TR_REG:
		c->sawreg = 1;
		if (c->sawprof)
			break;
		on_reg(c, in, &r->u.reg);
		return 1;
	case TR_PROF:
		c->sawprof = 1;
		if (c->sawreg)
			break;
		on_prof(c, in, r);
		return 1;
	case TR_EV:
		on_ev(c, in, &r->u.ev);
		return 1;
	case TR_PHASE:
		return on_phase(c, in, r);
	case TR_OVERHEAD:
		return 1;
	default:
		return 0;
	}
	tr_in_die(in, "both reg and prof records: give the trace or its "
	    "profile");
}

/* ---- output ---- */

static void
out_phase(struct tr_out *o, const char *what, const char *name, size_t nn,
    const struct run *u, double comp, double comm, double t, double b)
{
	tr_out_str(o, "phase\t");
	tr_out_str(o, what);
	tr_out_c(o, '\t');
	tr_out_write(o, name, nn);
	tr_out_ti64(o, u->np);
	tr_out_tf64(o, u->N);
	tr_out_ti64(o, llround(comp));
	tr_out_ti64(o, llround(comm));
	tr_out_ti64(o, llround(comp) + llround(comm));
	tr_out_tf64(o, t);
	tr_out_tf64(o, b);
	tr_out_c(o, '\n');
}

/* Times go out as integer ns, and totals add two: a value out of that
 * range (costs or counts far too large) is an error, not an overflow. */
static void
check_ns(const struct tr_in *in, const char *name, size_t nn,
    const struct run *u, const char *what, const double *x)
{
	int i;

	for (i = 0; i < 2; i++)
		if (!(fabs(x[i]) < 4e18))
			tr_in_die(in, "phase %.*s (np=%lld N=%g): %s %s is out "
			    "of range (%g ns): unit costs or counts too large",
			    (int)nn, name, (long long)u->np, u->N, what,
			    i ? "comm" : "compute", x[i]);
}

static void
report_run(struct tr_corr *c, const struct tr_in *in, struct tr_out *o,
    struct run *u, const char *config)
{
	double ct, cb, div, comp, comm, ccomp, ccomm;
	double s[6] = {0, 0, 0, 0, 0, 0};
	size_t i, nn, nph = tr_map_len(u->names);
	const struct tr_corrcount *k;
	const char *name;
	struct total *t;

	div = u->table ? 1 : (double)u->np;
	costs(c, in, u->np, &ct, &cb);
	for (i = 0; i < nph; i++) {
		struct phase *ph = &u->ph[i];

		name = tr_map_key(u->names, (long)i, &nn);
		if ((k = given(c, name, nn))) {
			ph->timers = k->timers * div;
			ph->barriers = k->barriers * div;
		}
		if (ph->timers > 0 && ct < 0)
			tr_in_die(in, "phase %.*s has timer reads but no timer "
			    "cost is known: give -T, -P or a header with "
			    "timer.cost", (int)nn, name);
		if (ph->barriers > 0 && cb < 0)
			tr_in_die(in, "phase %.*s has barriers but no barrier "
			    "cost is known: give -b, -P or a header with "
			    "barrier.cost", (int)nn, name);
		comm = ph->comm / div;
		comp = c->opt.cpu && !u->table ? ph->cpu / div :
		    ph->wall / div - comm;
		ccomp = comp - (ph->timers > 0 ? ph->timers / div * ct : 0);
		ccomm = comm - (ph->barriers > 0 ? ph->barriers / div * cb : 0);
		check_ns(in, name, nn, u, "measured", (double[]){comp, comm});
		check_ns(in, name, nn, u, "corrected", (double[]){ccomp,
		    ccomm});
		if (llround(ccomp) < 0 || llround(ccomm) < 0)
			tr_warn("phase %.*s (np=%lld N=%g): corrected %s is "
			    "negative (%lld ns): the unit costs exceed the "
			    "time measured", (int)nn, name, (long long)u->np,
			    u->N, llround(ccomp) < 0 ? "compute" : "comm",
			    (long long)llround(llround(ccomp) < 0 ? ccomp :
			    ccomm));
		out_phase(o, "measured", name, nn, u, comp, comm,
		    ph->timers / div, ph->barriers / div);
		out_phase(o, "corrected", name, nn, u, ccomp, ccomm,
		    ph->timers / div, ph->barriers / div);
		s[0] += (double)llround(comp);
		s[1] += (double)llround(comm);
		s[2] += (double)llround(ccomp);
		s[3] += (double)llround(ccomm);
		s[4] += ph->timers / div;
		s[5] += ph->barriers / div;
	}
	if (nph == 0)
		return;
	check_ns(in, "*", 1, u, "measured", s);
	check_ns(in, "*", 1, u, "corrected", s + 2);
	out_phase(o, "measured", "*", 1, u, s[0], s[1], s[4], s[5]);
	out_phase(o, "corrected", "*", 1, u, s[2], s[3], s[4], s[5]);
	tr_grow(&c->tot, &c->captot, c->ntot + 1, sizeof *c->tot);
	t = &c->tot[c->ntot++];
	t->config = tr_strdup(config);
	t->np = u->np;
	t->N = u->N;
	t->meas = s[0] + s[1];
	t->corr = s[2] + s[3];
}

static const char *
config_of(const struct tr_corr *c, const struct tr_in *in)
{
	const char *s = tr_meta(in, "instr");

	return s ? s : c->opt.config ? c->opt.config : "-";
}

void
tr_corr_hdr(struct tr_corr *c, const struct tr_in *in, struct tr_out *out)
{
	if (!c->newsect && c->opt.config && !tr_meta(in, "instr"))
		tr_out_printf(out, "#meta instr=%s\n", c->opt.config);
	c->newsect = 1;
	c->sectN = meta_N(c, in);
}

void
tr_corr_end(struct tr_corr *c, const struct tr_in *in, struct tr_out *out)
{
	size_t i, j;
	int64_t np;

	if (c->nrun == 0)
		tr_warn("%s: no user regions and no phase records in this run",
		    tr_in_file(in));
	for (i = 0; i < c->nrun; i++) {
		struct run *u = &c->runs[i];

		if (!u->table) {
			if (tr_meta_i64(in, "np", &np) < 0)
				np = c->maxrank + 1;
			u->np = np;
			u->N = meta_N(c, in);
			for (j = 0; j < c->caprk && j <= (size_t)c->maxrank;
			    j++)
				if (c->rk[j].depth > 0)
					tr_warn("%s: rank %zu: %zu regions "
					    "never left; their open time is "
					    "not counted", tr_in_file(in), j,
					    c->rk[j].depth);
		}
		report_run(c, in, out, u, config_of(c, in));
		/* -1 keeps the record's shape, but tr-model refuses it
		 * and the overhead table takes such runs of one np for
		 * one size: say so once. */
		if (!u->table && u->N < 0 && !c->saidN) {
			c->saidN = 1;
			tr_warn("%s: N unknown (no #meta N, no -N): "
			    "written as -1, which tr-model refuses; "
			    "runs of one np are compared as one size",
			    tr_in_file(in));
		}
		tr_map_free(u->names);
		free(u->ph);
	}
	c->nrun = 0;
	c->trun = -1;
	c->newsect = c->sawreg = c->sawprof = 0;
	for (i = 0; i < c->caprk; i++) {
		free(c->rk[i].stack);
		memset(&c->rk[i], 0, sizeof c->rk[i]);
	}
	c->maxrank = -1;
}

static void
out_overhead(struct tr_out *o, const struct total *t, const struct total *b)
{
	tr_out_str(o, "overhead\t");
	tr_out_str(o, t->config);
	tr_out_ti64(o, t->np);
	tr_out_tf64(o, t->N);
	tr_out_ti64(o, llround(t->meas));
	tr_out_ti64(o, llround(t->corr));
	tr_out_tf64(o, b->meas > 0 ? t->meas / b->meas : 0);
	tr_out_tf64(o, b->corr > 0 ? t->corr / b->corr : 0);
	tr_out_c(o, '\n');
}

void
tr_corr_finish(struct tr_corr *c, const struct tr_in *in, struct tr_out *out)
{
	const struct total *tot = c->tot;
	const char *base = c->opt.baseline;
	size_t i, j, b, n = c->ntot, ngroup;

	for (i = 0; i < n; i++) {
		/* One group per (np, N), reported at its first run. */
		for (j = 0; j < i; j++)
			if (tot[j].np == tot[i].np && tot[j].N == tot[i].N)
				break;
		if (j < i)
			continue;
		b = n;
		ngroup = 0;
		for (j = i; j < n; j++) {
			if (tot[j].np != tot[i].np || tot[j].N != tot[i].N)
				continue;
			ngroup++;
			if (b == n && (!base ||
			    strcmp(tot[j].config, base) == 0))
				b = j;
		}
		if (ngroup < 2 && !base)
			continue;
		if (b == n)
			tr_in_die_all(in, "no run with instr=%s at np=%lld "
			    "N=%g to compare with", base, (long long)tot[i].np,
			    tot[i].N);
		for (j = i; j < n; j++)
			if (tot[j].np == tot[i].np && tot[j].N == tot[i].N)
				out_overhead(out, &tot[j], &tot[b]);
	}
}

/* ---- the corrector ---- */

struct tr_corr *
tr_corr_new(const struct tr_corropt *opt)
{
	struct tr_corr *c = tr_calloc(1, sizeof *c);

	c->opt = *opt;
	c->trun = -1;
	c->sectN = -1;
	c->maxrank = -1;
	c->ptimer = -1;
	if (opt->params)
		read_params(c, opt->params);
	return c;
}

void
tr_corr_free(struct tr_corr *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nrun; i++) {
		tr_map_free(c->runs[i].names);
		free(c->runs[i].ph);
	}
	for (i = 0; i < c->caprk; i++)
		free(c->rk[i].stack);
	for (i = 0; i < c->ntot; i++)
		free(c->tot[i].config);
	for (i = 0; i < c->opt.ncount; i++)
		free(c->opt.count[i].name);
	free(c->opt.count);
	free(c->tot);
	free(c->runs);
	free(c->rk);
	free(c->pbar);
	free(c);
}
