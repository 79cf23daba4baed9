/* fdtab.c - the descriptor tables of processes: what each descriptor is
 * open on, and whether execve closes it. */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

/* Its descriptors are keyed by its id, never a pid, so that a pid the
 * kernel hands out again starts with no descriptors of the old one. */
struct tr_fdtab {
	int64_t id;
	long users;
	int64_t *fdno;		/* the numbers it has had */
	size_t nfdno, capfdno;
};

struct fd {
	char *path;
	int cloexec;
};

struct tr_fdtab *
tr_fdtab_new(struct tr_fdtabs *s)
{
	struct tr_fdtab *tb = tr_calloc(1, sizeof *tb);

	tb->id = ++s->ntab;
	tb->users = 1;
	return tb;
}

void
tr_fdtab_share(struct tr_fdtab *tb)
{
	tb->users++;
}

void
tr_fdtab_release(struct tr_fdtabs *s, struct tr_fdtab *tb)
{
	size_t j;

	if (!tb || --tb->users > 0)
		return;
	for (j = 0; j < tb->nfdno; j++) {
		void **v = tr_itab_get(&s->fds, tb->id, tb->fdno[j], 0);

		if (v) {
			free(((struct fd *)*v)->path);
			free(*v);
			tr_itab_del(&s->fds, tb->id, tb->fdno[j]);
		}
	}
	free(tb->fdno);
	free(tb);
}

/* The descriptor FD of table TB; NULL if it has none and !add. */
static struct fd *
fdget(struct tr_fdtabs *s, struct tr_fdtab *tb, int64_t fd, int add)
{
	void **v = tr_itab_get(&s->fds, tb->id, fd, add);

	if (v && !*v) {
		*v = tr_calloc(1, sizeof(struct fd));
		tr_grow(&tb->fdno, &tb->capfdno, tb->nfdno + 1,
		    sizeof *tb->fdno);
		tb->fdno[tb->nfdno++] = fd;
	}
	return v ? *v : NULL;
}

/* P may be the descriptor's own path (dup2(3, 3)): copied first. */
void
tr_fdtab_set(struct tr_fdtabs *s, struct tr_fdtab *tb, int64_t fd,
    const char *p, size_t n, int cloexec)
{
	char *q = p ? tr_strndup(p, n) : NULL;
	struct fd *d = fdget(s, tb, fd, 1);

	free(d->path);
	d->path = q;
	d->cloexec = q && cloexec;
}

const char *
tr_fdtab_path(struct tr_fdtabs *s, struct tr_fdtab *tb, int64_t fd)
{
	struct fd *d = fdget(s, tb, fd, 0);

	return d ? d->path : NULL;
}

/* A closed one copied is one TO has closed, not one to inherit. */
void
tr_fdtab_copy(struct tr_fdtabs *s, struct tr_fdtab *from,
    struct tr_fdtab *to, int how)
{
	size_t j;

	/* FROM's list grows only with its own new descriptors, which
	 * setting TO's does not add. */
	for (j = 0; j < from->nfdno; j++) {
		int64_t fd = from->fdno[j];
		struct fd *d = fdget(s, from, fd, 0);

		if (!d || (!d->path && how == TR_FDCOPY_OPEN))
			continue;
		if (fdget(s, to, fd, 0))
			continue;
		if (!d->path || (how == TR_FDCOPY_EXEC && d->cloexec))
			tr_fdtab_set(s, to, fd, NULL, 0, 0);
		else
			tr_fdtab_set(s, to, fd, d->path, strlen(d->path),
			    d->cloexec);
	}
}

void
tr_fdtab_close_range(struct tr_fdtabs *s, struct tr_fdtab *tb, int64_t lo,
    int64_t hi, int mark)
{
	size_t j;

	for (j = 0; j < tb->nfdno; j++) {
		int64_t fd = tb->fdno[j];
		struct fd *d = fdget(s, tb, fd, 0);

		if (!d || !d->path || fd < lo || fd > hi)
			continue;
		if (mark)
			d->cloexec = 1;
		else {
			free(d->path);
			d->path = NULL;
			d->cloexec = 0;
		}
	}
}

void
tr_fdtabs_free(struct tr_fdtabs *s)
{
	tr_itab_free(&s->fds);
}
