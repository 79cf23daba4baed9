/* otf2def.c - an OTF2 archive's definitions: strings, regions,
 * locations and their ranks, groups and communicators, the clock. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "otf2-int.h"

/* ---- messages ---- */

OTF2_ErrorCode
otf2_on_error(void *ud, const char *file, uint64_t line, const char *func,
    OTF2_ErrorCode code, const char *fmt, va_list ap)
{
	char *msg = ud;

	(void)file, (void)line, (void)func;
	if (fmt)
		vsnprintf(msg, OTF2_MSGLEN, fmt, ap);
	else
		snprintf(msg, OTF2_MSGLEN, "%s", OTF2_Error_GetDescription(code));
	return code;
}

void
otf2_fail(int status, const char *name, const char *msg, OTF2_ErrorCode rc,
    const char *what)
{
	if (rc == OTF2_SUCCESS)
		return;
	tr_die(status, "%s: %s: %s", name, what, msg[0] ? msg :
	    OTF2_Error_GetDescription(rc));
}

void
otf2_check(struct otf2in *x, OTF2_ErrorCode rc, const char *what)
{
	otf2_fail(TR_EXIT_DATA, x->anchor, x->errmsg, rc, what);
}

_Noreturn void
otf2_bad_event(struct otf2in *x, uint64_t loc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	void **v = tr_itab_get(&x->locix, (int64_t)loc + 1, 0, 0);
	size_t i = v ? (size_t)(intptr_t)*v - 1 : 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (v && x->rankof[i] >= 0)
		tr_die(TR_EXIT_DATA, "%s: location %llu (rank %lld), event "
		    "%llu: %s", x->anchor, (unsigned long long)loc,
		    (long long)x->rankof[i],
		    (unsigned long long)x->rk[x->rankof[i]].nev, msg);
	tr_die(TR_EXIT_DATA, "%s: location %llu: %s", x->anchor,
	    (unsigned long long)loc, msg);
}

/* An event kind tr has no record for: counted, said at the end. */
void
otf2_skip(struct otf2in *x, const char *kind)
{
	int i;

	for (i = 0; i < x->nskip; i++)
		if (x->skipname[i] == kind)
			break;
	if (i == x->nskip) {
		if (x->nskip == 64)
			return;
		x->skipname[x->nskip++] = kind;
	}
	x->skipped[i]++;
}

/* ---- definitions ---- */

void *
otf2_def_find(void *e, struct tr_itab *ix, size_t sz, uint64_t id)
{
	void **v = tr_itab_get(ix, (int64_t)id, 0, 0);

	return v ? (char *)e + ((size_t)(intptr_t)*v - 1) * sz : NULL;
}

void *
otf2_def_add(void *pe, size_t *n, size_t *cap, struct tr_itab *ix, size_t sz,
    uint64_t id)
{
	void **v = tr_itab_get(ix, (int64_t)id, 0, 1);

	if (!*v) {
		tr_growz(pe, cap, *n + 1, sz);
		*v = (void *)(intptr_t)++*n;
	}
	return *(char **)pe + ((size_t)(intptr_t)*v - 1) * sz;
}

const char *
otf2_string(struct otf2in *x, OTF2_StringRef s)
{
	char **p = DEF_FIND(x->str, s);

	return p ? *p : NULL;
}

/* Region and file names as fields: no TAB or LF. */
static char *
field_dup(const char *s)
{
	char *d = tr_strdup(s && *s ? s : "-"), *p;

	for (p = d; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return d;
}

static OTF2_CallbackCode
def_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
	struct otf2in *x = ud;

	(void)len, (void)rt;
	x->tps = res;
	x->offset = off;
	x->clock = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_string(void *ud, OTF2_StringRef self, const char *s)
{
	struct otf2in *x = ud;
	char **p = DEF_ADD(x->str, self);

	free(*p);
	*p = tr_strdup(s);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_node(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
    OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
	struct otf2in *x = ud;

	(void)cls, (void)parent;
	*(uint32_t *)DEF_ADD(x->node, self) = name;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_lgroup(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef node,
    OTF2_LocationGroupRef creator)
{
	struct otf2in *x = ud;

	(void)name, (void)type, (void)creator;
	((struct lgroup *)DEF_ADD(x->lg, self))->node = node;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
    OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef group)
{
	struct otf2in *x = ud;
	size_t cap = x->nloc;

	(void)name, (void)nev;
	if (tr_itab_get(&x->locix, (int64_t)self + 1, 0, 0))
		tr_die(TR_EXIT_DATA, "%s: location %llu defined twice",
		    x->anchor, (unsigned long long)self);
	tr_grow(&x->loc, &cap, x->nloc + 1, sizeof *x->loc);
	x->loc[x->nloc].id = self;
	x->loc[x->nloc].group = group;
	x->loc[x->nloc].type = type;
	x->nloc++;
	*tr_itab_get(&x->locix, (int64_t)self + 1, 0, 1) =
	    (void *)(intptr_t)x->nloc;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
    OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
    OTF2_Paradigm paradigm, OTF2_RegionFlag flags, OTF2_StringRef file,
    uint32_t line, uint32_t end)
{
	struct otf2in *x = ud;
	struct region *r;
	const char *nm = otf2_string(x, name), *f = otf2_string(x, file);

	(void)canon, (void)desc, (void)role, (void)flags, (void)end;
	if (!nm)
		tr_die(TR_EXIT_DATA, "%s: region %u: its name is no string "
		    "defined before it", x->anchor, self);
	r = DEF_ADD(x->reg, self);
	free(r->name);
	free(r->site);
	r->name = field_dup(nm);
	r->mpi = paradigm == OTF2_PARADIGM_MPI || strncmp(nm, "MPI_", 4) == 0;
	if (f && *f && line) {
		char *fd = field_dup(f);

		r->site = tr_malloc(strlen(r->name) + strlen(fd) + 16);
		sprintf(r->site, "%s@%s:%u", r->name, fd, line);
		free(fd);
	} else {
		r->site = tr_strdup(r->name);
	}
	return OTF2_CALLBACK_SUCCESS;
}

/* An error in a callback whose record libotf2 holds memory for (a
 * group's members), said once the reading has returned: an exit from
 * inside would lose that memory for a caller the exit returns to. */
static OTF2_CallbackCode
defer(struct otf2in *x, int status, const char *fmt, ...)
{
	va_list ap;

	x->defer = status;
	va_start(ap, fmt);
	vsnprintf(x->defermsg, sizeof x->defermsg, fmt, ap);
	va_end(ap);
	return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode
def_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
    OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
    uint32_t n, const uint64_t *m)
{
	struct otf2in *x = ud;
	struct group *g;
	uint64_t *c;

	(void)name, (void)flags;
	if (!(c = malloc((n ? n : 1) * sizeof *c)))
		return defer(x, TR_EXIT_SYS, "group %u of %u members: out of "
		    "memory", self, n);
	memcpy(c, m, n * sizeof *m);
	g = DEF_ADD(x->grp, self);
	free(g->m);
	g->type = type | (paradigm == OTF2_PARADIGM_MPI ? 0x100 : 0);
	g->n = n;
	g->m = c;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
    OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct otf2in *x = ud;
	struct group *g = DEF_FIND(x->grp, group);
	const char *nm = otf2_string(x, name);
	struct comm *c;

	(void)parent, (void)flags;
	if (!g)
		tr_die(TR_EXIT_DATA, "%s: communicator %u: group %u is not "
		    "defined before it", x->anchor, self, group);
	c = DEF_ADD(x->comm, self);
	c->ref = self;
	c->group = (size_t)(g - x->grp.e);
	c->mpi = (g->type & 0x100) != 0;
	c->self = (g->type & 0xff) == OTF2_GROUP_TYPE_COMM_SELF;
	c->world = nm && strcmp(nm, "MPI_COMM_WORLD") == 0;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_win(void *ud, OTF2_RmaWinRef self, OTF2_StringRef name,
    OTF2_CommRef comm, OTF2_RmaWinFlag flags)
{
	struct otf2in *x = ud;

	(void)name, (void)flags;
	if (!DEF_FIND(x->comm, comm))
		tr_die(TR_EXIT_DATA, "%s: window %u: communicator %u is not "
		    "defined before it", x->anchor, self, comm);
	*(uint32_t *)DEF_ADD(x->win, self) = comm;
	return OTF2_CALLBACK_SUCCESS;
}

void
otf2_read_defs(struct otf2in *x, OTF2_Reader *rd)
{
	OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *cb;
	OTF2_ErrorCode rc;
	uint64_t n;

	if (!gd)
		tr_die(TR_EXIT_DATA, "%s: no global definitions: %s",
		    x->anchor, x->errmsg);
	cb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_node);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lgroup);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
	OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_win);
	rc = OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, cb, x);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	otf2_check(x, rc, "definitions");
	rc = OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n);
	if (x->defer)
		tr_die(x->defer, "%s: %s", x->anchor, x->defermsg);
	otf2_check(x, rc, "reading definitions");
	if (!x->clock || x->tps == 0)
		tr_die(TR_EXIT_DATA, "%s: no clock properties (timer "
		    "resolution): times cannot be made nanoseconds", x->anchor);
	if (x->nloc == 0)
		tr_die(TR_EXIT_DATA, "%s: no locations defined", x->anchor);
}

/* World ranks: the order of the MPI group of locations; without one,
 * the first CPU thread of each process, in order of definition. */
void
otf2_map_ranks(struct otf2in *x)
{
	struct group *w = NULL;
	size_t i, j;

	x->rankof = tr_malloc(x->nloc * sizeof *x->rankof);
	for (i = 0; i < x->nloc; i++)
		x->rankof[i] = -1;
	for (i = 0; i < x->grp.n; i++)
		if ((x->grp.e[i].type & 0x1ff) ==
		    (0x100 | OTF2_GROUP_TYPE_COMM_LOCATIONS))
			w = &x->grp.e[i];
	if (w) {
		if (w->n == 0 || w->n > TR_MAXNP)
			tr_die(TR_EXIT_DATA, "%s: the MPI group of locations "
			    "has %u members", x->anchor, w->n);
		x->np = w->n;
		x->rloc = tr_malloc(w->n * sizeof *x->rloc);
		for (j = 0; j < w->n; j++) {
			void **v = tr_itab_get(&x->locix, (int64_t)w->m[j] + 1,
			    0, 0);

			if (!v)
				tr_die(TR_EXIT_DATA, "%s: rank %zu is location "
				    "%llu, which is not defined", x->anchor, j,
				    (unsigned long long)w->m[j]);
			x->rankof[(intptr_t)*v - 1] = (int64_t)j;
			x->rloc[j] = w->m[j];
		}
	} else {
		size_t cap = 0;

		for (i = 0; i < x->nloc; i++) {
			struct lgroup *g = DEF_FIND(x->lg, x->loc[i].group);

			if (x->loc[i].type != OTF2_LOCATION_TYPE_CPU_THREAD ||
			    !g || g->taken)
				continue;
			g->taken = 1;
			tr_grow(&x->rloc, &cap, (size_t)x->np + 1,
			    sizeof *x->rloc);
			x->rloc[x->np] = x->loc[i].id;
			x->rankof[i] = x->np++;
		}
		if (x->np == 0)
			tr_die(TR_EXIT_DATA, "%s: no CPU thread locations",
			    x->anchor);
	}
	x->rk = tr_calloc((size_t)x->np, sizeof *x->rk);
	for (j = 0; j < (size_t)x->np; j++)
		x->rk[j].call = UINT32_MAX;
}

/* Each rank numbers its communicators as tr-record does: 0 the world,
 * 1 itself, then the others it belongs to, here in order of definition
 * (the same order on all members). */
void
otf2_map_comms(struct otf2in *x)
{
	int32_t *next = tr_malloc((size_t)x->np * sizeof *next);
	size_t c, j;
	int named = 0;

	for (j = 0; j < (size_t)x->np; j++)
		next[j] = 2;
	for (c = 0; c < x->comm.n; c++)
		named |= x->comm.e[c].world;
	for (c = 0; c < x->comm.n; c++) {
		struct comm *cm = &x->comm.e[c];
		struct group *g;

		if (!cm->mpi)
			continue;
		g = &x->grp.e[cm->group];
		if (cm->self)
			continue;
		/* without a name, the world is the one of every rank in order;
		 * with one, that is a duplicate of it */
		if (!named && !cm->world && g->n == (uint32_t)x->np) {
			for (j = 0; j < g->n && g->m[j] == j; j++)
				;
			cm->world = j == g->n;
		}
		cm->id = tr_malloc((g->n ? g->n : 1) * sizeof *cm->id);
		for (j = 0; j < g->n; j++) {
			if (g->m[j] >= (uint64_t)x->np) {
				free(next);	/* not the error exit's */
				tr_die(TR_EXIT_DATA, "%s: communicator %u: "
				    "member %llu is no rank", x->anchor,
				    cm->ref, (unsigned long long)g->m[j]);
			}
			cm->id[j] = cm->world ? 0 : next[g->m[j]]++;
			*tr_itab_get(&cm->pos, (int64_t)g->m[j] + 1, 0, 1) =
			    (void *)(intptr_t)(j + 1);
		}
	}
	free(next);
}

void
otf2_free_defs(struct otf2in *x)
{
	size_t i;

	for (i = 0; i < x->str.n; i++)
		free(x->str.e[i]);
	for (i = 0; i < x->reg.n; i++) {
		free(x->reg.e[i].name);
		free(x->reg.e[i].site);
	}
	for (i = 0; i < x->grp.n; i++)
		free(x->grp.e[i].m);
	for (i = 0; i < x->comm.n; i++) {
		free(x->comm.e[i].id);
		tr_itab_free(&x->comm.e[i].pos);
	}
	tr_itab_free(&x->locix);
	tr_itab_free(&x->winno);
	free(x->nwins);
	DEFS_FREE(x->str);
	DEFS_FREE(x->reg);
	DEFS_FREE(x->grp);
	DEFS_FREE(x->comm);
	DEFS_FREE(x->win);
	DEFS_FREE(x->lg);
	DEFS_FREE(x->node);
	free(x->loc);
	free(x->rankof);
	free(x->rloc);
}
