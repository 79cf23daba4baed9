/* obj.c - the other handles records name: open files, windows, and
 * messages matched by a probe. */
#include <stddef.h>

#include "tab-int.h"

/* Open files, by handle: the communicator's id. */
static struct htab ftab;

void
rec_file_new(MPI_File f, int comm)
{
	if (comm >= 0)
		hput(&ftab, (uintptr_t)f, comm);
}

int
rec_file_comm(MPI_File f)
{
	struct slot *s = hfind(&ftab, (uintptr_t)f);

	return s ? (int)s->v : -1;
}

void
rec_file_free(MPI_File f)
{
	struct slot *s = hfind(&ftab, (uintptr_t)f);

	if (s)
		s->v = -2;
}

/* Windows, by handle: the communicator they were made on (whose entry
 * is kept after it is freed until they are) and their number on this rank,
 * which is what one-sided records name a window by. */
struct win {
	int comm, num;
	long cidx, next;
};
static struct htab wtab;
static struct win *wins;
static size_t nwin, wincap;
static long winfree = -1;
static int nextwin;

int
rec_win_new(MPI_Win w, MPI_Comm c)
{
	struct slot *s;
	long i;
	int id = rec_comm_id(c);

	if (id < 0 || !(s = hfind(&ctab, (uintptr_t)c)))
		return -1;
	if ((i = pool_take(&wins, &nwin, &wincap, sizeof *wins, &winfree,
	    offsetof(struct win, next))) < 0)
		return -1;
	wins[i].comm = id;
	wins[i].cidx = s->v;
	comm_at(s->v)->refs++;
	wins[i].num = nextwin++;
	wins[i].next = -1;
	if (hput(&wtab, (uintptr_t)w, i) < 0) {
		comm_at(s->v)->refs--;
		wins[i].next = winfree;
		winfree = i;
		return -1;
	}
	return wins[i].num;
}

int
rec_win(MPI_Win w, int target, struct rwin *out)
{
	struct slot *s = hfind(&wtab, (uintptr_t)w);
	const struct win *k;
	const struct comm *c;

	if (!s)
		return 0;
	k = &wins[s->v];
	c = comm_at(k->cidx);
	out->comm = k->comm;
	out->num = k->num;
	out->world = target < 0 || target >= c->size ? -1 :
	    c->world ? c->world[target] : target;
	return 1;
}

void
rec_win_free(MPI_Win w)
{
	struct slot *s = hfind(&wtab, (uintptr_t)w);

	if (!s)
		return;
	comm_unref(wins[s->v].cidx);
	wins[s->v].next = winfree;
	winfree = s->v;
	s->v = -2;
}

/* Messages matched by a probe, by handle, until received. */
static struct htab mtab;
static struct rmsg *msgs;
static size_t nmsg, msgcap;
static long msgfree = -1;

void
rec_msg_new(MPI_Message m, const struct rrec *e, MPI_Comm c)
{
	long i;

	if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC ||
	    (i = pool_take(&msgs, &nmsg, &msgcap, sizeof *msgs, &msgfree,
	    offsetof(struct rmsg, next))) < 0)
		return;
	msgs[i].peer = e->peer;
	msgs[i].tag = e->tag;
	msgs[i].comm = e->comm;
	msgs[i].bytes = e->bytes;
	msgs[i].c = c;
	msgs[i].next = -1;
	if (hput(&mtab, (uintptr_t)m, i) < 0) {
		msgs[i].next = msgfree;
		msgfree = i;
	}
}

int
rec_msg_take(MPI_Message m, struct rmsg *out)
{
	struct slot *s = hfind(&mtab, (uintptr_t)m);

	if (!s)
		return 0;
	if (out)
		*out = msgs[s->v];
	msgs[s->v].next = msgfree;
	msgfree = s->v;
	s->v = -2;
	return 1;
}

