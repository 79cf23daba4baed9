/* strace.c - strace -f -tt -T logs converted into sys records: one per
 * completed system call, with the path it worked on. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

struct pending {
	char *call, *args;
	int64_t time;
	int64_t tod, day;	/* -tt: the last time of day, days passed */
	struct tr_fdtab *tab;	/* its descriptors; NULL until needed */
	int shared;		/* tab is not the one it started with */
	int seen;		/* has had a line of its own */
	int forking;		/* its unfinished call makes a process */
	int execd;		/* has made a successful execve */
};

struct tr_strace {
	struct tr_in *in;
	struct tr_out *out;
	/* Live processes only, so that memory follows the processes alive
	 * at once, not those of the whole log, and a pid the kernel hands
	 * out again is a new process: pid -> struct pending. */
	struct tr_itab pids;
	struct tr_fdtabs fds;
	/* Processes that exited while a fork was unfinished: the fork that
	 * returns one of them made a process already gone. */
	struct tr_itab gone;
	char *joined;	/* a resumed call's arguments, whole: freed with st
			 * if the call is bad */
	/* Processes inside an unfinished clone, fork or vfork, and the last
	 * to start one: a child's first lines may come before its parent's
	 * call returns with its pid (strace -f prints them as they
	 * happen). */
	size_t nforking;
	int64_t forker;
	int hdrdone;
};

static struct pending *pending(struct tr_strace *, int64_t);

static _Noreturn void
bad(struct tr_strace *st, const char *what)
{
	tr_in_die(st->in, "%s", what);
}

static int64_t
digits(struct tr_strace *st, const char **pp, const char *e, int *nd)
{
	const char *p = *pp;
	int64_t v = 0;

	*nd = 0;
	while (p < e && isdigit((unsigned char)*p) && *nd < 18) {
		v = v * 10 + (*p++ - '0');
		++*nd;
	}
	/* 18 digits cannot overflow; strace writes no longer number. */
	if (p < e && isdigit((unsigned char)*p))
		bad(st, "number of more than 18 digits");
	*pp = p;
	return v;
}

/* SECONDS[.FRACTION] as ns; the fraction has up to 9 digits. -2 past
 * 2^62 ns (the year 2116 as a time since the epoch): the time of day of
 * -tt is added, and elapsed times are added to it. */
static int
seconds(struct tr_strace *st, const char **pp, const char *e, int64_t *ns)
{
	int nd;
	int64_t s = digits(st, pp, e, &nd), f = 0;

	if (nd == 0)
		return -1;
	if (s >= ((int64_t)1 << 62) / 1000000000)
		return -2;
	*ns = s * 1000000000;
	if (*pp < e && **pp == '.') {
		++*pp;
		f = digits(st, pp, e, &nd);
		if (nd == 0 || nd > 9)
			return -1;
		while (nd++ < 9)
			f *= 10;
		*ns += f;
	}
	return 0;
}

/* HH:MM:SS.ffffff (-tt) or seconds since the epoch (-ttt). */
static int
stamp(struct tr_strace *st, const char **pp, const char *e, int64_t *ns)
{
	const char *p = *pp;
	int nd;
	int64_t h, m;

	h = digits(st, &p, e, &nd);
	if (nd == 2 && p < e && *p == ':') {
		p++;
		m = digits(st, &p, e, &nd);
		if (nd != 2 || p >= e || *p++ != ':')
			return -1;
		if ((nd = seconds(st, &p, e, ns)) < 0)
			return nd;
		*ns += (h * 3600 + m * 60) * 1000000000;
		*pp = p;
		return 1;
	}
	return seconds(st, pp, e, ns);
}

/* Threads (clone with CLONE_FILES) share one descriptor table: one
 * opens what another reads, closes or reopens under the same number,
 * and keyed by its own pid the descriptor would keep the file it no
 * longer is. */
static struct tr_fdtab *
files(struct tr_strace *st, int64_t pid)
{
	struct pending *pd = pending(st, pid);

	if (!pd->tab)
		pd->tab = tr_fdtab_new(&st->fds);
	return pd->tab;
}

static void
setfd(struct tr_strace *st, int64_t pid, int64_t fd, const char *p, size_t n,
    int cloexec)
{
	tr_fdtab_set(&st->fds, files(st, pid), fd, p, n, cloexec);
}

/* A child process starts with a copy of its parent's descriptors. Its
 * first calls may come before the parent's fork returns: a descriptor
 * it has already opened or closed is its own, and if it has made an
 * execve (a vfork's child, while other forks were unfinished) those
 * marked close-on-exec are closed. */
static void
inherit(struct tr_strace *st, int64_t parent, int64_t child)
{
	struct tr_fdtab *f = files(st, parent), *t = files(st, child);

	if (t != f)
		tr_fdtab_copy(&st->fds, f, t, pending(st, child)->execd ?
		    TR_FDCOPY_EXEC : TR_FDCOPY_OPEN);
}

/* PID's table is F from now on, unless it has settled on one already:
 * its own descriptors (opened before its clone returned) go. */
static void
share(struct tr_strace *st, int64_t pid, struct tr_fdtab *f)
{
	struct pending *pd = pending(st, pid);

	if (pd->shared || pd->tab == f)
		return;
	tr_fdtab_release(&st->fds, pd->tab);
	pd->tab = f;
	pd->shared = 1;
	tr_fdtab_share(f);
}

/* Gives PID a table of its own, a copy of the one it may share with
 * others (CLONE_FILES), which keep theirs. */
static void
unshare(struct tr_strace *st, int64_t pid, int how)
{
	struct tr_fdtab *f = files(st, pid);
	struct pending *pd = pending(st, pid);

	pd->tab = tr_fdtab_new(&st->fds);
	pd->shared = 1;
	tr_fdtab_copy(&st->fds, f, pd->tab, how);
	tr_fdtab_release(&st->fds, f);
}

static const char *
getfd(struct tr_strace *st, int64_t pid, int64_t fd)
{
	return tr_fdtab_path(&st->fds, files(st, pid), fd);
}

/* PD's fork returned, or it never will: with none unfinished, no
 * process that exited can be one a fork returns. */
static void
unfork(struct tr_strace *st, struct pending *pd)
{
	pd->forking = 0;
	if (--st->nforking == 0 && st->gone.n)
		tr_itab_free(&st->gone);
}

/* PID, whose state is PD, is no more: its call state goes, and its
 * table with the last process sharing it. */
static void
forget(struct tr_strace *st, int64_t pid, struct pending *pd)
{
	if (pd->forking)
		unfork(st, pd);
	tr_fdtab_release(&st->fds, pd->tab);
	free(pd->call);
	free(pd->args);
	free(pd);
	tr_itab_del(&st->pids, pid, 0);
}

/* PID exited (+++ exited with, +++ killed by). */
static void
exited(struct tr_strace *st, int64_t pid)
{
	void **v = tr_itab_get(&st->pids, pid, 0, 0);

	if (!v)
		return;
	forget(st, pid, *v);
	if (st->nforking > 0)
		*tr_itab_get(&st->gone, pid, 0, 1) = &st->gone;
}

/* The quoted string at p (p at the opening quote): its extent, quotes
 * excluded. */
static const char *
quoted(const char *p, const char *e, size_t *n)
{
	const char *s = ++p;

	while (p < e && *p != '"')
		p += *p == '\\' ? 2 : 1;
	if (p >= e)
		return NULL;
	*n = (size_t)(p - s);
	return s;
}

/* What strace -y shows of a descriptor, P past its <: returns the end,
 * past its > (and a deleted file's "(deleted)"), with *n the path's
 * length. A path's own < and > are escaped (\74, \76); -yy adds to
 * a device what it is, 1</dev/null<char 1:3>>, which is left out, and
 * shows a socket's ends, 3<TCP:[127.0.0.1:22->10.0.0.1:5000]>, whose
 * > is no end. */
static const char *
fdend(const char *p, const char *e, size_t *n)
{
	const char *s = p, *q = p;

	while (q < e && (isalnum((unsigned char)*q) || *q == '-' ||
	    *q == '_'))
		q++;
	if (q > p && e - q >= 2 && q[0] == ':' && q[1] == '[') {
		for (p = q + 2; e - p >= 2 && !(p[0] == ']' && p[1] == '>');
		    p++)
			;
		p = e - p >= 2 ? p + 1 : e;
		*n = (size_t)(p - s);
	} else {
		while (p < e && *p != '<' && *p != '>')
			p++;
		*n = (size_t)(p - s);
		if (p < e && *p == '<') {
			while (p < e && *p != '>')
				p++;
			if (p < e)
				p++;
			while (p < e && *p != '>')
				p++;
		}
	}
	if (p < e)
		p++;
	if ((size_t)(e - p) >= 9 && memcmp(p, "(deleted)", 9) == 0)
		p += 9;
	return p;
}

static int
endswith(const char *s, size_t n, const char *t)
{
	size_t m = strlen(t);

	return n >= m && memcmp(s + n - m, t, m) == 0;
}

/* Calls whose first argument is a descriptor (the *at calls' directory
 * descriptor aside). Other calls start with numbers that are none: an
 * address (mmap(0x7f...), munmap), a status (exit_group(0)), a pid
 * (kill, prlimit64): taken for descriptors, they would get the path of
 * whatever the process opened as 0. */
static const char *const fdcalls[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv",
	"pwritev", "preadv2", "pwritev2", "close", "fstat", "fstat64",
	"fstatfs", "fstatfs64", "lseek", "_llseek", "fsync", "fdatasync",
	"syncfs", "ftruncate", "ftruncate64", "fallocate", "fadvise64",
	"fadvise64_64", "readahead", "sync_file_range", "fchmod", "fchown",
	"fchdir", "flock", "fcntl", "fcntl64", "ioctl", "getdents",
	"getdents64", "dup", "dup2", "dup3", "sendfile", "sendfile64",
	"splice", "tee", "vmsplice", "copy_file_range", "fgetxattr",
	"fsetxattr", "flistxattr", "fremovexattr", "inotify_add_watch",
	"inotify_rm_watch", "recvfrom", "recvmsg", "recvmmsg", "sendto",
	"sendmsg", "sendmmsg", "accept", "accept4", "connect", "bind",
	"listen", "shutdown", "getsockname", "getpeername", "setsockopt",
	"getsockopt", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
	"mq_timedsend", "mq_timedreceive", "posix_fadvise", "sync_file_range2",
	"signalfd", "signalfd4", "timerfd_settime", "timerfd_gettime",
	"pidfd_send_signal", "pidfd_getfd", "fanotify_mark", "io_uring_enter",
	"io_uring_register", NULL
};

static int
contains(const char *p, const char *e, const char *t)
{
	size_t m = strlen(t);

	for (; (size_t)(e - p) >= m; p++)
		if (memcmp(p, t, m) == 0)
			return 1;
	return 0;
}

static int
callis(const char *c, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(c, name, n) == 0;
}

static int
forkcall(const char *c, size_t cn)
{
	return callis(c, cn, "clone") || callis(c, cn, "clone3") ||
	    callis(c, cn, "fork") || callis(c, cn, "vfork");
}

/* Is flag T one of the arguments' words, outside quoted strings and
 * strace -y's 3</path> (a path may be named O_CLOEXEC)? */
static int
hasflag(const char *p, const char *e, const char *t)
{
	size_t m = strlen(t);
	const char *q, *s = p;

	for (; p < e; p++) {
		if (*p == '"') {
			if (!(q = quoted(p, e, &m)))
				return 0;
			p = q + m;
			m = strlen(t);
			continue;
		}
		if (*p == '<' && p > s && isdigit((unsigned char)p[-1])) {
			p = fdend(p + 1, e, &m) - 1;
			m = strlen(t);
			continue;
		}
		if ((size_t)(e - p) >= m && memcmp(p, t, m) == 0 &&
		    (p + m == e || !(isalnum((unsigned char)p[m]) ||
		    p[m] == '_')) && (p == s ||
		    !(isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			return 1;
	}
	return 0;
}

/* The descriptors of pipe([3, 4]) and socketpair(..., [3, 4]), with
 * strace -y [3<pipe:[123]>, ...]: each is what -y shows, else NAME,
 * what -y would show but for the inode it does not know. */
static void
fdpair(struct tr_strace *st, int64_t pid, const char *p, const char *e,
    const char *name, int cloexec)
{
	const char *path;
	size_t n;
	int64_t fd;
	int nd;

	if (p >= e || *p++ != '[')
		return;
	while (p < e && isdigit((unsigned char)*p)) {
		fd = digits(st, &p, e, &nd);
		if (p < e && *p == '<') {
			path = ++p;
			p = fdend(p, e, &n);
			setfd(st, pid, fd, path, n, cloexec);
		} else
			setfd(st, pid, fd, name, strlen(name), cloexec);
		if (e - p < 2 || p[0] != ',' || p[1] != ' ')
			return;
		p += 2;
	}
}

/* strace -y shows the path of every descriptor, as 3</path>: with it a
 * number is a descriptor whatever the call. */
static int
fdcall(const char *c, size_t cn, const char *a, const char *e)
{
	const char *const *p;

	while (a < e && isdigit((unsigned char)*a))
		a++;
	if (a < e && *a == '<')
		return 1;
	if (endswith(c, cn, "at") || endswith(c, cn, "at2") ||
	    callis(c, cn, "statx"))
		return 1;
	for (p = fdcalls; *p; p++)
		if (callis(c, cn, *p))
			return 1;
	return 0;
}

/* Calls that make a descriptor on no file: what strace -y shows for
 * it (pidfd_open's pid:N and memfd_create's /memfd:NAME take their
 * first argument), and the flag that marks it close-on-exec ("": it
 * always is). Without them an eventfd's read was file data. */
static const struct anonfd {
	const char *call, *path, *cloexec;
} anonfds[] = {
	{ "eventfd", "anon_inode:[eventfd]", NULL },
	{ "eventfd2", "anon_inode:[eventfd]", "EFD_CLOEXEC" },
	{ "epoll_create", "anon_inode:[eventpoll]", NULL },
	{ "epoll_create1", "anon_inode:[eventpoll]", "EPOLL_CLOEXEC" },
	{ "signalfd", "anon_inode:[signalfd]", NULL },
	{ "signalfd4", "anon_inode:[signalfd]", "SFD_CLOEXEC" },
	{ "timerfd_create", "anon_inode:[timerfd]", "TFD_CLOEXEC" },
	{ "inotify_init", "anon_inode:inotify", NULL },
	{ "inotify_init1", "anon_inode:inotify", "IN_CLOEXEC" },
	{ "fanotify_init", "anon_inode:[fanotify]", "FAN_CLOEXEC" },
	{ "userfaultfd", "anon_inode:[userfaultfd]", "O_CLOEXEC" },
	{ "perf_event_open", "anon_inode:[perf_event]",
	    "PERF_FLAG_FD_CLOEXEC" },
	{ "io_uring_setup", "anon_inode:[io_uring]", "" },
	{ "pidfd_open", "pid:", "" },
	{ "memfd_create", "/memfd:", "MFD_CLOEXEC" },
	{ NULL, NULL, NULL }
};

/* The descriptor RES made by call A (with its arguments from p to e):
 * what -y shows of it (rp), else what it would. */
static void
anonfd(struct tr_strace *st, int64_t pid, const struct anonfd *a, int64_t res,
    const char *p, const char *e, const char *rp, size_t rpn)
{
	int cloexec = a->cloexec && (!*a->cloexec ||
	    hasflag(p, e, a->cloexec));
	size_t m = strlen(a->path), qn = 0;
	const char *q = NULL;
	char *path;

	if (rp && rpn > 0) {
		setfd(st, pid, res, rp, rpn, cloexec);
		return;
	}
	if (a->path[m - 1] == ':') {
		if (p < e && *p == '"')
			q = quoted(p, e, &qn);
		else
			for (q = p; q + qn < e &&
			    isdigit((unsigned char)q[qn]); qn++)
				;
		if (!q)
			qn = 0;
	}
	path = tr_malloc(m + qn + 1);
	memcpy(path, a->path, m);
	if (qn)
		memcpy(path + m, q, qn);
	setfd(st, pid, res, path, m + qn, cloexec);
	free(path);
}

/* close_range(FIRST, LAST, FLAGS) closes the descriptors from FIRST to
 * LAST, or marks them close-on-exec (CLOSE_RANGE_CLOEXEC), in a table
 * of the process's own with CLOSE_RANGE_UNSHARE. */
static void
closerange(struct tr_strace *st, int64_t pid, const char *a, const char *e)
{
	int64_t lo, hi;
	int nd;

	lo = digits(st, &a, e, &nd);
	if (nd == 0 || e - a < 2 || a[0] != ',' || a[1] != ' ')
		return;
	a += 2;
	hi = digits(st, &a, e, &nd);
	if (nd == 0)
		hi = INT64_MAX;
	if (hasflag(a, e, "CLOSE_RANGE_UNSHARE"))
		unshare(st, pid, TR_FDCOPY_ALL);
	tr_fdtab_close_range(&st->fds, files(st, pid), lo, hi,
	    hasflag(a, e, "CLOSE_RANGE_CLOEXEC"));
}

/* A path may hold a TAB (strace -y shows a name as it is), which no
 * field may: replaced by a space, as tr-jobsh does in commands. */
static void
field(struct tr_out *o, const char *p, size_t n)
{
	size_t i;

	if (!p || n == 0) {
		tr_out_c(o, '-');
		return;
	}
	for (i = 0; i < n; i++)
		tr_out_c(o, p[i] == '\t' || p[i] == '\r' || p[i] == '\0' ?
		    ' ' : p[i]);
}

/* One completed call: NAME(ARGS) = RESULT ... <ELAPSED>; args runs from
 * a to the end of the line e. */
static void
complete(struct tr_strace *st, int64_t pid, int64_t t, const char *c,
    size_t cn, const char *a, const char *e)
{
	struct tr_out *o = st->out;
	const char *p, *eq = NULL, *path = NULL, *err = NULL, *r, *rp = NULL;
	size_t pn = 0, errn = 0, rpn = 0;
	int64_t el = -1, res = -1, fd = -1;
	int nd, isfd = 0, fcntl = callis(c, cn, "fcntl") ||
	    callis(c, cn, "fcntl64");
	const struct anonfd *ap;

	/* <0.000013> at the end, then the last " = " before it. */
	while (e > a && e[-1] == ' ')
		e--;
	if (e > a && e[-1] == '>') {
		for (p = e - 1; p > a && *p != '<'; p--)
			;
		r = p + 1;
		nd = *p == '<' ? seconds(st, &r, e - 1, &el) : -1;
		if (nd == -2)
			bad(st, "elapsed time <...> out of range");
		if (nd < 0 || r != e - 1)
			bad(st, "bad elapsed time <...>");
		e = p;
	}
	for (p = e - 2; p >= a + 1; p--)
		if (p[-1] == ' ' && p[0] == '=' && p[1] == ' ') {
			eq = p;
			break;
		}
	if (!eq)
		bad(st, "no ' = result' in system call");
	r = eq + 2;
	if (r < e && *r == '?') {
		res = -1;
	} else if (r + 2 < e && r[0] == '0' && r[1] == 'x') {
		uint64_t u = 0;

		/* unsigned: a pointer of more than 15 digits shifts out */
		for (r += 2; r < e && isxdigit((unsigned char)*r); r++)
			u = u << 4 | (uint64_t)(isdigit((unsigned char)*r) ?
			    *r - '0' : tolower((unsigned char)*r) - 'a' + 10);
		res = (int64_t)(u & INT64_MAX);
	} else {
		int neg = r < e && *r == '-';

		r += neg;
		res = digits(st, &r, e, &nd);
		if (nd == 0)
			bad(st, "bad system call result");
		res = neg ? -res : res;
		/* strace -y: the descriptor returned, 3</path>. */
		if (r < e && *r == '<') {
			rp = ++r;
			r = fdend(rp, e, &rpn);
		}
		while (r < e && *r == ' ')
			r++;
		if (res < 0 && r < e && *r == 'E') {
			err = r;
			while (r < e && isalnum((unsigned char)*r))
				r++;
			errn = (size_t)(r - err);
		}
	}

	/* The path: a quoted first argument; the name after a directory
	 * descriptor (the *at calls); else what the descriptor was opened
	 * on (strace -y shows it as 3</path>). */
	p = a;
	if (p < eq && *p == '"') {
		path = quoted(p, eq, &pn);
	} else if (p < eq && ((isdigit((unsigned char)*p) &&
	    fdcall(c, cn, p, eq)) || strncmp(p, "AT_FDCWD", 8) == 0)) {
		isfd = isdigit((unsigned char)*p);
		if (isfd)
			fd = digits(st, &p, eq, &nd);
		else
			p += 8;
		if (p < eq && *p == '<') {
			path = p + 1;
			p = fdend(path, eq, &pn);
		} else if (isfd && getfd(st, pid, fd)) {
			path = getfd(st, pid, fd);
			pn = strlen(path);
		}
		if (p + 2 < eq && p[0] == ',' && p[1] == ' ' && p[2] == '"' &&
		    (endswith(c, cn, "at") || endswith(c, cn, "at2") ||
		    callis(c, cn, "statx"))) {
			size_t qn;
			const char *q = quoted(p + 2, eq, &qn);

			if (q && qn > 0) {
				path = q;
				pn = qn;
			}
		}
	}
	/* The path opened, as the calls on its descriptor will have it
	 * (absolute), rather than the name it was opened by. */
	if (rp && rpn > 0 && (callis(c, cn, "open") || callis(c, cn, "openat") ||
	    callis(c, cn, "openat2") || callis(c, cn, "creat"))) {
		path = rp;
		pn = rpn;
	}
	tr_out_str(o, "sys\t");
	tr_out_i64(o, pid);
	tr_out_c(o, '\t');
	tr_out_i64(o, t);
	tr_out_c(o, '\t');
	tr_out_write(o, c, cn);
	tr_out_c(o, '\t');
	field(o, path, pn);
	tr_out_c(o, '\t');
	tr_out_i64(o, el);
	tr_out_c(o, '\t');
	tr_out_i64(o, res);
	tr_out_c(o, '\t');
	field(o, err, errn);
	tr_out_c(o, '\n');
	/* After the output: close frees the path just written, and frees
	 * the number even when it fails (EINTR). */
	if (callis(c, cn, "close") && isfd) {
		setfd(st, pid, fd, NULL, 0, 0);
		return;
	}
	if (res < 0)
		return;
	for (ap = anonfds; ap->call; ap++)
		if (ap->call[0] == c[0] && callis(c, cn, ap->call)) {
			anonfd(st, pid, ap, res, a, eq, rp, rpn);
			return;
		}
	if (callis(c, cn, "open") || callis(c, cn, "openat") ||
	    callis(c, cn, "openat2") || callis(c, cn, "creat"))
		setfd(st, pid, res, path, pn, hasflag(a, eq, "O_CLOEXEC"));
	else if ((callis(c, cn, "dup") || callis(c, cn, "dup2") ||
	    callis(c, cn, "dup3") || (fcntl && p + 9 < eq &&
	    memcmp(p, ", F_DUPFD", 9) == 0)) && isfd)
		setfd(st, pid, res, path, pn, hasflag(a, eq, "O_CLOEXEC") ||
		    hasflag(a, eq, "F_DUPFD_CLOEXEC"));
	else if (fcntl && isfd && p + 10 < eq &&
	    memcmp(p, ", F_SETFD,", 10) == 0 && path)
		setfd(st, pid, fd, path, pn, hasflag(p, eq, "FD_CLOEXEC"));
	else if (callis(c, cn, "ioctl") && isfd && path &&
	    (hasflag(p, eq, "FIOCLEX") || hasflag(p, eq, "FIONCLEX")))
		setfd(st, pid, fd, path, pn, hasflag(p, eq, "FIOCLEX"));
	/* Pipes and sockets, which strace -y would show as such: their
	 * reads and writes are no file data (tr_sys_class). */
	else if (callis(c, cn, "socket") || callis(c, cn, "accept") ||
	    callis(c, cn, "accept4"))
		setfd(st, pid, res, rpn ? rp : "socket:[]", rpn ? rpn : 9,
		    hasflag(a, eq, "SOCK_CLOEXEC"));
	else if (callis(c, cn, "pipe") || callis(c, cn, "pipe2"))
		fdpair(st, pid, a, eq, "pipe:[]", hasflag(a, eq, "O_CLOEXEC"));
	else if (callis(c, cn, "socketpair")) {
		for (p = a; p + 2 < eq && memcmp(p, ", [", 3) != 0; p++)
			;
		fdpair(st, pid, p + 2, eq, "socket:[]",
		    hasflag(a, eq, "SOCK_CLOEXEC"));
	} else if (res > 0 && forkcall(c, cn) &&
	    tr_itab_get(&st->gone, res, 0, 0))
		tr_itab_del(&st->gone, res, 0);
	else if (res > 0 && (callis(c, cn, "clone") ||
	    callis(c, cn, "clone3")) && contains(a, eq, "CLONE_FILES"))
		share(st, res, files(st, pid));
	else if (res > 0 && forkcall(c, cn))
		inherit(st, pid, res);
	/* execve first gives the process a table of its own, then closes
	 * the descriptors marked close-on-exec in it: a process that
	 * shared its table (clone with CLONE_FILES) keeps them open. */
	else if (callis(c, cn, "execve") || callis(c, cn, "execveat")) {
		unshare(st, pid, TR_FDCOPY_EXEC);
		pending(st, pid)->execd = 1;
	}
	else if (callis(c, cn, "close_range"))
		closerange(st, pid, a, eq);
	else if (callis(c, cn, "unshare") && hasflag(a, eq, "CLONE_FILES"))
		unshare(st, pid, TR_FDCOPY_ALL);
}

/* A process not seen before while one process alone is inside a fork
 * is its child: it takes its parent's descriptors now, before its first
 * call (a pipe's reader dup2(3, 0) before the shell's clone returned
 * had been an unknown descriptor). With several forks unfinished its
 * parent is not known until one returns with its pid. */
static void
adopt(struct tr_strace *st, int64_t pid)
{
	struct pending *pd = pending(st, pid);
	const char *a;
	void **v;

	if (pd->seen)
		return;
	pd->seen = 1;
	if (st->nforking != 1)
		return;
	/* The last to start a fork may have finished it (or exited) while
	 * an earlier one goes on. */
	v = tr_itab_get(&st->pids, st->forker, 0, 0);
	if (!v || !((struct pending *)*v)->forking) {
		size_t i;

		for (i = 0; i < st->pids.cap && !(st->pids.s[i].v &&
		    ((struct pending *)st->pids.s[i].v)->forking); i++)
			;
		if (i == st->pids.cap)
			return;
		st->forker = st->pids.s[i].a;
	}
	if (st->forker == pid)
		return;
	a = pending(st, st->forker)->args;
	if (contains(a, a + strlen(a), "CLONE_FILES"))
		share(st, pid, files(st, st->forker));
	else
		inherit(st, st->forker, pid);
}

/* The header waits for the first time stamp: with its pid it names the
 * run, so that runs appended to one file are sections of their own
 * (tr-mean and tr-diff take each as a run), while converting the same
 * log twice gives the same output. */
static void
header(struct tr_strace *st, int64_t pid, int64_t t)
{
	struct tr_out *o = st->out;

	st->hdrdone = 1;
	tr_out_begin(o);
	tr_out_str(o, "#meta tool=tr-from-strace\n");
	if (t >= 0)
		tr_out_printf(o, "#meta run=%lld.%lld\n", (long long)pid,
		    (long long)t);
	tr_out_fields(o, TR_SYS);
}

static struct pending *
pending(struct tr_strace *st, int64_t pid)
{
	void **v = tr_itab_get(&st->pids, pid, 0, 1);

	if (!*v)
		*v = tr_calloc(1, sizeof(struct pending));
	return *v;
}

/* strace -ff -o F writes a file F.PID per process, its lines without
 * the pid: it is taken from the name, else every process is pid -1 and
 * their descriptors are mixed up. */
static int64_t
file_pid(struct tr_strace *st)
{
	const char *f = tr_in_file(st->in), *d = strrchr(f, '.'), *p;
	int nd;
	int64_t v;

	if (!d || strchr(d, '/'))
		return -1;
	p = d + 1;
	v = digits(st, &p, f + strlen(f), &nd);
	return nd > 0 && *p == '\0' ? v : -1;
}

/* A thread's execve ends the process's other threads, and the thread
 * goes on as its leader: strace -f says "+++ superseded by execve in
 * pid T +++" as the leader, whose pid then completes T's execve, and
 * T is no more. */
static void
superseded(struct tr_strace *st, int64_t pid, const char *p, const char *e)
{
	static const char s[] = "+++ superseded by execve in pid ";
	size_t n = sizeof s - 1;
	struct pending *from, *to;
	void **v;
	int64_t t;
	int nd;

	if ((size_t)(e - p) < n || memcmp(p, s, n) != 0)
		return;
	p += n;
	t = digits(st, &p, e, &nd);
	if (nd == 0 || t == pid || !(v = tr_itab_get(&st->pids, t, 0, 0)))
		return;
	from = *v;
	to = pending(st, pid);
	if (from->call) {
		free(to->call);
		free(to->args);
		to->call = from->call;
		to->args = from->args;
		to->time = from->time;
		from->call = from->args = NULL;
		if (to->forking)
			unfork(st, to);
	}
	forget(st, t, from);
}

/* Where a call left unfinished ends its line, or NULL: "<unfinished
 * ...>", or for a thread's execve with no line of another process
 * between its start and end "<pid changed to N ...>" (it completes as
 * its leader, N). */
static const char *
unfinished(const char *p, const char *e)
{
	static const char pc[] = "<pid changed to ";
	const char *q = e - 5;

	if (endswith(p, (size_t)(e - p), "<unfinished ...>"))
		return e - 16;
	if (!endswith(p, (size_t)(e - p), " ...>"))
		return NULL;
	while (q > p && isdigit((unsigned char)q[-1]))
		q--;
	if ((size_t)(q - p) < sizeof pc - 1 || q == e - 5 ||
	    memcmp(q - (sizeof pc - 1), pc, sizeof pc - 1) != 0)
		return NULL;
	return q - (sizeof pc - 1);
}

void
tr_strace_line(struct tr_strace *st, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *c, *ae;
	int64_t pid = -1, t;
	struct pending *pd;
	int nd;

	if (n == 0 || (n >= 8 && memcmp(s, "strace: ", 8) == 0))
		return;
	if (n > 5 && memcmp(p, "[pid", 4) == 0) {
		p += 4;
		while (p < e && *p == ' ')
			p++;
		pid = digits(st, &p, e, &nd);
		if (nd == 0 || p >= e || *p++ != ']')
			bad(st, "bad [pid N] prefix");
	} else {
		const char *q = p;
		int64_t v = digits(st, &q, e, &nd);

		if (nd > 0 && q < e && *q == ' ') {
			pid = v;
			p = q;
		}
	}
	if (pid < 0)
		pid = file_pid(st);
	adopt(st, pid);
	while (p < e && *p == ' ')
		p++;
	if ((nd = stamp(st, &p, e, &t)) == -2)
		bad(st, "time stamp out of range");
	if (nd < 0 || p >= e || *p++ != ' ')
		bad(st, "expected a time stamp (strace -tt)");
	if (nd == 1) {
		/* A time of day that goes back half a day or more has passed
		 * midnight (a process's own lines are in time order). */
		pd = pending(st, pid);
		if (pd->tod - t >= (int64_t)43200 * 1000000000)
			pd->day++;
		pd->tod = t;
		t += pd->day * (int64_t)86400 * 1000000000;
	}
	if (!st->hdrdone)
		header(st, pid, t);
	while (p < e && *p == ' ')
		p++;
	if (e - p >= 10 && (memcmp(p, "+++ exited", 10) == 0 ||
	    memcmp(p, "+++ killed", 10) == 0)) {
		exited(st, pid);
		return;
	}
	if (e - p >= 3 && (memcmp(p, "+++", 3) == 0 || memcmp(p, "---", 3) == 0)) {
		superseded(st, pid, p, e);
		return;
	}
	if (e - p >= 5 && memcmp(p, "<... ", 5) == 0) {
		p += 5;
		c = p;
		while (p < e && *p != ' ')
			p++;
		if (e - p < 9 || memcmp(p, " resumed>", 9) != 0)
			bad(st, "expected '<... call resumed>'");
		if (p - c == 3 && memcmp(c, "?\?\?", 3) == 0)
			return;
		pd = pending(st, pid);
		if (!pd->call || strlen(pd->call) != (size_t)(p - c) ||
		    memcmp(pd->call, c, (size_t)(p - c)) != 0)
			bad(st, "resumed call that did not start");
		{
			size_t an = strlen(pd->args), rn = (size_t)(e - p - 9);
			char *all = st->joined = tr_malloc(an + rn + 1);

			memcpy(all, pd->args, an);
			memcpy(all + an, p + 9, rn);
			all[an + rn] = '\0';
			complete(st, pid, pd->time, pd->call, strlen(pd->call),
			    all, all + an + rn);
			free(all);
			st->joined = NULL;
		}
		if (pd->forking)
			unfork(st, pd);
		free(pd->call);
		free(pd->args);
		pd->call = pd->args = NULL;
		return;
	}
	c = p;
	while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	/* strace names a call "???" when the process went away (a
	 * thread's execve killed it) before strace could read which call
	 * it entered: there is no call, result or time to write. */
	if (p == c && e - p >= 4 && memcmp(p, "?\?\?(", 4) == 0) {
		if ((ae = unfinished(p + 3, e))) {
			pd = pending(st, pid);
			free(pd->call);
			free(pd->args);
			pd->call = pd->args = NULL;
		}
		return;
	}
	if (p == c || p >= e || *p != '(')
		bad(st, "expected a system call NAME(...)");
	if ((ae = unfinished(p, e))) {
		pd = pending(st, pid);
		free(pd->call);
		free(pd->args);
		pd->call = tr_strndup(c, (size_t)(p - c));
		while (ae > p + 1 && ae[-1] == ' ')
			ae--;
		pd->args = tr_strndup(p + 1, (size_t)(ae - p - 1));
		pd->time = t;
		if (!pd->forking && forkcall(c, (size_t)(p - c))) {
			pd->forking = 1;
			st->nforking++;
			st->forker = pid;
		} else if (pd->forking && !forkcall(c, (size_t)(p - c)))
			unfork(st, pd);
		return;
	}
	if (endswith(p, (size_t)(e - p), "<detached ...>"))
		return;
	complete(st, pid, t, c, (size_t)(p - c), p + 1, e);
}

struct tr_strace *
tr_strace_new(struct tr_in *in, struct tr_out *o)
{
	struct tr_strace *st = tr_calloc(1, sizeof *st);

	st->in = in;
	st->out = o;
	return st;
}

void
tr_strace_end(struct tr_strace *st)
{
	if (!st->hdrdone)
		header(st, -1, -1);
}

void
tr_strace_free(struct tr_strace *st)
{
	size_t i;

	if (!st)
		return;
	/* Releasing every live process's table frees every descriptor; a
	 * deletion may move a later entry before i, hence the rounds. */
	while (st->pids.n > 0)
		for (i = 0; i < st->pids.cap; i++)
			if (st->pids.s[i].v)
				forget(st, st->pids.s[i].a, st->pids.s[i].v);
	tr_fdtabs_free(&st->fds);
	tr_itab_free(&st->pids);
	tr_itab_free(&st->gone);
	free(st->joined);
	free(st);
}
