/* fuzz-runs.c - the run store's index, as tr-runs list reads it. */
#include <sys/stat.h>

#include "fuzz.h"

static char dir[256], ix[300];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tr_run *v;
	size_t n, i;
	FILE *f;

	if (!*dir) {
		fuzz_sweep();
		snprintf(dir, sizeof dir, "%s/trfuzz.%ld.runs", fuzz_dir(),
		    (long)getpid());
		snprintf(ix, sizeof ix, "%s/index", dir);
	}
	/* the store made and removed for each input: a harness killed
	 * between inputs leaves nothing */
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || !(f = fopen(ix,
	    "wb")) || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (FUZZ_TRY()) {
		v = tr_store_read(dir, &n);
		for (i = 0; i < n; i++)
			tr_run_free(&v[i]);
		free(v);
	}
	fuzz_end();
	unlink(ix);
	rmdir(dir);
	return 0;
}
