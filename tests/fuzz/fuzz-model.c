/* fuzz-model.c - the model file of tr-model and tr-extrap: loaded, then
 * evaluated, as tr-model does, at scales that reach its grid's row and
 * column communicators and a lone rank. */
#include <math.h>

#include "fuzz.h"

/* tr-bench's parameters for every operation it measures, on every
 * communicator, from 2 to 4096 ranks: the model's own expressions, not
 * a missing parameter, decide what an evaluation reaches. Loaded once;
 * the parameters are no input of the harness. */
static struct tr_params *
params(void)
{
	static const char *ops[] = { TR_BENCH_OPS, NULL };
	static const char *comms[] = { "world", "row", "col", NULL };
	static struct tr_params *ps;
	char buf[8192], *path;
	size_t n, i, j;

	if (ps)
		return ps;
	n = (size_t)snprintf(buf, sizeof buf, "#tr 1\n#fields\tparam\top\t"
	    "comm\tsize\talpha\tbeta\tlo\thi\tpoints\terr\n");
	for (i = 0; ops[i]; i++)
		for (j = 0; comms[j]; j++)
			n += (size_t)snprintf(buf + n, sizeof buf - n,
			    "param\t%s\t%s\t2\t1000\t0.5\t8\t65536\t5\t0.1\n"
			    "param\t%s\t%s\t4096\t9000\t2\t8\t65536\t5\t0.1\n",
			    ops[i], comms[j], ops[i], comms[j]);
	path = (char *)fuzz_file(".tr", buf, n);
	ps = tr_params_load(1, &path);
	return ps;
}

/* A first line "#-D NAME=VALUE ..." (a comment to the model) gives
 * the -D options of tr-model and tr-extrap: up to four, in DEFS; the
 * count returned. */
static int
options(const uint8_t *data, size_t size, char **defs, char *buf,
    size_t cap)
{
	const uint8_t *nl = memchr(data, '\n', size);
	char *p;
	int n = 0;

	if (size < 3 || memcmp(data, "#-D", 3) != 0 || !nl ||
	    (size_t)(nl - data) >= cap)
		return 0;
	memcpy(buf, data + 3, (size_t)(nl - data) - 3);
	buf[nl - data - 3] = '\0';
	for (p = strtok(buf, " "); p && n < 4; p = strtok(NULL, " "))
		defs[n++] = p;
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double at[][2] = { { 1000, 4 }, { 1e6, 64 },
	    { 0, 1 }, { 37, 12 } };
	struct tr_params *ps = params();
	const char *p = fuzz_file(".model", data, size);
	struct tr_model *volatile m = NULL;
	struct tr_phase_pred *volatile out = NULL;
	double *volatile meas = NULL;
	char err[512], buf[256], *defs[4];
	size_t i, k, n;
	int ndef = options(data, size, defs, buf, sizeof buf);

	if (FUZZ_TRY()) {
		m = tr_model_load(p, ndef, defs);
		n = tr_model_nphase(m);
		out = tr_calloc(n + 1, sizeof *out);
		meas = tr_calloc(n + 1, sizeof *meas);
		/* one phase in two measured, as tr-model -m gives them */
		for (i = 0; i < n; i++)
			meas[i] = i % 2 ? 5e5 : NAN;
		for (k = 0; k < sizeof at / sizeof at[0]; k++)
			tr_model_eval(m, ps, at[k][0], at[k][1], meas, out, err,
			    sizeof err);
	}
	free(out);
	free(meas);
	tr_model_free(m);
	fuzz_end();
	return 0;
}
