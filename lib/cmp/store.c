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
#include <time.h>
#include <unistd.h>

#include "cmp.h"

char *
tr_store_path(const char *a, const char *b)
{
	char *p = tr_malloc(strlen(a) + strlen(b) + 2);

	sprintf(p, "%s/%s", a, b);
	return p;
}

int
tr_store_lock(const char *dir)
{
	char *p = tr_store_path(dir, "lock");
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

/* A rename is durable once its directory is synced: without it, a
 * crash may bring back the old name after the new one was reported. */
static void
sync_dir(const char *path)
{
	const char *sl = strrchr(path, '/');
	char *d = sl ? tr_strndup(path, sl == path ? 1 : (size_t)(sl -
	    path)) : tr_strdup(".");
	int fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0)
		tr_die(TR_EXIT_SYS, "%s:", d);
	close(fd);
	free(d);
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
	sync_dir(path);
	free(tmp);
}

/* Reads FILE whole; NULL if it does not exist. */
char *
tr_store_slurp(const char *file, size_t *n)
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


static int
bystr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory D that do not start with '.', sorted; NULL if
 * D does not exist. */
static char **
listdir(const char *d, size_t *n)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!dp) {
		if (errno != ENOENT)
			tr_die(TR_EXIT_SYS, "%s:", d);
		return NULL;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		tr_grow(&v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = tr_strdup(de->d_name);
	}
	closedir(dp);
	if (*n)
		tr_sort(v, *n, sizeof *v, bystr);
	return v;
}

/* The names of the run folders, sorted (ids are fixed-width). */
static char **
run_ids(const char *dir, size_t *n)
{
	char *d = tr_store_path(dir, "runs"), **v = listdir(d, n);

	free(d);
	return v;
}

/* Removes the files of folder D, then D. */
static void
rmfolder(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;

	if (!dp)
		return;
	while ((de = readdir(dp)) != NULL) {
		char *f;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		f = tr_store_path(d, de->d_name);
		unlink(f);
		free(f);
	}
	closedir(dp);
	rmdir(d);
}

/* A run being added is written in runs/.tmp.* by a writer that holds
 * the folder's .writer file locked; the kernel lets go of the lock
 * when the writer dies, however it dies. A folder whose .writer can be
 * locked, or that has none, was left by a writer that is gone. Called
 * under the store's lock, which the writers hold while they make and
 * lock their folder, and while they rename it into place. */
static void
sweep_tmp(const char *dir)
{
	char *runs = tr_store_path(dir, "runs");
	DIR *dp = opendir(runs);
	struct dirent *de;

	if (!dp) {
		free(runs);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		char *t, *w;
		int fd, gone;

		if (strncmp(de->d_name, ".tmp.", 5) != 0)
			continue;
		t = tr_store_path(runs, de->d_name);
		w = tr_store_path(t, ".writer");
		fd = open(w, O_RDWR | O_CLOEXEC);
		gone = fd < 0 ? errno == ENOENT :
		    flock(fd, LOCK_EX | LOCK_NB) == 0;
		if (fd >= 0)
			close(fd);
		if (gone)
			rmfolder(t);
		free(w);
		free(t);
	}
	closedir(dp);
	free(runs);
}

void
tr_store_reindex(const char *dir)
{
	size_t i, n, len = 0, cap = 0, ln;
	char **ids = run_ids(dir, &n), *b = NULL, *line, *ix;
	struct tr_run r;

	sweep_tmp(dir);
	tr_grow(&b, &cap, 64, 1);
	strcpy(b, "#tr-runs 1\n");
	len = strlen(b);
	for (i = 0; i < n; i++) {
		if (tr_run_load(&r, dir, ids[i]) == 0) {
			line = tr_run_format(&r, '\t', &ln);
			tr_grow(&b, &cap, len + ln + 1, 1);
			memcpy(b + len, line, ln);
			len += ln;
			free(line);
		}
		tr_run_free(&r);
		free(ids[i]);
	}
	free(ids);
	ix = tr_store_path(dir, "index");
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


/* ---- adding a run ---- */

static char *tmpdir;		/* a run being added, removed on failure */

static void
rmtmp(void)
{
	if (tmpdir)
		rmfolder(tmpdir);
}

static void
mkdir_p(const char *d)
{
	if (mkdir(d, 0777) < 0 && errno != EEXIST)
		tr_die(TR_EXIT_SYS, "%s:", d);
}

static mode_t
umask_now(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* What the data says of the run's exec time. */
struct ext {
	int64_t lo, hi;		/* earliest start, latest end */
	double *rank;		/* prof: exclusive time per rank */
	size_t nrank;
	double total;		/* mean: the (total) key */
	double agg;		/* profagg mean: excl x ranks, summed */
	int64_t aggranks;	/* the most ranks a function is on */
	int has, hastotal;
};

static void
span(struct ext *x, int64_t a, int64_t b)
{
	if (!x->has || a < x->lo)
		x->lo = a;
	if (!x->has || b > x->hi)
		x->hi = b;
	x->has = 1;
}

static void
extent(struct ext *x, struct tr_in *in, struct tr_rec *r)
{
	const char *t = r->decl->name;

	if (r->type == TR_EV) {
		span(x, r->u.ev.start, r->u.ev.end);
	} else if (strcmp(t, "job") == 0) {
		int64_t s = tr_get_i64(in, r, 4);

		span(x, s, s + tr_get_i64(in, r, 5));
	} else if (strcmp(t, "sys") == 0) {
		int64_t s = tr_get_i64(in, r, 2), e = tr_get_i64(in, r, 5);

		span(x, s, s + (e > 0 ? e : 0));
	} else if (strcmp(t, "prof") == 0) {
		int64_t rk = tr_get_i64(in, r, 1);

		if (rk >= TR_MAXNP)
			tr_in_die(in, "rank too large");
		if ((size_t)rk >= x->nrank) {
			size_t old = x->nrank;

			tr_grow(&x->rank, &x->nrank, (size_t)rk + 1,
			    sizeof *x->rank);
			memset(x->rank + old, 0, (x->nrank - old) *
			    sizeof *x->rank);
		}
		x->rank[rk] += tr_get_f64(in, r, 5);
	} else if (strcmp(t, "profagg") == 0 && r->f[1].n == 4 &&
	    memcmp(r->f[1].p, "mean", 4) == 0) {
		/* A mean over the ranks that have the function: times
		 * ranks it is their sum, and over all ranks (the most on
		 * any function: MPI_Init's) the mean rank's span. */
		int64_t n = tr_get_i64(in, r, 3);

		x->agg += tr_get_f64(in, r, 6) * (double)n;
		if (n > x->aggranks)
			x->aggranks = n;
	} else if (strcmp(t, "mean") == 0 && r->f[1].n == 7 &&
	    memcmp(r->f[1].p, TR_CMP_TOTAL, 7) == 0) {
		x->total = tr_get_f64(in, r, 3);
		x->hastotal = 1;
	}
}

/* The time label: the span of the events, jobs or system calls, else
 * the (total) of a mean, else the busiest rank of a profile, else the
 * mean rank of a profile's means. */
static void
time_label(struct tr_run *r, const struct ext *x)
{
	char buf[64];
	double tm;
	size_t k;

	if (!x->has && !x->nrank && !x->hastotal && !x->aggranks)
		return;
	tm = x->has ? (double)(x->hi - x->lo) : x->hastotal ? x->total :
	    x->nrank ? 0 : x->agg / (double)x->aggranks;
	for (k = 0; !x->has && !x->hastotal && k < x->nrank; k++)
		if (x->rank[k] > tm)
			tm = x->rank[k];
	snprintf(buf, sizeof buf, "%.0f", tm);
	tr_run_set(r, "time", buf);
}

/* A label value on one line, "-" if empty. */
static void
label(struct tr_run *r, const char *k, const char *v)
{
	char *s = tr_strdup(v), *p;

	for (p = s; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	tr_run_set(r, k, *s ? s : "-");
	free(s);
}

static void
meta_labels(struct tr_run *r, struct tr_in *in)
{
	const char *v, *k;
	char buf[32];
	size_t i, kn;
	int64_t np, rk;
	struct tr_map *hosts = tr_map_new();

	if ((v = tr_meta(in, "app")))
		label(r, "app", v);
	if ((v = tr_meta(in, "np")))
		label(r, "np", v);
	if (tr_meta_i64(in, "np", &np) == 0) {
		/* The host.R keys there are, not R up to np: a header of
		 * two lines may claim millions of ranks. */
		for (i = 0; i < tr_meta_count(in); i++) {
			k = tr_meta_at(in, i, &v);
			kn = strlen(k);
			if (kn > 5 && memcmp(k, "host.", 5) == 0 &&
			    tr_parse_i64(k + 5, kn - 5, &rk) == 0 &&
			    rk >= 0 && rk < np)
				tr_map_get(hosts, v, strlen(v), 1);
		}
		if (tr_map_len(hosts) > 0) {
			snprintf(buf, sizeof buf, "%zu", tr_map_len(hosts));
			label(r, "nodes", buf);
		}
	}
	if ((v = tr_meta(in, "host.0")))
		label(r, "place", v);
	if ((v = tr_meta(in, "mpi")))
		label(r, "lib", v);
	if ((v = tr_meta(in, "N")))
		label(r, "input", v);
	if ((v = tr_meta(in, "date")))
		label(r, "date", v);
	for (i = 0; i < tr_meta_count(in); i++) {
		k = tr_meta_at(in, i, &v);
		kn = strlen(k);
		if (kn > 5 && memcmp(k, "cond.", 5) == 0 &&
		    tr_label_ok(k + 5, kn - 5)) {
			char *name = tr_strndup(k + 5, kn - 5);

			label(r, name, v);
			free(name);
		}
	}
	tr_map_free(hosts);
}

/* The files of PATH: itself, or the regular files of a directory. */
static char **
files_of(const char *path, int *n)
{
	struct stat st;
	char **v, **names;
	size_t i, nn;

	*n = 0;
	if (strcmp(path, "-") != 0 && stat(path, &st) < 0)
		tr_die(TR_EXIT_SYS, "%s:", path);
	if (strcmp(path, "-") == 0 || !S_ISDIR(st.st_mode)) {
		v = tr_malloc(sizeof *v);
		v[0] = tr_strdup(path);
		*n = 1;
		return v;
	}
	names = listdir(path, &nn);
	v = tr_calloc(nn ? nn : 1, sizeof *v);
	for (i = 0; i < nn; i++) {
		char *f = tr_store_path(path, names[i]);

		if (stat(f, &st) == 0 && S_ISREG(st.st_mode))
			v[(*n)++] = f;
		else
			free(f);
		free(names[i]);
	}
	free(names);
	if (*n == 0)
		tr_die(TR_EXIT_DATA, "%s: no files in the directory", path);
	return v;
}

/* The data goes to a temporary folder beside the runs, which is renamed
 * to the run's id under the lock: a failure leaves the store as it was. */
char *
tr_store_add(const char *dir, const char *path, int nlabels, char **labels)
{
	struct tr_run r = {0};
	struct ext x = {0};
	struct tr_in *in;
	struct tr_out *o;
	struct tr_rec rec;
	char *runs = tr_store_path(dir, "runs"), *tmpl, *data, *dst, *id, *writer;
	char **files, buf[64];
	int i, n, t, fd, lk, wfd;

	mkdir_p(dir);
	mkdir_p(runs);
	tmpl = tr_store_path(runs, ".tmp.XXXXXX");
	lk = tr_store_lock(dir);
	if (!mkdtemp(tmpl))
		tr_die(TR_EXIT_SYS, "%s:", tmpl);
	tmpdir = tmpl;
	chmod(tmpl, 0777 & ~umask_now());
	writer = tr_store_path(tmpl, ".writer");
	wfd = open(writer, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (wfd < 0 || flock(wfd, LOCK_EX) < 0)
		tr_die(TR_EXIT_SYS, "%s:", writer);
	tr_store_unlock(lk);
	files = files_of(path, &n);
	data = tr_store_path(tmpl, "data.tr.gz");
	fd = open(data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		tr_die(TR_EXIT_SYS, "%s:", data);
	o = tr_out_open(fd, 1);
	tr_atdie = rmtmp;
	tr_run_set(&r, "id", "-");
	tr_run_set(&r, "enabled", "1");
	in = tr_open(n, files);
	/* A run stored without a rank's file would be compared night
	 * after night as if it were whole. */
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((t = tr_next(in, &rec)) != TR_EOF) {
		if (t == TR_HDR) {
			if (tr_in_section(in) > 1)
				tr_in_die(in, "holds several runs: add them "
				    "one by one");
			tr_out_sync(o, in);
			meta_labels(&r, in);
		} else if (t == TR_REC) {
			tr_out_rec(o, &rec);
			extent(&x, in, &rec);
		}
	}
	if (tr_in_status(in)) {
		rmtmp();
		exit(tr_in_status(in));
	}
	tr_close(in);
	/* Synced after the last of the buffer and the gzip trailer are
	 * written: the index that names the run is synced after it. */
	tr_out_finish(o);
	if (fsync(fd) < 0)
		tr_die(TR_EXIT_SYS, "%s:", data);
	tr_out_close(o);
	tr_atdie = rmtmp;
	if (!tr_run_get(&r, "date")) {
		time_t now = time(NULL);

		strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		tr_run_set(&r, "date", buf);
	}
	time_label(&r, &x);
	free(x.rank);
	for (i = 0; i < nlabels; i++) {
		char *eq = strchr(labels[i], '='), *k;

		k = tr_strndup(labels[i], (size_t)(eq - labels[i]));
		label(&r, k, eq + 1);
		free(k);
	}

	lk = tr_store_lock(dir);
	id = tr_store_newid(dir);
	tr_run_set(&r, "id", id);
	tr_run_save(&r, tmpl);
	dst = tr_store_path(runs, id);
	if (unlink(writer) < 0 || rename(tmpl, dst) < 0)
		tr_die(TR_EXIT_SYS, "%s:", dst);
	close(wfd);
	sync_dir(dst);
	tmpdir = NULL;
	tr_atdie = NULL;
	tr_store_reindex(dir);
	tr_store_unlock(lk);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	tr_run_free(&r);
	free(dst);
	free(data);
	free(writer);
	free(tmpl);
	free(runs);
	return id;
}

int
tr_store_enable(const char *dir, int nids, char **ids, int on)
{
	struct tr_run r;
	char *runs = tr_store_path(dir, "runs");
	int i, lk = tr_store_lock(dir), bad = 0;

	for (i = 0; i < nids; i++) {
		char *d;

		if (strchr(ids[i], '/') || ids[i][0] == '.' ||
		    tr_run_load(&r, dir, ids[i]) < 0) {
			tr_warn("%s: no such run", ids[i]);
			bad = 1;
			continue;
		}
		tr_run_set(&r, "enabled", on ? "1" : "0");
		d = tr_store_path(runs, ids[i]);
		tr_run_save(&r, d);
		free(d);
		tr_run_free(&r);
	}
	tr_store_reindex(dir);
	tr_store_unlock(lk);
	free(runs);
	return bad ? -1 : 0;
}
