/* fuzz-net.c - the network file of tr-nsim -n, loaded and built for a
 * few ranks as a section would build it. */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = fuzz_file(".net", data, size);
	/* loaded, and freed whether or not building it failed */
	static struct tr_net *volatile n;

	if (FUZZ_TRY()) {
		n = tr_net_load(p);
		tr_net_build(n, 1 + (size ? data[0] % 16 : 0));
	}
	tr_net_free(n);
	n = NULL;
	fuzz_end();
	return 0;
}
