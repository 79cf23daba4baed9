/* run.c - a run's labels: key=value items, parsed from a run's meta
 * file or an index line and formatted back (formats/runs.md). */
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

static void
run_add(struct tr_run *r, const char *k, size_t kn, const char *v,
    size_t vn)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strlen(r->key[i]) == kn && memcmp(r->key[i], k, kn) == 0) {
			free(r->val[i]);
			r->val[i] = tr_strndup(v, vn);
			return;
		}
	tr_grow(&r->key, &r->cap, r->n + 1, sizeof *r->key);
	r->val = tr_realloc(r->val, r->cap * sizeof *r->val);
	r->key[r->n] = tr_strndup(k, kn);
	r->val[r->n++] = tr_strndup(v, vn);
}

void
tr_run_set(struct tr_run *r, const char *key, const char *val)
{
	run_add(r, key, strlen(key), val, strlen(val));
}

const char *
tr_run_get(const struct tr_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->key[i], key) == 0)
			return r->val[i];
	return NULL;
}

void
tr_run_free(struct tr_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->key[i]);
		free(r->val[i]);
	}
	free(r->key);
	free(r->val);
	memset(r, 0, sizeof *r);
}

int
tr_label_ok(const char *k, size_t n)
{
	size_t i;

	if (n == 0 || !(k[0] == '_' || ((k[0] | 32) >= 'a' && (k[0] | 32) <= 'z')))
		return 0;
	for (i = 0; i < n; i++)
		if (!(k[i] == '_' || (k[i] >= '0' && k[i] <= '9') ||
		    ((k[i] | 32) >= 'a' && (k[i] | 32) <= 'z')))
			return 0;
	return 1;
}

/* Parses "key=value" items separated by SEP (TAB in the index, LF in a
 * meta file) into r; -1 on a malformed item. A value never holds CR or
 * NUL (tr-runs(5)): one would be cut short or kept with a DOS line end. */
int
tr_run_parse(struct tr_run *r, const char *s, size_t n, int sep)
{
	const char *e = s + n, *p, *eq;

	while (s < e) {
		p = memchr(s, sep, (size_t)(e - s));
		if (!p)
			p = e;
		if (p > s) {
			eq = memchr(s, '=', (size_t)(p - s));
			if (!eq || !tr_label_ok(s, (size_t)(eq - s)) ||
			    memchr(eq, '\r', (size_t)(p - eq)) ||
			    memchr(eq, '\0', (size_t)(p - eq)))
				return -1;
			run_add(r, s, (size_t)(eq - s), eq + 1,
			    (size_t)(p - eq - 1));
		}
		s = p + 1;
	}
	return 0;
}

int
tr_run_load(struct tr_run *r, const char *dir, const char *id)
{
	char *d = tr_store_path(dir, "runs"), *rd = tr_store_path(d, id);
	char *m = tr_store_path(rd, "meta"), msg[8192];
	size_t n;
	long line = 0;
	char *b = tr_store_slurp(m, &n), *p, *nl;
	const char *bad = NULL;

	free(d);
	free(rd);
	memset(r, 0, sizeof *r);
	for (p = b; b && !bad && p < b + n; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(b + n - p));
		if (!nl) {
			bad = "missing newline";
			break;
		}
		if (tr_run_parse(r, p, (size_t)(nl - p), '\n') < 0)
			bad = "malformed label line";
	}
	free(b);
	if (bad) {
		/* freed first, for a caller that the error returns to (a
		 * fuzzing harness), as index_bad does */
		snprintf(msg, sizeof msg, "%s:%ld: %s", m, line, bad);
		free(m);
		tr_run_free(r);
		tr_die(TR_EXIT_DATA, "%s", msg);
	}
	free(m);
	return b ? 0 : -1;
}

char *
tr_run_format(const struct tr_run *r, int sep, size_t *len)
{
	char *b = NULL;
	size_t cap = 0, n = 0, i, kn, vn;

	for (i = 0; i < r->n; i++) {
		kn = strlen(r->key[i]);
		vn = strlen(r->val[i]);
		tr_grow(&b, &cap, n + kn + vn + 3, 1);
		memcpy(b + n, r->key[i], kn);
		b[n + kn] = '=';
		memcpy(b + n + kn + 1, r->val[i], vn);
		n += kn + vn + 1;
		b[n++] = (char)(sep == '\t' && i + 1 < r->n ? '\t' : '\n');
	}
	if (!b)
		b = tr_strdup("\n"), n = 1;
	*len = n;
	return b;
}

void
tr_run_save(const struct tr_run *r, const char *rundir)
{
	char *m = tr_store_path(rundir, "meta"), *b;
	size_t n;

	b = tr_run_format(r, '\n', &n);
	tr_write_atomic(m, b, n);
	free(b);
	free(m);
}

/* A bad index line: what was read is freed before the error exit, for
 * a caller that it returns to (a fuzzing harness's longjmp), whom a run
 * of bad indexes would otherwise leave out of memory. */
static _Noreturn void
index_bad(char *ix, size_t line, const char *what, char *b,
    struct tr_run *v, size_t n)
{
	char msg[8192];
	size_t i;

	snprintf(msg, sizeof msg, "%s:%zu: %s", ix, line, what);
	for (i = 0; i < n; i++)
		tr_run_free(&v[i]);
	free(v);
	free(b);
	free(ix);
	tr_die(TR_EXIT_DATA, "%s", msg);
}

struct tr_run *
tr_store_read(const char *dir, size_t *nruns)
{
	char *ix = tr_store_path(dir, "index"), *b, *p, *e, *nl;
	struct tr_run *v = NULL;
	size_t cap = 0, n, lineno = 1;

	*nruns = 0;
	b = tr_store_slurp(ix, &n);
	if (!b) {
		struct stat st;

		if (stat(dir, &st) < 0)
			tr_die(TR_EXIT_SYS, "%s:", dir);
		free(ix);
		return NULL;
	}
	if (strncmp(b, "#tr-runs 1\n", 11) != 0)
		index_bad(ix, 1, "expected #tr-runs 1", b, v, 0);
	for (p = b + 11, e = b + n; p < e; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			index_bad(ix, lineno, "missing newline", b, v, *nruns);
		tr_grow(&v, &cap, *nruns + 1, sizeof *v);
		memset(&v[*nruns], 0, sizeof *v);
		if (tr_run_parse(&v[*nruns], p, (size_t)(nl - p), '\t') < 0 ||
		    !tr_run_get(&v[*nruns], "id"))
			index_bad(ix, lineno, "malformed run line", b, v,
			    *nruns + 1);
		++*nruns;
	}
	free(b);
	free(ix);
	return v;
}
