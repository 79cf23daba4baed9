/* fuzz.h - what the harnesses share: an input as a file the library
 * opens by name, and an error exit (status 3) that returns to the
 * harness instead of ending it. */
#ifndef FUZZ_H
#define FUZZ_H

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* An error exit jumps past what the library would free on its way out;
 * leaks are for the tools' own tests (make check V=asan). A harness
 * may define its own options first. */
#ifndef FUZZ_ASAN_OPTIONS
#define FUZZ_ASAN_OPTIONS "detect_leaks=0"
#endif
const char *
__asan_default_options(void)
{
	return FUZZ_ASAN_OPTIONS;
}

static jmp_buf fuzz_jmp;

static void
fuzz_atdie(void)
{
	longjmp(fuzz_jmp, 1);
}

static char fuzz_path[4][256];

/* Where a harness writes: /dev/shm when it can, which is memory. */
static inline const char *
fuzz_dir(void)
{
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* Removes PATH, a file or a folder of files and folders (DEPTH levels
 * more at most). */
static void
fuzz_rm(const char *path, int depth)
{
	char p[512];
	struct dirent *e;
	DIR *d;

	if (unlink(path) == 0 || errno != EISDIR || depth < 0 ||
	    !(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    snprintf(p, sizeof p, "%s/%s", path, e->d_name) <
		    (int)sizeof p)
			fuzz_rm(p, depth - 1);
	closedir(d);
	rmdir(path);
}

/* What harnesses that are gone left: a harness removes its files after
 * each input, but one killed in an input (afl-fuzz ends its last run
 * with SIGKILL; a crash, a timeout or an out-of-memory end libFuzzer by
 * _Exit) cannot. Its names, trfuzz.PID.*, say whose they are; those of
 * a process still there are left alone. Once per process. */
static inline void
fuzz_sweep(void)
{
	static int swept;
	char p[512];
	struct dirent *e;
	DIR *d;
	long pid;

	if (swept++ || !(d = opendir(fuzz_dir())))
		return;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "trfuzz.%ld.", &pid) == 1 && pid > 0 &&
		    pid != (long)getpid() && kill((pid_t)pid, 0) < 0 &&
		    errno == ESRCH && snprintf(p, sizeof p, "%s/%s",
		    fuzz_dir(), e->d_name) < (int)sizeof p)
			fuzz_rm(p, 2);
	closedir(d);
}

static void
fuzz_unlink(void)
{
	int i;

	for (i = 0; i < 4; i++)
		if (*fuzz_path[i])
			unlink(fuzz_path[i]);
}

/* After each input: the readers an error left open are closed, or a
 * run of errors adds up to an out-of-memory and runs out of files; the
 * input's files are removed, as a run that libFuzzer ends at its time
 * limit runs no atexit handler. */
static inline void
fuzz_end(void)
{
	tr_atdie = NULL;
	tr_close_all();
	fuzz_unlink();
}

/* Writes N bytes of D to a file of the harness (under /dev/shm when it
 * exists) named with SUFFIX, and returns its path: one of four names,
 * written again and again, and removed after the input (fuzz_end). */
static inline const char *
fuzz_file(const char *suffix, const void *d, size_t n)
{
	static int k;
	char *p = fuzz_path[k & 3];
	FILE *f;

	if (k == 0) {
		fuzz_sweep();
		atexit(fuzz_unlink);
	}
	snprintf(p, 256, "%s/trfuzz.%ld.%d%s", fuzz_dir(), (long)getpid(),
	    k++ & 3, suffix);
	if (!(f = fopen(p, "wb")) || fwrite(d, 1, n, f) != n || fclose(f))
		abort();
	return p;
}

/* Arms the error exit; a macro, as setjmp must be called in the frame
 * that the longjmp returns to. Stderr goes away: errors are expected. */
#define FUZZ_TRY() (tr_atdie = fuzz_atdie, setjmp(fuzz_jmp) == 0)

#endif
