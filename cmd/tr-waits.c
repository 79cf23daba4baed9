/* tr-waits - wait states: late senders and receivers, waits at barriers
 * and N x N collectives, late broadcasts and early reduces.
 *
 * A section's ev records are spooled per rank (inputs may be per-rank
 * files concatenated), then replayed in start-time order across ranks,
 * so that only messages and collectives in flight are held. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int pflag;
static int64_t eager = 65536;	/* sends this large wait for the receiver */

static void
usage(void)
{
	fprintf(stderr, "usage: tr-waits [-p] [-e bytes] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

enum { LATE_SENDER, LATE_RECEIVER, WAIT_BARRIER, WAIT_NXN, LATE_BCAST,
	EARLY_REDUCE, NKINDS };
static const char *kindname[NKINDS] = {"late_sender", "late_receiver",
	"wait_barrier", "wait_nxn", "late_bcast", "early_reduce"};

/* One ev record as spooled. */
struct item {
	int64_t start, end, peer, bytes, tag, req, root;
	int32_t cls, coll, comm, site;
};

/* One side of a point-to-point message. */
struct pop {
	int64_t rank, post, ws, we, partner, ppost, tag;
	int32_t site;
	int send, sync, matched, done, inuse;
};

struct chan {
	int64_t *sends, *recvs;	/* pop indexes, in order */
	size_t ns, nr, caps, capr;
};

struct centry {
	int64_t rank, start, end;
	int32_t site;
};

struct cinst {
	int64_t index, root;
	int coll, n, got;
	struct centry *e;
	struct cinst *next;
};

struct comm {
	int64_t size;
	int64_t *count;		/* collectives entered, per world rank */
	size_t ncount;
	struct cinst *open;
};

struct acc {
	int64_t n, time;
};

static struct tr_spool *spool;
static struct tr_map *sites, *comms, *rcomm, *chans, *reqs, *accs, *blames;
static struct comm *commv;
static size_t ncommv, capcommv;
static struct chan *chanv;
static size_t nchanv, capchanv;
static struct pop *pops;
static size_t npops, cappops;
static int64_t *freepops;
static size_t nfree, capfree;
static struct acc *accv, *blamev;
static size_t naccv, capaccv, nblamev, capblamev;
static int64_t *reqpop;		/* per reqs index: a pop, -1 none */
static size_t nreqpop, capreqpop;
static int64_t nranks;
static int warned;

/* ---- reading: spool the calls, learn the communicators ---- */

static int64_t
members_count(const struct tr_in *in, const struct tr_field *f)
{
	const char *p = f->p, *e = f->p + f->n, *c, *d, *s;
	int64_t a, b, st, n = 0;

	while (p < e) {
		c = memchr(p, ',', (size_t)(e - p));
		if (!c)
			c = e;
		d = memchr(p, '-', (size_t)(c - p));
		s = memchr(p, ':', (size_t)(c - p));
		st = 1;
		if (!d) {
			if (tr_parse_i64(p, (size_t)(c - p), &a))
				goto bad;
			b = a;
		} else if (tr_parse_i64(p, (size_t)(d - p), &a) ||
		    tr_parse_i64(d + 1, (size_t)((s ? s : c) - d - 1), &b) ||
		    (s && (tr_parse_i64(s + 1, (size_t)(c - s - 1), &st) ||
		    st < 1)) || b < a)
			goto bad;
		n += (b - a) / st + 1;
		p = c + 1;
	}
	return n;
bad:
	tr_in_die(in, "bad members list '%.*s'", (int)(f->n > 40 ? 40 : f->n),
	    f->p);
}

static int32_t
newcomm(const char *k, size_t kn, int64_t size)
{
	long i = tr_map_get(comms, k, kn, 1);

	if ((size_t)i == ncommv) {
		tr_grow(&commv, &capcommv, ncommv + 1, sizeof *commv);
		memset(&commv[ncommv], 0, sizeof *commv);
		commv[ncommv++].size = size;
	}
	return (int32_t)i;
}

static int32_t *rcommv;		/* per rcomm index: a comm index */
static size_t nrcommv, caprcommv;

static void
comm_rec(const struct tr_in *in, const struct tr_rec *r)
{
	int64_t key[2] = {tr_get_i64(in, r, 1), tr_get_i64(in, r, 2)};
	int64_t size = members_count(in, &r->f[4]);
	char buf[4096];
	long i;
	int n;

	n = snprintf(buf, sizeof buf, "%lld:%.*s", (long long)key[1],
	    (int)r->f[4].n, r->f[4].p);
	if (n < 0 || (size_t)n >= sizeof buf)
		tr_in_die(in, "members list too long");
	i = tr_map_get(rcomm, (const char *)key, sizeof key, 1);
	if ((size_t)i >= nrcommv) {
		tr_grow(&rcommv, &caprcommv, (size_t)i + 1, sizeof *rcommv);
		nrcommv = (size_t)i + 1;
	}
	rcommv[i] = newcomm(buf, (size_t)n, size);
}

/* The communicator a rank's comm id stands for: -1 unknown. */
static int32_t
comm_of(int64_t rank, int64_t id)
{
	int64_t key[2] = {rank, id};
	long i;

	if (id == 0)
		return 0;
	if (id < 0 || id == 1)
		return -1;
	i = tr_map_get(rcomm, (const char *)key, sizeof key, 0);
	return i < 0 ? -1 : rcommv[i];
}

static void
spool_ev(const struct tr_ev *e)
{
	struct item it;

	it.start = e->start;
	it.end = e->end;
	it.peer = e->peer;
	it.bytes = e->bytes;
	it.tag = e->tag;
	it.req = e->req;
	it.root = e->root;
	it.cls = tr_mpi_class(e->op.p, e->op.n, &it.coll);
	it.comm = comm_of(e->rank, e->comm);
	it.site = (int32_t)tr_map_get(sites, e->site.p, e->site.n, 1);
	if (it.cls == TR_MPI_LOCAL)
		return;
	tr_spool_add(spool, (long)e->rank, &it, sizeof it);
	if (e->rank + 1 > nranks)
		nranks = e->rank + 1;
}

/* ---- results ---- */

static void
charge(int kind, int64_t rank, int32_t site, int64_t t, int64_t culprit)
{
	int64_t key[3] = {kind, rank, site};
	long i;

	if (t <= 0)
		return;
	i = tr_map_get(accs, (const char *)key, sizeof key, 1);
	if ((size_t)i == naccv) {
		tr_grow(&accv, &capaccv, naccv + 1, sizeof *accv);
		memset(&accv[naccv++], 0, sizeof *accv);
	}
	accv[i].n++;
	accv[i].time += t;
	key[1] = culprit;
	key[2] = -1;
	i = tr_map_get(blames, (const char *)key, sizeof key, 1);
	if ((size_t)i == nblamev) {
		tr_grow(&blamev, &capblamev, nblamev + 1, sizeof *blamev);
		memset(&blamev[nblamev++], 0, sizeof *blamev);
	}
	blamev[i].n++;
	blamev[i].time += t;
}

static int64_t
clamp(int64_t t, int64_t max)
{
	return t < 0 ? 0 : t > max ? max : t;
}

/* ---- point-to-point ---- */

static int64_t
newpop(void)
{
	int64_t i;

	if (nfree)
		i = freepops[--nfree];
	else {
		tr_grow(&pops, &cappops, npops + 1, sizeof *pops);
		i = (int64_t)npops++;
	}
	memset(&pops[i], 0, sizeof pops[i]);
	pops[i].inuse = 1;
	pops[i].ws = pops[i].we = -1;
	return i;
}

static void
settle(int64_t i)
{
	struct pop *p = &pops[i];

	if (!p->matched || !p->done)
		return;
	if (!p->send)
		charge(LATE_SENDER, p->rank, p->site,
		    clamp(p->ppost - p->ws, p->we - p->ws), p->partner);
	else if (p->sync)
		charge(LATE_RECEIVER, p->rank, p->site,
		    clamp(p->ppost - p->ws, p->we - p->ws), p->partner);
	p->inuse = 0;
	tr_grow(&freepops, &capfree, nfree + 1, sizeof *freepops);
	freepops[nfree++] = i;
}

static struct chan *
getchan(int64_t src, int64_t dst, int32_t comm)
{
	int64_t key[3] = {src, dst, comm};
	long i = tr_map_get(chans, (const char *)key, sizeof key, 1);

	if ((size_t)i == nchanv) {
		tr_grow(&chanv, &capchanv, nchanv + 1, sizeof *chanv);
		memset(&chanv[nchanv++], 0, sizeof *chanv);
	}
	return &chanv[i];
}

static int
tagmatch(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || a == b;
}

/* Posts one side; matches it with the first pending other side whose
 * tag fits (MPI's non-overtaking order per channel). */
static int64_t
post(int64_t rank, int64_t peer, int32_t comm, int64_t tag, int64_t start,
    int send, int sync)
{
	struct chan *c = send ? getchan(rank, peer, comm) :
	    getchan(peer, rank, comm);
	int64_t **q = send ? &c->recvs : &c->sends, *oq;
	size_t *nq = send ? &c->nr : &c->ns, j;
	int64_t i = newpop(), o;

	pops[i].rank = rank;
	pops[i].post = start;
	pops[i].partner = peer;
	pops[i].tag = tag;
	pops[i].send = send;
	pops[i].sync = sync;
	for (j = 0; j < *nq; j++) {
		o = (*q)[j];
		if (!tagmatch(pops[o].tag, tag))
			continue;
		memmove(*q + j, *q + j + 1, (*nq - j - 1) * sizeof **q);
		(*nq)--;
		pops[o].matched = pops[i].matched = 1;
		pops[o].ppost = start;
		pops[i].ppost = pops[o].post;
		settle(o);
		return i;
	}
	c = send ? getchan(rank, peer, comm) : getchan(peer, rank, comm);
	if (send) {
		tr_grow(&c->sends, &c->caps, c->ns + 1, sizeof *c->sends);
		oq = c->sends;
		oq[c->ns++] = i;
	} else {
		tr_grow(&c->recvs, &c->capr, c->nr + 1, sizeof *c->recvs);
		oq = c->recvs;
		oq[c->nr++] = i;
	}
	return i;
}

static void
complete(int64_t i, int64_t ws, int64_t we, int32_t site)
{
	pops[i].ws = ws;
	pops[i].we = we;
	pops[i].site = site;
	pops[i].done = 1;
	settle(i);
}

static void
setreq(int64_t rank, int64_t req, int64_t pop)
{
	int64_t key[2] = {rank, req};
	long i = tr_map_get(reqs, (const char *)key, sizeof key, 1);

	if ((size_t)i >= nreqpop) {
		tr_grow(&reqpop, &capreqpop, (size_t)i + 1, sizeof *reqpop);
		nreqpop = (size_t)i + 1;
	}
	reqpop[i] = pop;
}

static int64_t
takereq(int64_t rank, int64_t req)
{
	int64_t key[2] = {rank, req}, p;
	long i = tr_map_get(reqs, (const char *)key, sizeof key, 0);

	if (i < 0 || (size_t)i >= nreqpop)
		return -1;
	p = reqpop[i];
	reqpop[i] = -1;
	return p;
}

/* ---- collectives ---- */

static void
coll_done(struct cinst *c)
{
	int64_t last = -1, lastrank = 0, rootstart = -1, d;
	int i, kind;

	for (i = 0; i < c->n; i++) {
		if (c->e[i].start > last) {
			last = c->e[i].start;
			lastrank = c->e[i].rank;
		}
		if (c->e[i].rank == c->root)
			rootstart = c->e[i].start;
	}
	switch (c->coll & ~TR_COLL_V) {
	case TR_COLL_BCAST:
	case TR_COLL_SCATTER:
		if (rootstart < 0)
			break;
		for (i = 0; i < c->n; i++) {
			d = c->e[i].end - c->e[i].start;
			if (c->e[i].rank != c->root)
				charge(LATE_BCAST, c->e[i].rank, c->e[i].site,
				    clamp(rootstart - c->e[i].start, d), c->root);
		}
		break;
	case TR_COLL_REDUCE:
	case TR_COLL_GATHER:
		if (rootstart < 0)
			break;
		last = -1;
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank != c->root && c->e[i].start > last) {
				last = c->e[i].start;
				lastrank = c->e[i].rank;
			}
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank == c->root)
				charge(EARLY_REDUCE, c->root, c->e[i].site,
				    clamp(last - rootstart, c->e[i].end -
				    c->e[i].start), lastrank);
		break;
	default:
		kind = c->coll == TR_COLL_BARRIER ? WAIT_BARRIER : WAIT_NXN;
		for (i = 0; i < c->n; i++)
			charge(kind, c->e[i].rank, c->e[i].site,
			    clamp(last - c->e[i].start, c->e[i].end -
			    c->e[i].start), lastrank);
	}
}

static void
coll(int64_t rank, const struct item *it)
{
	struct comm *cm;
	struct cinst *c, **pp;
	int64_t idx;
	size_t n;

	if (it->comm < 0) {
		if (!warned++)
			tr_warn("collectives on communicators without a comm "
			    "record are left out");
		return;
	}
	cm = &commv[it->comm];
	if (it->comm == 0)
		cm->size = nranks;
	if (cm->size < 2)
		return;
	if ((size_t)rank >= cm->ncount) {
		n = cm->ncount;
		tr_grow(&cm->count, &n, (size_t)rank + 1, sizeof *cm->count);
		memset(cm->count + cm->ncount, 0, (n - cm->ncount) *
		    sizeof *cm->count);
		cm->ncount = n;
	}
	idx = cm->count[rank]++;
	for (pp = &cm->open; *pp && (*pp)->index != idx; pp = &(*pp)->next)
		;
	if (!(c = *pp)) {
		c = tr_calloc(1, sizeof *c);
		c->index = idx;
		c->n = (int)cm->size;
		c->coll = it->coll;
		c->root = it->root;
		c->e = tr_calloc((size_t)c->n, sizeof *c->e);
		*pp = c;
	}
	if (c->got < c->n) {
		c->e[c->got].rank = rank;
		c->e[c->got].start = it->start;
		c->e[c->got].end = it->end;
		c->e[c->got].site = it->site;
		c->got++;
	}
	if (c->got == c->n) {
		coll_done(c);
		*pp = c->next;
		free(c->e);
		free(c);
	}
}

/* ---- the replay ---- */

static void
step(int64_t rank, const struct item *it)
{
	int64_t i;
	int sync;

	switch (it->cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
		if (it->peer < 0)
			break;
		sync = it->cls == TR_MPI_SSEND || it->bytes >= eager;
		i = post(rank, it->peer, it->comm, it->tag, it->start, 1, sync);
		complete(i, it->start, it->end, it->site);
		break;
	case TR_MPI_RECV:
		if (it->peer < 0)
			break;
		i = post(rank, it->peer, it->comm, it->tag, it->start, 0, 0);
		complete(i, it->start, it->end, it->site);
		break;
	case TR_MPI_SENDRECV:
		if (it->peer >= 0) {
			i = post(rank, it->peer, it->comm, it->tag, it->start, 1,
			    it->bytes >= eager);
			complete(i, it->start, it->end, it->site);
		}
		if (it->root >= 0) {
			i = post(rank, it->root, it->comm, -1, it->start, 0, 0);
			complete(i, it->start, it->end, it->site);
		}
		break;
	case TR_MPI_ISEND:
	case TR_MPI_IRECV:
		if (it->peer < 0 || it->req < 0)
			break;
		i = post(rank, it->peer, it->comm, it->tag, it->start,
		    it->cls == TR_MPI_ISEND, it->cls == TR_MPI_ISEND &&
		    it->bytes >= eager);
		setreq(rank, it->req, i);
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (it->req >= 0 && (i = takereq(rank, it->req)) >= 0)
			complete(i, it->start, it->end, it->site);
		break;
	case TR_MPI_COLL:
	case TR_MPI_COMMNEW:
		coll(rank, it);
		break;
	}
}

struct head {
	int64_t rank;
	struct item it;
};

static int
before(const struct head *a, const struct head *b)
{
	if (a->it.start != b->it.start)
		return a->it.start < b->it.start;
	return a->rank < b->rank;
}

static void
sift(struct head *h, size_t n, size_t i)
{
	struct head t;
	size_t l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int
pull(int64_t rank, struct head *h)
{
	const void *p;
	size_t n;

	if (!tr_spool_next(spool, (long)rank, &p, &n))
		return 0;
	h->rank = rank;
	memcpy(&h->it, p, sizeof h->it);
	return 1;
}

static void
replay(void)
{
	struct head *h;
	size_t n = 0, i;
	int64_t r;

	tr_spool_seal(spool);
	h = tr_calloc((size_t)nranks + 1, sizeof *h);
	for (r = 0; r < nranks; r++)
		if (pull(r, &h[n]))
			n++;
	for (i = n / 2 + 1; i-- > 0;)
		sift(h, n, i);
	while (n > 0) {
		step(h[0].rank, &h[0].it);
		if (!pull(h[0].rank, &h[0]))
			h[0] = h[--n];
		sift(h, n, 0);
	}
	free(h);
}

/* ---- report ---- */

struct row {
	int64_t kind, rank, site;
	struct acc a;
};

static int
byrow(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t nx, ny;
	const char *sx, *sy;
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->site == y->site)
		return 0;
	if (x->site < 0 || y->site < 0)
		return x->site < 0 ? -1 : 1;
	sx = tr_map_key(sites, (long)x->site, &nx);
	sy = tr_map_key(sites, (long)y->site, &ny);
	c = memcmp(sx, sy, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}


/* Rows per rank and site, plus totals per rank (site -1) and per kind
 * (rank -1), sorted. */
static void
report(struct tr_out *o)
{
	size_t n = tr_map_len(accs), m = 0, i, j, kn;
	struct row *rows = tr_calloc(3 * n + 1, sizeof *rows);
	int64_t k[3];
	const char *s;

	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(accs, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = k[2];
		rows[m++].a = accv[i];
	}
	qsort(rows, m, sizeof *rows, byrow);
	/* totals: appended, then everything sorted again */
	n = m;
	for (i = 0; i < n; i++) {
		for (j = n; j < m; j++)
			if (rows[j].kind == rows[i].kind && rows[j].rank ==
			    rows[i].rank && rows[j].site == -1)
				break;
		if (j == m) {
			rows[m] = rows[i];
			rows[m].site = -1;
			rows[m++].a.n = 0;
			rows[j].a.time = 0;
		}
		rows[j].a.n += rows[i].a.n;
		rows[j].a.time += rows[i].a.time;
		for (j = n; j < m; j++)
			if (rows[j].kind == rows[i].kind && rows[j].rank == -1)
				break;
		if (j == m) {
			rows[m] = rows[i];
			rows[m].site = -1;
			rows[m].rank = -1;
			rows[m].a.time = 0;
			rows[m++].a.n = 0;
		}
		rows[j].a.n += rows[i].a.n;
		rows[j].a.time += rows[i].a.time;
	}
	qsort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		tr_out_str(o, "wait\t");
		tr_out_str(o, kindname[rows[i].kind]);
		tr_out_ti64(o, rows[i].rank);
		tr_out_c(o, '\t');
		if (rows[i].site < 0)
			tr_out_c(o, '*');
		else {
			s = tr_map_key(sites, (long)rows[i].site, &kn);
			tr_out_write(o, s, kn);
		}
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	m = 0;
	n = tr_map_len(blames);
	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(blames, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = -1;
		rows[m++].a = blamev[i];
	}
	qsort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		tr_out_str(o, "blame\t");
		tr_out_str(o, kindname[rows[i].kind]);
		tr_out_ti64(o, rows[i].rank);
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	free(rows);
}

static void
reset(void)
{
	size_t i;
	struct cinst *c, *nx;

	if (spool)
		tr_spool_free(spool);
	spool = tr_spool_new(64 << 20);
	for (i = 0; i < ncommv; i++) {
		free(commv[i].count);
		for (c = commv[i].open; c; c = nx) {
			nx = c->next;
			free(c->e);
			free(c);
		}
	}
	ncommv = 0;
	for (i = 0; i < nchanv; i++) {
		free(chanv[i].sends);
		free(chanv[i].recvs);
	}
	nchanv = npops = nfree = naccv = nblamev = nreqpop = nrcommv = 0;
	nranks = 0;
	tr_map_clear(sites);
	tr_map_clear(comms);
	tr_map_clear(rcomm);
	tr_map_clear(chans);
	tr_map_clear(reqs);
	tr_map_clear(accs);
	tr_map_clear(blames);
	newcomm("world", 5, 0);
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int c, status;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "e:p")) != -1) {
		switch (c) {
		case 'e':
			if (tr_parse_size(optarg, &eager) || eager < 0)
				tr_die(TR_EXIT_USAGE, "bad size '%s'", optarg);
			break;
		case 'p': pflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (eager == 0)
		eager = INT64_MAX;
	sites = tr_map_new();
	comms = tr_map_new();
	rcomm = tr_map_new();
	chans = tr_map_new();
	reqs = tr_map_new();
	accs = tr_map_new();
	blames = tr_map_new();
	reset();
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_WAIT);
	tr_out_declare(o, TR_BLAME);
	if (!pflag)
		tr_out_drop(o, "ev");
	in = tr_open(argc, argv);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR)
			tr_out_sync(o, in);
		else if (c == TR_END) {
			int64_t np;

			if (tr_meta_i64(in, "np", &np) == 0 && np > nranks)
				nranks = np;
			replay();
			report(o);
			reset();
		} else if (c == TR_REC) {
			if (r.type == TR_EV)
				spool_ev(&r.u.ev);
			else if (r.type == TR_COMM)
				comm_rec(in, &r);
			if (r.type != TR_EV || pflag)
				tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	reset();
	tr_spool_free(spool);
	free(commv);
	free(chanv);
	free(pops);
	free(freepops);
	free(accv);
	free(blamev);
	free(reqpop);
	free(rcommv);
	tr_map_free(sites);
	tr_map_free(comms);
	tr_map_free(rcomm);
	tr_map_free(chans);
	tr_map_free(reqs);
	tr_map_free(accs);
	tr_map_free(blames);
	return status;
}
