/* jobrec.c - a make job recorded: the run and job it belongs to, and its
 * job record appended to the run's section of a jobs file. */
#include <sys/types.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyse.h"

#define MAXCMD 4096

struct buf {
	char *p;
	size_t n, cap;
};

static void
put(struct buf *b, const char *s, size_t n)
{
	tr_grow(&b->p, &b->cap, b->n + n + 1, 1);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void
puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void
puti(struct buf *b, int64_t v)
{
	char t[24];

	put(b, t, (size_t)(tr_fmt_i64(t, v) - t));
}

/* A field: TAB, CR and LF become spaces; empty becomes "-". */
static void
putf(struct buf *b, const char *s, size_t max)
{
	size_t i, n = strlen(s);

	if (n == 0) {
		put(b, "-", 1);
		return;
	}
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		char c = s[i];

		put(b, c == '\t' || c == '\n' || c == '\r' ? " " : &s[i], 1);
	}
	put(b, "\t", 1);
	b->n--;
}

static int64_t
tv_ns(struct timeval tv)
{
	return (int64_t)tv.tv_sec * 1000000000 + (int64_t)tv.tv_usec * 1000;
}

static void
hostname(char *host, size_t n)
{
	if (gethostname(host, n) < 0)
		strcpy(host, "-");
	host[n - 1] = '\0';
}

char *
tr_jobrec_run(void)
{
	const char *env = getenv("TR_JOB_RUN");
	struct buf b = {NULL, 0, 0};
	char host[256], path[64], ps[1024], *p;
	pid_t pp = getppid();
	ssize_t n = -1;
	int fd, i;

	if (env && *env) {
		putf(&b, env, 1024);
		b.p[b.n] = '\0';
		return b.p;
	}
	hostname(host, sizeof host);
	putf(&b, host, 255);
	put(&b, ".", 1);
	puti(&b, pp);
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pp);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, ps, sizeof ps - 1);
		close(fd);
	}
	/* Field 22, the start time, is the 20th after the command's ")". */
	if (n > 0) {
		ps[n] = '\0';
		p = strrchr(ps, ')');
		for (i = 0; p && i < 20; i++)
			p = strchr(p + 1, ' ');
		if (p && p[1] >= '0' && p[1] <= '9') {
			put(&b, ".", 1);
			put(&b, p + 1, strspn(p + 1, "0123456789"));
		}
	}
	b.p[b.n] = '\0';
	return b.p;
}

/* Does the file's last header already name RUN? Only its tail is read:
 * when the header is further back, writing it again continues the
 * section (tr-format(5)) and bounds the cost per job. 2 if it does with
 * the columns of an earlier tr-jobsh: the run's records keep them, as
 * the section can declare job only once. */
static int
same_run(int fd, off_t size, const char *run)
{
	static const char pat[] = "\n#meta run=";
	static const char fpat[] = "#fields\tjob\t";
	const char *old = tr_schema_older(tr_schema_get(TR_JOB), 0);
	char tail[65536];
	off_t off = size > (off_t)sizeof tail ? size - (off_t)sizeof tail : 0;
	ssize_t n = pread(fd, tail, (size_t)(size - off), off);
	const char *last, *e;
	size_t rn = strlen(run), fn = sizeof fpat - 1, on;

	if (n < (ssize_t)sizeof pat)
		return 0;
	for (last = tail + n - (sizeof pat - 1); last > tail; last--)
		if (*last == '\n' && memcmp(last, pat, sizeof pat - 1) == 0)
			break;
	if (last == tail)
		return 0;
	last += sizeof pat - 1;
	e = memchr(last, '\n', (size_t)(tail + n - last));
	if (!e || (size_t)(e - last) != rn || memcmp(last, run, rn) != 0)
		return 0;
	e++;
	n = (ssize_t)(tail + n - e);
	on = strlen(old);
	return n > (ssize_t)(fn + on) && memcmp(e, fpat, fn) == 0 &&
	    memcmp(e + fn, old, on) == 0 && e[fn + on] == '\n' ? 2 : 1;
}

int64_t
tr_jobrec_parent(void)
{
	const char *env = getenv("TR_JOB_PARENT");
	int64_t v;

	if (!env || tr_parse_i64(env, strlen(env), &v) < 0 || v <= 0)
		return -1;
	return v;
}

/* Is the process that started us a make (make, gmake, remake, ...)? */
static int
by_make(long pp)
{
	char path[64], comm[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/comm", pp);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, comm, sizeof comm - 1);
		close(fd);
	}
	if (n <= 0)
		return 0;
	comm[n] = '\0';
	return strstr(comm, "make") != NULL;
}

/* Is this make's $(shell ...) rather than a recipe? make reads the
 * output of $(shell) from a pipe it holds open, where a recipe writes to
 * make's own standard output (or, with -O, to a file). The environment
 * cannot tell: make 4.4 exports to $(shell) what it exports to recipes,
 * target included, and a sub-make's $(shell) inherits its recipe's.
 * Only a make counts: a shell holds both ends of a pipeline's pipe for a
 * moment after it started the writer. */
int
tr_jobrec_shellcall(void)
{
	struct stat me, st;
	struct dirent *de;
	char path[96];
	long pp = (long)getppid();
	int hit = 0;
	DIR *d;

	if (fstat(1, &me) < 0 || !S_ISFIFO(me.st_mode) || !by_make(pp))
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/fd", pp);
	if (!(d = opendir(path)))
		return 0;
	while (!hit && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, "0") == 0 || strcmp(de->d_name, "1")
		    == 0 || strcmp(de->d_name, "2") == 0 || *de->d_name == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/fd/%.20s", pp,
		    de->d_name);
		hit = stat(path, &st) == 0 && st.st_dev == me.st_dev &&
		    st.st_ino == me.st_ino;
	}
	closedir(d);
	snprintf(path, sizeof path, "/proc/%ld/fd/1", pp);
	if (hit && stat(path, &st) == 0 && st.st_dev == me.st_dev &&
	    st.st_ino == me.st_ino)
		hit = 0;
	return hit;
}

void
tr_jobrec_append(const char *file, const struct tr_jobrec *j)
{
	const struct tr_schema *s = tr_schema_get(TR_JOB);
	struct buf b = {NULL, 0, 0};
	char host[256];
	struct stat st;
	ssize_t w;
	int fd, same;

	hostname(host, sizeof host);
	puts_(&b, "job\t");
	putf(&b, host, 255);
	put(&b, "\t", 1);
	puti(&b, j->pid);
	put(&b, "\t", 1);
	putf(&b, j->target ? j->target : "", 1024);
	put(&b, "\t", 1);
	puti(&b, j->start);
	put(&b, "\t", 1);
	puti(&b, j->elapsed);
	put(&b, "\t", 1);
	puti(&b, tv_ns(j->ru->ru_utime));
	put(&b, "\t", 1);
	puti(&b, tv_ns(j->ru->ru_stime));
	put(&b, "\t", 1);
	puti(&b, (int64_t)j->ru->ru_maxrss * 1024);
	put(&b, "\t", 1);
	puti(&b, j->ru->ru_minflt);
	put(&b, "\t", 1);
	puti(&b, j->ru->ru_majflt);
	put(&b, "\t", 1);
	puti(&b, j->status);
	put(&b, "\t", 1);
	putf(&b, j->cmd, MAXCMD);
	put(&b, "\t", 1);
	puti(&b, j->parent);
	put(&b, "\n", 1);

	fd = open(file, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		tr_warn("%s:", file);
		free(b.p);
		return;
	}
	/* The lock only makes "a run's first writer writes its header"
	 * safe; each record is still one write on an O_APPEND descriptor.
	 * A header per run makes each run a section of its own, so that
	 * runs appended to one file stay runs (tr-mean, tr-diff). */
	flock(fd, LOCK_EX);
	same = fstat(fd, &st) == 0 ? same_run(fd, st.st_size, j->run) : 1;
	if (same == 2) {
		/* Without the parent column: the record ends with it. */
		while (b.p[--b.n] != '\t')
			;
		put(&b, "\n", 1);
	} else if (!same) {
		struct buf h = {NULL, 0, 0};

		puts_(&h, "#tr 1\n#meta run=");
		puts_(&h, j->run);
		puts_(&h, "\n#fields\tjob\t");
		puts_(&h, s->fields);
		put(&h, "\n", 1);
		put(&h, b.p, b.n);
		free(b.p);
		b = h;
	}
	w = write(fd, b.p, b.n);
	if (w != (ssize_t)b.n)
		tr_warn("%s: %s", file, w < 0 ? strerror(errno) :
		    "short write");
	if (close(fd) < 0)
		tr_warn("%s:", file);
	free(b.p);
}
