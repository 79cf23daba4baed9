/* synth-vcoll.c - the bytes of MPI_Gatherv and MPI_Scatterv at the
 * target, member by member.
 *
 * Their root records the sum of every member's block, each other member
 * its own (tr-record(1)), and the blocks may differ by member (rank r
 * gives r + 1 ints). A target rank follows one template rank, on a
 * periodic grid often the root for every target rank: its bytes times
 * the op's change in bytes per call gave every member of 16 the root's
 * 144 bytes of 8 scaled to 278, where the root gathers 544 and member r
 * gives 4 (r + 1).
 *
 * Each call site's blocks are taken as a line in the member's place in
 * its communicator, fitted to the template's members (the root's own
 * block: its sum less the others' of its communicator), and written at
 * the target at each member's place there, the root's as the sum over
 * its members. The blocks keep their sizes, or shrink as P / the
 * target's ranks (a problem split finer): whichever brings the op's
 * bytes per call nearer to its opstat model at the target. A site whose
 * calls on some rank differ in bytes, root or communicator, or whose
 * communicators follow no candidate, keeps the op's ratio. */
#include "synth-int.h"

struct vsite {
	int64_t *bytes;		/* per template rank, -1 without a call */
	int64_t *root;
	int64_t comm;
	int bad;		/* calls that differ; no line fitted */
	double a, b, k;		/* block a + b place, times k */
	long nsum;		/* the members and k sumv is for */
	double sumk;
	int64_t sumv;
};

struct tr_vcoll {
	struct tr_map *map;
	struct vsite *v;
	size_t n, cap;
	char *key;
	size_t keycap;
};

/* 1 for a rooted v-collective, whose root's bytes are a sum. */
static int
is_rootedv(const struct tr_ev *e)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);

	return (c == TR_MPI_COLL || c == TR_MPI_ICOLL) &&
	    (coll == (TR_COLL_GATHER | TR_COLL_V) ||
	    coll == (TR_COLL_SCATTER | TR_COLL_V));
}

static struct vsite *
vsite_of(struct tr_syn *s, const struct tr_ev *e, int add)
{
	struct tr_vcoll *u = s->vcoll;
	size_t n = e->op.n + 1 + e->site.n;
	long i;

	if (!u) {
		if (!add)
			return NULL;
		u = s->vcoll = tr_calloc(1, sizeof *u);
		u->map = tr_map_new();
	}
	tr_grow(&u->key, &u->keycap, n, 1);
	memcpy(u->key, e->op.p, e->op.n);
	u->key[e->op.n] = '\t';
	memcpy(u->key + e->op.n + 1, e->site.p, e->site.n);
	i = tr_map_get(u->map, u->key, n, add);
	if (i < 0)
		return NULL;
	if ((size_t)i >= u->n) {
		long q;

		tr_growz(&u->v, &u->cap, (size_t)i + 1, sizeof *u->v);
		u->n = (size_t)i + 1;
		u->v[i].bytes = tr_malloc((size_t)s->P * sizeof *u->v[i].bytes);
		u->v[i].root = tr_malloc((size_t)s->P * sizeof *u->v[i].root);
		for (q = 0; q < s->P; q++)
			u->v[i].bytes[q] = -1;
		u->v[i].comm = e->comm;
		u->v[i].nsum = -1;
	}
	return &u->v[i];
}

void
syn_vcoll_learn(struct tr_syn *s, const struct tr_ev *e)
{
	struct vsite *v;

	if (!is_rootedv(e) || e->root < 0 || e->root >= s->P)
		return;
	v = vsite_of(s, e, 1);
	if (e->bytes < 0 || e->comm != v->comm)
		v->bad = 1;
	else if (v->bytes[e->rank] < 0) {
		v->bytes[e->rank] = e->bytes;
		v->root[e->rank] = e->root;
	} else if (v->bytes[e->rank] != e->bytes ||
	    v->root[e->rank] != e->root)
		v->bad = 1;
}

/* The block of the member at place I, times K. */
static int64_t
block(const struct vsite *v, double k, long i)
{
	double b = (v->a + v->b * (double)i) * k;

	return b > 0 ? rnd64(b) : 0;
}

/* The root's sum over N members. */
static int64_t
sum_of(struct vsite *v, double k, long n)
{
	int64_t sum = 0;
	long i;

	if (v->nsum == n && k == v->sumk)
		return v->sumv;
	for (i = 0; i < n; i++)
		sum += block(v, k, i);
	v->nsum = n;
	v->sumk = k;
	v->sumv = sum;
	return sum;
}

/* Target rank T's bytes, following template rank A, at K. */
static int64_t
at_target(struct tr_syn *s, struct vsite *v, double k, long a, long t,
    long root)
{
	long i, f, st, n = syn_comm_place(s, v->comm, a, t, 1, &i, &f, &st);

	if (t == root)
		return sum_of(v, k, n);
	return block(v, k, i);
}

/* Template rank R's own block: the root's is its sum less the blocks
 * of the others of its communicator (of N members from F by ST); -1 if
 * one of them has none. */
static int64_t
own_block(struct tr_syn *s, const struct vsite *v, long r, long n, long f,
    long st)
{
	int64_t own = v->bytes[r];
	long j, q, i, fq, sq;

	for (j = 0; v->root[r] == r && j < n; j++) {
		q = f + j * st;
		if (q == r)
			continue;
		if (q >= s->P || v->bytes[q] < 0 || v->root[q] != r ||
		    syn_comm_place(s, v->comm, q, q, 0, &i, &fq, &sq) != n ||
		    fq != f)
			return -1;
		own -= v->bytes[q];
	}
	return own;
}

/* The line through the template's blocks by place (least squares); 0 if
 * they do not give one. */
static int
fit(struct tr_syn *s, struct vsite *v)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, d, x, y;
	long r, i, f, st, n;
	int64_t own;

	for (r = 0; r < s->P; r++) {
		if (v->bytes[r] < 0)
			continue;
		n = syn_comm_place(s, v->comm, r, r, 0, &i, &f, &st);
		if (n <= 0 || (own = own_block(s, v, r, n, f, st)) < 0)
			return 0;
		x = (double)i;
		y = (double)own;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		m++;
	}
	if (m <= 0)
		return 0;
	d = m * sxx - sx * sx;
	v->b = d > 0 ? (m * sxy - sx * sy) / d : 0;
	v->a = (sy - v->b * sx) / m;
	return 1;
}

/* K: 1 or P / the target's ranks, whichever the opstat model of the op's
 * bytes per call is nearer to. */
static double
scale(struct tr_syn *s, struct vsite *v, const char *op, size_t opn)
{
	double tsum = 0, tn = 0, gsum = 0, gn = 0, hr, mr, kk;
	double b, b2, c, c2;
	char key[256 - sizeof "opstat"];
	long t, r, gi;

	if (s->nt == s->P)
		return 1;
	snprintf(key, sizeof key, "op=%.*s", (int)opn, op);
	gi = tr_xp_find(s->xp, "opstat", key);
	/* bytes per call as fitted, else the ratio of their fits: what
	 * the trace's check holds it to */
	if (gi >= 0 && tr_xp_get(s->xp, gi, "bytes/call", &b, &b2) == 0 &&
	    b > 0 && b2 > 0)
		mr = b / b2;
	else if (gi < 0 || tr_xp_get(s->xp, gi, "bytes", &b, &b2) < 0 ||
	    tr_xp_get(s->xp, gi, "calls", &c, &c2) < 0 ||
	    !(b > 0) || !(b2 > 0) || !(c > 0) || !(c2 > 0))
		return 1;
	else
		mr = (b / c) / (b2 / c2);
	for (r = 0; r < s->P; r++)
		if (v->bytes[r] >= 0) {
			tsum += (double)v->bytes[r];
			tn++;
		}
	for (t = 0; t < s->nt; t++) {
		long a = s->rep[t], i, p, f, st, root;

		if (v->bytes[a] < 0)
			continue;
		/* the root at the same place of the target's communicator */
		(void)syn_comm_place(s, v->comm, a, v->root[a], 0, &i, &f, &st);
		if (syn_comm_place(s, v->comm, a, t, 1, &p, &f, &st) <= 0)
			return 1;
		root = f + i * st;
		gsum += (double)at_target(s, v, 1, a, t, root);
		gn++;
	}
	if (!(tsum > 0) || !(gsum > 0))
		return 1;
	hr = (gsum / gn) / (tsum / tn);
	kk = (double)s->P / (double)s->nt;
	return fabs(log(hr * kk) - log(mr)) < fabs(log(hr) - log(mr)) ? kk :
	    1;
}

void
syn_vcoll_begin(struct tr_syn *s)
{
	struct tr_vcoll *u = s->vcoll;
	size_t i, len;

	for (i = 0; u && i < u->n; i++) {
		struct vsite *v = &u->v[i];
		const char *k = tr_map_key(u->map, (long)i, &len);
		const char *tab = memchr(k, '\t', len);

		if (v->bad || !tab || !fit(s, v)) {
			v->bad = 1;
			continue;
		}
		v->k = scale(s, v, k, (size_t)(tab - k));
	}
}

int
syn_vcoll_bytes(struct tr_syn *s, const struct tr_ev *e, long t, long root,
    int64_t *bytes)
{
	struct vsite *v;
	long i, f, st;

	if (!s->vcoll || !is_rootedv(e) || !(v = vsite_of(s, e, 0)) ||
	    v->bad || v->bytes[e->rank] != e->bytes ||
	    v->root[e->rank] != e->root ||
	    syn_comm_place(s, v->comm, e->rank, t, 1, &i, &f, &st) <= 0)
		return 0;
	*bytes = at_target(s, v, v->k, (long)e->rank, t, root);
	return 1;
}

void
syn_vcoll_free(struct tr_syn *s)
{
	struct tr_vcoll *u = s->vcoll;
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->n; i++) {
		free(u->v[i].bytes);
		free(u->v[i].root);
	}
	free(u->v);
	free(u->key);
	tr_map_free(u->map);
	free(u);
	s->vcoll = NULL;
}
