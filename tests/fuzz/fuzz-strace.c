/* fuzz-strace.c - tr-from-strace's parser of strace -f -tt -T logs. */
#include <fcntl.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *files[1];
	struct tr_in *in;
	static struct tr_out *o;	/* one, kept: an error leaves it open */
	static struct tr_strace *st;	/* an error's, freed by the next */
	const char *line;
	size_t n;

	tr_strace_free(st);
	st = NULL;
	files[0] = (char *)fuzz_file(".log", data, size);
	if (FUZZ_TRY()) {
		if (!o) {
			o = tr_out_open(open("/dev/null", O_WRONLY), 0);
			tr_atdie = fuzz_atdie;	/* not the output's flush */
		}
		in = tr_open_text(1, files);
		st = tr_strace_new(in, o);
		while (tr_next_line(in, &line, &n))
			tr_strace_line(st, line, n);
		tr_strace_end(st);
		tr_strace_free(st);
		st = NULL;
		tr_close(in);
	}
	fuzz_end();
	return 0;
}
