/* tr-delta - the computation between MPI calls: for each rank, the time
 * from the end of one call to the start of the next (ScalaExtrap's
 * delta), keyed by the interval. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

/* Sums stay integer ns: one past 2^63 comes of times no run has. */
#define SUM "a sum of deltas"

static int oflag, pflag, rflag, sflag;

static const struct tr_opts opts = {
	"tr-delta [-cprs] [file ...]",
	"-c\tkey by call names (MPI_Send>MPI_Wait) instead of sites\n"
	"-p\tpass ev and reg records through too\n"
	"-r\tkey by the innermost user region open at the next call\n"
	"-s\twrite the totals per rank and key (dsum) and the slowest "
	"rank's (dmax) instead of delta records\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

struct sum {
	int64_t n, wall, cpu;	/* cpu -1 once a part was not measured */
};

struct rank {
	int seen;
	int64_t seq, end, cpu;	/* cpu since the last call, -1 unknown */
	int64_t flush;		/* tr-record's flushes since */
	struct tr_flushing fl;
	char *prev;		/* key part of the last call */
	size_t prevn, prevcap;
	char **reg;		/* open regions, innermost last */
	size_t nreg, regcap;
	struct sum *sums;	/* per key, with -s */
	size_t nsums;
};

static struct rank *ranks;
static size_t nranks;
static struct tr_map *keys;
static char *kbuf;
static size_t kcap;

static struct rank *
getrank(int64_t r)
{
	tr_growz(&ranks, &nranks, (size_t)r + 1, sizeof *ranks);
	return &ranks[r];
}

static void
add(const struct tr_in *in, struct rank *rk, long k, int64_t wall,
    int64_t cpu)
{
	struct sum *s;

	tr_growz(&rk->sums, &rk->nsums, (size_t)k + 1, sizeof *rk->sums);
	s = &rk->sums[k];
	s->n++;
	s->wall = tr_in_add(in, s->wall, wall, SUM);
	s->cpu = s->cpu < 0 || cpu < 0 ? -1 : tr_in_add(in, s->cpu, cpu, SUM);
}

static void
call(const struct tr_in *in, struct tr_out *o, const struct tr_ev *e)
{
	struct rank *rk = getrank(e->rank);
	struct tr_field part = oflag ? e->op : e->site;
	const char *k;
	size_t kn;
	int64_t cpu, wall;

	if (rk->seen && e->seq == rk->seq)
		return;		/* another request of the same completion */
	cpu = rk->cpu < 0 || e->cpu < 0 ? -1 : tr_in_add(in, rk->cpu, e->cpu,
	    SUM);
	if (rk->seen) {
		if (rflag) {
			k = rk->nreg ? rk->reg[rk->nreg - 1] : "-";
			kn = strlen(k);
		} else {
			kn = rk->prevn + 1 + part.n;
			tr_grow(&kbuf, &kcap, kn, 1);
			memcpy(kbuf, rk->prev, rk->prevn);
			kbuf[rk->prevn] = '>';
			memcpy(kbuf + rk->prevn + 1, part.p, part.n);
			k = kbuf;
		}
		wall = e->start - rk->end - rk->flush;
		if (sflag) {
			add(in, rk, 0, wall, cpu);
			add(in, rk, tr_map_get(keys, k, kn, 1), wall, cpu);
		} else {
			tr_out_str(o, "delta\t");
			tr_out_i64(o, e->rank);
			tr_out_c(o, '\t');
			tr_out_i64(o, e->seq);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_c(o, '\t');
			tr_out_i64(o, rk->end);
			tr_out_c(o, '\t');
			tr_out_i64(o, wall);
			tr_out_c(o, '\t');
			tr_out_i64(o, cpu);
			tr_out_c(o, '\n');
		}
	}
	rk->seen = 1;
	rk->seq = e->seq;
	rk->end = e->end;
	rk->cpu = 0;
	rk->flush = 0;
	if (!rflag) {
		/* + 1: an empty site must not leave prev NULL, which the
		 * memcpy of the next key may not take even for 0 bytes */
		tr_grow(&rk->prev, &rk->prevcap, part.n + 1, 1);
		memcpy(rk->prev, part.p, part.n);
		rk->prevn = part.n;
	}
}

static void
region(const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk = getrank(g->rank);
	int flush = tr_reg_flush(g);
	int64_t d;

	/* tr-record's flush is not the program's: out of the delta */
	if (flush && (d = tr_flush_step(in, &rk->fl, g)) >= 0) {
		if (rk->seen)
			rk->flush = tr_in_add(in, rk->flush, d, SUM);
		return;
	}
	rk->cpu = rk->cpu < 0 || g->cpu < 0 ? -1 : tr_in_add(in, rk->cpu,
	    g->cpu, SUM);
	if (!rflag || flush)
		return;
	if (!g->leave) {
		tr_grow(&rk->reg, &rk->regcap, rk->nreg + 1, sizeof *rk->reg);
		rk->reg[rk->nreg++] = tr_strndup(g->name.p, g->name.n);
	} else {
		if (rk->nreg == 0 || strlen(rk->reg[rk->nreg - 1]) !=
		    g->name.n || memcmp(rk->reg[rk->nreg - 1], g->name.p,
		    g->name.n) != 0)
			tr_in_die(in, "rank %lld leaves region '%.*s' that it "
			    "is not in", (long long)g->rank, (int)g->name.n,
			    g->name.p);
		free(rk->reg[--rk->nreg]);
	}
}

static void
putsum(struct tr_out *o, const char *type, int64_t a, const char *k,
    size_t kn)
{
	tr_out_str(o, type);
	tr_out_c(o, '\t');
	tr_out_i64(o, a);
	tr_out_c(o, '\t');
	tr_out_write(o, k, kn);
}

/* The sums of the section: per rank, then the max over ranks. */
static void
report(struct tr_out *o)
{
	size_t r, nk = tr_map_len(keys), kn;
	const char *k;
	long i;

	for (r = 0; r < nranks; r++) {
		for (i = 0; (size_t)i < ranks[r].nsums; i++) {
			struct sum *s = &ranks[r].sums[i];

			if (s->n == 0)
				continue;
			k = tr_map_key(keys, i, &kn);
			putsum(o, "dsum", (int64_t)r, k, kn);
			tr_out_c(o, '\t');
			tr_out_i64(o, s->n);
			tr_out_c(o, '\t');
			tr_out_i64(o, s->wall);
			tr_out_c(o, '\t');
			tr_out_i64(o, s->cpu);
			tr_out_c(o, '\n');
		}
	}
	for (i = 0; (size_t)i < nk; i++) {
		int64_t nr = 0, n = 0, wall = -1, cpu = 0, arg = 0;
		double tot = 0;

		for (r = 0; r < nranks; r++) {
			struct sum *s;

			if ((size_t)i >= ranks[r].nsums ||
			    ranks[r].sums[i].n == 0)
				continue;
			s = &ranks[r].sums[i];
			nr++;
			n += s->n;
			tot += (double)s->wall;
			if (s->wall > wall) {
				wall = s->wall;
				arg = (int64_t)r;
			}
			if (s->cpu < 0 || cpu < 0)
				cpu = -1;
			else if (s->cpu > cpu)
				cpu = s->cpu;
		}
		if (nr == 0)
			continue;
		k = tr_map_key(keys, i, &kn);
		tr_out_str(o, "dmax\t");
		tr_out_write(o, k, kn);
		tr_out_c(o, '\t');
		tr_out_i64(o, nr);
		tr_out_c(o, '\t');
		tr_out_i64(o, n);
		tr_out_c(o, '\t');
		tr_out_i64(o, wall);
		tr_out_c(o, '\t');
		tr_out_i64(o, cpu);
		tr_out_c(o, '\t');
		tr_out_f64(o, tot / (double)nr);
		tr_out_c(o, '\t');
		tr_out_i64(o, arg);
		tr_out_c(o, '\n');
	}
}

static void
reset(void)
{
	size_t r;

	for (r = 0; r < nranks; r++) {
		free(ranks[r].prev);
		while (ranks[r].nreg)
			free(ranks[r].reg[--ranks[r].nreg]);
		free(ranks[r].reg);
		free(ranks[r].sums);
	}
	free(ranks);
	ranks = NULL;
	nranks = 0;
	tr_map_clear(keys);
	tr_map_get(keys, "*", 1, 1);
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "cprs", &opts)) != -1) {
		switch (c) {
		case 'c': oflag = 1; break;
		case 'p': pflag = 1; break;
		case 'r': rflag = 1; break;
		case 's': sflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (oflag && rflag)
		usage();
	keys = tr_map_new();
	reset();
	o = tr_out_open(1, 0);
	if (sflag) {
		tr_out_declare(o, TR_DSUM);
		tr_out_declare(o, TR_DMAX);
	} else
		tr_out_declare(o, TR_DELTA);
	if (!pflag) {
		tr_out_drop(o, "ev");
		tr_out_drop(o, "reg");
	}
	in = tr_open(argc, argv);
	tr_in_want(in, 1u << TR_EV_CPU);
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		switch (c) {
		case TR_HDR:
			tr_out_sync(o, in);
			break;
		case TR_END:
			if (sflag)
				report(o);
			reset();
			break;
		case TR_REC:
			if (r.type == TR_EV)
				call(in, o, &r.u.ev);
			else if (r.type == TR_REG)
				region(in, &r.u.reg);
			else {
				tr_out_rec(o, &r);
				break;
			}
			if (pflag)
				tr_out_rec(o, &r);
			break;
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	reset();
	tr_map_free(keys);
	free(kbuf);
	return status;
}
