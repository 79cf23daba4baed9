/* symbolize.c - call sites MODULE+0xOFFSET as FUNCTION@FILE:LINE.
 *
 * Each module named by a "#meta module.NAME=PATH" line gets one addr2line
 * process, fed one address at a time through a pipe; each distinct site
 * is looked up once. A function without line information keeps its
 * site after it; sites that do not resolve are kept as they are. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyse.h"

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

struct tr_symbolize {
	int pflag;		/* whole paths */
	struct a2l *mods;
	size_t nmods;
	char *fn, *fl;		/* addr2line's answer */
	size_t fncap, flcap;
	struct tr_map *cache;	/* site -> index in res */
	char **res;
	size_t rescap;
};

static struct a2l *
module(struct tr_symbolize *y, const char *path)
{
	int in[2], out[2];
	size_t i;
	struct a2l *m;

	for (i = 0; i < y->nmods; i++)
		if (strcmp(y->mods[i].path, path) == 0)
			return &y->mods[i];
	y->mods = tr_realloc(y->mods, (y->nmods + 1) * sizeof *y->mods);
	m = &y->mods[y->nmods++];
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
lookup(struct tr_symbolize *y, struct a2l *m, unsigned long addr,
    struct tr_field site)
{
	const char *file, *s;
	char *r;
	size_t n;

	if (!m->to)
		return NULL;
	/* A return address is past its call: look up the call itself. */
	if (fprintf(m->to, "0x%lx\n", addr ? addr - 1 : 0) < 0 ||
	    fflush(m->to) == EOF || !answer(m, &y->fn, &y->fncap) ||
	    !answer(m, &y->fl, &y->flcap)) {
		tr_warn("addr2line for %s failed", m->path);
		fclose(m->to);
		fclose(m->from);
		m->to = m->from = NULL;
		return NULL;
	}
	if (strcmp(y->fn, "??") == 0 || !*y->fn) {
		m->unknown++;
		return NULL;
	}
	/* Names past a few KB (templates) are cut: lines have a limit. */
	if (strlen(y->fn) > MAXNAME)
		strcpy(y->fn + MAXNAME - 3, "...");
	if (strncmp(y->fl, "??", 2) == 0) {
		if (!m->symread)
			readsyms(m);
		if (m->symread > 0 && !insym(m, addr ? addr - 1 : 0)) {
			m->outside++;
			return NULL;
		}
		n = strlen(y->fn) + site.n + 2;
		r = tr_malloc(n);
		snprintf(r, n, "%s@%.*s", y->fn, (int)site.n, site.p);
		return r;
	}
	file = y->fl;
	if (!y->pflag && (s = strrchr(y->fl, '/')))
		file = s + 1;
	n = strlen(y->fn) + strlen(file) + 2;
	r = tr_malloc(n);
	snprintf(r, n, "%s@%s", y->fn, file);
	return r;
}

const char *
tr_symbolize_site(struct tr_symbolize *y, const struct tr_in *in,
    struct tr_field site)
{
	char key[300], *end;
	const char *path, *plus;
	unsigned long off;
	long i;

	i = tr_map_get(y->cache, site.p, site.n, 0);
	if (i >= 0)
		return y->res[i];
	i = tr_map_get(y->cache, site.p, site.n, 1);
	tr_grow(&y->res, &y->rescap, i + 1, sizeof *y->res);
	y->res[i] = NULL;
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
	y->res[i] = lookup(y, module(y, path), off, site);
	return y->res[i];
}

struct tr_symbolize *
tr_symbolize_new(int paths)
{
	struct tr_symbolize *y = tr_calloc(1, sizeof *y);

	y->pflag = paths;
	y->cache = tr_map_new();
	return y;
}

void
tr_symbolize_free(struct tr_symbolize *y)
{
	size_t i;

	for (i = 0; i < y->nmods; i++) {
		if (y->mods[i].outside)
			tr_warn("%s has no line information, and %ld call "
			    "sites in no function of its symbol table: kept "
			    "as offsets", y->mods[i].path, y->mods[i].outside);
		/* A stripped program (as Debian ships them) has no symbols
		 * at all: say so, or its sites stay offsets unexplained. */
		if (y->mods[i].unknown)
			tr_warn("%s: %ld call sites in no function that "
			    "addr2line knows (no symbols: stripped?): kept as "
			    "offsets", y->mods[i].path, y->mods[i].unknown);
		free(y->mods[i].syms);
		if (y->mods[i].to) {
			fclose(y->mods[i].to);
			fclose(y->mods[i].from);
		}
		if (y->mods[i].pid > 0)
			waitpid(y->mods[i].pid, NULL, 0);
		free(y->mods[i].path);
	}
	free(y->mods);
	free(y->fn);
	free(y->fl);
	for (i = 0; i < tr_map_len(y->cache); i++)
		free(y->res[i]);
	free(y->res);
	tr_map_free(y->cache);
	free(y);
}
