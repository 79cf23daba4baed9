/* coll.c - MPI calls by class, and collectives decomposed into
 * point-to-point steps by the standard algorithms (as in MPICH and
 * SimGrid), so that tr-nsim and tr-to-ti decompose them alike. */
#include <string.h>

#include "mpi.h"

static const struct {
	const char *name;
	int cls, coll;
} calls[] = {
	{"Send", TR_MPI_SEND, 0}, {"Bsend", TR_MPI_SEND, TR_P2P_BUF},
	{"Rsend", TR_MPI_SEND, 0}, {"Ssend", TR_MPI_SSEND, 0},
	{"Isend", TR_MPI_ISEND, 0}, {"Ibsend", TR_MPI_ISEND, TR_P2P_BUF},
	{"Irsend", TR_MPI_ISEND, 0}, {"Issend", TR_MPI_ISEND, TR_P2P_SYNC},
	{"Recv", TR_MPI_RECV, 0}, {"Irecv", TR_MPI_IRECV, 0},
	{"Mrecv", TR_MPI_RECV, TR_P2P_MATCHED},
	{"Imrecv", TR_MPI_IRECV, TR_P2P_MATCHED},
	/* A persistent request started, named with the kind of request. */
	{"Start:Send_init", TR_MPI_ISEND, 0},
	{"Start:Bsend_init", TR_MPI_ISEND, TR_P2P_BUF},
	{"Start:Ssend_init", TR_MPI_ISEND, TR_P2P_SYNC},
	{"Start:Rsend_init", TR_MPI_ISEND, 0},
	{"Start:Recv_init", TR_MPI_IRECV, 0},
	{"Startall:Send_init", TR_MPI_ISEND, 0},
	{"Startall:Bsend_init", TR_MPI_ISEND, TR_P2P_BUF},
	{"Startall:Ssend_init", TR_MPI_ISEND, TR_P2P_SYNC},
	{"Startall:Rsend_init", TR_MPI_ISEND, 0},
	{"Startall:Recv_init", TR_MPI_IRECV, 0},
	{"Sendrecv", TR_MPI_SENDRECV, 0},
	{"Sendrecv_replace", TR_MPI_SENDRECV, 0},
	{"Wait", TR_MPI_WAIT, 0}, {"Waitall", TR_MPI_WAIT, 0},
	{"Waitany", TR_MPI_WAIT, 0}, {"Waitsome", TR_MPI_WAIT, 0},
	{"Cancel", TR_MPI_CANCEL, 0},
	/* blocking: MPI_Iprobe and MPI_Improbe are local calls, which
	 * progress */
	{"Probe", TR_MPI_PROBE, 0}, {"Mprobe", TR_MPI_PROBE, TR_P2P_MATCHED},
	{"Iprobe", TR_MPI_LOCAL, TR_LOCAL_PROGRESS},
	{"Improbe", TR_MPI_LOCAL, TR_LOCAL_PROGRESS},
	{"Test", TR_MPI_TEST, 0}, {"Testall", TR_MPI_TEST, 0},
	{"Testany", TR_MPI_TEST, 0}, {"Testsome", TR_MPI_TEST, 0},
	{"Barrier", TR_MPI_COLL, TR_COLL_BARRIER},
	{"Bcast", TR_MPI_COLL, TR_COLL_BCAST},
	{"Reduce", TR_MPI_COLL, TR_COLL_REDUCE},
	{"Allreduce", TR_MPI_COLL, TR_COLL_ALLREDUCE},
	{"Gather", TR_MPI_COLL, TR_COLL_GATHER},
	{"Gatherv", TR_MPI_COLL, TR_COLL_GATHER | TR_COLL_V},
	{"Scatter", TR_MPI_COLL, TR_COLL_SCATTER},
	{"Scatterv", TR_MPI_COLL, TR_COLL_SCATTER | TR_COLL_V},
	{"Allgather", TR_MPI_COLL, TR_COLL_ALLGATHER},
	{"Allgatherv", TR_MPI_COLL, TR_COLL_ALLGATHER | TR_COLL_V},
	{"Alltoall", TR_MPI_COLL, TR_COLL_ALLTOALL},
	{"Alltoallv", TR_MPI_COLL, TR_COLL_ALLTOALL | TR_COLL_V},
	{"Alltoallw", TR_MPI_COLL, TR_COLL_ALLTOALL | TR_COLL_V},
	{"Reduce_scatter", TR_MPI_COLL, TR_COLL_REDSCAT | TR_COLL_V},
	{"Reduce_scatter_block", TR_MPI_COLL, TR_COLL_REDSCAT},
	{"Scan", TR_MPI_COLL, TR_COLL_SCAN},
	{"Exscan", TR_MPI_COLL, TR_COLL_SCAN},
	{"Neighbor_allgather", TR_MPI_COLL, TR_COLL_NEIGHBOR},
	{"Neighbor_allgatherv", TR_MPI_COLL, TR_COLL_NEIGHBOR},
	{"Neighbor_alltoall", TR_MPI_COLL, TR_COLL_NEIGHBOR},
	{"Neighbor_alltoallv", TR_MPI_COLL, TR_COLL_NEIGHBOR | TR_COLL_V},
	{"Neighbor_alltoallw", TR_MPI_COLL, TR_COLL_NEIGHBOR | TR_COLL_V},
	{"Comm_split", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Comm_split_type", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Comm_dup", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Comm_dup_with_info", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	/* nonblocking, made where it starts, as the collectives are */
	{"Comm_idup", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Comm_create", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Cart_create", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	/* Collective over the parent, as a split is (Open MPI makes them
	 * by one): a barrier over the parent, then its own cost. */
	{"Cart_sub", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Graph_create", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Dist_graph_create", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Dist_graph_create_adjacent", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	/* over both groups of the intercommunicator it is called on */
	{"Intercomm_merge", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	/* Called by the members of what they make, not of what they are
	 * called on (a group of it; two local communicators). */
	{"Comm_create_group", TR_MPI_COMMNEW, TR_COLL_BARRIER | TR_COLL_NEWC},
	{"Intercomm_create", TR_MPI_COMMNEW, TR_COLL_BARRIER | TR_COLL_NEWC},
	/* Windows are made and freed by all of a communicator at once. */
	{"Win_create", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Win_allocate", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Win_allocate_shared", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Win_create_dynamic", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Win_free", TR_MPI_COMMNEW, TR_COLL_BARRIER},
	{"Put", TR_MPI_RMA, TR_RMA_PUT}, {"Rput", TR_MPI_RMA, TR_RMA_PUT},
	{"Accumulate", TR_MPI_RMA, TR_RMA_PUT},
	{"Raccumulate", TR_MPI_RMA, TR_RMA_PUT},
	{"Get", TR_MPI_RMA, TR_RMA_GET}, {"Rget", TR_MPI_RMA, TR_RMA_GET},
	{"Get_accumulate", TR_MPI_RMA, TR_RMA_FETCH},
	{"Rget_accumulate", TR_MPI_RMA, TR_RMA_FETCH},
	{"Fetch_and_op", TR_MPI_RMA, TR_RMA_FETCH},
	{"Compare_and_swap", TR_MPI_RMA, TR_RMA_FETCH},
	{"Win_flush", TR_MPI_RMASYNC, TR_RMA_TARGET},
	{"Win_flush_local", TR_MPI_RMASYNC, TR_RMA_TARGET},
	{"Win_unlock", TR_MPI_RMASYNC, TR_RMA_TARGET},
	{"Win_flush_all", TR_MPI_RMASYNC, TR_RMA_ALL},
	{"Win_flush_local_all", TR_MPI_RMASYNC, TR_RMA_ALL},
	{"Win_unlock_all", TR_MPI_RMASYNC, TR_RMA_ALL},
	{"Win_complete", TR_MPI_RMASYNC, TR_RMA_ALL},
	{"Win_fence", TR_MPI_FENCE, TR_COLL_BARRIER},
	/* Nonblocking file I/O starts a request; blocking I/O is local. */
	{"File_iread", TR_MPI_IFILE, 0}, {"File_iread_at", TR_MPI_IFILE, 0},
	{"File_iread_all", TR_MPI_IFILE, 0},
	{"File_iread_at_all", TR_MPI_IFILE, 0},
	{"File_iread_shared", TR_MPI_IFILE, 0},
	{"File_iwrite", TR_MPI_IFILE, 0}, {"File_iwrite_at", TR_MPI_IFILE, 0},
	{"File_iwrite_all", TR_MPI_IFILE, 0},
	{"File_iwrite_at_all", TR_MPI_IFILE, 0},
	{"File_iwrite_shared", TR_MPI_IFILE, 0},
	{NULL, 0, 0}
};

static int
lookup(const char *name, size_t n, int *coll)
{
	int i, nb = 0;
	size_t l;
	char cap[32];

	*coll = 0;
	if (n < 5 || memcmp(name, "MPI_", 4) != 0)
		return TR_MPI_LOCAL;
	name += 4;
	n -= 4;
	for (;;) {
		for (i = 0; calls[i].name; i++) {
			l = strlen(calls[i].name);
			if (l == n && memcmp(calls[i].name, name, n) == 0)
				break;
		}
		if (calls[i].name || nb || name[0] != 'I')
			break;
		/* MPI_Ibcast and friends: the blocking name after the I,
		 * capitalised (MPI_Iallreduce is MPI_Allreduce) */
		if (n < 2 || n > sizeof cap)
			break;
		nb = 1;
		memcpy(cap, name + 1, n - 1);
		if (cap[0] >= 'a' && cap[0] <= 'z')
			cap[0] = (char)(cap[0] - 'a' + 'A');
		name = cap;
		n--;
	}
	if (!calls[i].name)
		return TR_MPI_LOCAL;
	if (nb && calls[i].cls != TR_MPI_COLL)
		return TR_MPI_LOCAL;
	*coll = calls[i].coll;
	return nb ? TR_MPI_ICOLL : calls[i].cls;
}

/* Every record asks, and a trace uses a handful of names: each is
 * looked up in the table once, then found in this cache. */
int
tr_mpi_class(const char *name, size_t n, int *coll)
{
	static struct {
		char name[32];
		size_t n;
		int cls, coll;
	} memo[32];
	unsigned h;

	if (n == 0 || n >= sizeof memo[0].name)
		return lookup(name, n, coll);
	h = (unsigned)(n * 7 + (unsigned char)name[n - 1] * 3 +
	    (unsigned char)name[n / 2]) & 31;
	if (memo[h].n != n || memcmp(memo[h].name, name, n) != 0) {
		memo[h].cls = lookup(name, n, &memo[h].coll);
		memcpy(memo[h].name, name, n);
		memo[h].n = n;
	}
	*coll = memo[h].coll;
	return memo[h].cls;
}

int
tr_is_comm_free(const struct tr_ev *e)
{
	/* MPI_Comm_disconnect frees it too; what it waits for on the
	 * communicator is in its recorded time, a local call's. */
	return (e->op.n == 13 && memcmp(e->op.p, "MPI_Comm_free", 13) == 0) ||
	    (e->op.n == 19 &&
	    memcmp(e->op.p, "MPI_Comm_disconnect", 19) == 0);
}

int
tr_is_req_free(const struct tr_ev *e)
{
	return e->op.n == 16 && memcmp(e->op.p, "MPI_Request_free", 16) == 0;
}

int
tr_is_pers_init(const struct tr_ev *e)
{
	static const char *const op[] = {"MPI_Send_init", "MPI_Bsend_init",
	    "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Recv_init"};
	size_t i;

	for (i = 0; i < sizeof op / sizeof *op; i++)
		if (e->op.n == strlen(op[i]) &&
		    memcmp(e->op.p, op[i], e->op.n) == 0)
			return 1;
	return 0;
}

static int
field_is(struct tr_field f, const char *s)
{
	return f.n == strlen(s) && memcmp(f.p, s, f.n) == 0;
}

/* MPI did the work of some failed calls all the same: a truncated
 * receive took its message (MPI delivers what fits and consumes the
 * rest), and a completion the recorder wrote per request completed that
 * request (MPI_ERR_PENDING: one that did not). What other failed calls
 * moved, if anything, is unknown: the replays take them as local. */
int
tr_fail_replayed(const struct tr_rec *r, int cls)
{
	struct tr_field err = r->f[TR_EV_NF];

	if (cls == TR_MPI_WAIT || cls == TR_MPI_TEST)
		return r->u.ev.req >= 0 && !field_is(err, "MPI_ERR_PENDING");
	return (cls == TR_MPI_RECV || cls == TR_MPI_SENDRECV) &&
	    field_is(err, "MPI_ERR_TRUNCATE");
}

int
tr_ev_class(const struct tr_ev *e, int *coll, int64_t *comm)
{
	int cls = tr_mpi_class(e->op.p, e->op.n, coll);

	*comm = e->comm;
	if (!(*coll & TR_COLL_NEWC))
		return cls;
	*coll &= ~TR_COLL_NEWC;
	*comm = e->req;
	/* a trace without the communicator made keeps the call's time */
	return e->req < 0 ? TR_MPI_LOCAL : cls;
}

void
tr_coll_begin(struct tr_coll *c, int op, const int *algs, long n, long me,
    long root, int64_t bytes)
{
	memset(c, 0, sizeof *c);
	c->op = op;
	c->alg = op < TR_COLL_NOPS ? algs[op] : 0;
	c->redalg = algs[TR_COLL_REDUCE];
	c->bcalg = algs[TR_COLL_BCAST];
	c->n = n;
	c->me = me;
	c->root = root < 0 || root >= n ? 0 : root;
	c->bytes = bytes;
}

void
tr_coll_grid(struct tr_coll *c, int nd, const int *dims, const int *periods)
{
	c->nd = nd;
	c->dims = dims;
	c->periods = periods;
}

long
tr_coll_cap(const struct tr_coll *c)
{
	return c->n + 2 + 4 * (long)c->nd;
}

static int
put(struct tr_p2p *o, long peer, int64_t bytes, int send)
{
	o->peer = peer;
	o->bytes = bytes;
	o->send = send;
	o->red = 0;
	return 1;
}

/* The receives of a step of K operations are reduced into the rank's
 * buffer once they have come: K. */
static int
reduced(struct tr_p2p *o, int k)
{
	int i;

	for (i = 0; i < k; i++)
		o[i].red = !o[i].send;
	return k;
}

/* Sends to and receives from the ring neighbours, STEPS times. */
static int
ring(struct tr_coll *c, struct tr_p2p *o, long steps, int64_t b)
{
	if (c->step++ >= steps)
		return 0;
	put(&o[0], (c->me + 1) % c->n, b, 1);
	put(&o[1], (c->me - 1 + c->n) % c->n, b, 0);
	return 2;
}

/* Down a binomial tree: from the parent, then to the children. A
 * broadcast serves the largest subtree first (MPICH); a scatter the
 * smallest first, as Open MPI's binomial scatter (and SimGrid's
 * ompi_binomial) do, each child its subtree's blocks. */
static int
binomial_down(struct tr_coll *c, struct tr_p2p *o, int sub)
{
	long n = c->n, rel = (c->me - c->root + n) % n, m;

	if (c->step == 0) {
		c->step = 1;
		for (m = 1; m < n && !(rel & m); m <<= 1)
			;
		c->aux = m;	/* the lowest bit of rel: children below it */
		c->mask = sub ? 1 : m >> 1;
		if (m < n)
			return put(o, (c->me - m + n) % n,
			    sub ? c->bytes * (m < n - rel ? m : n - rel) :
			    c->bytes, 0);
	}
	while (c->mask > 0 && c->mask < c->aux) {
		m = c->mask;
		c->mask = sub ? c->mask << 1 : c->mask >> 1;
		if (rel + m < n)
			return put(o, (c->me + m) % n, sub ? c->bytes *
			    (m < n - rel - m ? m : n - rel - m) : c->bytes, 1);
	}
	return 0;
}

static int
binomial_up(struct tr_coll *c, struct tr_p2p *o, int sub)
{
	long n = c->n, rel = (c->me - c->root + n) % n, m, src;

	if (c->mask == 0)
		c->mask = 1;
	while ((m = c->mask) < n) {
		c->mask <<= 1;
		if (rel & m) {
			c->mask = n;
			return put(o, (rel - m + c->root) % n, sub ? c->bytes *
			    (m < n - rel ? m : n - rel) : c->bytes, 1);
		}
		src = rel | m;
		if (src < n)
			return put(o, (src + c->root) % n, sub ? c->bytes *
			    (m < n - src ? m : n - src) : c->bytes, 0);
	}
	return 0;
}

/* The root sends to (OUT) or receives from every other rank, BATCH at
 * a time: in rank order, but a reduction from the last rank down, as
 * Open MPI's basic linear algorithms (SimGrid's ompi_basic_linear) do.
 * Its broadcast posts every send at once and waits for all (SimGrid's
 * flattree); gather, scatter and reduce go one at a time. */
static int
linear(struct tr_coll *c, struct tr_p2p *o, int out, int down, long batch)
{
	long i;
	int k = 0;

	if (c->me != c->root) {
		if (c->step++)
			return 0;
		return put(o, c->root, c->bytes, !out);
	}
	while (k < batch && c->step < c->n) {
		i = c->step++;
		if (down)
			i = c->n - 1 - i;
		if (i != c->root)
			put(&o[k++], i, c->bytes, out);
	}
	return k;
}

static int
rdb(struct tr_coll *c, struct tr_p2p *o)
{
	long n = c->n, me = c->me, pof2 = 1, rem, nd, dst;

	while (pof2 * 2 <= n)
		pof2 *= 2;
	rem = n - pof2;
	switch (c->step) {
	case 0:
		c->step = 1;
		c->mask = 1;
		if (me < 2 * rem) {
			if (me % 2 == 0) {
				c->aux = -1;
				return put(o, me + 1, c->bytes, 1);
			}
			c->aux = me / 2;
			return reduced(o, put(o, me - 1, c->bytes, 0));
		}
		c->aux = me - rem;
		/* fall through */
	case 1:
		if (c->aux >= 0 && c->mask < pof2) {
			nd = c->aux ^ c->mask;
			dst = nd < rem ? nd * 2 + 1 : nd + rem;
			c->mask <<= 1;
			put(&o[0], dst, c->bytes, 1);
			put(&o[1], dst, c->bytes, 0);
			return reduced(o, 2);
		}
		c->step = 2;
		if (me < 2 * rem)
			return put(o, me % 2 ? me - 1 : me + 1, c->bytes, me % 2);
		/* fall through */
	default:
		return 0;
	}
}

static int
dissemination(struct tr_coll *c, struct tr_p2p *o, int xor)
{
	long n = c->n, m;

	if (c->mask == 0)
		c->mask = 1;
	while ((m = c->mask) < n) {
		c->mask <<= 1;
		if (xor) {
			if ((c->me ^ m) >= n)
				continue;
			put(&o[0], c->me ^ m, c->bytes, 1);
			put(&o[1], c->me ^ m, c->bytes, 0);
		} else {
			put(&o[0], (c->me + m) % n, 0, 1);
			put(&o[1], (c->me - m + n) % n, 0, 0);
		}
		return 2;
	}
	return 0;
}

/* A ring over n equal chunks; the bytes left over (all of them when
 * fewer than n) are reduced to rank 0 and broadcast from it, with the
 * reduce and bcast algorithms set, as SimGrid's lr allreduce does. */
static int
ring_allreduce(struct tr_coll *c, struct tr_p2p *o, long cap)
{
	int k;

	switch (c->phase) {
	case 0:
		/* reduce-scatter, then allgather */
		if (c->bytes >= c->n &&
		    (k = ring(c, o, 2 * (c->n - 1), c->bytes / c->n)) > 0)
			return c->step < c->n ? reduced(o, k) : k;
		if (c->bytes >= c->n && c->bytes % c->n == 0)
			return 0;
		if (c->bytes >= c->n)
			c->bytes %= c->n;
		c->phase = 1;
		c->root = 0;
		c->step = c->mask = c->aux = 0;
		/* fall through */
	case 1:
		k = c->redalg == TR_ALG_LINEAR ? linear(c, o, 0, 1, 1) :
		    binomial_up(c, o, 0);
		if (k)
			return reduced(o, k);
		c->phase = 2;
		c->step = c->mask = c->aux = 0;
		/* fall through */
	default:
		return c->bcalg == TR_ALG_LINEAR ? linear(c, o, 1, 0, cap) :
		    binomial_down(c, o, 0);
	}
}

/* Every neighbour of the grid at once, as MPI orders them: along each
 * dimension the lower, then the upper; one outside a grid that does not
 * wrap is MPI_PROC_NULL, and gets nothing. A grid of 2 along a wrapping
 * dimension has one rank both sides, which gets two blocks. */
static int
neighbors(struct tr_coll *c, struct tr_p2p *o)
{
	long stride = c->n, coord, nb;
	int k = 0, d, side;

	if (c->step++)
		return 0;
	for (d = 0; d < c->nd; d++) {
		stride /= c->dims[d] > 0 ? c->dims[d] : 1;
		coord = c->me / stride % c->dims[d];
		for (side = -1; side <= 1; side += 2) {
			long x = coord + side;

			if (x < 0 || x >= c->dims[d]) {
				if (!c->periods[d])
					continue;
				x = (x + c->dims[d]) % c->dims[d];
			}
			nb = c->me + (x - coord) * stride;
			put(&o[k++], nb, c->bytes, 0);
			put(&o[k++], nb, c->bytes, 1);
		}
	}
	return k;
}

int
tr_coll_next(struct tr_coll *c, struct tr_p2p *o, long cap)
{
	long i;

	if (c->n <= 1)
		return 0;
	switch (c->op) {
	case TR_COLL_BARRIER:
		return dissemination(c, o, 0);
	case TR_COLL_BCAST:
		return c->alg == TR_ALG_LINEAR ? linear(c, o, 1, 0, cap) :
		    binomial_down(c, o, 0);
	case TR_COLL_SCATTER:
		return c->alg == TR_ALG_LINEAR ? linear(c, o, 1, 0, 1) :
		    binomial_down(c, o, 1);
	case TR_COLL_REDUCE:
		return reduced(o, c->alg == TR_ALG_LINEAR ?
		    linear(c, o, 0, 1, 1) : binomial_up(c, o, 0));
	case TR_COLL_GATHER:
		return c->alg == TR_ALG_LINEAR ? linear(c, o, 0, 0, 1) :
		    binomial_up(c, o, 1);
	case TR_COLL_ALLREDUCE:
		if (c->alg == TR_ALG_RING)
			return ring_allreduce(c, o, cap);
		return rdb(c, o);
	case TR_COLL_ALLGATHER:
		return ring(c, o, c->n - 1, c->bytes);
	case TR_COLL_REDSCAT:
		return reduced(o, ring(c, o, c->n - 1, c->bytes));
	case TR_COLL_ALLTOALL:
		i = ++c->step;
		if (i >= c->n)
			return 0;
		put(&o[0], (c->me + i) % c->n, c->bytes, 1);
		put(&o[1], (c->me - i + c->n) % c->n, c->bytes, 0);
		return 2;
	case TR_COLL_SCAN:
		return reduced(o, dissemination(c, o, 1));
	case TR_COLL_NEIGHBOR:
		return neighbors(c, o);
	}
	return 0;
}
