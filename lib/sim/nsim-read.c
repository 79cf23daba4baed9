/* nsim-read.c - a section's records, spooled per rank as the replay needs
 * them, and the errors that name their lines. */
#include <stdarg.h>
#include <time.h>

#include "nsim-int.h"

/* The line of a record being read, as items keep it. */
static uint32_t
item_line(struct tr_nsim *s, const struct tr_in *in)
{
	const char *f = tr_in_file(in);
	int64_t l;

	if (f != s->lfname) {
		tr_grow(&s->lf, &s->lfcap, s->nlf + 1, sizeof *s->lf);
		s->lf[s->nlf].name = s->lfname = f;
		s->lf[s->nlf++].base = s->lmax;
	}
	l = tr_in_line(in) + s->lf[s->nlf - 1].base;
	if (l > s->lmax)
		s->lmax = l;
	return l <= UINT32_MAX ? (uint32_t)l : 0;
}

/* What the replay finds wrong names the input, as a reader's errors do:
 * record IT's file and line (the line is long read by then), or the
 * section's file when no one record is at fault (IT NULL). A recording
 * that left calls out explains a replay that stops, so that is said
 * first. */
static _Noreturn void
vline_die(const struct tr_nsim *s, int64_t l, const char *fmt, va_list ap)
{
	const char *f = s->file ? s->file : "stdin";
	size_t i = s->nlf;

	while (l > 0 && i > 0 && s->lf[i - 1].base >= l)
		i--;
	if (l > 0 && i > 0) {
		f = s->lf[i - 1].name;
		l -= s->lf[i - 1].base;
	}
	if (s->src)
		tr_meta_unrecorded(s->src);
	tr_vdie_at(f, (long)l, fmt, ap);
}

_Noreturn void __attribute__((format(printf, 3, 4)))
nsim_item_die(const struct tr_nsim *s, const struct item *it, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_die(s, it ? it->line : 0, fmt, ap);
}

/* The same at LINE (item_line's), for what no longer has its item. */
_Noreturn void __attribute__((format(printf, 3, 4)))
nsim_line_die(const struct tr_nsim *s, int64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_die(s, line, fmt, ap);
}

double
nsim_cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The communicator of a comm record of RANK listing F, N members MEM
 * (taken). Gids count the communicators made in the section, from 2
 * (0 world, 1 self), never given out again. */
static long
add_comm(struct tr_nsim *s, int64_t rank, const struct tr_field *f, long n,
    long *mem)
{
	int made;
	long i = tr_comms_get(s->cids, rank, f, &made);
	struct comm *cm;

	if (!made) {
		free(mem);
		return s->byidx[i]->gid;
	}
	cm = tr_malloc(sizeof *cm);
	cm->n = cm->live = n;
	cm->mem = mem;
	cm->idx = i;
	cm->gid = 2 + s->ngid++;
	tr_growz(&s->byidx, &s->nbyidx, (size_t)i + 1, sizeof *s->byidx);
	s->byidx[i] = cm;
	*tr_itab_get(&s->gcomm, cm->gid, 0, 1) = cm;
	return cm->gid;
}

/* The newest communicator rank R's id ID names as read. */
static struct rcomm *
rcomm_last(struct tr_nsim *s, int64_t r, int64_t id, int add)
{
	void **v = tr_itab_get(&s->rc, r, id, add);
	struct rcomm *c;

	if (!v)
		return NULL;
	if (!*v) {
		*v = tr_calloc(1, sizeof(struct rcomm));
		((struct rcomm *)*v)->gid = -1;	/* until its comm record */
	}
	for (c = *v; c->next; c = c->next)
		;
	if (add && c->freed) {
		c = c->next = tr_calloc(1, sizeof *c);
		c->gid = -1;	/* until its comm record */
	}
	return c;
}

static void
read_comm(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank = tr_get_i64(in, r, 1), id = tr_get_i64(in, r, 2);
	int64_t size = tr_get_i64(in, r, 3);
	struct tr_field f = r->f[4];
	long *mem, n, i, me = -1;
	struct rcomm *rc;

	if (tr_members(f.p, f.n, &mem, &n) < 0 || n != size)
		tr_in_die(in, "comm: bad members '%.*s'", (int)(f.n > 60 ? 60 :
		    f.n), f.p);
	for (i = 0; i < n; i++)
		if (mem[i] == rank)
			me = i;
	if (me < 0)
		tr_in_die(in, "comm: rank %lld is not among the members",
		    (long long)rank);
	rc = rcomm_last(s, rank, id, 1);
	rc->gid = add_comm(s, rank, &f, n, mem);
	rc->me = (int32_t)me;
}

/* A cart record: the grid of a communicator, for its neighborhood
 * collectives. */
static void
read_cart(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int dims[TR_CART_MAXD], per[TR_CART_MAXD], nd;
	struct rcomm *rc;
	char err[128];

	if (tr_cart_read(r, TR_CART_MAXD, &nd, dims, per, err, sizeof err))
		tr_in_die(in, "cart: %s", err);
	rc = rcomm_last(s, tr_get_i64(in, r, 1), tr_get_i64(in, r, 2), 1);
	free(rc->grid);
	rc->grid = tr_malloc(2 * (size_t)nd * sizeof *rc->grid);
	memcpy(rc->grid, dims, (size_t)nd * sizeof *dims);
	memcpy(rc->grid + nd, per, (size_t)nd * sizeof *per);
	rc->nd = (int16_t)nd;
}

int
tr_nsim_takes(int type)
{
	return type == TR_EV || type == TR_REG || type == TR_COMM ||
	    type == TR_CART || type == TR_FAIL;
}

/* An MPI_Comm_free or MPI_Comm_disconnect: its id may name another
 * communicator after it. 1 if the replay is to forget the communicator. */
static int
read_free(struct tr_nsim *s, const struct tr_in *in, const struct tr_ev *e)
{
	struct rcomm *c;

	if (e->comm == 0 || e->comm == 1)
		tr_in_die(in, "rank %lld seq %lld: %.*s of %s",
		    (long long)e->rank, (long long)e->seq, (int)e->op.n,
		    e->op.p, e->comm ? "MPI_COMM_SELF" : "MPI_COMM_WORLD");
	if (s->for_ti)	/* the export reads the section first */
		return 0;
	c = rcomm_last(s, e->rank, e->comm, 0);
	if (!c || c->gid < 0 || c->freed)
		return 0;
	c->freed = 1;
	return 1;
}

static int
is_init_fini(struct tr_field op)
{
	return (op.n == 8 && memcmp(op.p, "MPI_Init", 8) == 0) ||
	    (op.n == 15 && memcmp(op.p, "MPI_Init_thread", 15) == 0) ||
	    (op.n == 12 && memcmp(op.p, "MPI_Finalize", 12) == 0);
}

void
nsim_begin(struct tr_nsim *s, const struct tr_in *in)
{
	s->file = tr_in_file(in);
	s->src = in;
	s->sp = tr_spool_new((size_t)4 << 20);
	tr_spool_packed(s->sp);
	s->wild = tr_wild_new();
	s->tread = nsim_cpu_seconds();
}

/* Items are spooled packed: the reader runs ahead of the replay by
 * several records a rank (all the records of a phase, in a trace
 * written phase by phase), and their numbers are mostly small. Each is
 * in 7-bit groups, low first, the signed ones zigzagged. */
#define ITEM_MAXHDR (12 * 10 + 2)

static unsigned char *
put_u(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static unsigned char *
put_s(unsigned char *p, int64_t v)
{
	return put_u(p, v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1);
}

static uint64_t
get_u(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	int sh = 0;

	while (*p & 0x80) {
		v |= (uint64_t)(*p++ & 0x7f) << sh;
		sh += 7;
	}
	v |= (uint64_t)*p++ << sh;
	*pp = p;
	return v;
}

static int64_t
get_s(const unsigned char **pp)
{
	uint64_t u = get_u(pp);

	return (int64_t)(u & 1 ? ~(u >> 1) : u >> 1);
}

static size_t
item_pack(unsigned char *b, const struct item *it)
{
	unsigned char *p = b;

	p = put_s(p, it->seq);
	p = put_s(p, it->dt);
	p = put_s(p, it->dur);
	p = put_s(p, it->peer);
	p = put_s(p, it->bytes);
	p = put_s(p, it->tag);
	p = put_s(p, it->comm);
	p = put_s(p, it->req);
	p = put_s(p, it->root);
	p = put_u(p, it->npre);
	p = put_u(p, it->nsuf);
	p = put_u(p, it->line);
	p = put_s(p, it->coll);
	*p++ = it->type;
	*p++ = it->cls;
	return (size_t)(p - b);
}

int
nsim_item_next(struct tr_nsim *s, long r, struct item *it)
{
	const void *v;
	const unsigned char *p;
	size_t n;

	if (!tr_spool_next(s->sp, r, &v, &n))
		return 0;
	p = v;
	it->seq = get_s(&p);
	it->dt = get_s(&p);
	it->dur = get_s(&p);
	it->peer = get_s(&p);
	it->bytes = get_s(&p);
	it->tag = get_s(&p);
	it->comm = get_s(&p);
	it->req = get_s(&p);
	it->root = get_s(&p);
	it->npre = (uint32_t)get_u(&p);
	it->nsuf = (uint32_t)get_u(&p);
	it->line = (uint32_t)get_u(&p);
	it->coll = (int16_t)get_s(&p);
	it->type = *p++;
	it->cls = *p++;
	it->txt = (const char *)p;
	return 1;
}

void
tr_nsim_add(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank, t0, t1, cpu, gap;
	int coll = 0, cls = TR_MPI_LOCAL;
	const struct tr_field *fa, *fb;
	size_t i;

	if (r->type == TR_COMM) {
		read_comm(s, in, r);
		return;
	}
	if (r->type == TR_CART) {
		read_cart(s, in, r);
		return;
	}
	if (!s->sp)
		nsim_begin(s, in);
	if (r->type == TR_EV || r->type == TR_FAIL) {
		rank = r->u.ev.rank;
		t0 = r->u.ev.start;
		t1 = r->u.ev.end;
		cpu = r->u.ev.cpu;
		fa = &r->f[TR_EV_START];
		fb = &r->f[TR_EV_END];
	} else {
		rank = r->u.reg.rank;
		t0 = t1 = r->u.reg.time;
		cpu = r->u.reg.cpu;
		fa = fb = &r->f[TR_REG_TIME];
	}
	if ((size_t)rank >= s->prevcap) {
		size_t old = s->prevcap;
		tr_grow(&s->prev_end, &s->prevcap, (size_t)rank + 1,
		    sizeof *s->prev_end);
		for (i = old; i < s->prevcap; i++)
			s->prev_end[i] = -1;
	}
	if (s->prev_end[rank] < 0)
		s->nseen++;
	gap = s->prev_end[rank] < 0 ? 0 : t0 - s->prev_end[rank];
	s->prev_end[rank] = t1;
	if (rank >= s->np)
		s->np = rank + 1;
	{
		size_t pre = (size_t)(fa->p - r->line), post = (size_t)(fb->p +
		    fb->n - r->line), suf = r->len - post;
		struct item one, *it = &one;
		unsigned char hdr[ITEM_MAXHDR];
		size_t nh;
		char *p;

		memset(it, 0, sizeof *it);
		it->dt = s->wall || cpu < 0 ? (gap > 0 ? gap : 0) : cpu;
		if (r->type == TR_EV || r->type == TR_FAIL) {
			const struct tr_ev *e = &r->u.ev;
			it->seq = e->seq;
			it->dur = e->end - e->start;
			it->peer = e->peer;
			it->bytes = e->bytes;
			if (e->bytes > s->maxbytes)
				s->maxbytes = e->bytes;
			it->tag = e->tag;
			it->req = e->req;
			it->root = e->root;
			cls = tr_ev_class(e, &coll, &it->comm);
			if (r->type == TR_FAIL && !tr_fail_replayed(r, cls)) {
				cls = TR_MPI_LOCAL;
				coll = 0;
			}
			if (tr_wild_read(s->wild, e, cls))
				s->gotwild = rank;
			/* Start-up and shut-down of the recorded run (processes
			 * spawned, oversubscribed, libraries loaded before
			 * MPI_Init: the CPU burst of its record) say nothing of
			 * the target; wall-clock gaps start at the first record
			 * too. */
			if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_comm_free(e))
				coll = read_free(s, in, e) ? COLL_FREE : coll;
			else if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_pers_init(e))
				coll = COLL_PERS;
			else if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_req_free(e))
				coll = COLL_UNPERS;
			if (cls == TR_MPI_LOCAL && is_init_fini(e->op)) {
				it->dur = 0;
				if (e->op.p[4] == 'I')
					it->dt = 0;
			}
		} else {
			it->seq = r->u.reg.seq;
			/* the recorder's flush: no computation to replay */
			if (r->u.reg.leave && tr_reg_flush(&r->u.reg))
				it->dt = 0;
		}
		it->type = (uint8_t)r->type;
		it->cls = (uint8_t)cls;
		it->coll = (int16_t)coll;
		it->npre = (uint32_t)pre;
		it->nsuf = (uint32_t)suf;
		it->line = item_line(s, in);
		nh = item_pack(hdr, it);
		p = tr_spool_reserve(s->sp, (long)rank, nh + pre + suf);
		memcpy(p, hdr, nh);
		it->txt = p += nh;
		memcpy(p, r->line, pre);
		memcpy(p + pre, r->line + post, suf);
		if (s->for_ti && it->type == TR_EV)
			ti_chan_send(s, rank, it);
		if (s->for_ti)
			ti_note(s, rank, it);
		if (s->for_ti && it->cls == TR_MPI_COMMNEW)
			ti_make_add(s, rank, it);
	}
	s->got = rank;
}

/* The section is read to its end. */
static void
end_reading(struct tr_nsim *s)
{
	s->in = NULL;
	if (!s->sp)
		return;
	tr_spool_seal(s->sp);
	tr_wild_seal(s->wild);
	free(s->prev_end);
	s->prev_end = NULL;
	s->prevcap = 0;
}

/* A record read while simulating: simulated, or passed through. */
void
nsim_take(void *ctx, const struct tr_rec *rec)
{
	struct tr_nsim *s = ctx;

	if (tr_nsim_takes(rec->type))
		tr_nsim_add(s, s->in, rec);
	if (rec->type != TR_EV && rec->type != TR_REG && rec->type != TR_FAIL)
		tr_out_rec(s->out, rec);
}

/* Reads on in the section until a record of rank R (WILD 1: the source
 * of one of its wildcard receives; 2: until R ranks have records) is
 * spooled, or to the end (R < 0); records not simulated are passed
 * through. 0 if the section was read already. */
int
nsim_pull(struct tr_nsim *s, long r, int wild)
{
	double t0;

	if (!s->in)
		return 0;
	t0 = s->stats ? nsim_cpu_seconds() : 0;
	s->got = s->gotwild = -1;
	if (!tr_feed(s->in, s->out, nsim_take, s, wild == 2 ? &s->nseen : wild ?
	    &s->gotwild : &s->got, r))
		end_reading(s);
	if (s->stats)
		s->tin += nsim_cpu_seconds() - t0;
	return 1;
}

/* nsim_pull() for tr_wild_resolve: on to the completion of a wildcard. */
int
nsim_pull_wild(void *ctx, long r)
{
	return nsim_pull(ctx, r, 1);
}

/* IT's op (the fourth field of its line) is NAME, or starts with it
 * if PREFIX. */
int
nsim_item_op(const struct item *it, const char *name, int prefix)
{
	const char *p = ITEM_PRE(it);
	size_t l = 0, n = strlen(name);
	int f = 0;

	while (f < 3 && l < it->npre)
		if (p[l++] == '\t')
			f++;
	return it->npre - l >= n + !prefix && memcmp(p + l, name, n) == 0 &&
	    (prefix || p[l + n] == '\t');
}
