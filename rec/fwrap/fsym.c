/* fsym.c - the MPI library's own Fortran functions, which the wrappers
 * call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "fwrap.h"

void *
rec_fsym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "tr-record: %s: no such Fortran MPI function "
		    "in the MPI library\n", name);
		abort();
	}
	return p;
}
