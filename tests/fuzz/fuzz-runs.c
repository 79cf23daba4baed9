/* fuzz-runs.c - the run store's labels: an input that begins with '#'
 * is the index, as tr-runs list reads it; any other is a run's meta
 * file, as tr-runs reindex reads it. Each run read is formatted back
 * and read again, and must come back the same. */
#include <sys/stat.h>

#include "fuzz.h"

static char dir[256], ix[300], rd[300], meta[320];

static int
same(const struct tr_run *a, const struct tr_run *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->key[i], b->key[i]) ||
		    strcmp(a->val[i], b->val[i]))
			return 0;
	return 1;
}

/* R formatted as SEP-separated items and parsed back; as a meta file
 * too, written and loaded as tr-runs writes and loads one. */
static void
again(const struct tr_run *r, int sep)
{
	struct tr_run b = { 0 };
	size_t n;
	char *s = tr_run_format(r, sep, &n);

	/* but its final LF, which ends the line */
	if (tr_run_parse(&b, s, n - 1, sep) < 0 || !same(r, &b))
		abort();
	tr_run_free(&b);
	free(s);
	tr_run_save(r, rd);
	if (tr_run_load(&b, dir, "1") < 0 || !same(r, &b))
		abort();
	tr_run_free(&b);
}

static void
put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tr_run *v, r;
	char runs[300];
	size_t n, i;

	if (!*dir) {
		fuzz_sweep();
		snprintf(dir, sizeof dir, "%s/trfuzz.%ld.runs", fuzz_dir(),
		    (long)getpid());
		snprintf(ix, sizeof ix, "%s/index", dir);
		snprintf(rd, sizeof rd, "%s/runs/1", dir);
		snprintf(meta, sizeof meta, "%s/meta", rd);
	}
	snprintf(runs, sizeof runs, "%s/runs", dir);
	/* the store made and removed for each input: a harness killed
	 * between inputs leaves nothing */
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) ||
	    (mkdir(runs, 0777) < 0 && errno != EEXIST) ||
	    (mkdir(rd, 0777) < 0 && errno != EEXIST))
		abort();
	if (size > 0 && data[0] == '#') {
		put(ix, data, size);
		if (FUZZ_TRY()) {
			v = tr_store_read(dir, &n);
			for (i = 0; i < n; i++)
				again(&v[i], '\t');
			for (i = 0; i < n; i++)
				tr_run_free(&v[i]);
			free(v);
		}
	} else {
		put(meta, data, size);
		if (FUZZ_TRY() && tr_run_load(&r, dir, "1") == 0) {
			again(&r, '\n');
			tr_run_free(&r);
		}
	}
	fuzz_end();
	unlink(ix);
	unlink(meta);
	rmdir(rd);
	rmdir(runs);
	rmdir(dir);
	return 0;
}
