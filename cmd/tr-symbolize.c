/* tr-symbolize - turn call sites MODULE+0xOFFSET into FUNCTION@FILE:LINE.
 *
 * Each module named by a "#meta module.NAME=PATH" line gets one addr2line
 * process, fed one address at a time through a pipe; each distinct site
 * is looked up once. A function without line information keeps its
 * site after it; sites that do not resolve are kept as they are. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libtr.h"

static int pflag;

static const struct tr_opts opts = {
	"tr-symbolize [-f] [file ...]",
	"-f\tkeep the source file's full path (default: its last "
	"component)\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

struct sym {
	unsigned long lo, hi;
};

struct a2l {
	char *path;
	pid_t pid;
	FILE *to, *from;	/* NULL: could not start, keep addresses */
	/* Without line information addr2line names the nearest symbol
	 * before an address, which in a stripped library is the nearest
	 * exported function, not the caller: the extents of the symbols
	 * (from nm) say whether the address is in it. */
	struct sym *syms;
	size_t nsyms;
	int symread;		/* 1 read, -1 none with sizes: trust */
	long outside;		/* sites kept as offsets for that */
	long unknown;		/* sites in no function addr2line knows */
};

#define MAXNAME 4096

static struct a2l *mods;
static char *fn, *fl;		/* addr2line's answer */
static size_t fncap, flcap;
static size_t nmods;
static struct tr_map *cache;	/* site -> index in res */
static char **res;
static size_t rescap;

static struct a2l *
module(const char *path)
{
	int in[2], out[2];
	size_t i;
	struct a2l *m;

	for (i = 0; i < nmods; i++)
		if (strcmp(mods[i].path, path) == 0)
			return &mods[i];
	mods = tr_realloc(mods, (nmods + 1) * sizeof *mods);
	m = &mods[nmods++];
	memset(m, 0, sizeof *m);
	m->path = tr_strdup(path);
	m->pid = -1;
	if (access(path, R_OK) < 0) {
		tr_warn("%s:", path);
		return m;
	}
	/* Our ends close on exec: an addr2line started later must not hold
	 * an earlier one's input open, or that one never sees its end and
	 * waiting for it hangs. */
	if (pipe(in) < 0 || pipe(out) < 0 ||
	    fcntl(in[1], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(out[0], F_SETFD, FD_CLOEXEC) < 0)
		tr_die(TR_EXIT_SYS, "pipe:");
	m->pid = fork();
	if (m->pid < 0)
		tr_die(TR_EXIT_SYS, "fork:");
	if (m->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execlp("addr2line", "addr2line", "-f", "-C", "-e", path,
		    (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->to = fdopen(in[1], "w");
	m->from = fdopen(out[0], "r");
	if (!m->to || !m->from)
		tr_die(TR_EXIT_SYS, "fdopen:");
	return m;
}

/* The extents of M's symbols, from its symbol table or else its
 * dynamic one. */
static void
readsyms(struct a2l *m)
{
	static const char *const tab[2] = {NULL, "-D"};
	int t, fd[2], st;
	pid_t pid;
	FILE *f;
	char *line = NULL;
	size_t cap = 0, symcap = 0;
	unsigned long v, sz;
	char type;

	m->symread = -1;
	for (t = 0; t < 2 && m->nsyms == 0; t++) {
		if (pipe(fd) < 0 || fcntl(fd[0], F_SETFD, FD_CLOEXEC) < 0)
			tr_die(TR_EXIT_SYS, "pipe:");
		if ((pid = fork()) < 0)
			tr_die(TR_EXIT_SYS, "fork:");
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(fd[1], 1);
			if (null >= 0)
				dup2(null, 2);
			close(fd[1]);
			if (tab[t])
				execlp("nm", "nm", tab[t], "-S",
				    "--defined-only", "--", m->path,
				    (char *)NULL);
			else
				execlp("nm", "nm", "-S", "--defined-only",
				    "--", m->path, (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		if (!(f = fdopen(fd[0], "r")))
			tr_die(TR_EXIT_SYS, "fdopen:");
		/* "VALUE SIZE TYPE NAME": code symbols with a size */
		while (getline(&line, &cap, f) > 0)
			if (sscanf(line, "%lx %lx %c", &v, &sz, &type) == 3 &&
			    sz > 0 && (type == 'T' || type == 't' ||
			    type == 'W' || type == 'w' || type == 'i')) {
				tr_grow(&m->syms, &symcap, m->nsyms + 1,
				    sizeof *m->syms);
				m->syms[m->nsyms].lo = v;
				m->syms[m->nsyms++].hi = v + sz;
			}
		fclose(f);
		waitpid(pid, &st, 0);
	}
	free(line);
	if (m->nsyms)
		m->symread = 1;
}

static int
insym(const struct a2l *m, unsigned long a)
{
	size_t i;

	for (i = 0; i < m->nsyms; i++)
		if (a >= m->syms[i].lo && a < m->syms[i].hi)
			return 1;
	return 0;
}

static void
chomp(char *s)
{
	char *d;

	s[strcspn(s, "\r\n")] = '\0';
	/* "file.c:12 (discriminator 3)" */
	if ((d = strstr(s, " (discriminator")))
		*d = '\0';
	for (; *s; s++)
		if (*s == '\t')
			*s = ' ';
}

/* A line of addr2line's answer, whatever its length (a demangled C++
 * name may be long): a line cut in two would shift every later answer
 * by one. */
static int
answer(struct a2l *m, char **buf, size_t *cap)
{
	if (getline(buf, cap, m->from) < 0)
		return 0;
	chomp(*buf);
	return 1;
}

/* FUNCTION@FILE:LINE for ADDR in M; FUNCTION@SITE when the module has
 * symbols but no line information, so that call sites stay apart;
 * NULL when nothing is known. */
static char *
lookup(struct a2l *m, unsigned long addr, struct tr_field site)
{
	const char *file, *s;
	char *r;
	size_t n;

	if (!m->to)
		return NULL;
	/* A return address is past its call: look up the call itself. */
	if (fprintf(m->to, "0x%lx\n", addr ? addr - 1 : 0) < 0 ||
	    fflush(m->to) == EOF || !answer(m, &fn, &fncap) ||
	    !answer(m, &fl, &flcap)) {
		tr_warn("addr2line for %s failed", m->path);
		fclose(m->to);
		fclose(m->from);
		m->to = m->from = NULL;
		return NULL;
	}
	if (strcmp(fn, "??") == 0 || !*fn) {
		m->unknown++;
		return NULL;
	}
	/* Names past a few KB (templates) are cut: lines have a limit. */
	if (strlen(fn) > MAXNAME)
		strcpy(fn + MAXNAME - 3, "...");
	if (strncmp(fl, "??", 2) == 0) {
		if (!m->symread)
			readsyms(m);
		if (m->symread > 0 && !insym(m, addr ? addr - 1 : 0)) {
			m->outside++;
			return NULL;
		}
		n = strlen(fn) + site.n + 2;
		r = tr_malloc(n);
		snprintf(r, n, "%s@%.*s", fn, (int)site.n, site.p);
		return r;
	}
	file = fl;
	if (!pflag && (s = strrchr(fl, '/')))
		file = s + 1;
	n = strlen(fn) + strlen(file) + 2;
	r = tr_malloc(n);
	snprintf(r, n, "%s@%s", fn, file);
	return r;
}

static const char *
symbolize(const struct tr_in *in, struct tr_field site)
{
	char key[300], *end;
	const char *path, *plus;
	unsigned long off;
	long i;

	i = tr_map_get(cache, site.p, site.n, 0);
	if (i >= 0)
		return res[i];
	i = tr_map_get(cache, site.p, site.n, 1);
	tr_grow(&res, &rescap, i + 1, sizeof *res);
	res[i] = NULL;
	/* The last '+': a module's name may have some (libstdc++.so.6). */
	for (plus = site.p + site.n; plus > site.p && plus[-1] != '+';
	    plus--)
		;
	plus = plus > site.p ? plus - 1 : NULL;
	if (!plus || plus - site.p + 8 >= (long)sizeof key ||
	    site.p + site.n - plus < 4 || plus[1] != '0' || plus[2] != 'x')
		return NULL;
	snprintf(key, sizeof key, "module.%.*s", (int)(plus - site.p), site.p);
	if (!(path = tr_meta(in, key)))
		return NULL;
	errno = 0;
	off = strtoul(plus + 3, &end, 16);
	if (end != site.p + site.n || errno)
		return NULL;
	res[i] = lookup(module(path), off, site);
	return res[i];
}

int
main(int argc, char **argv)
{
	struct tr_in *in;
	struct tr_out *out;
	struct tr_rec rec;
	size_t i;
	int c, t, status;

	tr_init("tr-symbolize");
	while ((c = tr_getopt(argc, argv, "f", &opts)) != -1) {
		switch (c) {
		case 'f':
			pflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	signal(SIGPIPE, SIG_IGN);
	cache = tr_map_new();
	in = tr_open(argc, argv);
	out = tr_out_open(1, 0);
	while ((t = tr_next(in, &rec)) != TR_EOF) {
		const char *s;

		if (t == TR_HDR)
			tr_out_sync(out, in);
		else if (t != TR_REC)
			continue;
		else if (rec.type == TR_EV &&
		    (s = symbolize(in, rec.u.ev.site))) {
			struct tr_ev e = rec.u.ev;

			e.site.p = s;
			e.site.n = strlen(s);
			tr_out_ev(out, &e);
		} else if (rec.type == TR_FAIL &&
		    (s = symbolize(in, rec.f[TR_EV_SITE]))) {
			/* an ev's columns, then err: only the site changes */
			const char *b = rec.f[TR_EV_SITE].p;
			const char *c = b + rec.f[TR_EV_SITE].n;

			tr_out_write(out, rec.line, (size_t)(b - rec.line));
			tr_out_str(out, s);
			tr_out_write(out, c, (size_t)(rec.line + rec.len - c));
			tr_out_c(out, '\n');
		} else
			tr_out_rec(out, &rec);
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(out);
	for (i = 0; i < nmods; i++) {
		if (mods[i].outside)
			tr_warn("%s has no line information, and %ld call "
			    "sites in no function of its symbol table: kept "
			    "as offsets", mods[i].path, mods[i].outside);
		/* A stripped program (as Debian ships them) has no symbols
		 * at all: say so, or its sites stay offsets unexplained. */
		if (mods[i].unknown)
			tr_warn("%s: %ld call sites in no function that "
			    "addr2line knows (no symbols: stripped?): kept as "
			    "offsets", mods[i].path, mods[i].unknown);
		free(mods[i].syms);
		if (mods[i].to) {
			fclose(mods[i].to);
			fclose(mods[i].from);
		}
		if (mods[i].pid > 0)
			waitpid(mods[i].pid, NULL, 0);
		free(mods[i].path);
	}
	free(mods);
	free(fn);
	free(fl);
	for (i = 0; i < tr_map_len(cache); i++)
		free(res[i]);
	free(res);
	tr_map_free(cache);
	return status;
}
