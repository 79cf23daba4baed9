/* site.c - call sites: a wrapper's return address as MODULE+0xOFFSET,
 * each address named once. */
#include <stdlib.h>
#include <string.h>

#include "site.h"

static struct {
	struct site { uintptr_t a; char *s; } *sites;
	size_t nsite, sitecap;
} T;

/* "0x" and V in hex at P; the end. */
static char *
fmt_hex(char *p, uintptr_t v)
{
	char d[2 * sizeof v];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do
		d[n++] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

static size_t
site_hash(uintptr_t a, size_t cap)
{
	return (a * 0x9e3779b97f4a7c15u >> 20) & (cap - 1);
}

/* MODULE+0xOFFSET, where OFFSET is the address in the module's own ELF
 * numbering (link-time), which is what addr2line expects for PIE
 * programs, shared libraries and fixed-address programs alike. Sites
 * seen are kept, except in a handler, which finds them again in
 * the modules' list. The string lasts until the next call. */
const char *
rec_site(uintptr_t a)
{
	static char buf[4200];
	size_t i, j;
	uintptr_t bias = 0;
	long k;
	struct rec_mod *mods;
	size_t nmod;
	char *p;

	if (T.sitecap)
		for (i = site_hash(a, T.sitecap); T.sites[i].s;
		    i = (i + 1) & (T.sitecap - 1))
			if (T.sites[i].a == a)
				return T.sites[i].s;
	k = rec_mod_of(a, &bias);
	if (k < 0) {
		memcpy(buf, "?+", 2);
		p = fmt_hex(buf + 2, a);
	} else {
		size_t n;

		mods = rec_mods(&nmod);
		n = strlen(mods[k].name);

		if (n > sizeof buf - 24)
			n = sizeof buf - 24;
		memcpy(buf, mods[k].name, n);
		buf[n] = '+';
		p = fmt_hex(buf + n + 1, a - bias);
	}
	*p = '\0';
	/* Fields never hold TAB or space-less junk: module names could. */
	for (p = buf; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = '_';
	if (rec_insig)
		return buf;
	if (T.sitecap == 0 || 2 * (T.nsite + 1) > T.sitecap) {
		size_t ncap = T.sitecap ? 2 * T.sitecap : 256;
		struct site *n = calloc(ncap, sizeof *n);

		if (!n)
			return buf;
		for (i = 0; i < T.sitecap; i++)
			if (T.sites[i].s) {
				for (j = site_hash(T.sites[i].a, ncap); n[j].s;
				    j = (j + 1) & (ncap - 1))
					;
				n[j] = T.sites[i];
			}
		free(T.sites);
		T.sites = n;
		T.sitecap = ncap;
	}
	for (i = site_hash(a, T.sitecap); T.sites[i].s;
	    i = (i + 1) & (T.sitecap - 1))
		;
	if ((T.sites[i].s = strdup(buf))) {
		T.sites[i].a = a;
		T.nsite++;
	}
	return buf;
}
