/* tr-filter - keep the records for which an expression holds. */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int vflag;

static const struct option longopts[] = {
	{"ranks", required_argument, NULL, 'r'},
	{"window", required_argument, NULL, 'w'},
	{"invert", no_argument, NULL, 'v'},
	{"expr", required_argument, NULL, 'e'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-filter [-v] [-r ranks] [-w t0:t1] [-e expr | expr] [file ...]",
	"-e, --expr expr\tthe expression (or the first operand)\n"
	"-r, --ranks list\tonly the records of these ranks, e.g. 0-7,12\n"
	"-v, --invert\tkeep the records for which it does not hold\n"
	"-w, --window t0:t1\tonly the records in this time window, e.g. "
	"1ms:2.5ms\n",
	longopts
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Names the expression uses; slot i is names[i]. */
static char **names;
static int nnames;
static char *declared;		/* per slot: a #fields line has it */

static int
lookup(void *ctx, const char *name, size_t n)
{
	int i;

	(void)ctx;
	for (i = 0; i < nnames; i++)
		if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0)
			return i;
	names = tr_realloc(names, (size_t)(nnames + 1) * sizeof *names);
	names[nnames] = tr_strndup(name, n);
	return nnames++;
}

/* The ev columns the expression names, for tr_in_want. */
static unsigned
ev_want(void)
{
	const struct tr_schema *s = tr_schema_get(TR_EV);
	unsigned want = 0;
	int col, i;

	for (i = 0; i < nnames; i++)
		if ((col = tr_schema_col(s, names[i], strlen(names[i]))) > 0)
			want |= 1u << col;
	return want;
}

/* Notes which names the section's record types have. */
static void
see_decls(const struct tr_in *in)
{
	const struct tr_decl *d;
	size_t i;
	int s;

	for (s = 0; s < nnames; s++)
		for (i = 0; !declared[s] && (d = tr_decl_at(in, i)); i++)
			declared[s] = tr_decl_col(d, names[s]) >= 0;
}

/* How the slots map to the columns of one record type. */
struct bind {
	const struct tr_decl *decl;
	int ok;			/* has every field the expression uses */
	int *col;		/* per slot; 0 is the type name */
	long *off;		/* per slot: where an ev integer is in struct
				 * tr_ev, -2 for a string column, else -1 */
	int rankcol, startcol, endcol;
	long simpleoff;		/* of the simple test's field in struct tr_ev */
	struct tr_expr_bound *prog;	/* the expression on this layout */
};

static struct tr_expr *e;

/* A test of one number, "rank == 0": its slot, relation and number. */
static int simple, sslot, rel;
static double num;

/* Where column COL of an ev record is kept in struct tr_ev, if it is one
 * of its integers; -1 if not. */
static long
ev_off(int col)
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

static struct bind *binds;
static size_t nbinds;

static void
unbind(void)
{
	size_t i;

	for (i = 0; i < nbinds; i++) {
		free(binds[i].col);
		free(binds[i].off);
		tr_expr_unbind(binds[i].prog);
	}
	nbinds = 0;
}

static struct bind *
bind(const struct tr_decl *d)
{
	struct bind *b;
	size_t i;
	int s;

	for (i = 0; i < nbinds; i++)
		if (binds[i].decl == d)
			return &binds[i];
	binds = tr_realloc(binds, (nbinds + 1) * sizeof *binds);
	b = &binds[nbinds++];
	b->decl = d;
	b->ok = 1;
	b->col = tr_calloc((size_t)nnames + 1, sizeof *b->col);
	b->off = tr_calloc((size_t)nnames + 1, sizeof *b->off);
	for (s = 0; s < nnames; s++) {
		b->col[s] = strcmp(names[s], "type") == 0 ? 0 :
		    tr_decl_col(d, names[s]);
		if (b->col[s] < 0)
			b->ok = 0;
		b->off[s] = b->col[s] < 0 ? -1 : d->schema && (b->col[s] == 0 ||
		    d->schema->kinds[b->col[s] - 1] == TR_STR) ? -2 :
		    d->schema && d->schema->type == TR_EV ? ev_off(b->col[s]) :
		    -1;
	}
	b->simpleoff = d->schema && d->schema->type == TR_EV && b->ok &&
	    simple ? ev_off(b->col[sslot]) : -1;
	b->prog = NULL;
	if (e && b->ok) {
		struct tr_slotsrc *src = tr_calloc((size_t)nnames + 1,
		    sizeof *src);

		for (s = 0; s < nnames; s++) {
			src[s].col = b->col[s];
			src[s].kind = b->off[s] == -2 ? TR_SRC_STR :
			    b->off[s] >= 0 ? TR_SRC_I64 : TR_SRC_NONE;
			src[s].off = (long)offsetof(struct tr_rec, u.ev) +
			    b->off[s];
		}
		b->prog = tr_expr_bind(e, src);
		free(src);
	}
	b->rankcol = tr_decl_col(d, "rank");
	b->startcol = tr_decl_col(d, "start");
	if (b->startcol < 0)
		b->startcol = tr_decl_col(d, "time");
	b->endcol = tr_decl_col(d, "end");
	if (b->endcol < 0)
		b->endcol = b->startcol;
	return b;
}

/* A column's value by its kind for the known types (the loop in main
 * fills ev's integers and strings itself); unknown types are guessed. */
static void
value(const struct tr_in *in, const struct tr_rec *r, int col,
    struct tr_val *v)
{
	const struct tr_field *f = &r->f[col];
	int64_t i;
	int k;

	v->s = f->p;
	v->n = f->n;
	v->isstr = 0;
	k = col > 0 && r->decl->schema ? r->decl->schema->kinds[col - 1] : 0;
	if (col == 0 || k == TR_STR) {
		v->isstr = 1;
		return;
	}
	if (k == TR_INT || k == TR_NNEG) {
		v->num = (double)tr_get_i64(in, r, col);
		return;
	}
	if (k == TR_FLT) {
		v->num = tr_get_f64(in, r, col);
		return;
	}
	if (tr_parse_i64(f->p, f->n, &i) == 0)
		v->num = (double)i;
	else if (tr_parse_f64(f->p, f->n, &v->num) != 0)
		v->isstr = 1;
}

/* Rank lists: "0-7,12". */
struct range {
	int64_t lo, hi;
};
static struct range *ranks;
static size_t nranks;

static void
parse_ranks(const char *s)
{
	const char *p = s, *e, *d;
	struct range r;

	for (;;) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		d = memchr(p, '-', (size_t)(e - p));
		if (d ? tr_parse_i64(p, (size_t)(d - p), &r.lo) ||
		    tr_parse_i64(d + 1, (size_t)(e - d - 1), &r.hi) :
		    tr_parse_i64(p, (size_t)(e - p), &r.lo))
			tr_opt_bad('r', s, "not a rank list such as 0-7,12");
		if (!d)
			r.hi = r.lo;
		if (r.lo < 0 || r.hi < r.lo)
			tr_opt_bad('r', s, "a range goes up from rank 0");
		ranks = tr_realloc(ranks, (nranks + 1) * sizeof *ranks);
		ranks[nranks++] = r;
		if (!*e)
			break;
		p = e + 1;
	}
}

static int wflag;
static int64_t t0, t1 = INT64_MAX;

static void
parse_window(const char *s)
{
	const char *c = strchr(s, ':');
	char *a;

	if (!c)
		tr_opt_bad('w', s, "not a window T0:T1");
	a = tr_strndup(s, (size_t)(c - s));
	if ((*a && tr_parse_dur(a, &t0)) || (c[1] && tr_parse_dur(c + 1,
	    &t1)) || t1 < t0) {
		free(a);
		tr_opt_bad('w', s, "not a window T0:T1 of durations, such as "
		    "1ms:2.5ms");
	}
	free(a);
	wflag = 1;
}

static int
keep_rank(int64_t r)
{
	size_t i;

	for (i = 0; i < nranks; i++)
		if (r >= ranks[i].lo && r <= ranks[i].hi)
			return 1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct tr_val *slots;
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	struct bind *b = NULL;
	const char *src = NULL;
	char err[256];
	struct tr_regwin *rw = NULL;
	int c, s, col, status, keep, tested, regtest, inwin;
	double x;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "e:r:vw:", &opts)) != -1) {
		switch (c) {
		case 'e': src = optarg; break;
		case 'r': parse_ranks(optarg); break;
		case 'v': vflag = 1; break;
		case 'w': parse_window(optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!src && !nranks && !wflag) {
		if (argc < 1)
			usage();
		src = *argv++;
		argc--;
	}
	if (src) {
		e = tr_expr_parse(src, lookup, NULL, err, sizeof err, &col);
		if (!e) {
			tr_expr_perror(src, err, col);
			exit(TR_EXIT_USAGE);
		}
	}
	/* "rank == 0" on an ev record needs no evaluation. */
	if (e)
		simple = tr_expr_cmpnum(e, &sslot, &rel, &num);
	slots = tr_calloc((size_t)nnames + 1, sizeof *slots);
	declared = tr_calloc((size_t)nnames + 1, 1);
	for (s = 0; s < nnames; s++)
		declared[s] = strcmp(names[s], "type") == 0;
	if (wflag)
		rw = tr_regwin_new(t0, t1, vflag);
	o = tr_out_open(1, 0);
	in = tr_open(argc, argv);
	tr_in_want(in, ev_want());
	tr_in_check(in, TR_CHECK_RANKS_WARN);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR) {
			/* Whatever the test, a rank may lose all its records:
			 * the checks for a rank's missing file must not take
			 * a trace's selection for one. */
			tr_out_meta(o, "subset", tr_decl_find(in, "ev") ||
			    tr_decl_find(in, "reg") ? "tr-filter" : NULL);
			tr_out_sync(o, in);
			see_decls(in);
			unbind();
			b = NULL;
			continue;
		}
		/* Header lines come mid-section too (a rank's end, tr-cat
		 * -m): only a section's end closes its regions. */
		if (c == TR_END && rw)
			tr_regwin_reset(rw);
		if (c != TR_REC)
			continue;
		if (!b || b->decl != r.decl)
			b = bind(r.decl);
		/* -v inverts the tests that apply; records no test applies
		 * to pass through either way. */
		keep = 1;
		tested = regtest = inwin = 0;
		if (nranks && b->rankcol > 0) {
			tested = 1;
			keep = keep_rank(tr_get_i64(in, &r, b->rankcol));
		}
		if (wflag && r.type == TR_REG) {
			/* by the region's span, after the other tests */
			regtest = 1;
		} else if (keep && wflag && b->startcol > 0) {
			tested = 1;
			int64_t st = tr_get_i64(in, &r, b->startcol);

			/* overlaps [t0, t1), instants included */
			keep = st < t1 && (st >= t0 ||
			    tr_get_i64(in, &r, b->endcol) > t0);
			inwin = keep;
		}
		if (keep && b->simpleoff >= 0 && r.type == TR_EV) {
			int64_t v;

			memcpy(&v, (const char *)&r.u.ev + b->simpleoff, sizeof v);
			x = (double)v;
			tested = 1;
			switch (rel) {
			case 0: keep = x == num; break;
			case 1: keep = x != num; break;
			case 2: keep = x < num; break;
			case 3: keep = x <= num; break;
			case 4: keep = x > num; break;
			default: keep = x >= num;
			}
		} else if (keep && b->prog) {
			tested = 1;
			keep = tr_expr_test(b->prog, &r);
		} else if (keep && e && b->ok) {
			struct tr_val out;

			tested = 1;
			for (s = 0; s < nnames; s++) {
				struct tr_val *v = &slots[s];
				const struct tr_field *f = &r.f[b->col[s]];
				int64_t i;

				/* the common kinds inline, the rest by value() */
				if (b->off[s] >= 0) {
					memcpy(&i, (const char *)&r.u.ev +
					    b->off[s], sizeof i);
					v->num = (double)i;
					v->isstr = 0;
				} else if (b->off[s] == -2)
					v->isstr = 1;
				else {
					value(in, &r, b->col[s], v);
					continue;
				}
				v->s = f->p;
				v->n = f->n;
			}
			if (tr_expr_eval(e, slots, &out) < 0)
				tr_in_die(in, "expression needs a number where "
				    "the record has a string");
			keep = out.isstr ? out.n > 0 :
			    out.num != 0 && out.num == out.num;
		}
		if (regtest) {
			tested = 1;
			keep = tr_regwin_test(rw, o, &r, keep) && keep;
		}
		if (!tested || keep != vflag) {
			if (inwin && b->rankcol > 0)
				tr_regwin_kept(rw, o,
				    tr_get_i64(in, &r, b->rankcol));
			tr_out_rec(o, &r);
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	for (s = 0; s < nnames && status == 0; s++)
		if (!declared[s])
			/* A record without the field passes: a name no
			 * type has would pass everything, silently. */
			tr_die(TR_EXIT_USAGE, "no record type has a field "
			    "'%s' (a string is written in double quotes)",
			    names[s]);
	free(declared);
	tr_expr_free(e);
	tr_regwin_free(rw);
	unbind();
	free(binds);
	for (s = 0; s < nnames; s++)
		free(names[s]);
	free(names);
	free(slots);
	free(ranks);
	return status;
}
