/* fuzz-runs.c - the run store's index, as tr-runs list reads it. */
#include <sys/stat.h>

#include "fuzz.h"

static char dir[256], ix[300];

static void
rmstore(void)
{
	unlink(ix);
	rmdir(dir);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tr_run *v;
	size_t n, i;
	FILE *f;

	if (!*dir) {
		snprintf(dir, sizeof dir, "%s/trfuzz.%ld.runs",
		    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
		    (long)getpid());
		mkdir(dir, 0777);
		snprintf(ix, sizeof ix, "%s/index", dir);
		atexit(rmstore);
	}
	if (!(f = fopen(ix, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
	if (FUZZ_TRY()) {
		v = tr_store_read(dir, &n);
		for (i = 0; i < n; i++)
			tr_run_free(&v[i]);
		free(v);
	}
	fuzz_end();
	return 0;
}
