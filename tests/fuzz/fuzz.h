/* fuzz.h - what the harnesses share: an input as a file the library
 * opens by name, and an error exit (status 3) that returns to the
 * harness instead of ending it. */
#ifndef FUZZ_H
#define FUZZ_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* An error exit jumps past what the library would free on its way out;
 * leaks are for the tools' own tests (make check V=asan). */
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

static jmp_buf fuzz_jmp;
/* The reader open when an error jumped out, closed by the harness:
 * a run of errors would otherwise add up to an out-of-memory. */
static struct tr_in *volatile fuzz_in;

static void
fuzz_atdie(void)
{
	longjmp(fuzz_jmp, 1);
}

/* Writes N bytes of D to a file of the harness (under /dev/shm when it
 * exists) named with SUFFIX, and returns its path. */
static inline const char *
fuzz_file(const char *suffix, const void *d, size_t n)
{
	static char path[4][256];
	static int k;
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	char *p = path[k++ & 3];
	FILE *f;

	snprintf(p, 256, "%s/trfuzz.%ld.%d%s", dir, (long)getpid(), k, suffix);
	if (!(f = fopen(p, "wb")) || fwrite(d, 1, n, f) != n || fclose(f))
		abort();
	return p;
}

/* Arms the error exit; a macro, as setjmp must be called in the frame
 * that the longjmp returns to. Stderr goes away: errors are expected. */
#define FUZZ_TRY() (tr_atdie = fuzz_atdie, setjmp(fuzz_jmp) == 0)

#endif
