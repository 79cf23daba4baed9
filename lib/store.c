/* store.c - the run store: a directory of runs, each a folder with its
 * data and a meta file of labels, and an index beside them. Writers
 * hold a lock and replace files by rename, so readers never see a half
 * written file. Described in formats/runs.md. */
#include <sys/file.h>
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static char *
path2(const char *a, const char *b)
{
	char *p = tr_malloc(strlen(a) + strlen(b) + 2);

	sprintf(p, "%s/%s", a, b);
	return p;
}

int
tr_store_lock(const char *dir)
{
	char *p = path2(dir, "lock");
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		tr_die(TR_EXIT_SYS, "%s:", p);
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			tr_die(TR_EXIT_SYS, "%s: lock:", p);
	free(p);
	return fd;
}

void
tr_store_unlock(int fd)
{
	close(fd);
}

void
tr_write_atomic(const char *path, const char *data, size_t n)
{
	char *tmp = tr_malloc(strlen(path) + 32);
	ssize_t w;
	int fd;

	sprintf(tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		tr_die(TR_EXIT_SYS, "%s:", tmp);
	while (n > 0) {
		w = write(fd, data, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			unlink(tmp);
			tr_die(TR_EXIT_SYS, "%s:", tmp);
		}
		data += w;
		n -= (size_t)w;
	}
	if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		tr_die(TR_EXIT_SYS, "%s:", path);
	}
	free(tmp);
}

/* Reads FILE whole; NULL if it does not exist. */
static char *
slurp(const char *file, size_t *n)
{
	char *b = NULL;
	size_t cap = 0, len = 0;
	ssize_t r;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return NULL;
		tr_die(TR_EXIT_SYS, "%s:", file);
	}
	for (;;) {
		tr_grow(&b, &cap, len + 4096, 1);
		r = read(fd, b + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			tr_die(TR_EXIT_SYS, "%s:", file);
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	b[len] = '\0';
	*n = len;
	return b;
}

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
 * meta file) into r; -1 on a malformed item. */
static int
parse_kv(struct tr_run *r, const char *s, size_t n, int sep)
{
	const char *e = s + n, *p, *eq;

	while (s < e) {
		p = memchr(s, sep, (size_t)(e - s));
		if (!p)
			p = e;
		if (p > s) {
			eq = memchr(s, '=', (size_t)(p - s));
			if (!eq || !tr_label_ok(s, (size_t)(eq - s)))
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
	char *d = path2(dir, "runs"), *rd = path2(d, id), *m = path2(rd,
	    "meta");
	size_t n;
	char *b = slurp(m, &n);

	memset(r, 0, sizeof *r);
	if (b && parse_kv(r, b, n, '\n') < 0)
		tr_die(TR_EXIT_DATA, "%s: malformed label line", m);
	free(b);
	free(d);
	free(rd);
	free(m);
	return b ? 0 : -1;
}

static char *
format(const struct tr_run *r, int sep, size_t *len)
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
	char *m = path2(rundir, "meta"), *b;
	size_t n;

	b = format(r, '\n', &n);
	tr_write_atomic(m, b, n);
	free(b);
	free(m);
}

static int
byid(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the run folders, sorted (ids are fixed-width). */
static char **
run_ids(const char *dir, size_t *n)
{
	char *d = path2(dir, "runs");
	DIR *dp = opendir(d);
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!dp) {
		if (errno != ENOENT)
			tr_die(TR_EXIT_SYS, "%s:", d);
		free(d);
		return NULL;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		tr_grow(&v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = tr_strdup(de->d_name);
	}
	closedir(dp);
	free(d);
	if (*n)
		qsort(v, *n, sizeof *v, byid);
	return v;
}

void
tr_store_reindex(const char *dir)
{
	size_t i, n, len = 0, cap = 0, ln;
	char **ids = run_ids(dir, &n), *b = NULL, *line, *ix;
	struct tr_run r;

	tr_grow(&b, &cap, 64, 1);
	strcpy(b, "#tr-runs 1\n");
	len = strlen(b);
	for (i = 0; i < n; i++) {
		if (tr_run_load(&r, dir, ids[i]) == 0) {
			line = format(&r, '\t', &ln);
			tr_grow(&b, &cap, len + ln + 1, 1);
			memcpy(b + len, line, ln);
			len += ln;
			free(line);
		}
		tr_run_free(&r);
		free(ids[i]);
	}
	free(ids);
	ix = path2(dir, "index");
	tr_write_atomic(ix, b, len);
	free(ix);
	free(b);
}

char *
tr_store_newid(const char *dir)
{
	size_t i, n;
	char **ids = run_ids(dir, &n), *id = tr_malloc(24);
	long max = 0, v;

	for (i = 0; i < n; i++) {
		v = atol(ids[i]);
		if (v > max)
			max = v;
		free(ids[i]);
	}
	free(ids);
	snprintf(id, 24, "%06ld", max + 1);
	return id;
}

struct tr_run *
tr_store_read(const char *dir, size_t *nruns)
{
	char *ix = path2(dir, "index"), *b, *p, *e, *nl;
	struct tr_run *v = NULL;
	size_t cap = 0, n, lineno = 1;

	*nruns = 0;
	b = slurp(ix, &n);
	if (!b) {
		struct stat st;

		if (stat(dir, &st) < 0)
			tr_die(TR_EXIT_SYS, "%s:", dir);
		free(ix);
		return NULL;
	}
	if (strncmp(b, "#tr-runs 1\n", 11) != 0)
		tr_die(TR_EXIT_DATA, "%s:1: expected #tr-runs 1", ix);
	for (p = b + 11, e = b + n; p < e; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			tr_die(TR_EXIT_DATA, "%s:%zu: missing newline", ix,
			    lineno);
		tr_grow(&v, &cap, *nruns + 1, sizeof *v);
		memset(&v[*nruns], 0, sizeof *v);
		if (parse_kv(&v[*nruns], p, (size_t)(nl - p), '\t') < 0 ||
		    !tr_run_get(&v[*nruns], "id"))
			tr_die(TR_EXIT_DATA, "%s:%zu: malformed run line", ix,
			    lineno);
		++*nruns;
	}
	free(b);
	free(ix);
	return v;
}
