/* tr-profile - a flat profile per rank and function, with TAU's
 * definitions of calls, subroutine calls, exclusive and inclusive time. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int pflag, Rflag;
static int stats[3];		/* mean, min, max */
static const char *statname[3] = {"mean", "min", "max"};

static const struct tr_opts opts = {
	"tr-profile [-Aap] [-s mean,min,max] [file ...]",
	"-A\tleave out the per-rank prof records\n"
	"-a\tthe same as -s mean,min,max\n"
	"-p\tpass ev and reg records through too\n"
	"-s stats\talso write profagg records: these statistics over the "
	"ranks, comma-separated\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

struct fn {
	int64_t calls, subrs, incl, child, bytes;
};

struct open {
	long fn;
	int64_t enter, child;
};

struct rank {
	int seen;
	int64_t seq;
	int64_t end;	/* of the last call, or region left, outside regions */
	struct fn *fns;
	size_t nfns;
	struct open *stk;
	size_t nstk, capstk;
	struct tr_callops ops;	/* those of the call at seq */
};

static struct tr_map *names;
static struct rank *ranks;
static size_t nranks;

static struct rank *
getrank(int64_t r)
{
	tr_growz(&ranks, &nranks, (size_t)r + 1, sizeof *ranks);
	return &ranks[r];
}

static struct fn *
getfn(struct rank *rk, const char *s, size_t n, long *idx)
{
	long i = tr_map_get(names, s, n, 1);

	tr_growz(&rk->fns, &rk->nfns, (size_t)i + 1, sizeof *rk->fns);
	if (idx)
		*idx = i;
	return &rk->fns[i];
}

/* A call or region of duration d ends inside the innermost open region. */
static void
child(struct rank *rk, int64_t d)
{
	if (rk->nstk)
		rk->stk[rk->nstk - 1].child += d;
}

/* Time outside MPI calls is computation, function "compute", where no
 * region is open; inside one it is the region's exclusive time, as in
 * TAU, and is not counted twice. */
static void
compute(struct rank *rk, int64_t t)
{
	struct fn *c;

	if (!rk->seen || rk->nstk)
		return;
	c = getfn(rk, "compute", 7, NULL);
	c->calls++;
	c->incl += t - rk->end;
}

static void
call(const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *rk = getrank(e->rank);
	long i;
	struct fn *f = getfn(rk, e->op.p, e->op.n, &i);
	int64_t d = e->end - e->start;
	int newcall = !rk->seen || rk->seq != e->seq;

	f->bytes = tr_in_add(in, f->bytes, e->bytes, "bytes");
	/* Each op of a call counts it (tr_callops); its time goes to the
	 * first, so that a rank's times still add up to its span. */
	if (tr_callops_first(&rk->ops, newcall, i))
		f->calls++;
	if (!newcall)
		return;
	f->incl += d;
	compute(rk, e->start);
	if (rk->nstk)
		rk->fns[rk->stk[rk->nstk - 1].fn].subrs++;
	child(rk, d);
	rk->seen = 1;
	rk->seq = e->seq;
	rk->end = e->end;
}

static void
region(const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk = getrank(g->rank);
	struct open *op;
	struct fn *f;
	long i;
	int64_t d;

	f = getfn(rk, g->name.p, g->name.n, &i);
	if (!g->leave) {
		compute(rk, g->time);
		if (rk->nstk)
			rk->fns[rk->stk[rk->nstk - 1].fn].subrs++;
		tr_grow(&rk->stk, &rk->capstk, rk->nstk + 1, sizeof *rk->stk);
		op = &rk->stk[rk->nstk++];
		op->fn = i;
		op->enter = g->time;
		op->child = 0;
		f->calls++;
		return;
	}
	if (rk->nstk == 0 || rk->stk[rk->nstk - 1].fn != i)
		tr_in_die(in, "rank %lld leaves region '%.*s' that it is not "
		    "in", (long long)g->rank, (int)g->name.n, g->name.p);
	op = &rk->stk[--rk->nstk];
	d = g->time - op->enter;
	f->incl += d;
	f->child += op->child;
	child(rk, d);
	if (!rk->nstk)
		rk->end = g->time;
}




static void
report(struct tr_out *o)
{
	size_t n = tr_map_len(names), i, r, kn;
	long *ord = tr_map_order(names);
	const char *k;
	int s;

	for (r = 0; r < nranks && !Rflag; r++) {
		for (i = 0; i < n; i++) {
			struct fn *f;

			if ((size_t)ord[i] >= ranks[r].nfns)
				continue;
			f = &ranks[r].fns[ord[i]];
			if (f->calls == 0)
				continue;
			k = tr_map_key(names, ord[i], &kn);
			tr_out_str(o, "prof");
			tr_out_ti64(o, (int64_t)r);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_ti64(o, f->calls);
			tr_out_ti64(o, f->subrs);
			tr_out_ti64(o, f->incl - f->child);
			tr_out_ti64(o, f->incl);
			tr_out_ti64(o, f->bytes);
			tr_out_c(o, '\n');
		}
	}
	for (s = 0; s < 3; s++) {
		if (!stats[s])
			continue;
		for (i = 0; i < n; i++) {
			double v[5] = {0}, x[5];
			int64_t nr = 0;
			int j;

			for (r = 0; r < nranks; r++) {
				struct fn *f;

				if ((size_t)ord[i] >= ranks[r].nfns ||
				    ranks[r].fns[ord[i]].calls == 0)
					continue;
				f = &ranks[r].fns[ord[i]];
				x[0] = (double)f->calls;
				x[1] = (double)f->subrs;
				x[2] = (double)(f->incl - f->child);
				x[3] = (double)f->incl;
				x[4] = (double)f->bytes;
				for (j = 0; j < 5; j++) {
					if (s == 0 || nr == 0)
						v[j] = s == 0 ? v[j] + x[j] : x[j];
					else if (s == 1 ? x[j] < v[j] : x[j] > v[j])
						v[j] = x[j];
				}
				nr++;
			}
			if (nr == 0)
				continue;
			k = tr_map_key(names, ord[i], &kn);
			tr_out_str(o, "profagg\t");
			tr_out_str(o, statname[s]);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_ti64(o, nr);
			for (j = 0; j < 5; j++)
				tr_out_tf64(o, s == 0 ? v[j] / (double)nr : v[j]);
			tr_out_c(o, '\n');
		}
	}
	free(ord);
}

static void
reset(void)
{
	size_t r;

	for (r = 0; r < nranks; r++) {
		free(ranks[r].fns);
		free(ranks[r].stk);
		free(ranks[r].ops.op);
	}
	free(ranks);
	ranks = NULL;
	nranks = 0;
	tr_map_clear(names);
}

static void
parse_stats(const char *s)
{
	const char *p = s, *e;
	int i;

	for (;;) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		for (i = 0; i < 3; i++)
			if (strlen(statname[i]) == (size_t)(e - p) &&
			    memcmp(statname[i], p, (size_t)(e - p)) == 0)
				break;
		if (i == 3)
			tr_opt_bad('s', s, "not a list of mean, min and max");
		stats[i] = 1;
		if (!*e)
			break;
		p = e + 1;
	}
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "Aaps:", &opts)) != -1) {
		switch (c) {
		case 'a': stats[0] = stats[1] = stats[2] = 1; break;
		case 'p': pflag = 1; break;
		case 'A': Rflag = 1; break;
		case 's': parse_stats(optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	names = tr_map_new();
	o = tr_out_open(1, 0);
	if (!Rflag)
		tr_out_declare(o, TR_PROF);
	if (stats[0] || stats[1] || stats[2])
		tr_out_declare(o, TR_PROFAGG);
	if (!pflag) {
		tr_out_drop(o, "ev");
		tr_out_drop(o, "reg");
	}
	in = tr_open(argc, argv);
	tr_in_want(in, 1u << TR_EV_BYTES);
	/* Each rank's profile is right without the others; profagg says
	 * over how many ranks it is. */
	tr_in_check(in, TR_CHECK_RANKS_WARN | TR_CHECK_ENDED);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR)
			tr_out_sync(o, in);
		else if (c == TR_END) {
			report(o);
			reset();
		} else if (c == TR_REC) {
			if (r.type == TR_EV)
				call(in, &r.u.ev);
			else if (r.type == TR_REG)
				region(in, &r.u.reg);
			if ((r.type != TR_EV && r.type != TR_REG) || pflag)
				tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	reset();
	tr_map_free(names);
	return status;
}
