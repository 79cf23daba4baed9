/* tr-stat - counts and bytes per operation, the communication matrix,
 * message sizes and the load imbalance of compute, per section. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int pflag, sflag;

static const struct tr_opts opts = {
	"tr-stat [-ps] [file ...]",
	"-p\tpass ev records through too\n"
	"-s\twrite msite records too\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

struct opst {
	int64_t calls, bytes, time;
};

struct rank {
	int seen;
	int64_t seq, end, compute;
	int64_t flush;		/* tr-record's flushes since end */
	struct tr_flushing fl;
	struct tr_callops ops;	/* those of the call at seq */
};

struct cell {
	int64_t src, dst, msgs, bytes;
};

static struct tr_map *ops, *cells, *sites;
static struct opst *opst, *sitest;	/* sitest: calls are messages */
static size_t nopst, nsitest;
static struct cell *cellv;
static size_t ncell, capcell;
static struct rank *ranks;
static size_t nranks;
static int64_t sizes[65][2];	/* messages and bytes by log2 size + 1 */

static void
addmsg(const struct tr_in *in, int64_t src, int64_t dst, int64_t bytes)
{
	int64_t kv[2] = {src, dst};
	long i;
	int b = 0;

	if (dst < 0)
		return;
	i = tr_map_get(cells, (const char *)kv, sizeof kv, 1);
	if ((size_t)i == ncell) {
		tr_grow(&cellv, &capcell, ncell + 1, sizeof *cellv);
		memset(&cellv[ncell], 0, sizeof *cellv);
		cellv[ncell].src = src;
		cellv[ncell].dst = dst;
		ncell++;
	}
	cellv[i].msgs++;
	cellv[i].bytes = tr_in_add(in, cellv[i].bytes, bytes, "bytes");
	while (b < 64 && (bytes >> b) > 0)
		b++;
	sizes[b][0]++;
	sizes[b][1] = tr_in_add(in, sizes[b][1], bytes, "bytes");
}

/* Messages by op and call site: tr-extrap -T keeps the size of a site
 * whose messages keep theirs at every scale (a count sent before each
 * halo), where it scales the halos. */
static void
addsite(const struct tr_in *in, const struct tr_ev *e)
{
	static char *k;
	static size_t kcap;
	size_t n = e->op.n + 1 + e->site.n;
	long i;

	tr_grow(&k, &kcap, n, 1);
	memcpy(k, e->op.p, e->op.n);
	k[e->op.n] = '\t';
	memcpy(k + e->op.n + 1, e->site.p, e->site.n);
	i = tr_map_get(sites, k, n, 1);
	tr_growz(&sitest, &nsitest, (size_t)i + 1, sizeof *sitest);
	sitest[i].calls++;
	sitest[i].bytes = tr_in_add(in, sitest[i].bytes, e->bytes, "bytes");
}

static void
call(const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *rk;
	long i = tr_map_get(ops, e->op.p, e->op.n, 1);
	int cls, coll, newcall;

	tr_growz(&opst, &nopst, (size_t)i + 1, sizeof *opst);
	tr_growz(&ranks, &nranks, (size_t)e->rank + 1, sizeof *ranks);
	rk = &ranks[e->rank];
	opst[i].bytes = tr_in_add(in, opst[i].bytes, e->bytes, "bytes");
	/* Each op of a call counts it once (tr_callops); every send
	 * record is a message. */
	newcall = !rk->seen || rk->seq != e->seq;
	if (newcall) {
		if (rk->seen)
			rk->compute += e->start - rk->end - rk->flush;
		rk->flush = 0;
		rk->seen = 1;
		rk->seq = e->seq;
		rk->end = e->end;
	}
	if (tr_callops_first(&rk->ops, newcall, i)) {
		opst[i].calls++;
		/* over ranks: each rank's times fit, their sum may not */
		opst[i].time = tr_in_add(in, opst[i].time, e->end - e->start,
		    "time");
	}
	cls = tr_mpi_class(e->op.p, e->op.n, &coll);
	if (cls == TR_MPI_SEND || cls == TR_MPI_SSEND || cls == TR_MPI_ISEND ||
	    cls == TR_MPI_SENDRECV) {
		addmsg(in, e->rank, e->peer, e->bytes);
		if (sflag && e->peer >= 0)
			addsite(in, e);
	}
	/* One-sided: data goes to the target, comes from it, or both. */
	if (cls == TR_MPI_RMA && e->peer >= 0) {
		if (coll == TR_RMA_PUT)
			addmsg(in, e->rank, e->peer, e->bytes);
		if (coll == TR_RMA_FETCH && e->root > 0)
			addmsg(in, e->rank, e->peer, e->root);
		if (coll != TR_RMA_PUT)
			addmsg(in, e->peer, e->rank, e->bytes);
	}
}

/* tr-record's buffer flushes are not the program's compute (as in
 * tr-delta and tr-profile): a flush of 55 ms made the rank that flushed
 * the slowest. */
static void
region(const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk;
	int64_t d;

	if (!tr_reg_flush(g))
		return;
	tr_growz(&ranks, &nranks, (size_t)g->rank + 1, sizeof *ranks);
	rk = &ranks[g->rank];
	if ((d = tr_flush_step(in, &rk->fl, g)) >= 0 && rk->seen)
		rk->flush = tr_in_add(in, rk->flush, d, "time");
}

static int
bycell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x->dst > y->dst) - (x->dst < y->dst);
}


/* The records of map M's keys in byte order, from ST. */
static void
put_opst(struct tr_out *o, const char *type, struct tr_map *m,
    const struct opst *st, int time)
{
	size_t i, n = tr_map_len(m), kn;
	long *ord = n ? tr_map_order(m) : NULL;
	const char *k;

	for (i = 0; i < n; i++) {
		k = tr_map_key(m, ord[i], &kn);
		tr_out_str(o, type);
		tr_out_write(o, k, kn);
		tr_out_ti64(o, st[ord[i]].calls);
		tr_out_ti64(o, st[ord[i]].bytes);
		if (time)
			tr_out_ti64(o, st[ord[i]].time);
		tr_out_c(o, '\n');
	}
	free(ord);
}

static void
report(struct tr_out *o)
{
	size_t i;
	int64_t nr = 0, min = 0, max = -1, arg = 0;
	double tot = 0, mean;

	put_opst(o, "opstat\t", ops, opst, 1);
	if (sflag)
		put_opst(o, "msite\t", sites, sitest, 0);
	tr_sort(cellv, ncell, sizeof *cellv, bycell);
	for (i = 0; i < ncell; i++) {
		tr_out_str(o, "cmat");
		tr_out_ti64(o, cellv[i].src);
		tr_out_ti64(o, cellv[i].dst);
		tr_out_ti64(o, cellv[i].msgs);
		tr_out_ti64(o, cellv[i].bytes);
		tr_out_c(o, '\n');
	}
	for (i = 0; i < 65; i++) {
		if (!sizes[i][0])
			continue;
		tr_out_str(o, "msize");
		tr_out_ti64(o, i == 0 ? 0 : (int64_t)1 << (i - 1));
		tr_out_ti64(o, i == 0 ? 1 : i == 64 ? INT64_MAX : (int64_t)1 << i);
		tr_out_ti64(o, sizes[i][0]);
		tr_out_ti64(o, sizes[i][1]);
		tr_out_c(o, '\n');
	}
	for (i = 0; i < nranks; i++) {
		if (!ranks[i].seen)
			continue;
		if (nr == 0 || ranks[i].compute < min)
			min = ranks[i].compute;
		if (ranks[i].compute > max) {
			max = ranks[i].compute;
			arg = (int64_t)i;
		}
		tot += (double)ranks[i].compute;
		nr++;
	}
	if (nr) {
		mean = tot / (double)nr;
		tr_out_str(o, "imbal");
		tr_out_ti64(o, nr);
		tr_out_ti64(o, min);
		tr_out_c(o, '\t');
		tr_out_f64(o, mean);
		tr_out_ti64(o, max);
		tr_out_c(o, '\t');
		tr_out_f64(o, mean > 0 ? (double)max / mean : 0);
		tr_out_ti64(o, arg);
		tr_out_c(o, '\n');
	}
}

static void
reset(void)
{
	size_t i;

	tr_map_clear(ops);
	tr_map_clear(cells);
	tr_map_clear(sites);
	free(opst);
	free(sitest);
	opst = sitest = NULL;
	nopst = nsitest = 0;
	ncell = 0;
	for (i = 0; i < nranks; i++)
		free(ranks[i].ops.op);
	free(ranks);
	ranks = NULL;
	nranks = 0;
	memset(sizes, 0, sizeof sizes);
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "ps", &opts)) != -1) {
		switch (c) {
		case 'p': pflag = 1; break;
		case 's': sflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	ops = tr_map_new();
	cells = tr_map_new();
	sites = tr_map_new();
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_OPSTAT);
	if (sflag)
		tr_out_declare(o, TR_MSITE);
	tr_out_declare(o, TR_CMAT);
	tr_out_declare(o, TR_MSIZE);
	tr_out_declare(o, TR_IMBAL);
	if (!pflag)
		tr_out_drop(o, "ev");
	in = tr_open(argc, argv);
	/* root: the bytes a fetching atomic sends (ARMCI-MPI's
	 * Fetch_and_op), lost from the matrix when left unread */
	tr_in_want(in, 1u << TR_EV_PEER | 1u << TR_EV_BYTES |
	    1u << TR_EV_ROOT);
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
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
			if (r.type != TR_EV || pflag)
				tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	reset();
	free(cellv);
	tr_map_free(ops);
	tr_map_free(cells);
	tr_map_free(sites);
	return status;
}
