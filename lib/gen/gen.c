/* gen.c - synthetic traces: ranks in lock step under a simple timing model. */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "../mpi/mpi.h"

struct gen {
	const struct tr_genopt *o;
	struct tr_out *out;
	int64_t *t, *seq, *req, *post, *pcpu;
	int64_t (*arr)[2];	/* the master's arrivals: time, worker */
	int *peers;		/* a round's destinations, then sources */
	int dims[3];
	int64_t comm;		/* of the calls emit writes */
};

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The compute burst of rank r in iteration it: deterministic noise. */
static int64_t
burst(const struct gen *g, int r, int it)
{
	const struct tr_genopt *o = g->o;
	double u = (double)(mix(o->seed ^ mix((uint64_t)r << 32 |
	    (uint32_t)it)) >> 11) / 9007199254740992.0;
	double c = (double)o->comp * (1 + o->noise * (2 * u - 1));

	if (r == o->slowrank)
		c *= o->slowf;
	return c < 0 ? 0 : (int64_t)c;
}

static int64_t
xfer(const struct gen *g, int64_t b)
{
	return g->o->lat + (int64_t)((double)b / g->o->bw * 1e9);
}

/* The cpu field carries the compute done since the rank's last call. */
static void
emit(struct gen *g, int r, const char *op, int64_t start, int64_t end,
    int site, int64_t peer, int64_t b, int64_t tag, int64_t rq, int64_t root,
    int sameseq)
{
	char sitebuf[48];
	struct tr_ev e;
	int64_t cpu = g->pcpu[r];

	if (!sameseq) {
		g->seq[r]++;
		g->pcpu[r] = 0;
	} else
		cpu = 0;
	if (g->o->onlyrank >= 0 && r != g->o->onlyrank)
		return;
	snprintf(sitebuf, sizeof sitebuf, "%s+0x%x", g->o->name, site);
	e.rank = r;
	e.seq = g->seq[r];
	e.op.p = op;
	e.op.n = strlen(op);
	e.start = start;
	e.end = end;
	e.cpu = cpu;
	e.site.p = sitebuf;
	e.site.n = strlen(sitebuf);
	e.peer = peer;
	e.bytes = b;
	e.tag = tag;
	e.comm = g->comm;
	e.req = rq;
	e.root = root;
	tr_out_ev(g->out, &e);
}

void
tr_gen_dims(int n, int nd, int *d)
{
	int i, f;

	for (i = 0; i < nd; i++)
		d[i] = 1;
	for (f = 2; n > 1;) {
		if (n % f) {
			f++;
			continue;
		}
		n /= f;
		/* the smallest dimension takes the next factor */
		{
			int k = 0;

			for (i = 1; i < nd; i++)
				if (d[i] < d[k])
					k = i;
			d[k] *= f;
		}
	}
	/* largest first */
	for (i = 0; i < nd; i++)
		for (f = i + 1; f < nd; f++)
			if (d[f] > d[i]) {
				int x = d[i];

				d[i] = d[f];
				d[f] = x;
			}
}

/* Neighbours of r in the (non-periodic) grid, across faces or (diag)
 * across faces, edges and corners too; returns how many. A direction
 * is a face's 2 * dimension + side, or a 3x3x3 cube's cell. */
static int
neighbours(const struct gen *g, int r, int *nb, int *dir)
{
	int c[3], i, k = 0, s, rr = r, nd = g->o->ndims, cell;

	for (i = nd - 1; i >= 0; i--) {
		c[i] = rr % g->dims[i];
		rr /= g->dims[i];
	}
	for (cell = 0; g->o->diag && cell < 27; cell++) {
		int o[3] = {cell / 9 - 1, cell / 3 % 3 - 1, cell % 3 - 1};
		int id = 0, in = cell != 13;

		for (i = 0; i < 3; i++) {
			in = in && c[i] + o[i] >= 0 && c[i] + o[i] < g->dims[i];
			id = id * g->dims[i] + c[i] + o[i];
		}
		if (in) {
			nb[k] = id;
			dir[k++] = cell;
		}
	}
	for (i = 0; !g->o->diag && i < nd; i++) {
		for (s = -1; s <= 1; s += 2) {
			int q = c[i] + s, j, id = 0;

			if (q < 0 || q >= g->dims[i])
				continue;
			for (j = 0; j < nd; j++)
				id = id * g->dims[j] + (j == i ? q : c[j]);
			nb[k] = id;
			dir[k++] = 2 * i + (s > 0);
		}
	}
	return k;
}

/* The direction a neighbour sends back along. */
static int
opposite(const struct gen *g, int dir)
{
	return g->o->diag ? 26 - dir : dir ^ 1;
}

static void
collective(struct gen *g, const char *op, int site, int64_t b, int64_t cost)
{
	int64_t mx = 0;
	int r;

	for (r = 0; r < g->o->np; r++)
		if (g->t[r] > mx)
			mx = g->t[r];
	for (r = 0; r < g->o->np; r++) {
		emit(g, r, op, g->t[r], mx + cost, site, -1, b, -1, -1, -1, 0);
		g->t[r] = mx + cost;
	}
}

static int64_t
log2ceil(int n)
{
	int64_t k = 0;

	while ((1 << k) < n)
		k++;
	return k;
}

static void
stencil_iter(struct gen *g, int it)
{
	const struct tr_genopt *o = g->o;
	int64_t *t = g->t, ovh = o->ovh, c;
	int nb[26], dir[26], k, i, r;

	for (r = 0; r < o->np; r++) {
		c = burst(g, r, it);
		t[r] += c;
		g->pcpu[r] += c;
		k = neighbours(g, r, nb, dir);
		for (i = 0; i < k; i++) {
			emit(g, r, "MPI_Irecv", t[r], t[r] + ovh / 2,
			    0x100 + dir[i], nb[i], o->bytes, opposite(g, dir[i]),
			    ++g->req[r], -1, 0);
			t[r] += ovh / 2;
		}
		for (i = 0; i < k; i++) {
			emit(g, r, "MPI_Isend", t[r], t[r] + ovh,
			    0x200 + dir[i], nb[i], o->bytes, dir[i],
			    ++g->req[r], -1, 0);
			t[r] += ovh;
		}
		g->post[r] = t[r] - (int64_t)k * ovh;	/* first send posted */
	}
	for (r = 0; r < o->np; r++) {
		int64_t end = t[r] + ovh;

		k = neighbours(g, r, nb, dir);
		for (i = 0; i < k; i++) {
			/* The neighbour posts its sends in the same order;
			 * the message to r leaves at its index of r. */
			int nb2[26], dir2[26], k2 = neighbours(g, nb[i], nb2,
			    dir2), j;
			int64_t arr;

			for (j = 0; j < k2 && nb2[j] != r; j++)
				;
			arr = g->post[nb[i]] + (int64_t)j * ovh + ovh +
			    xfer(g, o->bytes);
			if (arr > end)
				end = arr;
		}
		/* One record per completed request, sharing seq and times. */
		for (i = 0; i < 2 * k; i++)
			emit(g, r, "MPI_Waitall", t[r], end, 0x300, -1, 0, -1,
			    g->req[r] - 2 * k + 1 + i, -1, i > 0);
		t[r] = end;
	}
	if ((it + 1) % o->every == 0)
		collective(g, "MPI_Allreduce", 0x400, 8,
		    2 * log2ceil(o->np) * xfer(g, 8));
}

static void
ring_iter(struct gen *g, int it)
{
	int np = g->o->np, r;

	for (r = 0; r < np; r++) {
		g->pcpu[r] += burst(g, r, it);
		g->t[r] += burst(g, r, it);
		g->post[r] = g->t[r];
	}
	for (r = 0; r < np; r++) {
		int src = (r + np - 1) % np;
		int64_t end = g->post[src] + g->o->ovh + xfer(g, g->o->bytes);

		if (end < g->t[r] + g->o->ovh)
			end = g->t[r] + g->o->ovh;
		emit(g, r, "MPI_Sendrecv", g->t[r], end, 0x100, (r + 1) % np,
		    g->o->bytes, 7, 7, src, 0);
		g->t[r] = end;
	}
}

static void
a2a_iter(struct gen *g, int it)
{
	int np = g->o->np, r;

	for (r = 0; r < np; r++) {
		g->pcpu[r] += burst(g, r, it);
		g->t[r] += burst(g, r, it);
	}
	collective(g, "MPI_Alltoall", 0x100, g->o->bytes * np,
	    (int64_t)(np - 1) * xfer(g, g->o->bytes));
}

/* One round of Sendrecvs: each rank sends to DST[r] and receives from
 * SRC[r], done once its source has come to the call too. */
static void
sendrecv_round(struct gen *g, const int *dst, const int *src, int site)
{
	int np = g->o->np, r;

	for (r = 0; r < np; r++)
		g->post[r] = g->t[r];
	for (r = 0; r < np; r++) {
		int64_t end = g->post[src[r]] + g->o->ovh +
		    xfer(g, g->o->bytes);

		if (end < g->t[r] + g->o->ovh)
			end = g->t[r] + g->o->ovh;
		emit(g, r, "MPI_Sendrecv", g->t[r], end, site, dst[r],
		    g->o->bytes, 7, 7, src[r], 0);
		g->t[r] = end;
	}
}

static void
compute(struct gen *g, int it)
{
	int r;

	for (r = 0; r < g->o->np; r++) {
		g->pcpu[r] += burst(g, r, it);
		g->t[r] += burst(g, r, it);
	}
}

/* Recursive doubling: partners rank XOR 2^k, k = 0 .. log2(np) - 1. */
static void
butterfly_iter(struct gen *g, int it)
{
	int np = g->o->np, r, k;

	compute(g, it);
	for (k = 1; k < np; k <<= 1) {
		for (r = 0; r < np; r++)
			g->peers[r] = r ^ k;
		sendrecv_round(g, g->peers, g->peers, 0x100);
	}
}

/* A transpose by pairwise exchange: to rank + i, from rank - i. */
static void
transpose_iter(struct gen *g, int it)
{
	int np = g->o->np, r, i;

	compute(g, it);
	for (i = 1; i < np; i++) {
		for (r = 0; r < np; r++) {
			g->peers[r] = (r + i) % np;
			g->peers[np + r] = (r - i + np) % np;
		}
		sendrecv_round(g, g->peers, g->peers + np, 0x100);
	}
}

/* FFTW's transposes: every rank exchanges with every other by an
 * MPI_Sendrecv that receives from the rank it sends to, tagged sender
 * * P + receiver in 16 bits, in the rounds of the circle method (rank M-1 stays,
 * the others turn; a rank's partner beyond P-1 means it sits out), the
 * round after the first taken first, so the order is none of rank + i. */
static void
pairwise_iter(struct gen *g, int it)
{
	int np = g->o->np, M = np % 2 ? np + 1 : np, m = M - 1, r, j, k, q;
	int64_t end;

	compute(g, it);
	for (j = 0; j < m; j++) {
		k = (j + 1) % m;
		for (r = 0; r < np; r++)
			g->post[r] = g->t[r];
		for (r = 0; r < np; r++) {
			q = r == m ? k : r == k ? m : ((2 * k - r) % m + m) % m;
			if (q >= np)
				continue;
			end = (g->post[q] > g->t[r] ? g->post[q] : g->t[r]) +
			    g->o->ovh + xfer(g, g->o->bytes);
			emit(g, r, "MPI_Sendrecv", g->t[r], end, 0x100, q,
			    g->o->bytes, ((int64_t)r * np + q) & 0xffff,
			    ((int64_t)q * np + r) & 0xffff, q, 0);
			g->t[r] = end;
		}
	}
}

/* mpi4py's reduce of objects to rank 0: at each level k, upwards, a
 * rank with bit k sends to rank XOR 2^k and one without receives from
 * it where there is one; a rank does not stop after its send. */
static void
reduce_iter(struct gen *g, int it)
{
	int64_t ovh = g->o->ovh, b = g->o->bytes, end;
	int np = g->o->np, r, k;

	compute(g, it);
	for (k = 1; k < np; k <<= 1) {
		for (r = 0; r < np; r++)
			if (r & k) {
				emit(g, r, "MPI_Send", g->t[r], g->t[r] + ovh,
				    0x100, r ^ k, b, 5, -1, -1, 0);
				g->post[r] = g->t[r];
				g->t[r] += ovh;
			}
		for (r = 0; r < np; r++)
			if (!(r & k) && (r | k) < np) {
				end = g->post[r | k] + ovh + xfer(g, b);
				if (end < g->t[r] + ovh)
					end = g->t[r] + ovh;
				emit(g, r, "MPI_Recv", g->t[r], end, 0x200,
				    r | k, b, 5, -1, -1, 0);
				g->t[r] = end;
			}
	}
}

/* A broadcast down a binomial tree of point-to-point messages from
 * rank 0: from the parent (the rank less its lowest set bit), then to
 * the children, nearest first. Parents are lower ranks: in rank order
 * each has sent before its children receive. */
static void
tree_iter(struct gen *g, int it)
{
	int64_t ovh = g->o->ovh, b = g->o->bytes;
	int np = g->o->np, r, k;

	compute(g, it);
	for (r = 0; r < np; r++) {
		if (r > 0) {
			int64_t end = g->post[r] + ovh + xfer(g, b);

			if (end < g->t[r] + ovh)
				end = g->t[r] + ovh;
			emit(g, r, "MPI_Recv", g->t[r], end, 0x100, r & (r - 1),
			    b, 3, -1, -1, 0);
			g->t[r] = end;
		}
		for (k = 1; (r == 0 || k < (r & -r)) && r + k < np; k <<= 1) {
			emit(g, r, "MPI_Send", g->t[r], g->t[r] + ovh, 0x200,
			    r + k, b, 3, -1, -1, 0);
			g->post[r + k] = g->t[r];
			g->t[r] += ovh;
		}
	}
}

static int
cmp_arrival(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

static void
master_iter(struct gen *g, int it)
{
	int64_t *t = g->t, ovh = g->o->ovh, bytes = g->o->bytes;
	int np = g->o->np, w, i;

	for (w = 1; w < np; w++) {
		int64_t s = t[0];

		emit(g, 0, "MPI_Send", s, s + ovh, 0x100, w, bytes, 1, -1, -1,
		    0);
		t[0] = s + ovh;
		{
			int64_t got = s + ovh + xfer(g, bytes), st = t[w];
			int64_t end = got > st + ovh ? got : st + ovh;

			emit(g, w, "MPI_Recv", st, end, 0x200, 0, bytes, 1, -1,
			    -1, 0);
			g->pcpu[w] += burst(g, w, it);
			t[w] = end + burst(g, w, it);
			emit(g, w, "MPI_Send", t[w], t[w] + ovh, 0x300, 0,
			    bytes, 2, -1, -1, 0);
			g->arr[w - 1][0] = t[w] + ovh + xfer(g, bytes);
			g->arr[w - 1][1] = w;
			t[w] += ovh;
		}
	}
	tr_sort(g->arr, (size_t)np - 1, sizeof *g->arr, cmp_arrival);
	for (i = 0; i < np - 1; i++) {
		int64_t st = t[0], end = g->arr[i][0] > st + ovh ?
		    g->arr[i][0] : st + ovh;

		emit(g, 0, "MPI_Recv", st, end, 0x400, g->arr[i][1], bytes, 2,
		    -1, -1, 0);
		t[0] = end;
	}
}

/* The ranks of grid2d's row (ROW 1) or column communicator of rank R,
 * in their communicator's order, into M; how many. */
static int
grid_members(const struct gen *g, int r, int row, int *m)
{
	int p = g->dims[0], q = g->dims[1], k, n = row ? q : p;

	for (k = 0; k < n; k++)
		m[k] = row ? r / q * q + k : r % q + k * q;
	return n;
}

/* A collective of every row (ROW 1) or column of grid2d's ranks, each
 * on its own communicator, rooted at its first member when ROOTED. */
static void
grid_collective(struct gen *g, const char *op, int site, int row,
    int rooted, int64_t b, int64_t cost)
{
	int *m = g->peers, n, r, k, i;
	int64_t mx;

	g->comm = row ? 2 : 3;
	for (i = 0; i < (row ? g->dims[0] : g->dims[1]); i++) {
		n = grid_members(g, row ? i * g->dims[1] : i, row, m);
		for (mx = 0, k = 0; k < n; k++)
			if (g->t[m[k]] > mx)
				mx = g->t[m[k]];
		for (k = 0; k < n; k++) {
			r = m[k];
			emit(g, r, op, g->t[r], mx + cost, site, -1, b, -1, -1,
			    rooted ? m[0] : -1, 0);
			g->t[r] = mx + cost;
		}
	}
	g->comm = 0;
}

/* MPI_Comm_split of the world into grid2d's rows (id 2, colour the row,
 * key the column), then its columns (id 3), with their comm records. */
static void
grid_split(struct gen *g)
{
	int np = g->o->np, r, n, row, *m = g->peers;
	int64_t mx, cost = 2 * log2ceil(np) * xfer(g, 8);

	for (row = 1; row >= 0; row--) {
		for (mx = 0, r = 0; r < np; r++)
			if (g->t[r] > mx)
				mx = g->t[r];
		for (r = 0; r < np; r++) {
			emit(g, r, "MPI_Comm_split", g->t[r], mx + cost,
			    row ? 0x30 : 0x40, -1, 0, -1, row ? 2 : 3, -1, 0);
			g->t[r] = mx + cost;
			if (g->o->onlyrank >= 0 && r != g->o->onlyrank)
				continue;
			n = grid_members(g, r, row, m);
			/* A row is a range, a column a strided one. */
			if (n == 1)
				tr_out_printf(g->out, "comm\t%d\t%d\t1\t%d\n", r,
				    row ? 2 : 3, m[0]);
			else if (row)
				tr_out_printf(g->out, "comm\t%d\t2\t%d\t%d-%d\n",
				    r, n, m[0], m[n - 1]);
			else
				tr_out_printf(g->out, "comm\t%d\t3\t%d\t%d-%d:%d\n",
				    r, n, m[0], m[n - 1], g->dims[1]);
		}
	}
}

/* A p x q grid: compute, an MPI_Bcast of BYTES along each row from its
 * first rank, an MPI_Allreduce of 8 bytes along each column. */
static void
grid2d_iter(struct gen *g, int it)
{
	compute(g, it);
	grid_collective(g, "MPI_Bcast", 0x100, 1, 1, g->o->bytes,
	    log2ceil(g->dims[1]) * xfer(g, g->o->bytes));
	grid_collective(g, "MPI_Allreduce", 0x200, 0, 0, 8,
	    2 * log2ceil(g->dims[0]) * xfer(g, 8));
}

void
tr_gen_run(const struct tr_genopt *o, struct tr_out *out)
{
	struct gen g;
	size_t np = (size_t)o->np;
	int r, it;

	memset(&g, 0, sizeof g);
	g.o = o;
	g.out = out;
	if (o->kind == TR_GEN_STENCIL)
		tr_gen_dims(o->np, o->ndims, g.dims);
	/* MPI_Dims_create's, as -T takes a 2-D grid to be. */
	if (o->kind == TR_GEN_GRID2D)
		tr_grid_dims(o->np, 2, g.dims);
	g.t = tr_calloc(np, sizeof *g.t);
	g.seq = tr_calloc(np, sizeof *g.seq);
	g.req = tr_calloc(np, sizeof *g.req);
	g.post = tr_calloc(np, sizeof *g.post);
	g.pcpu = tr_calloc(np, sizeof *g.pcpu);
	if (o->kind == TR_GEN_MASTER)
		g.arr = tr_calloc(np, sizeof *g.arr);
	g.peers = tr_calloc(2 * np, sizeof *g.peers);
	for (r = 0; r < o->np; r++) {
		g.seq[r] = -1;
		g.t[r] = 1000 + (int64_t)(mix(o->seed + (uint64_t)r) % 1000);
		emit(&g, r, "MPI_Init", g.t[r], g.t[r] + 1000000, 0x10, -1, 0,
		    -1, -1, -1, 0);
		g.t[r] += 1000000;
	}
	if (o->kind == TR_GEN_GRID2D)
		grid_split(&g);
	for (it = 0; it < o->iters; it++) {
		switch (o->kind) {
		case TR_GEN_RING: ring_iter(&g, it); break;
		case TR_GEN_ALLTOALL: a2a_iter(&g, it); break;
		case TR_GEN_MASTER: master_iter(&g, it); break;
		case TR_GEN_BUTTERFLY: butterfly_iter(&g, it); break;
		case TR_GEN_TRANSPOSE: transpose_iter(&g, it); break;
		case TR_GEN_TREE: tree_iter(&g, it); break;
		case TR_GEN_GRID2D: grid2d_iter(&g, it); break;
		case TR_GEN_PAIRWISE: pairwise_iter(&g, it); break;
		case TR_GEN_REDUCE: reduce_iter(&g, it); break;
		default: stencil_iter(&g, it);
		}
	}
	collective(&g, "MPI_Finalize", 0x20, 0, 2 * log2ceil(o->np) *
	    xfer(&g, 0));
	free(g.t);
	free(g.seq);
	free(g.req);
	free(g.post);
	free(g.pcpu);
	free(g.arr);
	free(g.peers);
}
