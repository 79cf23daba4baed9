/* tr-mean - combine repeated runs of one condition into one profile:
 * mean, sd, n, min and max per key. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static char *kname, *vname;

static const struct tr_opts opts = {
	"tr-mean [-k key] [-v value] [file ...]",
	"-k key\tgroup by this column (e.g. class of sys records)\n"
	"-v value\ttake this value column (e.g. calls, io, cpu)\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static const struct tr_cmp *sortc;

static int
bymean(const void *a, const void *b)
{
	const struct tr_stat *x = tr_cmp_stat(sortc, *(const long *)a);
	const struct tr_stat *y = tr_cmp_stat(sortc, *(const long *)b);
	const char *kx, *ky;
	size_t nx, ny;
	int c;

	if (x->mean != y->mean)
		return x->mean < y->mean ? 1 : -1;
	kx = tr_cmp_key(sortc, *(const long *)a, &nx);
	ky = tr_cmp_key(sortc, *(const long *)b, &ny);
	c = memcmp(kx, ky, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

static struct tr_cmp *cmp;

static void
hdr(struct tr_in *in, struct tr_out *o)
{
	(void)o;
	tr_cmp_hdr(cmp, in);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	tr_cmp_rec(cmp, in, r);
	return 0;
}

static void
end(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	(void)o;
	tr_cmp_end(cmp);
}

/* Reads one input as repeats: each of its sections is one. A trace
 * without a rank's file gives smaller times per rank. */
static const struct tr_loop loop = {
	.hdr = hdr, .rec = record, .end = end,
	.checks = TR_CHECK_RANKS | TR_CHECK_ENDED,
};

static void
feed(struct tr_cmp *c, int n, char **files, int *status)
{
	int st;

	cmp = c;
	st = tr_loop(n, files, NULL, &loop);
	tr_cmp_end(cmp);
	tr_cmp_matched(cmp, n ? files[0] : "-");
	if (st)
		*status = st;
}

int
main(int argc, char **argv)
{
	struct tr_cmp *c;
	struct tr_out *o;
	const char *m, *by, *of;
	long *idx;
	size_t i, n;
	int ch, status = 0;

	tr_init(argv[0]);
	while ((ch = tr_getopt(argc, argv, "k:v:", &opts)) != -1) {
		switch (ch) {
		case 'k': kname = optarg; break;
		case 'v': vname = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	c = tr_cmp_new(kname, vname);
	if (argc == 0)
		feed(c, 0, NULL, &status);
	for (ch = 0; ch < argc; ch++)
		feed(c, 1, argv + ch, &status);
	tr_cmp_finish(c);

	o = tr_out_open(1, 0);
	tr_out_begin(o);
	for (i = 0; (m = tr_cmp_meta(c, i)) != NULL; i++)
		if (strncmp(m, "mean.", 5) != 0)
			tr_out_printf(o, "#meta %s\n", m);
	tr_out_printf(o, "#meta mean.runs=%ld\n", tr_cmp_reps(c));
	tr_cmp_by(c, &by, &of);
	if (by)
		tr_out_printf(o, "#meta mean.key=%s\n", by);
	if (of)
		tr_out_printf(o, "#meta mean.value=%s\n", of);
	tr_out_fields(o, TR_MEAN);
	n = tr_cmp_len(c);
	idx = tr_calloc(n ? n : 1, sizeof *idx);
	for (i = 0; i < n; i++)
		idx[i] = (long)i;
	sortc = c;
	tr_sort(idx, n, sizeof *idx, bymean);
	for (i = 0; i < n; i++) {
		const struct tr_stat *s = tr_cmp_stat(c, idx[i]);
		size_t kn;
		const char *k = tr_cmp_key(c, idx[i], &kn);

		tr_out_str(o, "mean\t");
		tr_out_write(o, k, kn);
		tr_out_c(o, '\t');
		tr_out_i64(o, (int64_t)s->n);
		tr_out_c(o, '\t');
		tr_out_f64(o, s->mean);
		tr_out_c(o, '\t');
		tr_out_f64(o, tr_stat_sd(s));
		tr_out_c(o, '\t');
		tr_out_f64(o, s->min);
		tr_out_c(o, '\t');
		tr_out_f64(o, s->max);
		tr_out_c(o, '\n');
	}
	free(idx);
	tr_cmp_free(c);
	tr_out_close(o);
	return status;
}
