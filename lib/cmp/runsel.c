/* runsel.c - runs of the store selected by an expression over their
 * labels, and summarised per condition (tr-runs). */
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

struct tr_runsel {
	struct tr_expr *e;	/* NULL: every run */
	int all;		/* disabled runs too */
	char **names;		/* the labels the expression reads, by slot */
	size_t nnames, namecap;
};

/* Every name is a label: an unknown one reads as "". */
static int
lookup(void *ctx, const char *name, size_t n)
{
	struct tr_runsel *s = ctx;
	size_t i;

	for (i = 0; i < s->nnames; i++)
		if (strlen(s->names[i]) == n && memcmp(s->names[i], name, n) == 0)
			return (int)i;
	tr_grow(&s->names, &s->namecap, s->nnames + 1, sizeof *s->names);
	s->names[s->nnames] = tr_strndup(name, n);
	return (int)s->nnames++;
}

struct tr_runsel *
tr_runsel_new(const char *expr, int all)
{
	struct tr_runsel *s = tr_calloc(1, sizeof *s);
	char err[256];
	int col;

	s->all = all;
	if (!expr)
		return s;
	s->e = tr_expr_parse(expr, lookup, s, err, sizeof err, &col);
	if (!s->e) {
		tr_expr_perror(expr, err, col);
		exit(TR_EXIT_USAGE);
	}
	return s;
}

void
tr_runsel_free(struct tr_runsel *s)
{
	size_t i;

	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	tr_expr_free(s->e);
	free(s);
}

int
tr_runsel_match(const struct tr_runsel *s, const struct tr_run *r)
{
	struct tr_val *slots;
	size_t i;
	int ok;
	const char *en = tr_run_get(r, "enabled");

	if (!s->all && en && strcmp(en, "1") != 0)
		return 0;
	if (!s->e)
		return 1;
	slots = tr_calloc(s->nnames ? s->nnames : 1, sizeof *slots);
	for (i = 0; i < s->nnames; i++) {
		const char *v = tr_run_get(r, s->names[i]);
		double d;

		slots[i].s = v ? v : "";
		slots[i].n = strlen(slots[i].s);
		slots[i].isstr = !v || tr_parse_f64(v, strlen(v), &d) < 0;
		slots[i].num = slots[i].isstr ? 0 : d;
	}
	ok = tr_expr_true(s->e, slots);
	free(slots);
	return ok;
}

/* Numbers in numeric order, before other values in byte order: a
 * build number 10 comes after 9, so that `tail -n 1` is the latest. */
static int
byvalue(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	double u, v;
	int nx = tr_parse_f64(x, strlen(x), &u) == 0;
	int ny = tr_parse_f64(y, strlen(y), &v) == 0;

	if (nx && ny && u != v)
		return u < v ? -1 : 1;
	if (nx != ny)
		return nx ? -1 : 1;
	return strcmp(x, y);
}

const char **
tr_runsel_values(const struct tr_runsel *s, const struct tr_run *v,
    size_t n, const char *label, size_t *nvals)
{
	const char **vals = tr_calloc(n ? n : 1, sizeof *vals);
	size_t i, nv = 0, k = 0;

	for (i = 0; i < n; i++) {
		const char *x = tr_run_get(&v[i], label);

		if (x && tr_runsel_match(s, &v[i]))
			vals[nv++] = x;
	}
	tr_sort(vals, nv, sizeof *vals, byvalue);
	for (i = 0; i < nv; i++)
		if (i == 0 || strcmp(vals[i], vals[i - 1]) != 0)
			vals[k++] = vals[i];
	*nvals = k;
	return vals;
}

struct group {
	char *key;
	struct tr_stat st;
};

/* The group key of run R: "label=value,..." of the labels in BY. */
static char *
groupkey(const struct tr_run *r, const char *by, char *list, size_t *kl)
{
	char *key = NULL, *tok, *save;

	*kl = 0;
	strcpy(list, by);
	for (tok = strtok_r(list, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		const char *lv = tr_run_get(r, tok);
		size_t add = strlen(tok) + (lv ? strlen(lv) : 1) + 2;

		key = tr_realloc(key, *kl + add + 1);
		*kl += (size_t)snprintf(key + *kl, add + 1, "%s%s=%s",
		    *kl ? "," : "", tok, lv ? lv : "-");
	}
	if (!key)
		key = tr_strdup("*"), *kl = 1;
	return key;
}

void
tr_runsel_summary(struct tr_out *o, const struct tr_runsel *s,
    const struct tr_run *v, size_t n, const char *by)
{
	struct tr_map *m = tr_map_new();
	struct group *g = NULL;
	size_t i, cap = 0, ng = 0, kl, untimed = 0;
	char *list = tr_strdup(by), *key;

	for (i = 0; i < n; i++) {
		const char *t = tr_run_get(&v[i], "time");
		double d;
		long gi;

		if (!tr_runsel_match(s, &v[i]))
			continue;
		if (!t || tr_parse_f64(t, strlen(t), &d) < 0) {
			untimed++;
			continue;
		}
		key = groupkey(&v[i], by, list, &kl);
		gi = tr_map_get(m, key, kl, 1);
		if ((size_t)gi >= ng) {
			tr_grow(&g, &cap, (size_t)gi + 1, sizeof *g);
			memset(&g[gi], 0, sizeof *g);
			g[gi].key = key;
			ng = (size_t)gi + 1;
		} else {
			free(key);
		}
		tr_stat_add(&g[gi].st, d);
	}
	tr_out_begin(o);
	tr_out_printf(o, "#meta runs.group=%s\n#meta runs.value=time\n", by);
	tr_out_fields(o, TR_MEAN);
	for (i = 0; i < ng; i++) {
		tr_out_printf(o, "mean\t%s\t%.0f", g[i].key, g[i].st.n);
		tr_out_tf64(o, g[i].st.mean);
		tr_out_tf64(o, tr_stat_sd(&g[i].st));
		tr_out_tf64(o, g[i].st.min);
		tr_out_tf64(o, g[i].st.max);
		tr_out_c(o, '\n');
		free(g[i].key);
	}
	free(g);
	free(list);
	tr_map_free(m);
	/* A run with nothing to time it by (records of no known kind)
	 * would otherwise vanish from its condition's count. */
	if (untimed)
		tr_warn("%zu selected run%s without a time label left out",
		    untimed, untimed == 1 ? "" : "s");
}
