/* comm.c - communicator ids with their world ranks, and their comm
 * and cart records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tab-int.h"

struct comm *commch[COMMCH];
static size_t ncomm;
static int nextid = 2;
struct htab ctab;

static int
intcmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* An intercommunicator's local group joined to its remote one (WORLD,
 * N ranks), as world ranks in order; NULL if out of memory. */
static int *
bothgroups(MPI_Comm c, const int *world, int n, int *nall)
{
	MPI_Group g, wg;
	int ln, i, *all;

	PMPI_Comm_size(c, &ln);
	if (!(all = malloc((size_t)(ln + n) * 2 * sizeof *all)))
		return NULL;
	for (i = 0; i < ln; i++)
		all[ln + n + i] = i;
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	PMPI_Group_translate_ranks(g, ln, all + ln + n, wg, all);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	memcpy(all + ln, world, (size_t)n * sizeof *all);
	qsort(all, (size_t)(ln + n), sizeof *all, intcmp);
	*nall = ln + n;
	return all;
}

/* A Cartesian communicator's grid, however it was made (Cart_create,
 * Cart_sub, Comm_dup of one, ...), for the replays of its neighbourhood
 * collectives. */
static void
topology(MPI_Comm c)
{
	int t, nd, dims[16], per[16], co[16];

	if (PMPI_Topo_test(c, &t) != MPI_SUCCESS || t != MPI_CART ||
	    PMPI_Cartdim_get(c, &nd) != MPI_SUCCESS || nd <= 0 || nd > 16 ||
	    PMPI_Cart_get(c, nd, dims, per, co) != MPI_SUCCESS)
		return;
	rec_comm_cart(c, nd, dims, per);
}

/* A communicator the program freed is let go: out of the handle table
 * at once, so that no wrapper finds it again, and its members' world
 * ranks freed then unless a window or a receive in flight still reads
 * them (rec_win, rec_req_world: MPI lets both outlive it). What a
 * flush reads of it (id, members, grid) is kept until the buffer that
 * may still hold its comm or cart record has been emptied, and only
 * then is its slot reused: a flush runs in crash handlers at any point,
 * and in a thread that seized the recorder while this one holds it, so
 * neither can be kept from reading. They read only the entries that
 * records in the buffer name, and records are added to it in its
 * current emptying; an entry let go at emptying G (rec.emptied, counted
 * in buf/flush.c's written) had all its records made before that, so once
 * rec.emptied passes G none of them is left to read. The slots are
 * reused here, by the thread holding the recorder and outside any
 * flush (a seizing thread's leaves rec.emptied as it is); the ids
 * written keep counting (nextid), as the trace has always had them. */
static long letgo = -1, *letgotail = &letgo;
static long freecomm = -1;

static void
drop_world(struct comm *k)
{
	if (k->memb != k->world)
		free(k->memb);
	free(k->world);
	k->memb = k->world = NULL;
}

static void
reclaim(void)
{
	int64_t e = __atomic_load_n(&rec.emptied, __ATOMIC_ACQUIRE);
	struct comm *k;

	while (letgo >= 0 && (k = comm_at(letgo))->gone < e) {
		long i = letgo;

		if ((letgo = k->next) < 0)
			letgotail = &letgo;
		free(k->members);
		free(k->grid);
		k->members = k->grid = NULL;
		k->next = freecomm;
		freecomm = i;
	}
}

static void
let_go(long idx)
{
	struct comm *k = comm_at(idx);

	drop_world(k);
	k->gone = __atomic_load_n(&rec.emptied, __ATOMIC_ACQUIRE);
	k->next = -1;
	*letgotail = idx;
	letgotail = &k->next;
}

/* A slot for a new entry, zeroed: a reclaimed one, or the next of the
 * chunks (made here, published before any record can name it). */
static long
comm_take(void)
{
	long i;
	struct comm *k;

	reclaim();
	if ((i = freecomm) >= 0)
		freecomm = comm_at(i)->next;
	else {
		size_t q = ncomm / COMMS0 + 1;
		int c = 63 - __builtin_clzll(q);

		if (c >= COMMCH)
			return -1;
		if (!commch[c]) {
			struct comm *ch = calloc((size_t)COMMS0 << c,
			    sizeof *ch);

			if (!ch)
				return -1;
			__atomic_store_n(&commch[c], ch, __ATOMIC_RELEASE);
		}
		i = (long)ncomm++;
	}
	k = comm_at(i);
	memset(k, 0, sizeof *k);
	k->next = -1;
	return i;
}

/* A slot taken and not kept (a failure half-way): nothing names it. */
static long
comm_back(long i)
{
	struct comm *k = comm_at(i);

	drop_world(k);
	k->next = freecomm;
	freecomm = i;
	return -1;
}

static long
addcomm(MPI_Comm c, int id)
{
	struct comm *k;
	MPI_Group g, wg;
	int *in, i;
	long idx;

	if ((idx = comm_take()) < 0)
		return -1;
	k = comm_at(idx);
	k->id = id;
	PMPI_Comm_test_inter(c, &k->inter);
	if (k->inter) {
		PMPI_Comm_remote_size(c, &k->size);
		PMPI_Comm_remote_group(c, &g);
	} else {
		PMPI_Comm_size(c, &k->size);
		PMPI_Comm_group(c, &g);
	}
	if (c != MPI_COMM_WORLD) {
		k->world = malloc(2 * k->size * sizeof *k->world);
		if (!k->world) {
			PMPI_Group_free(&g);
			return comm_back(idx);
		}
		in = k->world + k->size;
		for (i = 0; i < k->size; i++)
			in[i] = i;
		PMPI_Comm_group(MPI_COMM_WORLD, &wg);
		PMPI_Group_translate_ranks(g, k->size, in, wg, k->world);
		PMPI_Group_free(&wg);
	}
	PMPI_Group_free(&g);
	k->memb = k->world;
	k->nmemb = k->size;
	if (k->inter && !(k->memb = bothgroups(c, k->world, k->size,
	    &k->nmemb)))
		return comm_back(idx);
	/* Processes of another world (started by MPI_Comm_spawn) have no
	 * rank in this one: their peers are -1, the record leaves them
	 * out, and the trace says it lacks them. */
	for (i = 0; k->memb && i < k->nmemb && k->memb[i] != MPI_UNDEFINED;
	    i++)
		;
	if (k->memb && i < k->nmemb) {
		int *m = malloc((size_t)k->nmemb * sizeof *m), n = 0;

		if (!m)
			return comm_back(idx);
		for (i = 0; i < k->nmemb; i++)
			if (k->memb[i] != MPI_UNDEFINED)
				m[n++] = k->memb[i];
		if (k->memb != k->world)
			free(k->memb);
		k->memb = m;
		k->nmemb = n;
		rec_unrecorded(UNREC_SPAWN);
	}
	if (hput(&ctab, (uintptr_t)c, idx) < 0)
		return comm_back(idx);
	return idx;
}

static void members(struct comm *k);

static void
commrec(long idx)
{
	struct rrec *r;

	if (!rec.on || idx < 0)
		return;
	if (!comm_at(idx)->members)
		members(comm_at(idx));
	r = rec_slot();
	memset(r, 0, sizeof *r);
	r->kind = RK_COMM;
	r->req = idx;
	rec_commit();
}

void
rec_tab_init(void)
{
	rec_text_tables(rec_comm_members, rec_comm_grid);
	addcomm(MPI_COMM_WORLD, 0);
	commrec(addcomm(MPI_COMM_SELF, 1));
}

int
rec_comm_id(MPI_Comm c)
{
	struct slot *s;
	long idx;

	if (c == MPI_COMM_WORLD)
		return 0;
	if (c == MPI_COMM_NULL)
		return -1;
	if ((s = hfind(&ctab, (uintptr_t)c)))
		return comm_at(s->v)->id;
	/* Made by a call not wrapped (MPI_Comm_connect, a library's own
	 * PMPI calls, ...): numbered at first use. */
	idx = addcomm(c, nextid++);
	commrec(idx);
	if (idx >= 0)
		topology(c);
	return idx < 0 ? -1 : comm_at(idx)->id;
}

int
rec_comm_new(MPI_Comm c)
{
	long idx;
	int id = nextid++;

	/* Every member calls the creating function, so counting calls keeps
	 * the ids of a communicator equal on all its members. */
	if (c == MPI_COMM_NULL)
		return -1;
	idx = addcomm(c, id);
	commrec(idx);
	if (idx >= 0)
		topology(c);
	return id;
}

void
rec_comm_free(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);
	long idx;

	if (!s || c == MPI_COMM_WORLD || c == MPI_COMM_SELF)
		return;
	idx = s->v;
	s->v = -2;
	comm_at(idx)->freed = 1;
	if (!comm_at(idx)->refs)
		let_go(idx);
	reclaim();
}

void
comm_unref(long idx)
{
	struct comm *k;

	if (idx >= 0 && !--(k = comm_at(idx))->refs && k->freed)
		let_go(idx);
}

void
rec_comm_cart(MPI_Comm c, int nd, const int *dims, const int *periods)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);
	struct comm *k;
	struct rrec *r;
	size_t cap, n = 0;
	char *g, *old;
	int i, j;

	if (!rec.on || !s || s->v < 0 || nd <= 0)
		return;
	k = comm_at(s->v);
	cap = 24 * (size_t)nd + 2;
	if (!(g = malloc(cap)))
		return;
	for (j = 0; j < 2; j++)
		for (i = 0; i < nd; i++)
			n += (size_t)snprintf(g + n, cap - n, "%s%d",
			    i ? "," : j ? "\t" : "", j ? periods[i] != 0 :
			    dims[i]);
	/* whole before a flush can see it */
	old = k->grid;
	k->grid = g;
	free(old);
	r = rec_slot();
	memset(r, 0, sizeof *r);
	r->kind = RK_CART;
	r->req = s->v;
	rec_commit();
}

int
rec_comm_inter(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);

	return s && s->v >= 0 && comm_at(s->v)->inter;
}

int
rec_comm_gridded(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);

	return s && s->v >= 0 && comm_at(s->v)->grid != NULL;
}

const char *
rec_comm_grid(int idx, int *id)
{
	const struct comm *k = comm_at(idx);

	*id = k->id;
	return k->grid ? k->grid : "0\t0";
}

int
rec_world(MPI_Comm c, int r)
{
	struct slot *s;

	if (r < 0)
		return -1;
	if (c == MPI_COMM_WORLD)
		return r;
	if (!(s = hfind(&ctab, (uintptr_t)c))) {
		if (rec_comm_id(c) < 0 || !(s = hfind(&ctab, (uintptr_t)c)))
			return -1;
	}
	return world_of(comm_at(s->v), r);
}

/* "0-3", "0-14:2", "5,9,12": ranges and strided ranges keep big
 * communicators short. */
static void
members(struct comm *k)
{
	size_t cap, n = 0;
	char *m;
	int i, j;

	cap = 16 + 24 * (size_t)k->nmemb;
	k->members = malloc(cap);
	if (!k->members)
		return;
	k->members[0] = '\0';
	for (i = 0; i < k->nmemb; i = j) {
		int a = k->memb ? k->memb[i] : i, b, s = 0;

		j = i + 1;
		if (j < k->nmemb) {
			s = (k->memb ? k->memb[j] : j) - a;
			if (s > 0)
				while (j < k->nmemb &&
				    (k->memb ? k->memb[j] : j) ==
				    a + s * (j - i))
					j++;
		}
		if (j - i < 3 && !(s == 1 && j - i == 2))
			j = i + 1;
		b = k->memb ? k->memb[j - 1] : j - 1;
		if (n)
			k->members[n++] = ',';
		if (j - i == 1)
			n += snprintf(k->members + n, cap - n, "%d", a);
		else if (s == 1)
			n += snprintf(k->members + n, cap - n, "%d-%d", a, b);
		else
			n += snprintf(k->members + n, cap - n, "%d-%d:%d", a,
			    b, s);
	}
	if (k->nmemb == 0)
		n = (size_t)snprintf(k->members, cap, "-");
	/* its room was for the longest text: a communicator's entry
	 * outlives it until the buffer is emptied (let_go) */
	if ((m = realloc(k->members, n + 1)))
		k->members = m;
}

const char *
rec_comm_members(int idx, int *id, int *size)
{
	const struct comm *k = comm_at(idx);

	*id = k->id;
	*size = k->nmemb;
	return k->members ? k->members : "-";
}

