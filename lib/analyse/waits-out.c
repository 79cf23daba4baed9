/* waits-out.c - the waits and blames counted, and the records that
 * report them. */
#include "waits-int.h"

static const char *kindname[NKINDS] = {"late_sender", "late_receiver",
	"wait_barrier", "wait_nxn", "late_bcast", "early_reduce"};

static struct acc *
acc_get(struct tr_map *m, const int64_t key[3], struct acc **v, size_t *n,
    size_t *cap)
{
	long i = tr_map_get(m, (const char *)key, 3 * sizeof *key, 1);

	if ((size_t)i == *n) {
		tr_grow(v, cap, *n + 1, sizeof **v);
		memset(&(*v)[(*n)++], 0, sizeof **v);
	}
	return &(*v)[i];
}

void
waits_charge(struct tr_waits *w, int kind, int64_t rank, int32_t site,
    int64_t t, int64_t culprit)
{
	int64_t key[3] = {kind, rank, site};
	struct acc *a;

	if (t <= 0 || !tr_in_shard(rank))
		return;	/* another shard's rank counts it */
	a = acc_get(w->accs, key, &w->accv, &w->naccv, &w->capaccv);
	a->n++;
	a->time += t;
	key[1] = culprit;
	key[2] = -1;
	a = acc_get(w->blames, key, &w->blamev, &w->nblamev, &w->capblamev);
	a->n++;
	a->time += t;
}

/* A shard's waits of its ranks, per site, and its blames: the report
 * then totals the shards' together. */
int
tr_waits_merge(struct tr_waits *w, const struct tr_in *in,
    const struct tr_rec *r)
{
	int64_t key[3];
	struct acc *a;
	int blame = r->type == TR_BLAME, c = blame ? 4 : 5;

	if (!blame && r->type != TR_WAIT)
		return 0;
	for (key[0] = 0; key[0] < NKINDS; key[0]++)
		if (strlen(kindname[key[0]]) == r->f[1].n &&
		    memcmp(kindname[key[0]], r->f[1].p, r->f[1].n) == 0)
			break;
	if (key[0] == NKINDS)
		tr_in_die(in, "not a kind of wait: '%.*s'", (int)r->f[1].n,
		    r->f[1].p);
	key[1] = tr_get_i64(in, r, 2);
	if (!blame && (key[1] < 0 || (r->f[3].n == 1 && *r->f[3].p == '*')))
		return 1;	/* a total, the report's */
	key[2] = blame ? -1 : tr_map_get(w->sites, r->f[3].p, r->f[3].n, 1);
	if (blame)
		a = acc_get(w->blames, key, &w->blamev, &w->nblamev,
		    &w->capblamev);
	else
		a = acc_get(w->accs, key, &w->accv, &w->naccv, &w->capaccv);
	a->n += tr_get_i64(in, r, c - 1);
	a->time = tr_in_add(in, a->time, tr_get_i64(in, r, c), "time");
	return 1;
}

void
tr_waits_merged(struct tr_waits *w, struct tr_out *o)
{
	waits_report(w, o);
	tr_map_clear(w->sites);
	tr_map_clear(w->accs);
	tr_map_clear(w->blames);
	w->naccv = w->nblamev = 0;
}

/* ---- report ---- */

struct row {
	int64_t kind, rank, site;
	long sorted;		/* the site's place in byte order, or -1 */
	struct acc a;
};

static int
byrow(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->sorted > y->sorted) - (x->sorted < y->sorted);
}

/* Adds row r into the total row of its kind and rank (site -1), and of
 * its kind (rank -1), appended to rows[n..*m) if new. */
static void
total(struct row *rows, size_t n, size_t *m, const struct row *r,
    int64_t rank)
{
	size_t j;

	for (j = n; j < *m; j++)
		if (rows[j].kind == r->kind && rows[j].rank == rank &&
		    rows[j].site == -1)
			break;
	if (j == *m) {
		rows[j] = *r;
		rows[j].rank = rank;
		rows[j].site = rows[j].sorted = -1;
		rows[j].a.n = rows[j].a.time = 0;
		(*m)++;
	}
	rows[j].a.n += r->a.n;
	rows[j].a.time += r->a.time;
}

static void
out_row(struct tr_out *o, const char *what, const struct row *r)
{
	tr_out_str(o, what);
	tr_out_c(o, '\t');
	tr_out_str(o, kindname[r->kind]);
	tr_out_ti64(o, r->rank);
}

/* Rows per rank and site, plus totals per rank (site -1) and per kind
 * (rank -1), sorted. */
void
waits_report(struct tr_waits *w, struct tr_out *o)
{
	size_t n = tr_map_len(w->accs), m = 0, i, kn;
	size_t ns = tr_map_len(w->sites);
	struct row *rows = tr_calloc(3 * n + 1, sizeof *rows);
	long *ord = tr_map_order(w->sites);
	long *place = tr_calloc(ns + 1, sizeof *place);
	int64_t k[3];
	const char *s;

	for (i = 0; i < ns; i++)
		place[ord[i]] = (long)i;
	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(w->accs, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = k[2];
		rows[m].sorted = place[k[2]];
		rows[m++].a = w->accv[i];
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	n = m;
	for (i = 0; i < n; i++) {
		total(rows, n, &m, &rows[i], rows[i].rank);
		total(rows, n, &m, &rows[i], -1);
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		out_row(o, "wait", &rows[i]);
		tr_out_c(o, '\t');
		if (rows[i].site < 0)
			tr_out_c(o, '*');
		else {
			s = tr_map_key(w->sites, (long)rows[i].site, &kn);
			tr_out_write(o, s, kn);
		}
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	m = 0;
	n = tr_map_len(w->blames);
	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(w->blames, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = rows[m].sorted = -1;
		rows[m++].a = w->blamev[i];
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		out_row(o, "blame", &rows[i]);
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	free(place);
	free(ord);
	free(rows);
}

