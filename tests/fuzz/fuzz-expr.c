/* fuzz-expr.c - the expression language: an expression (the first line)
 * over ev records (the rest, after a fixed header), run by both of its
 * evaluators, the postfix code and the engine bound to the record's
 * layout; they must agree on every record. */
#include "fuzz.h"

#define MAXSLOT 64

static const struct tr_schema *ev;
static int col[MAXSLOT], nslot;

static int
lookup(void *ctx, const char *name, size_t n)
{
	int c, i;

	(void)ctx;
	c = n == 4 && memcmp(name, "type", 4) == 0 ? 0 :
	    tr_schema_col(ev, name, n);
	if (c < 0)
		return -1;
	for (i = 0; i < nslot; i++)
		if (col[i] == c)
			return i;
	if (nslot == MAXSLOT)
		return -1;
	col[nslot] = c;
	return nslot++;
}

static void
run(const struct tr_expr *e, const struct tr_expr_bound *b, const char *p)
{
	char *files[1] = {(char *)p};
	struct tr_in *in = tr_open(1, files);
	struct tr_val slots[MAXSLOT + 1], out;
	struct tr_rec r;
	int k, s, want;

	while ((k = tr_next(in, &r)) != TR_EOF) {
		if (k != TR_REC || r.type != TR_EV)
			continue;
		for (s = 0; s < nslot; s++) {
			long off = tr_ev_offset(col[s]);
			int64_t i;

			slots[s].s = r.f[col[s]].p;
			slots[s].n = r.f[col[s]].n;
			slots[s].isstr = off < 0;
			if (off >= 0) {
				memcpy(&i, (const char *)&r.u.ev + off,
				    sizeof i);
				slots[s].num = (double)i;
			}
		}
		if (tr_expr_eval(e, slots, &out) < 0)
			continue;
		want = out.isstr ? out.n > 0 : out.num != 0 &&
		    out.num == out.num;
		if (want != !!tr_expr_true(e, slots))
			abort();
		if (b && want != !!tr_expr_test(b, &r))
			abort();
	}
	tr_close(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char hdr[] = "#tr 1\n#meta np=4\n#fields\tev\trank\tseq"
	    "\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot\n";
	const uint8_t *nl = memchr(data, '\n', size);
	struct tr_slotsrc src[MAXSLOT + 1];
	struct tr_expr_bound *b;
	struct tr_expr *e;
	char *ex, *t, err[256];
	const char *p;
	size_t n;
	int ecol, s;

	if (!nl || memchr(data, '\0', (size_t)(nl - data)))
		return 0;
	ev = tr_schema_get(TR_EV);
	nslot = 0;
	ex = tr_strndup((const char *)data, (size_t)(nl - data));
	e = tr_expr_parse(ex, lookup, NULL, err, sizeof err, &ecol);
	free(ex);
	if (!e)
		return 0;
	for (s = 0; s < nslot; s++) {
		long off = tr_ev_offset(col[s]);

		src[s].col = col[s];
		src[s].kind = off < 0 ? TR_SRC_STR : TR_SRC_I64;
		src[s].off = (long)offsetof(struct tr_rec, u.ev) + off;
	}
	b = tr_expr_bind(e, src);
	n = size - (size_t)(nl + 1 - data);
	t = malloc(sizeof hdr - 1 + n + 1);
	memcpy(t, hdr, sizeof hdr - 1);
	memcpy(t + sizeof hdr - 1, nl + 1, n);
	p = fuzz_file(".tr", t, sizeof hdr - 1 + n);
	free(t);
	if (FUZZ_TRY())
		run(e, b, p);
	fuzz_end();
	tr_expr_unbind(b);
	tr_expr_free(e);
	return 0;
}
