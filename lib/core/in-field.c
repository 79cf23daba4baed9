/* in-field.c - typed access to a record's fields, dying with file:line
 * and the field's name where one is bad. */
#include <stddef.h>

#include "tr-int.h"

_Noreturn void
tr_bad_field(const struct tr_in *in, const struct tr_rec *r, int col,
    const char *what)
{
	struct tr_field f = r->f[col];

	tr_in_die(in, "%s '%s': %s '%.*s'", r->decl->name,
	    r->decl->names[col], what, (int)(f.n > 40 ? 40 : f.n), f.p);
}

int64_t
tr_getint_slow(const struct tr_in *in, const struct tr_rec *r, int col,
    int nneg)
{
	int64_t v;
	int e = tr_parse_i64(r->f[col].p, r->f[col].n, &v);

	if (e == -2)
		tr_bad_field(in, r, col, "integer out of range:");
	if (e < 0)
		tr_bad_field(in, r, col, "not an integer:");
	if (nneg && v < 0)
		tr_bad_field(in, r, col, "must not be negative:");
	return v;
}

int64_t
tr_get_i64(const struct tr_in *in, const struct tr_rec *r, int col)
{
	return tr_getint(in, r, col, 0);
}

double
tr_get_f64(const struct tr_in *in, const struct tr_rec *r, int col)
{
	double v;
	int e = tr_parse_f64(r->f[col].p, r->f[col].n, &v);

	if (e == -2)
		tr_bad_field(in, r, col, "number out of range:");
	if (e < 0)
		tr_bad_field(in, r, col, "not a number:");
	return v;
}

void
tr_check_kinds(const struct tr_in *in, const struct tr_rec *r)
{
	const char *k = r->decl->schema->kinds;
	double d;
	int i;

	for (i = 1; i < r->nf; i++) {
		switch (k[i - 1]) {
		case TR_INT:
		case TR_NNEG:
			tr_getint(in, r, i, k[i - 1] == TR_NNEG);
			break;
		case TR_FLT:
			d = tr_get_f64(in, r, i);
			(void)d;
			break;
		default:
			if (r->f[i].n == 0)
				tr_bad_field(in, r, i, "empty:");
		}
	}
}

/* Where column COL of an ev record is kept in struct tr_ev, if it is one
 * of its integers; -1 if not. */
long
tr_ev_offset(int col)
{
	switch (col) {
	case TR_EV_RANK: return (long)offsetof(struct tr_ev, rank);
	case TR_EV_SEQ: return (long)offsetof(struct tr_ev, seq);
	case TR_EV_START: return (long)offsetof(struct tr_ev, start);
	case TR_EV_END: return (long)offsetof(struct tr_ev, end);
	case TR_EV_CPU: return (long)offsetof(struct tr_ev, cpu);
	case TR_EV_PEER: return (long)offsetof(struct tr_ev, peer);
	case TR_EV_BYTES: return (long)offsetof(struct tr_ev, bytes);
	case TR_EV_TAG: return (long)offsetof(struct tr_ev, tag);
	case TR_EV_COMM: return (long)offsetof(struct tr_ev, comm);
	case TR_EV_REQ: return (long)offsetof(struct tr_ev, req);
	case TR_EV_ROOT: return (long)offsetof(struct tr_ev, root);
	default: return -1;
	}
}
