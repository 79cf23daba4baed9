/* site/site.h - call sites, and the modules they are in. */
#ifndef REC_SITE_H
#define REC_SITE_H

#include "../core/core.h"

/* ---- mod.c: the modules loaded ---- */

struct rec_mod {
	char *name, *path;
	int written;	/* its #meta module line is out */
};
/* The program's module name, alike for one path on every rank
 * (collective on C); before rec_mod_list. */
void rec_mod_exe(MPI_Comm c);
/* The list of the modules loaded, made again (outside handlers only),
 * and again only if the loader loaded or unloaded one since. */
void rec_mod_list(void);
void rec_mod_fresh(void);
long rec_mod_of(uintptr_t a, uintptr_t *bias);
/* The modules of the sites seen so far, *N of them. */
struct rec_mod *rec_mods(size_t *n);

/* ---- site.c: call sites ---- */

/* MODULE+0xOFFSET of address A; the string lasts until the next call. */
const char *rec_site(uintptr_t a);

#endif
