/* fsite.c - the call sites of the mpi_f08 module's procedures. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <link.h>
#include <string.h>

#include "fwrap.h"

/* The mpi_f08 module's procedures call ompi_send_f and the like, so the
 * return address of a wrapper is in that library, the same for every
 * call. The call site is then the first frame outside it, found by
 * unwinding: some microseconds, only for f08 calls. */
static uintptr_t f08lo, f08hi;

static int
findf08(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "usempif08"))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		f08lo = lo;
		f08hi = lo + ph->p_memsz;
		return 1;
	}
	return 0;
}

void *
rec_fsite(void *ra)
{
	static int looked;
	void *fr[16];
	int n, i, in = 0;

	if (!looked) {
		dl_iterate_phdr(findf08, NULL);
		looked = 1;
	}
	if ((uintptr_t)ra < f08lo || (uintptr_t)ra >= f08hi)
		return ra;
	n = backtrace(fr, 16);
	for (i = 0; i < n; i++) {
		int here = (uintptr_t)fr[i] >= f08lo && (uintptr_t)fr[i] < f08hi;

		if (in && !here)
			return fr[i];
		in |= here;
	}
	return ra;
}
