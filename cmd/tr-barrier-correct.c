/* tr-barrier-correct - per-phase times less the cost of the timer reads
 * and barriers the measurement itself added. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static double tflag = -1, bflag = -1;	/* unit costs from options, ns */
static const char *cflag, *pflag, *baseline;
static double nflag = -1;
static int Cflag, zflag;

/* Counts given with -k: per rank, for one phase or (name NULL) all. */
static struct count {
	char *name;
	double timers, barriers;
} *kcount;
static size_t nk, capk;
static int sawreg, sawprof;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-barrier-correct [-Cz] [-t cost] [-b cost] "
	    "[-p params] [-k [phase:]timers:barriers] [-c config] "
	    "[-B config] [-n N] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

struct phase {
	double wall, comm, timers, barriers;	/* sums over ranks */
	double cpu;		/* CPU ns outside MPI, for -C */
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
};

/* What the overhead table needs of every run, kept to the end. */
struct total {
	char *config;
	int64_t np;
	double N;
	double meas, corr;
};

static struct run *runs;
static size_t nrun, caprun;
static struct rank *rk;
static size_t caprk;
static int64_t maxrank = -1;
static struct total *tot;
static size_t ntot, captot;
static double ptimer = -1;	/* from -p; barriers per size below */
static struct {
	int64_t size;
	double cost;
} *pbar;
static size_t npbar, cappbar;

/* A unit cost: a duration with an optional unit, kept fractional. */
static double
parse_cost(int opt, const char *s)
{
	static const struct {
		const char *u;
		double mul;
	} u[] = { {"", 1}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9} };
	char *end;
	double x;
	size_t i;
	int64_t junk;

	x = strtod(s, &end);
	if (end == s || !isfinite(x) || *s == ' ')
		tr_die(TR_EXIT_USAGE, "-%c %s: not a duration", opt, s);
	for (i = 0; i < sizeof u / sizeof u[0]; i++)
		if (strcmp(end, u[i].u) == 0)
			break;
	if (i == sizeof u / sizeof u[0]) {
		if (tr_parse_size(s, &junk) == 0)
			tr_die(TR_EXIT_USAGE, "-%c %s: a size, not a duration "
			    "(units: ns us ms s)", opt, s);
		tr_die(TR_EXIT_USAGE, "-%c %s: unknown unit (units: ns us ms "
		    "s)", opt, s);
	}
	x *= u[i].mul;
	if (x < 0)
		tr_die(TR_EXIT_USAGE, "-%c %s: negative cost", opt, s);
	if (x > 0 && x < 1)
		tr_die(TR_EXIT_USAGE, "-%c %s: under 1 ns; a bare number is ns "
		    "(seconds? write %gus)", opt, s, x * 1e6);
	if (x > 1e9)
		tr_die(TR_EXIT_USAGE, "-%c %s: over a second per call; "
		    "unit mix-up?", opt, s);
	return x;
}

static void
read_params(const char *path)
{
	struct tr_in *in;
	struct tr_rec r;
	char *files[1];
	int c;

	files[0] = (char *)path;
	in = tr_open(1, files);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c != TR_REC || r.type != TR_PARAM)
			continue;
		if (r.f[1].n == 5 && memcmp(r.f[1].p, "timer", 5) == 0) {
			ptimer = tr_get_f64(in, &r, 4);
		} else if (r.f[1].n == 11 &&
		    memcmp(r.f[1].p, "MPI_Barrier", 11) == 0 &&
		    r.f[2].n == 5 && memcmp(r.f[2].p, "world", 5) == 0) {
			tr_grow(&pbar, &cappbar, npbar + 1, sizeof *pbar);
			pbar[npbar].size = tr_get_i64(in, &r, 3);
			pbar[npbar++].cost = tr_get_f64(in, &r, 4);
		}
	}
	if (tr_in_status(in))
		exit(tr_in_status(in));
	tr_close(in);
	if (ptimer < 0 && npbar == 0)
		tr_die(TR_EXIT_DATA, "%s: no param records for timer or "
		    "MPI_Barrier (is it tr-bench output?)", path);
}

/* The barrier cost measured on the communicator size nearest np. */
static double
param_barrier(int64_t np)
{
	size_t i, best = 0;

	if (npbar == 0)
		return -1;
	for (i = 1; i < npbar; i++)
		if (llabs(pbar[i].size - np) < llabs(pbar[best].size - np))
			best = i;
	if (pbar[best].size != np)
		tr_warn("no MPI_Barrier parameter for %lld ranks: using the "
		    "one for %lld", (long long)np, (long long)pbar[best].size);
	return pbar[best].cost;
}

/* Unit costs for a run at np ranks: options, then -p, then the header. */
static void
costs(const struct tr_in *in, int64_t np, double *ct, double *cb)
{
	double v;

	*ct = tflag;
	*cb = bflag;
	if (*ct < 0)
		*ct = ptimer;
	if (*cb < 0)
		*cb = param_barrier(np);
	if (*ct < 0 && tr_meta_f64(in, "timer.cost", &v) == 0)
		*ct = v;
	if (*cb < 0 && tr_meta_f64(in, "barrier.cost", &v) == 0)
		*cb = v;
	if ((*ct > 0 && *ct < 1) || (*cb > 0 && *cb < 1))
		tr_in_die(in, "timer.cost or barrier.cost under 1 ns: costs "
		    "are ns, not seconds");
}

static long trun = -1;	/* the run of this section's trace records */
static double sectN = -1;

static struct run *
run_get(int64_t np, double N, int table)
{
	size_t i;

	for (i = 0; i < nrun; i++)
		if (runs[i].np == np && runs[i].N == N)
			return &runs[i];
	tr_grow(&runs, &caprun, nrun + 1, sizeof *runs);
	memset(&runs[nrun], 0, sizeof runs[nrun]);
	runs[nrun].np = np;
	runs[nrun].N = N;
	runs[nrun].table = table;
	runs[nrun].names = tr_map_new();
	return &runs[nrun++];
}

static long
phase_get(struct run *u, const char *name, size_t n)
{
	long k = tr_map_get(u->names, name, n, 1);

	if ((size_t)k >= u->cap) {
		size_t old = u->cap;

		tr_grow(&u->ph, &u->cap, (size_t)k + 1, sizeof *u->ph);
		memset(u->ph + old, 0, (u->cap - old) * sizeof *u->ph);
	}
	return k;
}

static struct rank *
rank_get(int64_t r)
{
	if ((size_t)r >= caprk) {
		size_t old = caprk;

		tr_grow(&rk, &caprk, (size_t)r + 1, sizeof *rk);
		memset(rk + old, 0, (caprk - old) * sizeof *rk);
	}
	if (r > maxrank)
		maxrank = r;
	return &rk[r];
}

static double
meta_N(const struct tr_in *in)
{
	double N;

	if (nflag > 0)
		return nflag;
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
trace_run(void)
{
	if (trun < 0)
		trun = run_get(-1, sectN, 0) - runs;
	return &runs[trun];
}

static void
on_reg(const struct tr_in *in, const struct tr_reg *g)
{
	struct run *u;
	struct rank *p = rank_get(g->rank);
	struct phase *ph;
	size_t nn;
	const char *top;
	long k;

	if (g->name.n == 1 && *g->name.p == '*')
		tr_in_die(in, "region name '*' is reserved for the total");
	u = trace_run();
	if (p->depth > 0) {
		ph = &u->ph[p->stack[p->depth - 1]];
		ph->wall += (double)(g->time - p->t);
		if (Cflag)
			ph->cpu += cpu_of(in, g->cpu);
		ph->timers += (double)(g->wtime - p->w);
	}
	p->t = g->time;
	p->w = g->wtime;
	if (!g->leave) {
		k = phase_get(u, g->name.p, g->name.n);
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
on_ev(const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *p = rank_get(e->rank);
	struct run *u;
	struct phase *ph;

	if (p->depth == 0)
		return;
	u = trace_run();
	ph = &u->ph[p->stack[p->depth - 1]];
	ph->comm += (double)(e->end - e->start);
	if (Cflag)
		ph->cpu += cpu_of(in, e->cpu);
	if (e->op.n == 11 && memcmp(e->op.p, "MPI_Barrier", 11) == 0)
		ph->barriers += 1;
}

/* tr-profile's record of a user region on one rank: its MPI time is
 * what the region holds beyond its exclusive time, which supposes the
 * regions do not nest. */
static void
on_prof(const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_field *nm = &r->f[2];
	struct run *u;
	struct phase *ph;
	double excl, incl;
	long k;

	if ((nm->n >= 4 && memcmp(nm->p, "MPI_", 4) == 0) ||
	    (nm->n == 7 && memcmp(nm->p, "compute", 7) == 0))
		return;
	if (nm->n == 1 && *nm->p == '*')
		tr_in_die(in, "region name '*' is reserved for the total");
	rank_get(tr_get_i64(in, r, 1));
	excl = tr_get_f64(in, r, 5);
	incl = tr_get_f64(in, r, 6);
	u = trace_run();
	k = phase_get(u, nm->p, nm->n);
	ph = &u->ph[k];
	ph->wall += incl;
	ph->comm += incl - excl;
}

static void
parse_count(char *s)
{
	char *c1 = strrchr(s, ':'), *c2, *e1, *e2;
	struct count k;

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
	if (e1 == s || *e1 || e2 == c1 + 1 || *e2 || !(k.timers >= 0) ||
	    !(k.barriers >= 0))
		goto bad;
	tr_grow(&kcount, &capk, nk + 1, sizeof *kcount);
	kcount[nk++] = k;
	return;
bad:
	tr_die(TR_EXIT_USAGE, "-k: expected [phase:]timers:barriers, counts "
	    "per rank");
}

/* The -k counts of phase NAME, or NULL. */
static const struct count *
given(const char *name, size_t n)
{
	const struct count *def = NULL;
	size_t i;

	for (i = 0; i < nk; i++) {
		if (!kcount[i].name)
			def = &kcount[i];
		else if (strlen(kcount[i].name) == n &&
		    memcmp(kcount[i].name, name, n) == 0)
			return &kcount[i];
	}
	return def;
}

/* A phase record of a user table (or of our own earlier output). */
static int
on_phase(const struct tr_in *in, const struct tr_rec *r)
{
	struct run *u;
	struct phase *ph;
	double comp, comm, total, n;
	long k;

	/* Corrections are made anew; predictions are not ours. */
	if (r->f[1].n == 9 && memcmp(r->f[1].p, "corrected", 9) == 0)
		return 1;
	if (!(r->f[1].n == 8 && memcmp(r->f[1].p, "measured", 8) == 0))
		return 0;
	if (r->f[2].n == 1 && *r->f[2].p == '*')
		return 1;
	u = run_get(tr_get_i64(in, r, 3), tr_get_f64(in, r, 4), 1);
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
	k = phase_get(u, r->f[2].p, r->f[2].n);
	ph = &u->ph[k];
	ph->wall = total;
	ph->comm = comm;
	n = tr_get_f64(in, r, 8);
	ph->timers = n < 0 ? 0 : n;
	n = tr_get_f64(in, r, 9);
	ph->barriers = n < 0 ? 0 : n;
	return 1;
}

static void
out_phase(struct tr_out *o, const char *what, const char *name, size_t nn,
    const struct run *u, double comp, double comm, double t, double b)
{
	tr_out_str(o, "phase\t");
	tr_out_str(o, what);
	tr_out_c(o, '\t');
	tr_out_write(o, name, nn);
	tr_out_c(o, '\t');
	tr_out_i64(o, u->np);
	tr_out_c(o, '\t');
	tr_out_f64(o, u->N);
	tr_out_c(o, '\t');
	tr_out_i64(o, llround(comp));
	tr_out_c(o, '\t');
	tr_out_i64(o, llround(comm));
	tr_out_c(o, '\t');
	tr_out_i64(o, llround(comp) + llround(comm));
	tr_out_c(o, '\t');
	tr_out_f64(o, t);
	tr_out_c(o, '\t');
	tr_out_f64(o, b);
	tr_out_c(o, '\n');
}

static void
report_run(const struct tr_in *in, struct tr_out *o, struct run *u,
    const char *config)
{
	double ct, cb, div, comp, comm, ccomp, ccomm;
	double s[6] = {0, 0, 0, 0, 0, 0};
	size_t i, nn, nph = tr_map_len(u->names);
	const struct count *k;
	const char *name;

	div = u->table ? 1 : (double)u->np;
	costs(in, u->np, &ct, &cb);
	for (i = 0; i < nph; i++) {
		struct phase *ph = &u->ph[i];

		name = tr_map_key(u->names, (long)i, &nn);
		if ((k = given(name, nn))) {
			ph->timers = k->timers * div;
			ph->barriers = k->barriers * div;
		}
		if (ph->timers > 0 && ct < 0)
			tr_in_die(in, "phase %.*s has timer reads but no timer "
			    "cost is known: give -t, -p or a header with "
			    "timer.cost", (int)nn, name);
		if (ph->barriers > 0 && cb < 0)
			tr_in_die(in, "phase %.*s has barriers but no barrier "
			    "cost is known: give -b, -p or a header with "
			    "barrier.cost", (int)nn, name);
		comm = ph->comm / div;
		comp = Cflag && !u->table ? ph->cpu / div : ph->wall / div - comm;
		ccomp = comp - (ph->timers > 0 ? ph->timers / div * ct : 0);
		ccomm = comm - (ph->barriers > 0 ? ph->barriers / div * cb : 0);
		if (llround(ccomp) < 0 || llround(ccomm) < 0)
			tr_warn("phase %.*s (np=%lld N=%g): corrected %s is "
			    "negative (%.0f ns): the unit costs exceed the time "
			    "measured", (int)nn, name, (long long)u->np, u->N,
			    llround(ccomp) < 0 ? "compute" : "comm",
			    llround(ccomp) < 0 ? ccomp : ccomm);
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
	out_phase(o, "measured", "*", 1, u, s[0], s[1], s[4], s[5]);
	out_phase(o, "corrected", "*", 1, u, s[2], s[3], s[4], s[5]);
	tr_grow(&tot, &captot, ntot + 1, sizeof *tot);
	tot[ntot].config = tr_strdup(config);
	tot[ntot].np = u->np;
	tot[ntot].N = u->N;
	tot[ntot].meas = s[0] + s[1];
	tot[ntot++].corr = s[2] + s[3];
}

static const char *
config_of(const struct tr_in *in)
{
	const char *c = tr_meta(in, "instr");

	return c ? c : cflag ? cflag : "-";
}

static void
end_section(const struct tr_in *in, struct tr_out *o)
{
	size_t i, j;
	int64_t np;

	if (nrun == 0)
		tr_warn("%s: no user regions and no phase records in this run",
		    tr_in_file(in));
	for (i = 0; i < nrun; i++) {
		struct run *u = &runs[i];

		if (!u->table) {
			if (tr_meta_i64(in, "np", &np) < 0)
				np = maxrank + 1;
			u->np = np;
			u->N = meta_N(in);
			for (j = 0; j < caprk && j <= (size_t)maxrank; j++)
				if (rk[j].depth > 0)
					tr_warn("%s: rank %zu: %zu regions never "
					    "left; their open time is not "
					    "counted", tr_in_file(in), j,
					    rk[j].depth);
		}
		report_run(in, o, u, config_of(in));
		tr_map_free(u->names);
		free(u->ph);
	}
	nrun = 0;
	trun = -1;
	sawreg = sawprof = 0;
	for (i = 0; i < caprk; i++) {
		free(rk[i].stack);
		memset(&rk[i], 0, sizeof rk[i]);
	}
	maxrank = -1;
}

static void
overhead(struct tr_out *o)
{
	size_t i, j, b, ngroup;

	for (i = 0; i < ntot; i++) {
		/* One group per (np, N), reported at its first run. */
		for (j = 0; j < i; j++)
			if (tot[j].np == tot[i].np && tot[j].N == tot[i].N)
				break;
		if (j < i)
			continue;
		b = ntot;
		ngroup = 0;
		for (j = i; j < ntot; j++) {
			if (tot[j].np != tot[i].np || tot[j].N != tot[i].N)
				continue;
			ngroup++;
			if (b == ntot && (!baseline ||
			    strcmp(tot[j].config, baseline) == 0))
				b = j;
		}
		if (ngroup < 2 && !baseline)
			continue;
		if (b == ntot)
			tr_die(TR_EXIT_DATA, "no run with instr=%s at np=%lld "
			    "N=%g to compare with", baseline,
			    (long long)tot[i].np, tot[i].N);
		for (j = i; j < ntot; j++) {
			if (tot[j].np != tot[i].np || tot[j].N != tot[i].N)
				continue;
			tr_out_str(o, "overhead\t");
			tr_out_str(o, tot[j].config);
			tr_out_c(o, '\t');
			tr_out_i64(o, tot[j].np);
			tr_out_c(o, '\t');
			tr_out_f64(o, tot[j].N);
			tr_out_c(o, '\t');
			tr_out_i64(o, llround(tot[j].meas));
			tr_out_c(o, '\t');
			tr_out_i64(o, llround(tot[j].corr));
			tr_out_c(o, '\t');
			tr_out_f64(o, tot[b].meas > 0 ?
			    tot[j].meas / tot[b].meas : 0);
			tr_out_c(o, '\t');
			tr_out_f64(o, tot[b].corr > 0 ?
			    tot[j].corr / tot[b].corr : 0);
			tr_out_c(o, '\n');
		}
	}
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status, newsect = 0;
	size_t i;
	char *end;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "B:b:Cc:k:n:p:t:z")) != -1) {
		switch (c) {
		case 'B': baseline = optarg; break;
		case 'b': bflag = parse_cost('b', optarg); break;
		case 'C': Cflag = 1; break;
		case 'c': cflag = optarg; break;
		case 'k': parse_count(optarg); break;
		case 'n':
			nflag = strtod(optarg, &end);
			if (end == optarg || *end || !(nflag > 0))
				tr_die(TR_EXIT_USAGE, "-n %s: not a positive "
				    "number", optarg);
			break;
		case 'p': pflag = optarg; break;
		case 't': tflag = parse_cost('t', optarg); break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (cflag && (!*cflag || strpbrk(cflag, "\t\n ")))
		tr_die(TR_EXIT_USAGE, "-c %s: a config is one word", cflag);
	if (pflag)
		read_params(pflag);
	o = tr_out_open(1, zflag);
	tr_out_declare(o, TR_PHASE);
	tr_out_declare(o, TR_OVERHEAD);
	tr_out_drop(o, "ev");
	tr_out_drop(o, "reg");
	tr_out_drop(o, "prof");
	in = tr_open(argc, argv);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		switch (c) {
		case TR_HDR:
			tr_out_sync(o, in);
			if (newsect == 0 && cflag && !tr_meta(in, "instr"))
				tr_out_printf(o, "#meta instr=%s\n", cflag);
			newsect = 1;
			sectN = meta_N(in);
			break;
		case TR_END:
			end_section(in, o);
			newsect = 0;
			break;
		case TR_REC:
			if (r.type == TR_REG || r.type == TR_PROF) {
				if (r.type == TR_REG)
					sawreg = 1;
				else
					sawprof = 1;
				if (sawreg && sawprof)
					tr_in_die(in, "both reg and prof records: "
					    "give the trace or its profile");
			}
			if (r.type == TR_REG)
				on_reg(in, &r.u.reg);
			else if (r.type == TR_PROF)
				on_prof(in, &r);
			else if (r.type == TR_EV)
				on_ev(in, &r.u.ev);
			else if (r.type == TR_PHASE) {
				if (!on_phase(in, &r))
					tr_out_rec(o, &r);
			} else if (r.type != TR_OVERHEAD)
				tr_out_rec(o, &r);
			break;
		}
	}
	overhead(o);
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	for (i = 0; i < ntot; i++)
		free(tot[i].config);
	for (i = 0; i < nk; i++)
		free(kcount[i].name);
	free(kcount);
	free(tot);
	free(runs);
	free(rk);
	free(pbar);
	return status;
}
