/* fuzz-model.c - the model file of tr-model and tr-extrap. */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = fuzz_file(".model", data, size);
	struct tr_model *m;

	if (FUZZ_TRY()) {
		m = tr_model_load(p, 0, NULL);
		tr_model_free(m);
	}
	fuzz_end();
	return 0;
}
