/* mod.c - the modules loaded (the program, its libraries, plugins), as
 * the call sites name them: one name per file, alike on every rank. */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"
#include "site.h"

static struct {
	/* the modules of the sites seen */
	struct rec_mod *mods;
	size_t nmod, modcap;
	/* The modules loaded, as dl_iterate_phdr lists them: where each is
	 * mapped, its load bias, its real path, and room for its module
	 * name, made when one of its sites is first seen (mod, -1 before).
	 * Listed outside handlers (at setup, and at a flush that finds the
	 * loader's counts changed), so that a flush in a handler names its
	 * sites without dladdr (which takes the loader's lock) or malloc;
	 * M.mods has room for all of them. */
	struct lmod {
		uintptr_t lo, hi, bias;
		char *raw, *path, *name;
		const char *base;
		long mod;
	} *lmods;
	size_t nlmod;
	unsigned long long dladds, dlsubs;
	char *exename, *exepath;	/* the program's NAME~K (rec_mod_exe) */
} M;


static void
exe_path(char *path, size_t size)
{
	ssize_t k = readlink("/proc/self/exe", path, size - 1);

	path[k > 0 ? k : 0] = '\0';
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Whether every rank has OK, so that all go on to the next collective
 * or none does. */
static int
all_ok(int ok, MPI_Comm c)
{
	return PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, c) ==
	    MPI_SUCCESS && ok;
}

/* The program's module name, alike for one path on every rank: in an
 * MPMD run of two programs of one file name (two builds of app), each
 * rank's module.app would be another path, whose second value starts a
 * new section of the merged trace, and its sites would mean two things.
 * Among the ranks' paths of this name, in rank order, the first keeps
 * it and the next ones are NAME~2, NAME~3 (M.exename, for rec_site). Two
 * libraries of one name on two ranks still share it (tr-record(1)). */
void
rec_mod_exe(MPI_Comm c)
{
	char path[4096], *all = NULL;
	const char *b;
	int len, i, j, k = 0, *lens = malloc(rec.np * sizeof *lens),
	    *offs = malloc(rec.np * sizeof *offs);

	exe_path(path, sizeof path);
	rec_clean(path);
	b = base_name(path);
	len = strlen(path) + 1;
	if (!all_ok(lens && offs, c) || PMPI_Allgather(&len, 1, MPI_INT, lens,
	    1, MPI_INT, c) != MPI_SUCCESS)
		goto out;
	for (i = 0, j = 0; i < rec.np; j += lens[i++])
		offs[i] = j;
	all = malloc(j);
	if (!all_ok(all != NULL, c) || PMPI_Allgatherv(path, len, MPI_CHAR,
	    all, lens, offs, MPI_CHAR, c) != MPI_SUCCESS)
		goto out;
	for (i = 0; i < rec.np; i++) {
		const char *p = all + offs[i];

		if (strcmp(base_name(p), b) != 0)
			continue;
		for (j = 0; j < i && strcmp(all + offs[j], p) != 0; j++)
			;
		if (j == i)
			k++;
		if (strcmp(p, path) == 0)
			break;
	}
	if (k > 1 && (M.exename = malloc(strlen(b) + 16))) {
		snprintf(M.exename, strlen(b) + 16, "%s~%d", b, k);
		M.exepath = strdup(path);
	}
out:
	free(all);
	free(lens);
	free(offs);
}

/* The loaded modules' list (M.lmods) made again: outside handlers
 * only. Modules already listed keep their entries. */
struct scan {
	struct lmod *v;
	size_t n, cap;
	unsigned long long adds, subs;
};

static int
scan_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *sc = arg;
	struct lmod *m;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	int i;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) +
	    sizeof info->dlpi_subs) {
		sc->adds = info->dlpi_adds;
		sc->subs = info->dlpi_subs;
	}
	if (!sc->v && sc->cap)	/* counting only */
		return 1;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (hi <= lo || rec_room(&sc->v, &sc->cap, sc->n, sizeof *sc->v) < 0)
		return 0;
	m = &sc->v[sc->n];
	memset(m, 0, sizeof *m);
	m->lo = lo;
	m->hi = hi;
	m->bias = info->dlpi_addr;
	m->mod = -1;
	if ((m->raw = strdup(info->dlpi_name ? info->dlpi_name : "")))
		sc->n++;
	return 0;
}

void
rec_mod_list(void)
{
	struct scan sc = { 0 };
	char path[4096];
	size_t i, j;

	dl_iterate_phdr(scan_module, &sc);
	for (i = 0; i < sc.n; i++) {
		struct lmod *m = &sc.v[i];

		for (j = 0; j < M.nlmod; j++) {
			struct lmod *o = &M.lmods[j];

			if (o->raw && o->lo == m->lo && o->hi == m->hi &&
			    o->bias == m->bias && strcmp(o->raw, m->raw) == 0) {
				free(m->raw);
				*m = *o;
				o->raw = NULL;
				break;
			}
		}
		if (j < M.nlmod)
			continue;
		if (!m->raw[0])
			exe_path(path, sizeof path);
		else if (!realpath(m->raw, path))
			snprintf(path, sizeof path, "%s", m->raw);
		rec_clean(path);
		m->path = strdup(path);
		if (!m->path)
			continue;
		m->base = M.exepath && strcmp(m->path, M.exepath) == 0 ?
		    M.exename : base_name(m->path);
		if (!*m->base)
			m->base = "?";
		m->name = malloc(strlen(m->base) + 24);
	}
	/* the modules of sites kept their strings: M.mods points at them */
	for (j = 0; j < M.nlmod; j++)
		if (M.lmods[j].raw) {
			free(M.lmods[j].raw);
			if (M.lmods[j].mod < 0) {
				free(M.lmods[j].path);
				free(M.lmods[j].name);
			}
		}
	free(M.lmods);
	M.lmods = sc.v;
	M.nlmod = sc.n;
	M.dladds = sc.adds;
	M.dlsubs = sc.subs;
	if (M.modcap < M.nmod + M.nlmod) {
		struct rec_mod *n = realloc(M.mods, (M.nmod + M.nlmod) *
		    sizeof *n);

		if (n) {
			M.mods = n;
			M.modcap = M.nmod + M.nlmod;
		}
	}
}

/* The list again if the loader loaded or unloaded a module since. */
void
rec_mod_fresh(void)
{
	struct scan sc = { .cap = 1 };

	dl_iterate_phdr(scan_module, &sc);
	if (sc.adds != M.dladds || sc.subs != M.dlsubs || !sc.adds)
		rec_mod_list();
}

/* M's index in M.mods, named now if new: its file name, with spaces
 * and '=' made '_' (a #meta key has neither: a program "my app" made
 * every file unreadable), and NAME~2 for a second module of one name
 * (plugins of one file name in two directories; two values of one key
 * would start a new section). Async-signal-safe: the room is M's. */
static long
mod_index(struct lmod *m)
{
	size_t i, k, len;

	if (m->mod >= 0)
		return m->mod;
	if (!m->path || !m->name)
		return -1;
	for (i = 0; i < M.nmod; i++)
		if (strcmp(M.mods[i].path, m->path) == 0)
			return m->mod = i;
	if (M.nmod >= M.modcap)
		return -1;
	for (k = 0; m->base[k]; k++)
		m->name[k] = m->base[k] == ' ' || m->base[k] == '=' ? '_' :
		    m->base[k];
	m->name[k] = '\0';
	len = k;
	for (k = 2;; k++) {
		for (i = 0; i < M.nmod; i++)
			if (strcmp(M.mods[i].name, m->name) == 0)
				break;
		if (i == M.nmod)
			break;
		m->name[len] = '~';
		*tr_fmt_i64(m->name + len + 1, k) = '\0';
	}
	M.mods[M.nmod].name = m->name;
	M.mods[M.nmod].path = m->path;
	M.mods[M.nmod].written = 0;
	return m->mod = M.nmod++;
}


/* The index in the modules' list of the one that maps A, named now if
 * new, with its load bias in *BIAS; -1 if none. Async-signal-safe. */
long
rec_mod_of(uintptr_t a, uintptr_t *bias)
{
	size_t i;

	for (i = 0; a && i < M.nlmod; i++)
		if (a >= M.lmods[i].lo && a < M.lmods[i].hi) {
			*bias = M.lmods[i].bias;
			return mod_index(&M.lmods[i]);
		}
	return -1;
}

struct rec_mod *
rec_mods(size_t *n)
{
	*n = M.nmod;
	return M.mods;
}
