/* nsim-comm.c - what each rank's communicator ids name in the replay,
 * and when it forgets them. */
#include "nsim-int.h"

/* One of GID's members freed it, or one of its collectives ended: once
 * nothing needs it, it is forgotten, so that a communicator made every
 * iteration takes no more memory the longer the run. */
void
nsim_comm_unref(struct tr_nsim *s, long gid)
{
	struct comm *cm;

	if (gid < 2 || --(cm = comm_get(s, gid))->live > 0)
		return;
	tr_itab_del(&s->gcomm, gid, 0);
	tr_comms_drop(s->cids, cm->idx);
	s->byidx[cm->idx] = NULL;
	free(cm->mem);
	free(cm);
}

/* A call on a window that needs its communicator: the fences and the
 * free, collective over the window's group. */
int
nsim_win_coll(const struct item *it)
{
	return it->cls == TR_MPI_FENCE || (it->cls == TR_MPI_COMMNEW &&
	    nsim_item_op(it, "MPI_Win_free", 0));
}

/* A persistent request's start (MPI_Start: or MPI_Startall:) */
static int
pers_start(const struct item *it)
{
	return (it->cls == TR_MPI_ISEND || it->cls == TR_MPI_IRECV) &&
	    nsim_item_op(it, "MPI_Start", 1);
}

struct rcomm *
nsim_rank_comm(struct tr_nsim *s, long r, int64_t id, const struct item *it)
{
	struct rank *rk = s->r ? &s->r[r] : NULL;	/* NULL in tr-to-ti */
	void **v;
	struct rcomm *c;

	if (rk && it && nsim_win_coll(it) &&
	    (v = tr_itab_get(&s->rwin, r, it->tag, 0)))
		return *v;
	/* (before the id's next communicator, read ahead) */
	if (rk && it && pers_start(it) &&
	    (v = tr_itab_get(&s->rpers, r, id, 0)))
		return *v;
	if (rk && rk->lastc && rk->lastcid == id)
		return rk->lastc;
	/* A comm record after the communicator's first use: read on. */
	while ((!(v = tr_itab_get(&s->rc, r, id, 0)) ||
	    ((struct rcomm *)*v)->gid < 0) && id != 0 && id != 1 &&
	    id != -1 && nsim_pull(s, -1, 0))
		;
	if (v && ((struct rcomm *)*v)->gid >= 0)
		c = *v;
	else {
		if (id != 0 && id != 1 && id != -1)
			nsim_item_die(s, it, "rank %ld seq %lld: communicator "
			    "%lld has no comm record", r, (long long)it->seq,
			    (long long)id);
		v = tr_itab_get(&s->rc, r, id, 1);
		if (!*v)
			*v = tr_calloc(1, sizeof *c);
		c = *v;
		c->gid = id == 1 ? 1 : 0;
		c->me = id == 1 ? 0 : (int32_t)r;
	}
	if (rk) {
		rk->lastcid = id;
		rk->lastc = c;
	}
	return c;
}

long
nsim_coll_root(struct tr_nsim *s, long gid, int64_t root)
{
	const struct comm *c;
	long i;

	if (root < 0)
		return 0;
	if (gid == 0)
		return (long)root;
	if (gid == 1)
		return 0;
	c = comm_get(s, gid);
	for (i = 0; i < c->n; i++)
		if (c->mem[i] == root)
			return i;
	return 0;
}

/* A communicator freed by the program goes once no window and no
 * persistent request holds it. */
static void
rcomm_drop(struct tr_nsim *s, struct rcomm *c)
{
	if (!c->zombie || c->wins > 0 || c->pers)
		return;
	nsim_comm_unref(s, c->gid);
	free(c->grid);
	free(c);
}

/* Rank R's MPI_Comm_free IT: its id names the next communicator made
 * with it, if any. */
void
nsim_rank_freed(struct tr_nsim *s, long r, const struct item *it)
{
	void **v = tr_itab_get(&s->rc, r, it->comm, 0);
	struct rcomm *c = *v;

	if (s->r[r].lastc == c)
		s->r[r].lastc = NULL;
	if (c->next)
		*v = c->next;
	else
		tr_itab_del(&s->rc, r, it->comm);
	c->zombie = 1;
	rcomm_drop(s, c);
}

/* Rank R's persistent request IT is made: its communicator is the one
 * its id's starts use. */
void
nsim_rank_pers(struct tr_nsim *s, long r, const struct item *it)
{
	struct rcomm *c = nsim_rank_comm(s, r, it->comm, it), *o;
	void **v = tr_itab_get(&s->rpers, r, it->comm, 1);

	if (*v == c) {
		c->pers++;
		return;
	}
	o = *v;
	*v = c;
	/* the id's requests not freed, whichever they were made on */
	c->pers = 1 + (o ? o->pers : 0);
	/* the one before with the id goes if freed and no window holds it */
	if (!o)
		return;
	o->pers = 0;
	rcomm_drop(s, o);
}

/* Rank R frees a persistent request made with IT's id: once the id has
 * none, its communicator goes if freed and no window holds it. */
void
nsim_rank_unpers(struct tr_nsim *s, long r, const struct item *it)
{
	void **v = tr_itab_get(&s->rpers, r, it->comm, 0);
	struct rcomm *c;

	if (!v || --(c = *v)->pers > 0)
		return;
	tr_itab_del(&s->rpers, r, it->comm);
	rcomm_drop(s, c);
}

/* Rank R's window IT is made (on its communicator, once the comm record
 * is read) or, MADE 0, freed: a communicator freed before its windows
 * goes once the last is. */
void
nsim_rank_win(struct tr_nsim *s, long r, const struct item *it, int made)
{
	void **v;
	struct rcomm *c;

	if (made) {
		v = tr_itab_get(&s->rwin, r, it->tag, 1);
		if (!*v) {
			*v = nsim_rank_comm(s, r, it->comm, it);
			((struct rcomm *)*v)->wins++;
		}
		return;
	}
	if (!(v = tr_itab_get(&s->rwin, r, it->tag, 0)))
		return;
	c = *v;
	tr_itab_del(&s->rwin, r, it->tag);
	c->wins--;
	rcomm_drop(s, c);
}
