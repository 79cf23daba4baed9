/* cmp.c - one value per key and run, over repeated runs: what tr-mean
 * and tr-diff compare. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

enum { V_COL, V_EVTIME, V_IO, V_CPU, V_COUNT, V_MEAN };
enum { K_COL, K_JOB, K_CLASS };
/* What of a nested job's value its parent job's includes: none, the
 * union of their spans (elapsed), that less their CPU times (io), or
 * their sum (CPU times, page faults). */
enum { N_NONE, N_SPAN, N_IO, N_SUM };

struct jobval {
	long key;
	double v, cpu;
};

struct key {
	struct tr_stat st;
	double cur;		/* this repeat's sum */
	long gen;		/* repeat in which cur was last set */
	double covered;		/* runs that had the key */
};

struct tr_cmp {
	const char *kname, *vname;	/* chosen by the user, or NULL */
	struct tr_map *map;
	struct key *k;
	size_t cap;
	long gen;
	double runs;		/* runs read (a mean record holds n) */
	double secmax;		/* the largest n of this section's means */
	int raw;		/* this repeat fed raw values */

	/* How the records of the cached declaration are read. */
	const struct tr_decl *decl;
	int ok, kcol, kmode, vcol, vmode, rcol, perrank, scol, ncol;
	double aggranks;	/* profagg: the most ranks a function is on */

	char *type;		/* the type this repeat consumes */
	unsigned char *seen;	/* ranks seen in this repeat */
	int64_t *lastend;	/* ev: end of each rank's previous call */
	int64_t *lastseq;	/* ev: its seq */
	int64_t *flenter;	/* reg: start of a tr.flush, -1 outside */
	int keyrank;		/* the key is the rank: no mean over ranks */
	size_t nseen;
	long nranks;

	char **meta, **rmeta;	/* common metadata; this repeat's */
	size_t nmeta, nrmeta;
	int metaset;

	char *kby, *vby;	/* key and value of the runs so far ("": the
				 * default), NULL before the first */

	/* This repeat's jobs, whose nested jobs tr_cmp_end takes out of
	 * the jobs they ran in: a recursive make's job is its children's
	 * time and its own, and (total) would count them twice. */
	int pcol, nest;
	struct tr_job *jobs;
	struct jobval *jv;
	size_t njobs, jcap, jvcap;
	struct tr_map *hosts;

	/* sys elapsed: the columns of pid, time, call and result, and the
	 * wait4s whose children the log shows (lib/analyse/reaped.c). */
	int spid, stime, scall, sres;
	struct tr_reaped *reaped;
	char *file;		/* the run's, for a warning at its end */
	int guesswarned, earlywarned;
	int tried, used;	/* declarations set up, and read by */
};

struct tr_cmp *
tr_cmp_new(const char *key, const char *value)
{
	struct tr_cmp *c = tr_calloc(1, sizeof *c);

	c->kname = key;
	c->vname = value;
	c->map = tr_map_new();
	c->gen = 1;
	return c;
}

static void
free_strv(char **v, size_t n)
{
	while (n--)
		free(v[n]);
	free(v);
}

void
tr_cmp_free(struct tr_cmp *c)
{
	if (!c)
		return;
	tr_map_free(c->map);
	free(c->k);
	free(c->type);
	free(c->seen);
	free(c->lastend);
	free(c->lastseq);
	free(c->flenter);
	free_strv(c->meta, c->nmeta);
	free_strv(c->rmeta, c->nrmeta);
	free(c->kby);
	free(c->vby);
	free(c->jobs);
	free(c->jv);
	if (c->hosts)
		tr_map_free(c->hosts);
	tr_reaped_free(c->reaped);
	free(c->file);
	free(c);
}

void
tr_cmp_like(struct tr_cmp *c, const struct tr_cmp *like)
{
	if (like->kby && !c->kby)
		c->kby = tr_strdup(like->kby);
	if (like->vby && !c->vby)
		c->vby = tr_strdup(like->vby);
}

void
tr_cmp_by(const struct tr_cmp *c, const char **key, const char **value)
{
	*key = c->kby && *c->kby ? c->kby : NULL;
	*value = c->vby && *c->vby ? c->vby : NULL;
}

/* "key class", or "the default key" for "". */
static const char *
byname(char *buf, size_t n, const char *what, const char *name)
{
	snprintf(buf, n, *name ? "%s %s" : "the default %s", what, name);
	return buf;
}

/* Runs are by one key and of one value: mean records keep those they
 * were made with (#meta mean.key, mean.value), which -k and -v cannot
 * change, and runs by other keys do not pool. */
static void
check_by(const struct tr_in *in, char **seen, const char *asked,
    const char *got, const char *flag, const char *what)
{
	char b1[128], b2[128];

	if (asked && strcmp(asked, got) != 0)
		tr_in_die(in, "%s %s: mean records keep their %s (here %s): "
		    "make them with tr-mean %s %s", flag, asked, what,
		    byname(b1, sizeof b1, what, got), flag, asked);
	if (*seen && strcmp(*seen, got) != 0)
		tr_in_die(in, "runs by %s after runs by %s",
		    byname(b1, sizeof b1, what, got),
		    byname(b2, sizeof b2, what, *seen));
	if (!*seen)
		*seen = tr_strdup(got);
}

static long
key_index(struct tr_cmp *c, const char *s, size_t n)
{
	long i = tr_map_get(c->map, s, n, 1);

	if ((size_t)i >= c->cap) {
		size_t old = c->cap;

		tr_grow(&c->k, &c->cap, (size_t)i + 1, sizeof *c->k);
		memset(c->k + old, 0, (c->cap - old) * sizeof *c->k);
	}
	return i;
}

static int
is(const struct tr_decl *d, const char *name)
{
	return strcmp(d->name, name) == 0;
}

static int
nesting(const struct tr_cmp *c, const char *vn)
{
	static const char *const sums[] = {
		"user", "sys", "minflt", "majflt", NULL
	};
	const char *const *p;

	if (c->vmode == V_IO)
		return N_IO;
	if (c->vmode == V_CPU)
		return N_SUM;
	if (c->vmode != V_COL)
		return N_NONE;
	if (strcmp(vn, "elapsed") == 0)
		return N_SPAN;
	for (p = sums; *p; p++)
		if (strcmp(vn, *p) == 0)
			return N_SUM;
	return N_NONE;
}

static void
unwait(void *ctx, long key, double ns)
{
	struct tr_cmp *c = ctx;

	c->k[key].cur -= ns;
}

/* Sets up reading of declaration D; 0 if its records are not used. */
static int
setup(struct tr_cmp *c, const struct tr_in *in, const struct tr_decl *d)
{
	const char *kn = c->kname, *vn = c->vname;
	int deflt = 1;

	c->kmode = K_COL;
	c->vmode = V_COL;
	c->rcol = c->scol = c->ncol = c->pcol = c->spid = -1;
	c->perrank = 0;
	c->nest = N_NONE;
	if (is(d, "ev")) {
		kn = kn ? kn : "op";
		vn = vn ? vn : "time";
		c->perrank = 1;
	} else if (is(d, "prof") || is(d, "profagg")) {
		if (is(d, "profagg") && tr_decl_find(in, "prof"))
			return 0;
		kn = kn ? kn : "name";
		vn = vn ? vn : "excl";
		c->perrank = is(d, "prof");
		if (is(d, "profagg")) {
			c->scol = 1;
			c->ncol = tr_decl_col(d, "ranks");
		}
	} else if (is(d, "job")) {
		if (!kn)
			c->kmode = K_JOB;
		vn = vn ? vn : "elapsed";
	} else if (is(d, "sys")) {
		kn = kn ? kn : "call";
		vn = vn ? vn : "elapsed";
	} else if (is(d, "mean")) {
		const char *mk = tr_meta(in, "mean.key");
		const char *mv = tr_meta(in, "mean.value");

		check_by(in, &c->kby, c->kname, mk ? mk : "", "-k", "key");
		check_by(in, &c->vby, c->vname, mv ? mv : "", "-v", "value");
		kn = "key";
		vn = "mean";
		c->vmode = V_MEAN;
	} else if (is(d, "opstat")) {
		kn = kn ? kn : "op";
		vn = vn ? vn : "time";
	} else {
		deflt = 0;
	}
	if (!deflt && (!c->kname || !c->vname))
		return 0;
	if (c->kmode == K_JOB) {
		c->kcol = tr_decl_col(d, "target");
	} else if (strcmp(kn, "class") == 0 && is(d, "sys")) {
		c->kmode = K_CLASS;
		c->kcol = tr_decl_col(d, "call");
	} else {
		c->kcol = tr_decl_col(d, kn);
	}
	if (c->kcol <= 0)
		return 0;
	if (c->vmode == V_MEAN)
		;
	else if (strcmp(vn, "time") == 0 && is(d, "ev"))
		c->vmode = V_EVTIME;
	else if (strcmp(vn, "io") == 0 && is(d, "job"))
		c->vmode = V_IO;
	else if (strcmp(vn, "cpu") == 0 && is(d, "job"))
		c->vmode = V_CPU;
	else if ((c->vcol = tr_decl_col(d, vn)) > 0)
		;
	else if (strcmp(vn, "calls") == 0)
		c->vmode = V_COUNT;
	else
		return 0;
	if (c->perrank)
		c->rcol = tr_decl_col(d, "rank");
	if (is(d, "job") && (c->pcol = tr_decl_col(d, "parent")) > 0)
		c->nest = nesting(c, vn);
	if (is(d, "sys") && c->vmode == V_COL && strcmp(vn, "elapsed") == 0 &&
	    (c->spid = tr_decl_col(d, "pid")) > 0) {
		c->stime = tr_decl_col(d, "time");
		c->scall = tr_decl_col(d, "call");
		c->sres = tr_decl_col(d, "result");
		if (c->stime <= 0 || c->scall <= 0 || c->sres <= 0)
			c->spid = -1;
		else if (!c->reaped)
			c->reaped = tr_reaped_new(unwait, c);
	}
	c->keyrank = c->rcol > 0 && c->kcol == c->rcol;
	if (c->vmode != V_MEAN) {
		check_by(in, &c->kby, NULL, c->kname ? c->kname : "", "-k",
		    "key");
		check_by(in, &c->vby, NULL, c->vname ? c->vname : "", "-v",
		    "value");
	}
	return 1;
}

static const char *const metacalls[] = {
	"open", "openat", "openat2", "creat", "close", "close_range",
	"stat", "lstat", "fstat", "newfstatat", "fstatat64", "statx",
	"access", "faccessat", "faccessat2", "getdents", "getdents64",
	"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
	"renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"readlink", "readlinkat", "chmod", "fchmod", "fchmodat", "chown",
	"fchown", "lchown", "fchownat", "utime", "utimes", "utimensat",
	"truncate", "ftruncate", "statfs", "fstatfs", "chdir", "fchdir",
	"getcwd", "mknod", "mknodat", "setxattr", "getxattr", "listxattr",
	"lgetxattr", "fgetxattr", NULL
};
static const char *const datacalls[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv",
	"pwritev", "preadv2", "pwritev2", "sendfile", "copy_file_range",
	"splice", "fsync", "fdatasync", "sync_file_range", "lseek",
	"fallocate", "msync", NULL
};

/* What strace -y shows for a descriptor that is no file: a read of a
 * pipe waits for the process writing it, and closing one is no file
 * system metadata. An eventfd, epoll or inotify descriptor is an
 * anon_inode:, and a memfd (memfd_create) lives in memory, not on a
 * file system. */
static const char *const nofile[] = {
	"anon_inode:", "/memfd:", NULL
};

/* Pipes and sockets, TYPE:[...]: pipe:[12] and socket:[13] with -y,
 * with -yy TCP:[127.0.0.1:22->10.0.0.1:5000], UNIX-STREAM:[12->13] and
 * the like; and a pidfd, pid:N. A file opened by a name without a
 * slash would have to be named like one. */
static int
sockish(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '-'))
		i++;
	if (i == 3 && n > 4 && memcmp(p, "pid:", 4) == 0) {
		for (i = 4; i < n && isdigit((unsigned char)p[i]); i++)
			;
		return i == n;
	}
	return i > 0 && n - i >= 2 && p[i] == ':' && p[i + 1] == '[';
}

const char *
tr_sys_class(const char *call, size_t n, const char *path, size_t pn)
{
	const char *const *p;

	if (sockish(path, pn))
		return "other";
	for (p = nofile; *p; p++)
		if (pn >= strlen(*p) && memcmp(path, *p, strlen(*p)) == 0)
			return "other";
	for (p = metacalls; *p; p++)
		if (strlen(*p) == n && memcmp(*p, call, n) == 0)
			return "metadata";
	for (p = datacalls; *p; p++)
		if (strlen(*p) == n && memcmp(*p, call, n) == 0)
			return "data";
	return "other";
}

static long
add(struct tr_cmp *c, const char *k, size_t n, double v)
{
	long i = key_index(c, k, n);
	struct key *e = &c->k[i];

	if (e->gen != c->gen) {
		e->gen = c->gen;
		e->cur = 0;
	}
	e->cur += v;
	return i;
}

static void
add_job(struct tr_cmp *c, const struct tr_in *in, const struct tr_rec *r,
    long key, double v)
{
	struct tr_job *j;
	struct jobval *jv;

	if (!c->hosts)
		c->hosts = tr_map_new();
	tr_grow(&c->jobs, &c->jcap, c->njobs + 1, sizeof *c->jobs);
	tr_grow(&c->jv, &c->jvcap, c->njobs + 1, sizeof *c->jv);
	j = &c->jobs[c->njobs];
	jv = &c->jv[c->njobs++];
	j->host = tr_map_get(c->hosts, r->f[1].p, r->f[1].n, 1);
	j->pid = tr_get_i64(in, r, 2);
	j->parent = tr_get_i64(in, r, c->pcol);
	j->start = tr_get_i64(in, r, 4);
	j->end = tr_in_add(in, j->start, tr_get_i64(in, r, 5),
	    "start + elapsed");
	jv->key = key;
	jv->v = v;
	jv->cpu = (double)(tr_get_i64(in, r, 6) + tr_get_i64(in, r, 7));
}

static int
callis(const struct tr_field *f, const char *name)
{
	return f->n == strlen(name) && memcmp(f->p, name, f->n) == 0;
}

/* A wait4 or waitpid that reaped a child (its result) waited while the
 * children ran; a call whose pid is unknown (-1) is no process's. The
 * clones say which process a wait can reap, so that the calls no wait
 * can still reach are dropped. */
static void
add_sys(struct tr_cmp *c, const struct tr_in *in, const struct tr_rec *r,
    long key, double v)
{
	const struct tr_field *call = &r->f[c->scall];
	int64_t pid = tr_get_i64(in, r, c->spid);
	int64_t t = tr_get_i64(in, r, c->stime), res;
	int64_t e = tr_in_add(in, t, (int64_t)v, "time + elapsed");

	if (pid < 0)
		return;
	tr_reaped_call(c->reaped, pid, t, e);
	if (callis(call, "wait4") || callis(call, "waitpid")) {
		res = tr_get_i64(in, r, c->sres);
		if (res > 0 && res != pid)
			tr_reaped_wait(c->reaped, pid, res, t, e, key);
	} else if (callis(call, "clone") || callis(call, "clone3") ||
	    callis(call, "fork") || callis(call, "vfork")) {
		res = tr_get_i64(in, r, c->sres);
		if (res > 0)
			tr_reaped_fork(c->reaped, pid, res);
	} else if (callis(call, "exit_group"))
		tr_reaped_exit(c->reaped, pid, 1);
	else if (callis(call, "exit"))
		tr_reaped_exit(c->reaped, pid, 0);
}

/* Each parent job keeps its own part: its value less what its nested
 * jobs' include (never below 0 for times and counts: clocks step). */
static void
unnest(struct tr_cmp *c)
{
	size_t i, n = c->njobs;
	double *sub = tr_calloc(n, sizeof *sub);
	int64_t *inner = NULL;
	unsigned char *isup = tr_calloc(n, 1);

	tr_jobs_nest(c->jobs, n);
	if (c->nest == N_SPAN || c->nest == N_IO) {
		inner = tr_calloc(n, sizeof *inner);
		tr_jobs_inner(c->jobs, n, inner);
	}
	for (i = 0; i < n; i++) {
		long up = c->jobs[i].up;

		if (up < 0)
			continue;
		isup[up] = 1;
		if (c->nest == N_SUM)
			sub[up] += c->jv[i].v;
		else if (c->nest == N_IO)
			sub[up] -= c->jv[i].cpu;
	}
	for (i = 0; i < n; i++) {
		if (!isup[i])
			continue;
		if (inner)
			sub[i] += (double)inner[i];
		if (c->nest != N_IO && sub[i] > c->jv[i].v)
			sub[i] = c->jv[i].v;
		c->k[c->jv[i].key].cur -= sub[i];
	}
	free(sub);
	free(inner);
	free(isup);
}

static void
see_rank(struct tr_cmp *c, int64_t r)
{
	if ((size_t)r >= c->nseen) {
		size_t old = c->nseen, cap = c->nseen;

		tr_grow(&c->seen, &cap, (size_t)r + 1, 1);
		memset(c->seen + old, 0, cap - old);
		c->lastend = tr_realloc(c->lastend, cap * sizeof *c->lastend);
		memset(c->lastend + old, 0xff, (cap - old) * sizeof *c->lastend);
		c->lastseq = tr_realloc(c->lastseq, cap * sizeof *c->lastseq);
		memset(c->lastseq + old, 0xff, (cap - old) * sizeof *c->lastseq);
		c->flenter = tr_realloc(c->flenter, cap * sizeof *c->flenter);
		memset(c->flenter + old, 0xff, (cap - old) * sizeof *c->flenter);
		c->nseen = cap;
	}
	if (!c->seen[r]) {
		c->seen[r] = 1;
		c->nranks++;
	}
}

int
tr_cmp_rec(struct tr_cmp *c, const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_field *kf;
	double v;
	long k;

	/* tr-record's buffer flushes, between two calls: not the
	 * program's computation (tr-record(1)). */
	if (r->type == TR_REG && tr_reg_flush(&r->u.reg) &&
	    (!c->type || strcmp(c->type, "ev") == 0)) {
		int64_t rank = r->u.reg.rank;

		if (rank < 0 || rank > (1 << 24))
			tr_in_die(in, "rank %lld out of range", (long long)rank);
		see_rank(c, rank);
		if (!r->u.reg.leave)
			c->flenter[rank] = r->u.reg.time;
		else if (c->flenter[rank] >= 0 && c->lastend[rank] >= 0 &&
		    r->u.reg.time >= c->flenter[rank])
			c->lastend[rank] += r->u.reg.time - c->flenter[rank];
		if (r->u.reg.leave)
			c->flenter[rank] = -1;
		return 0;
	}
	/* Records of other types than the one this repeat consumes (the
	 * comm records among ev, the profagg after prof) are not set up:
	 * that would leave their way of reading, not the consumed type's,
	 * to tr_cmp_end, which then took a sum over ranks for their mean. */
	if (c->type && strcmp(c->type, r->decl->name) != 0)
		return 0;
	if (r->decl != c->decl) {
		c->decl = r->decl;
		c->ok = setup(c, in, r->decl);
		c->tried = 1;
		c->used |= c->ok;
	}
	if (!c->ok)
		return 0;
	if (!c->type)
		c->type = tr_strdup(r->decl->name);
	if (c->scol > 0 && (r->f[c->scol].n != 4 ||
	    memcmp(r->f[c->scol].p, "mean", 4) != 0))
		return 1;
	kf = &r->f[c->kcol];
	if (c->vmode == V_MEAN) {
		struct tr_stat s;
		double sd;
		long i = key_index(c, kf->p, kf->n);

		s.n = (double)tr_get_i64(in, r, 2);
		/* Runs are counted in doubles, and said as a long. */
		if (s.n > 0x1p53)
			tr_in_die(in, "mean: n of %.0f runs: more than a double "
			    "counts exactly", s.n);
		s.mean = tr_get_f64(in, r, 3);
		sd = tr_get_f64(in, r, 4);
		s.m2 = s.n > 1 ? sd * sd * (s.n - 1) : 0;
		s.min = tr_get_f64(in, r, 5);
		s.max = tr_get_f64(in, r, 6);
		tr_stat_merge(&c->k[i].st, &s);
		c->k[i].covered += s.n;
		if (s.n > c->secmax)
			c->secmax = s.n;
		return 1;
	}
	c->raw = 1;
	switch (c->vmode) {
	case V_EVTIME:
		v = (double)(r->u.ev.end - r->u.ev.start);
		break;
	case V_IO:
	case V_CPU:
		/* each fits 64 bits, their sum need not (a fuzzed sys) */
		v = (double)tr_get_i64(in, r, 6) + (double)tr_get_i64(in, r, 7);
		if (c->vmode == V_IO)
			v = (double)tr_get_i64(in, r, 5) - v;
		break;
	case V_COUNT:
		v = 1;
		break;
	default:
		v = tr_get_f64(in, r, c->vcol);
		if (v < 0 && is(r->decl, "sys"))
			v = 0;	/* elapsed not known */
		/* Summed, the -1 of a run recorded without CPU time (-C)
		 * made negative times and ratios of -119,453. */
		if (v == -1 && r->type == TR_EV &&
		    strcmp(r->decl->names[c->vcol], "cpu") == 0)
			tr_in_die(in, "cpu -1: the CPU time was not measured "
			    "(tr-record -C), and -v cpu compares it");
		/* A profagg mean is over the ranks that have the function:
		 * taken as the sum over them, and divided by the run's ranks
		 * at the end, it is the time per rank that prof and ev
		 * records give (rank 0's I/O is not each rank's). */
		if (c->ncol > 0) {
			double nr = (double)tr_get_i64(in, r, c->ncol);

			v *= nr;
			if (nr > c->aggranks)
				c->aggranks = nr;
		}
		break;
	}
	if (c->rcol > 0) {
		int64_t rank = tr_get_i64(in, r, c->rcol);

		if (rank < 0 || rank > (1 << 24))
			tr_in_die(in, "rank %lld out of range", (long long)rank);
		see_rank(c, rank);
		/* A completion of several requests is one record per
		 * request, with one seq and one time: one call. */
		if (r->type == TR_EV && (c->vmode == V_EVTIME ||
		    c->vmode == V_COUNT)) {
			if (r->u.ev.seq == c->lastseq[rank])
				return 1;
			c->lastseq[rank] = r->u.ev.seq;
		}
		if (c->vmode == V_EVTIME) {
			if (c->lastend[rank] >= 0 &&
			    r->u.ev.start > c->lastend[rank]) {
				double gap = (double)(r->u.ev.start -
				    c->lastend[rank]);

				if (c->keyrank)
					add(c, kf->p, kf->n, gap);
				else
					add(c, "compute", 7, gap);
			}
			c->lastend[rank] = r->u.ev.end;
		}
	}
	if (c->kmode == K_CLASS) {
		int pc = tr_decl_col(r->decl, "path");
		const char *cl = tr_sys_class(kf->p, kf->n,
		    pc >= 0 ? r->f[pc].p : "", pc >= 0 ? r->f[pc].n : 0);

		k = add(c, cl, strlen(cl), v);
	} else {
		if (c->kmode == K_JOB && kf->n == 1 && kf->p[0] == '-')
			kf = &r->f[tr_decl_col(r->decl, "cmd")];
		k = add(c, kf->p, kf->n, v);
	}
	if (c->nest != N_NONE)
		add_job(c, in, r, k, v);
	if (c->spid > 0)
		add_sys(c, in, r, k, v);
	return 1;
}

void
tr_cmp_hdr(struct tr_cmp *c, const struct tr_in *in)
{
	size_t i, n, kn;

	free(c->file);
	c->file = tr_strdup(tr_in_file(in));
	free_strv(c->rmeta, c->nrmeta);
	n = tr_meta_count(in);
	c->rmeta = tr_calloc(n ? n : 1, sizeof *c->rmeta);
	for (i = 0; i < n; i++) {
		const char *v, *k = tr_meta_at(in, i, &v);
		size_t vn = strlen(v);

		kn = strlen(k);
		char *s = tr_malloc(kn + vn + 2);

		memcpy(s, k, kn);
		s[kn] = '=';
		memcpy(s + kn + 1, v, vn + 1);
		c->rmeta[i] = s;
	}
	c->nrmeta = n;
}

static void
meta_keep_common(struct tr_cmp *c)
{
	size_t i, j, w = 0;

	if (!c->metaset) {
		c->metaset = 1;
		c->meta = c->rmeta;
		c->nmeta = c->nrmeta;
		c->rmeta = NULL;
		c->nrmeta = 0;
		return;
	}
	for (i = 0; i < c->nmeta; i++) {
		for (j = 0; j < c->nrmeta; j++)
			if (strcmp(c->meta[i], c->rmeta[j]) == 0)
				break;
		if (j < c->nrmeta)
			c->meta[w++] = c->meta[i];
		else
			free(c->meta[i]);
	}
	c->nmeta = w;
}

void
tr_cmp_end(struct tr_cmp *c)
{
	size_t i, n = tr_map_len(c->map);
	double total = 0, div = 1;
	long t;

	if (c->njobs) {
		unnest(c);
		c->njobs = 0;
	}
	if (c->reaped)
		tr_reaped_end(c->reaped);
	/* Bounded memory has its price: said, not silently estimated. */
	if (c->reaped && tr_reaped_guessed(c->reaped) && !c->guesswarned) {
		tr_warn("%s: a wait4 that reaped processes making more than "
		    "%d calls at once is estimated, their calls' overlap "
		    "taken as independent", c->file ? c->file : "-",
		    TR_REAPED_SPANS);
		c->guesswarned = 1;
	}
	if (c->reaped && tr_reaped_early(c->reaped) && !c->earlywarned) {
		tr_warn("%s: a process had more than %d wait4s open at once: "
		    "its oldest were counted before all its children's calls "
		    "were read, and may keep some of their time",
		    c->file ? c->file : "-", TR_REAPED_WAITS);
		c->earlywarned = 1;
	}
	if (c->raw) {
		if (c->rcol > 0 && c->nranks > 0 && !c->keyrank)
			div = (double)c->nranks;
		else if (c->aggranks > 0)
			div = c->aggranks;
		for (i = 0; i < n; i++) {
			struct key *e = &c->k[i];

			if (e->gen != c->gen)
				continue;
			tr_stat_add(&e->st, e->cur / div);
			e->covered++;
			total += e->cur / div;
		}
		t = key_index(c, TR_CMP_TOTAL, strlen(TR_CMP_TOTAL));
		tr_stat_add(&c->k[t].st, total);
		c->k[t].covered++;
		c->runs++;
	}
	c->runs += c->secmax;
	c->secmax = 0;
	if (c->raw || c->type)
		meta_keep_common(c);
	c->raw = 0;
	c->gen++;
	free(c->type);
	c->type = NULL;
	c->decl = NULL;
	if (c->seen)
		memset(c->seen, 0, c->nseen);
	if (c->lastend) {
		memset(c->lastend, 0xff, c->nseen * sizeof *c->lastend);
		memset(c->lastseq, 0xff, c->nseen * sizeof *c->lastseq);
		memset(c->flenter, 0xff, c->nseen * sizeof *c->flenter);
	}
	c->nranks = 0;
	c->aggranks = 0;
}

int
tr_cmp_read(struct tr_cmp *c, int nfiles, char **files)
{
	struct tr_in *in = tr_open(nfiles, files);
	struct tr_rec r;
	int t, status;

	/* A trace without a rank's file gives smaller times per rank. */
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((t = tr_next(in, &r)) != TR_EOF) {
		if (t == TR_HDR)
			tr_cmp_hdr(c, in);
		else if (t == TR_REC)
			tr_cmp_rec(c, in, &r);
		else if (t == TR_END)
			tr_cmp_end(c);
	}
	tr_cmp_end(c);
	tr_cmp_matched(c, nfiles ? files[0] : "-");
	status = tr_in_status(in);
	tr_close(in);
	return status;
}

void
tr_cmp_finish(struct tr_cmp *c)
{
	size_t i, n = tr_map_len(c->map);

	/* A key a run lacks took no time in it. */
	for (i = 0; i < n; i++) {
		struct key *e = &c->k[i];
		struct tr_stat z = {0, 0, 0, 0, 0};

		if (e->covered > 0 && e->covered < c->runs) {
			z.n = c->runs - e->covered;
			tr_stat_merge(&e->st, &z);
			e->covered = c->runs;
		}
	}
}

void
tr_cmp_matched(const struct tr_cmp *c, const char *input)
{
	if ((c->kname || c->vname) && c->tried && !c->used)
		tr_die(TR_EXIT_USAGE, "%s: %s%s%s%s%s: no record of it has %s",
		    input, c->kname ? "-k " : "", c->kname ? c->kname : "",
		    c->kname && c->vname ? " " : "", c->vname ? "-v " : "",
		    c->vname ? c->vname : "", c->kname && c->vname ?
		    "these columns" : "such a column");
}

size_t
tr_cmp_len(const struct tr_cmp *c)
{
	return tr_map_len(c->map);
}

const char *
tr_cmp_key(const struct tr_cmp *c, long i, size_t *n)
{
	return tr_map_key(c->map, i, n);
}

const struct tr_stat *
tr_cmp_stat(const struct tr_cmp *c, long i)
{
	return &c->k[i].st;
}

long
tr_cmp_find(const struct tr_cmp *c, const char *key, size_t n)
{
	return tr_map_get(c->map, key, n, 0);
}

long
tr_cmp_reps(const struct tr_cmp *c)
{
	return (long)c->runs;
}

const char *
tr_cmp_meta(const struct tr_cmp *c, size_t i)
{
	return i < c->nmeta ? c->meta[i] : NULL;
}

