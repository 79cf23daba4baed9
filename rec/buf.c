/* buf.c - the per-rank buffer, its flush through zlib, the header, the
 * crash paths and the tr.h entry points. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <zlib.h>

#include "libtr.h"
#include "rec.h"
#include "call.h"

const char *const rec_opname[OP_N] = {
#define OP(x) "MPI_" #x,
#define OPS(x, s) "MPI_" #s,
#include "ops.h"
#undef OP
#undef OPS
};

struct rec_state rec = { .clk = CLOCK_MONOTONIC };
__thread char rec_thread;
/* Nonzero while this thread is in oncrash, the program's handler it
 * calls included: what runs then allocates nothing, takes no lock and
 * formats by hand (async-signal-safe), with what setup and the flushes
 * outside handlers prepared (the loaded modules, spare room). */
static __thread int insig __attribute__((tls_model("initial-exec")));

static struct {
	int fd, zok, hdrdone, warned;
	int faildecl;		/* the fail records' #fields line is out */
	/* Read by threads that wait for another's flush (flush_begin). */
	atomic_int finished, failed;
	/* The thread in rec_flush (its &rec_thread), NULL if none; the
	 * SIGTERM and SIGINT (pending[0], [1]) that came meanwhile, each
	 * raised again once the flush is done; the crashing thread that
	 * seized the recorder from another (take), whose flushes then
	 * wait. Each mark is set by compare-and-swap from NULL and cleared
	 * by its own thread only (mark, unmark). */
	_Atomic(const void *) flusher, seized;
	volatile sig_atomic_t pending[2];
	char path[4096];
	char *ghdr;		/* rank 0's global #meta lines */
	char host[256];
	int64_t off0, t0, origin;	/* offset at init, when, time zero */
	double drift;		/* ns per ns; 0 until finalize measured it */
	int havefini;
	int finhdr;		/* the fini keys, due in a continued header */
	char driftstr[32];	/* clock.drift's value, made outside handlers */
	int64_t nflush, flushns;	/* flushes before the last, their time */
	long flushname;		/* the index of "tr.flush", -1 if none */
	int samehost;		/* shares rank 0's clock: offsets are 0 */
	int64_t offfini;
	int64_t lastend;	/* corrected end of the last record written */
	int64_t lastseq, lasts, laste;	/* to repeat a completion's times */
	size_t wrote;		/* records the seizing thread wrote (written) */
	z_stream z;
	char *txt;		/* formatted lines waiting for deflate */
	size_t ntxt;
	unsigned char *zout;
	/* Call sites seen, and the modules they are in. */
	struct site { uintptr_t a; char *s; } *sites;
	size_t nsite, sitecap;
	struct mod { char *name, *path; int written; } *mods;
	size_t nmod, modcap;
	/* The modules loaded, as dl_iterate_phdr lists them: where each is
	 * mapped, its load bias, its real path, and room for its module
	 * name, made when one of its sites is first seen (mod, -1 before).
	 * Listed outside handlers (at setup, and at a flush that finds the
	 * loader's counts changed), so that a flush in a handler names its
	 * sites without dladdr (which takes the loader's lock) or malloc;
	 * S.mods has room for all of them. */
	struct lmod {
		uintptr_t lo, hi, bias;
		char *raw, *path, *name;
		const char *base;
		long mod;
	} *lmods;
	size_t nlmod;
	unsigned long long dladds, dlsubs;
	char *exename, *exepath;	/* the program's NAME~K (exe_module) */
	/* Region names, in chunks that never move once made (name_slot):
	 * a thread that seized the recorder (take) writes the names of
	 * records while their owner may be adding one, and would read a
	 * table that grew by realloc as it was freed. */
	char **namech[11];
	size_t nname;
	char spare[1024];	/* names made in handlers */
	size_t nspare;
	/* Calls the trace does not hold (MPI-4 persistent requests, one-sided
	 * communication): said once each in a #meta unrecorded.KIND line,
	 * so that a replay can say so. */
	struct { const char *kind, *what; int done; } unrec[8];
	int nunrec;
	const char *endwhy;	/* why the rank ends before MPI_Finalize */
	const char *sigwhy;	/* a signal the program's handler took */
	/* A crash signal ended the recording (crashend), and the rank
	 * lived on past it (survived: a jump out of the handler), which
	 * the file says once, in a gzip member of its own (noted). */
	volatile sig_atomic_t crashend, survived;
	int noted;
} S = { .fd = -1, .lastseq = -1, .driftstr = "0" };

enum { TXTCAP = 1 << 16, ZCAP = 1 << 16 };

static char **name_slot(size_t k, int make);

/* S at N in BUF of SIZE bytes, cut to fit; the new length. */
static size_t
wstr(char *buf, size_t size, size_t n, const char *s)
{
	while (*s && n < size)
		buf[n++] = *s++;
	return n;
}

/* One line on stderr: "tr-record: rank R: " and FMT with its %s and %d,
 * formatted by hand, since it is said in signal handlers too. */
void
rec_warn(const char *fmt, ...)
{
	char buf[512], num[24];
	size_t n;
	va_list ap;

	*tr_fmt_i64(num, rec.rank) = '\0';
	n = wstr(buf, sizeof buf - 1, 0, "tr-record: rank ");
	n = wstr(buf, sizeof buf - 1, n, num);
	n = wstr(buf, sizeof buf - 1, n, ": ");
	va_start(ap, fmt);
	for (; *fmt && n < sizeof buf - 1; fmt++)
		if (fmt[0] == '%' && fmt[1] == 's') {
			n = wstr(buf, sizeof buf - 1, n, va_arg(ap, const char *));
			fmt++;
		} else if (fmt[0] == '%' && fmt[1] == 'd') {
			*tr_fmt_i64(num, va_arg(ap, int)) = '\0';
			n = wstr(buf, sizeof buf - 1, n, num);
			fmt++;
		} else
			buf[n++] = *fmt;
	va_end(ap);
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		return;
}

/* A call whose messages the trace will not hold: said on stderr once
 * (by rank 0), with NOTE on what a replay lacks, and in the trace. */
void
rec_unrecorded(const char *kind, const char *what, const char *note)
{
	int i;

	if (!rec.on)
		return;
	for (i = 0; i < S.nunrec; i++)
		if (strcmp(S.unrec[i].kind, kind) == 0)
			return;
	if (S.nunrec == (int)(sizeof S.unrec / sizeof S.unrec[0]))
		return;
	S.unrec[S.nunrec].kind = kind;
	S.unrec[S.nunrec++].what = what;
	if (rec.rank == 0)
		rec_warn("%s: %s", what, note);
}

/* Our own failures must not hurt the application: say so once, stop. */
void
rec_sys(const char *what)
{
	const char *e = strerrordesc_np(errno);

	/* (strerrordesc_np: a table's entry, not strerror's locale) */
	if (!S.warned)
		rec_warn("%s: %s; recording stopped", what, e ? e : "error");
	S.warned = 1;
	S.failed = 1;
	rec.on = 0;
	if (S.fd >= 0)
		close(S.fd);
	S.fd = -1;
}

static void
wfull(const unsigned char *p, size_t n)
{
	while (n > 0 && S.fd >= 0) {
		ssize_t w = write(S.fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			rec_sys(S.path);
			return;
		}
		p += w;
		n -= w;
	}
}

static void
zpush(int flush)
{
	if (S.fd < 0)
		return;
	S.z.next_in = (unsigned char *)S.txt;
	S.z.avail_in = S.ntxt;
	do {
		int r;

		S.z.next_out = S.zout;
		S.z.avail_out = ZCAP;
		r = deflate(&S.z, flush);
		if (r == Z_STREAM_ERROR) {
			errno = EIO;
			rec_sys("zlib");
			return;
		}
		wfull(S.zout, ZCAP - S.z.avail_out);
	} while (S.z.avail_out == 0 && S.fd >= 0);
	S.ntxt = 0;
}

static void
out(const char *s, size_t n)
{
	while (n > 0) {
		size_t k = TXTCAP - S.ntxt;

		if (k > n)
			k = n;
		memcpy(S.txt + S.ntxt, s, k);
		S.ntxt += k;
		s += k;
		n -= k;
		if (S.ntxt == TXTCAP)
			zpush(Z_NO_FLUSH);
	}
}

static void
outs(const char *s)
{
	out(s, strlen(s));
}

static void
outi(int64_t v)
{
	char b[24];

	out(b, tr_fmt_i64(b, v) - b);
}

static void
outmeta(const char *k, int r, const char *v)
{
	outs("#meta ");
	outs(k);
	if (r >= 0) {
		out(".", 1);
		outi(r);
	}
	out("=", 1);
	outs(v);
	out("\n", 1);
}

static void
outmetai(const char *k, int r, int64_t v)
{
	char b[24];

	*tr_fmt_i64(b, v) = '\0';
	outmeta(k, r, b);
}

static void text_clean(char *s);

static void
exe_path(char *path, size_t size)
{
	ssize_t k = readlink("/proc/self/exe", path, size - 1);

	path[k > 0 ? k : 0] = '\0';
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Whether every rank has OK, so that all go on to the next collective
 * or none does. */
static int
all_ok(int ok, MPI_Comm c)
{
	return PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, c) ==
	    MPI_SUCCESS && ok;
}

/* The program's module name, alike for one path on every rank: in an
 * MPMD run of two programs of one file name (two builds of app), each
 * rank's module.app would be another path, whose second value starts a
 * new section of the merged trace, and its sites would mean two things.
 * Among the ranks' paths of this name, in rank order, the first keeps
 * it and the next ones are NAME~2, NAME~3 (S.exename, for site). Two
 * libraries of one name on two ranks still share it (tr-record(1)). */
static void
exe_module(MPI_Comm c)
{
	char path[4096], *all = NULL;
	const char *b;
	int len, i, j, k = 0, *lens = malloc(rec.np * sizeof *lens),
	    *offs = malloc(rec.np * sizeof *offs);

	exe_path(path, sizeof path);
	text_clean(path);
	b = base_name(path);
	len = strlen(path) + 1;
	if (!all_ok(lens && offs, c) || PMPI_Allgather(&len, 1, MPI_INT, lens,
	    1, MPI_INT, c) != MPI_SUCCESS)
		goto out;
	for (i = 0, j = 0; i < rec.np; j += lens[i++])
		offs[i] = j;
	all = malloc(j);
	if (!all_ok(all != NULL, c) || PMPI_Allgatherv(path, len, MPI_CHAR,
	    all, lens, offs, MPI_CHAR, c) != MPI_SUCCESS)
		goto out;
	for (i = 0; i < rec.np; i++) {
		const char *p = all + offs[i];

		if (strcmp(base_name(p), b) != 0)
			continue;
		for (j = 0; j < i && strcmp(all + offs[j], p) != 0; j++)
			;
		if (j == i)
			k++;
		if (strcmp(p, path) == 0)
			break;
	}
	if (k > 1 && (S.exename = malloc(strlen(b) + 16))) {
		snprintf(S.exename, strlen(b) + 16, "%s~%d", b, k);
		S.exepath = strdup(path);
	}
out:
	free(all);
	free(lens);
	free(offs);
}

/* The loaded modules' list (S.lmods) made again: outside handlers
 * only. Modules already listed keep their entries. */
struct scan {
	struct lmod *v;
	size_t n, cap;
	unsigned long long adds, subs;
};

static int
scan_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *sc = arg;
	struct lmod *m;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	int i;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) +
	    sizeof info->dlpi_subs) {
		sc->adds = info->dlpi_adds;
		sc->subs = info->dlpi_subs;
	}
	if (!sc->v && sc->cap)	/* counting only */
		return 1;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (hi <= lo || rec_room(&sc->v, &sc->cap, sc->n, sizeof *sc->v) < 0)
		return 0;
	m = &sc->v[sc->n];
	memset(m, 0, sizeof *m);
	m->lo = lo;
	m->hi = hi;
	m->bias = info->dlpi_addr;
	m->mod = -1;
	if ((m->raw = strdup(info->dlpi_name ? info->dlpi_name : "")))
		sc->n++;
	return 0;
}

static void
modules_list(void)
{
	struct scan sc = { 0 };
	char path[4096];
	size_t i, j;

	dl_iterate_phdr(scan_module, &sc);
	for (i = 0; i < sc.n; i++) {
		struct lmod *m = &sc.v[i];

		for (j = 0; j < S.nlmod; j++) {
			struct lmod *o = &S.lmods[j];

			if (o->raw && o->lo == m->lo && o->hi == m->hi &&
			    o->bias == m->bias && strcmp(o->raw, m->raw) == 0) {
				free(m->raw);
				*m = *o;
				o->raw = NULL;
				break;
			}
		}
		if (j < S.nlmod)
			continue;
		if (!m->raw[0])
			exe_path(path, sizeof path);
		else if (!realpath(m->raw, path))
			snprintf(path, sizeof path, "%s", m->raw);
		text_clean(path);
		m->path = strdup(path);
		if (!m->path)
			continue;
		m->base = S.exepath && strcmp(m->path, S.exepath) == 0 ?
		    S.exename : base_name(m->path);
		if (!*m->base)
			m->base = "?";
		m->name = malloc(strlen(m->base) + 24);
	}
	/* the modules of sites kept their strings: S.mods points at them */
	for (j = 0; j < S.nlmod; j++)
		if (S.lmods[j].raw) {
			free(S.lmods[j].raw);
			if (S.lmods[j].mod < 0) {
				free(S.lmods[j].path);
				free(S.lmods[j].name);
			}
		}
	free(S.lmods);
	S.lmods = sc.v;
	S.nlmod = sc.n;
	S.dladds = sc.adds;
	S.dlsubs = sc.subs;
	if (S.modcap < S.nmod + S.nlmod) {
		struct mod *n = realloc(S.mods, (S.nmod + S.nlmod) *
		    sizeof *n);

		if (n) {
			S.mods = n;
			S.modcap = S.nmod + S.nlmod;
		}
	}
}

/* The list again if the loader loaded or unloaded a module since. */
static void
modules_fresh(void)
{
	struct scan sc = { .cap = 1 };

	dl_iterate_phdr(scan_module, &sc);
	if (sc.adds != S.dladds || sc.subs != S.dlsubs || !sc.adds)
		modules_list();
}

/* M's index in S.mods, named now if new: its file name, with spaces
 * and '=' made '_' (a #meta key has neither: a program "my app" made
 * every file unreadable), and NAME~2 for a second module of one name
 * (plugins of one file name in two directories; two values of one key
 * would start a new section). Async-signal-safe: the room is M's. */
static long
mod_index(struct lmod *m)
{
	size_t i, k, len;

	if (m->mod >= 0)
		return m->mod;
	if (!m->path || !m->name)
		return -1;
	for (i = 0; i < S.nmod; i++)
		if (strcmp(S.mods[i].path, m->path) == 0)
			return m->mod = i;
	if (S.nmod >= S.modcap)
		return -1;
	for (k = 0; m->base[k]; k++)
		m->name[k] = m->base[k] == ' ' || m->base[k] == '=' ? '_' :
		    m->base[k];
	m->name[k] = '\0';
	len = k;
	for (k = 2;; k++) {
		for (i = 0; i < S.nmod; i++)
			if (strcmp(S.mods[i].name, m->name) == 0)
				break;
		if (i == S.nmod)
			break;
		m->name[len] = '~';
		*tr_fmt_i64(m->name + len + 1, k) = '\0';
	}
	S.mods[S.nmod].name = m->name;
	S.mods[S.nmod].path = m->path;
	S.mods[S.nmod].written = 0;
	return m->mod = S.nmod++;
}

/* "0x" and V in hex at P; the end. */
static char *
fmt_hex(char *p, uintptr_t v)
{
	char d[2 * sizeof v];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do
		d[n++] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

static size_t
site_hash(uintptr_t a, size_t cap)
{
	return (a * 0x9e3779b97f4a7c15u >> 20) & (cap - 1);
}

/* MODULE+0xOFFSET, where OFFSET is the address in the module's own ELF
 * numbering (link-time), which is what addr2line expects for PIE
 * programs, shared libraries and fixed-address programs alike. Sites
 * seen are kept, except in a handler, which finds them again in
 * S.lmods. The string lasts until the next call. */
static const char *
site(uintptr_t a)
{
	static char buf[4200];
	size_t i, j;
	struct lmod *m = NULL;
	long k = -1;
	char *p;

	if (S.sitecap)
		for (i = site_hash(a, S.sitecap); S.sites[i].s;
		    i = (i + 1) & (S.sitecap - 1))
			if (S.sites[i].a == a)
				return S.sites[i].s;
	for (i = 0; a && i < S.nlmod && !m; i++)
		if (a >= S.lmods[i].lo && a < S.lmods[i].hi)
			m = &S.lmods[i];
	if (m)
		k = mod_index(m);
	if (k < 0) {
		memcpy(buf, "?+", 2);
		p = fmt_hex(buf + 2, a);
	} else {
		size_t n = strlen(S.mods[k].name);

		if (n > sizeof buf - 24)
			n = sizeof buf - 24;
		memcpy(buf, S.mods[k].name, n);
		buf[n] = '+';
		p = fmt_hex(buf + n + 1, a - m->bias);
	}
	*p = '\0';
	/* Fields never hold TAB or space-less junk: module names could. */
	for (p = buf; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = '_';
	if (insig)
		return buf;
	if (S.sitecap == 0 || 2 * (S.nsite + 1) > S.sitecap) {
		size_t ncap = S.sitecap ? 2 * S.sitecap : 256;
		struct site *n = calloc(ncap, sizeof *n);

		if (!n)
			return buf;
		for (i = 0; i < S.sitecap; i++)
			if (S.sites[i].s) {
				for (j = site_hash(S.sites[i].a, ncap); n[j].s;
				    j = (j + 1) & (ncap - 1))
					;
				n[j] = S.sites[i];
			}
		free(S.sites);
		S.sites = n;
		S.sitecap = ncap;
	}
	for (i = site_hash(a, S.sitecap); S.sites[i].s;
	    i = (i + 1) & (S.sitecap - 1))
		;
	if ((S.sites[i].s = strdup(buf))) {
		S.sites[i].a = a;
		S.nsite++;
	}
	return buf;
}

static void
outmods(void)
{
	for (size_t i = 0; i < S.nmod; i++)
		if (!S.mods[i].written) {
			outs("#meta module.");
			outs(S.mods[i].name);
			out("=", 1);
			outs(S.mods[i].path);
			out("\n", 1);
			S.mods[i].written = 1;
		}
}

static int
newmods(void)
{
	for (size_t i = 0; i < S.nmod; i++)
		if (!S.mods[i].written)
			return 1;
	return 0;
}

static int64_t
offset_at(int64_t t)
{
	return S.off0 + (int64_t)(S.drift * (double)(t - S.t0));
}

static int64_t
fix(int64_t t)
{
	t = t - offset_at(t) - S.origin;
	if (t < S.lastend)
		t = S.lastend;
	return t;
}

static void
outdrift(int fini)
{
	if (fini)
		outmetai("clock.offset.fini", rec.rank, S.offfini);
	if (fini && rec.polls)
		outmetai("polls.merged", rec.rank, rec.polls);
	if (fini && S.nflush) {
		outmetai("flush.count", rec.rank, S.nflush);
		outmetai("flush.ns", rec.rank, S.flushns);
	}
	/* ns per second, as the format says; made by rec_finish, since
	 * snprintf is not async-signal-safe */
	outmeta("clock.drift", rec.rank, S.driftstr);
}

static void
header(void)
{
	outs("#tr 1\n");
	outs(S.ghdr ? S.ghdr : "");
	outmetai("clock.offset", rec.rank, S.off0);
	if (S.havefini) {
		outdrift(1);
		S.finhdr = 0;
	}
	outmeta("host", rec.rank, S.host);
	outmods();
	outs("#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes"
	    "\ttag\tcomm\treq\troot\n"
	    "#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n"
	    "#fields\tcomm\trank\tid\tsize\tmembers\n"
	    "#fields\tcart\trank\tid\tdims\tperiods\n");
	S.hdrdone = 1;
}

static void
outrec(const struct rrec *r)
{
	int64_t s, e;

	if (r->kind == RK_COMM) {
		int id, size;
		const char *m = rec_comm_members(r->req, &id, &size);

		outs("comm\t");
		outi(rec.rank);
		out("\t", 1);
		outi(id);
		out("\t", 1);
		outi(size);
		out("\t", 1);
		outs(m);
		out("\n", 1);
		return;
	}
	if (r->kind == RK_CART) {
		int id;
		const char *g = rec_comm_grid((int)r->req, &id);

		outs("cart\t");
		outi(rec.rank);
		out("\t", 1);
		outi(id);
		out("\t", 1);
		outs(g);
		out("\n", 1);
		return;
	}
	if (r->kind == RK_EV && r->seq == S.lastseq) {
		s = S.lasts;
		e = S.laste;
	} else {
		s = fix(r->start);
		e = r->kind == RK_EV ? fix(r->end) : s;
	}
	S.lastseq = r->seq;
	S.lasts = s;
	S.laste = e;
	if (r->kind != RK_EV) {
		outs("reg\t");
		outi(rec.rank);
		out("\t", 1);
		outi(r->seq);
		outs(r->kind == RK_ENTER ? "\tenter\t" : "\tleave\t");
		outs(*name_slot(r->op, 0));
		out("\t", 1);
		outi(s);
		out("\t", 1);
		outi(r->cpu);
		out("\t", 1);
		outi(r->wtime);
		out("\n", 1);
		S.lastend = s;
		return;
	}
	outs(r->err ? "fail\t" : "ev\t");
	outi(rec.rank);
	out("\t", 1);
	outi(r->seq);
	out("\t", 1);
	outs(rec_opname[r->op]);
	out("\t", 1);
	outi(s);
	out("\t", 1);
	outi(e);
	out("\t", 1);
	outi(r->cpu);
	out("\t", 1);
	outs(site(r->site));
	out("\t", 1);
	outi(r->peer);
	out("\t", 1);
	outi(r->bytes);
	out("\t", 1);
	outi(r->tag);
	out("\t", 1);
	outi(r->comm);
	out("\t", 1);
	outi(r->req);
	out("\t", 1);
	outi(r->root);
	if (r->err) {
		const char *n = rec_errname(r->err);

		out("\t", 1);
		if (n)
			outs(n);
		else
			outi(r->err);
	}
	out("\n", 1);
	S.lastend = e;
}

/* A tenth of a millisecond's sleep: pselect, async-signal-safe (POSIX
 * does not say so of nanosleep). */
static void
nap(void)
{
	struct timespec ts = { 0, 100000 };

	pselect(0, NULL, NULL, NULL, &ts, NULL);
}

/* Sets *M to this thread if it is free; 1 if it is this thread's now. */
static int
mark_own(_Atomic(const void *) *m)
{
	const void *none = NULL;

	return atomic_compare_exchange_strong(m, &none, &rec_thread) ||
	    none == &rec_thread;
}

/* Clears *M if it is this thread's, and only then: a thread that let go
 * never clears the mark that another has set since. */
static void
unmark(_Atomic(const void *) *m)
{
	const void *me = &rec_thread;

	atomic_compare_exchange_strong(m, &me, NULL);
}

/* Marks this thread as the flusher, unless another thread seized the
 * recorder to end it (take): then waits for that end, and returns 0.
 * Sequentially consistent, with take's side, so that never both go on:
 * each sets its own mark, then reads the other's. The flusher's mark is
 * taken by compare-and-swap, so that an owner that wakes up while the
 * seizing thread flushes neither writes over that thread's mark nor,
 * backing off, clears it; it waits for the mark to be free. */
static int
flush_begin(void)
{
	for (;;) {
		if (mark_own(&S.flusher)) {
			const void *s = atomic_load(&S.seized);

			if (!s || s == &rec_thread)
				return 1;
			unmark(&S.flusher);
		}
		if (S.finished || S.failed)
			return 0;
		nap();
	}
}

/* The flusher lets go (flush_end) before raise_pending reads what came
 * meanwhile: a signal that comes later is handled at once, and one that
 * came before is in pending. The caller raises them once it has taken
 * the flush's time, so that a program's handler run then is not counted
 * in the tr.flush mark. */
static void
flush_end(void)
{
	unmark(&S.flusher);
}

static void
raise_pending(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (S.pending[i]) {
			S.pending[i] = 0;
			raise(i ? SIGINT : SIGTERM);
		}
}

/* Text and compression happen here, off the hot path. FINAL ends the
 * gzip stream; otherwise a sync flush makes everything written so far
 * decodable should the process be killed. */
/* The buffer's records before N are written, or dropped. Its count is
 * its holder's: a thread that seized the recorder from another (take)
 * leaves it, which that one may be adding to (set back under it, it
 * would count a record twice or lose one), and keeps where it got to. */
static void
written(size_t n)
{
	if (atomic_load_explicit(&S.seized, memory_order_relaxed) ==
	    &rec_thread)
		S.wrote = n;
	else {
		rec.n = 0;
		__atomic_add_fetch(&rec.emptied, 1, __ATOMIC_RELEASE);
	}
}

static void
flush(int final)
{
	size_t i, i0, n;
	int fails = 0;

	if (atomic_load_explicit(&S.flusher, memory_order_relaxed) ==
	    &rec_thread || S.finished || S.failed || !S.zok) {
		written(rec.n);
		return;
	}
	/* (Only by the recorder's owner: a thread that seized it from
	 * another adds nothing to that thread's buffer.) */
	if (final && rec.flpend &&
	    __atomic_load_n(&rec.owner, __ATOMIC_RELAXED) == &rec_thread) {
		/* The buffer that this mark waits in may be full: the
		 * records go out first, untimed, since no call follows. */
		if (rec.n + 2 > rec.cap)
			flush(0);
		rec_flush_mark();
	}
	if (!flush_begin()) {
		written(rec.n);
		return;
	}
	if (!insig)
		modules_fresh();
	/* Once seized, the owner may still add records past these. */
	n = rec.n;
	i0 = atomic_load_explicit(&S.seized, memory_order_relaxed) ==
	    &rec_thread ? S.wrote : 0;
	if (rec.others)
		rec_unrecorded(UNREC_THREADS);
	for (i = i0; i < n; i++)
		if (rec.buf[i].kind == RK_EV) {
			site(rec.buf[i].site);
			fails |= rec.buf[i].err != 0;
		}
	fails &= !S.faildecl;
	if (!S.hdrdone)
		header();
	else if (newmods() || fails ||
	    (S.nunrec && !S.unrec[S.nunrec - 1].done)) {
		outs("#tr 1\n");
		outmods();
	}
	/* Declared with the first, so that a trace without any is as
	 * before. */
	if (fails) {
		outs("#fields\tfail\trank\tseq\top\tstart\tend\tcpu\tsite"
		    "\tpeer\tbytes\ttag\tcomm\treq\troot\terr\n");
		S.faildecl = 1;
	}
	for (i = 0; i < (size_t)S.nunrec; i++)
		if (!S.unrec[i].done) {
			outs("#meta unrecorded.");
			outs(S.unrec[i].kind);
			out("=", 1);
			outs(S.unrec[i].what);
			out("\n", 1);
			S.unrec[i].done = 1;
		}
	for (i = i0; i < n; i++)
		outrec(&rec.buf[i]);
	written(n);
	/* rec_finish's keys, after the records they correct */
	if (S.finhdr) {
		outs("#tr 1\n");
		outdrift(1);
		S.finhdr = 0;
	}
	/* In the same gzip member as the records: a rank that ends early
	 * has them all, or the reader says the file is cut. */
	if (final && S.endwhy) {
		outs("#tr 1\n");
		outmeta("end", rec.rank, S.endwhy);
	}
	zpush(final ? Z_FINISH : Z_SYNC_FLUSH);
	if (final) {
		S.finished = 1;
		if (!insig)	/* free() */
			deflateEnd(&S.z);
		if (S.fd >= 0 && close(S.fd) < 0)
			rec_sys(S.path);
		S.fd = -1;
		rec.on = 0;
	}
	flush_end();
}

void
rec_flush(int final)
{
	flush(final);
	raise_pending();
}

static long name_index(const char *name);

/* A flush keeps the clock: moving one rank's clock back by the time it
 * spent would put its sends after the receives they ended on other
 * ranks (a 2 s skew after 40 flushes of Ray's). It is marked instead,
 * as region tr.flush, which tools leave out of the program's time; its
 * CPU time stays out of the next record's burst either way. The record
 * being pushed may be one request of a completion whose others follow,
 * so the mark waits for the next call, with sequence numbers kept. */
struct rrec *
rec_slot(void)
{
	if (rec.n == rec.cap) {
		int64_t w0 = rec_now(), c = rec.cpu ? rec_cpunow() : 0, w1;

		flush(0);
		w1 = rec_now();
		S.flushns += w1 - w0;
		S.nflush++;
		if (rec.cpu) {
			c = rec_cpunow() - c;
			rec.flushcpu += c;
		}
		/* Timed: a program's handler run now is the program's time.
		 * The mark comes after, so that one that ends the rank
		 * leaves no sequence number unwritten. */
		raise_pending();
		if (S.flushname < 0)
			;
		else if (!rec.flpend) {
			rec.flpend = 1;
			rec.fl0 = w0 + rec.shift;
			rec.fl1 = w1 + rec.shift;
			rec.flcpu = rec.cpu ? c : -1;
			rec.flseq = rec.seq;
			rec.seq += 2;
		} else {
			/* A second flush within the same call's records (a
			 * completion of more requests than the buffer holds):
			 * the time between the two was the recorder's too. */
			rec.fl1 = w1 + rec.shift;
			if (rec.cpu)
				rec.flcpu += c;
		}
	}
	return &rec.buf[rec.n];
}

static void
mark(int kind, int64_t t, int64_t seq, int64_t cpu)
{
	struct rrec *r = rec_slot();

	r->kind = kind;
	r->op = (uint16_t)S.flushname;
	r->start = r->end = t;
	r->seq = seq;
	r->wtime = rec.wtime;
	r->cpu = cpu;
	rec_commit();
}

/* The mark is read whole before it is written: the buffer may be full
 * at it (a completion filled it after its flush), and the flush that
 * its enter then makes is pending in its place. That one, made now,
 * before the call or region that comes next, is marked here too, after
 * it; its leave took the new one's times and numbers, and the new mark
 * came after the call, out of order (tr-cat: "sequence number goes
 * back"). */
void
rec_flush_mark(void)
{
	int64_t t0, t1, cpu, seq;

	while (rec.flpend) {
		t0 = rec.fl0;
		t1 = rec.fl1;
		cpu = rec.flcpu;
		seq = rec.flseq;
		rec.flpend = 0;
		mark(RK_ENTER, t0, seq, rec.cpu ? 0 : -1);
		mark(RK_LEAVE, t1, seq + 1, cpu);
	}
}

static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
	SIGTERM, SIGINT };
/* The values of #meta end.R, in a handler: no strsignal. */
static const char *const fatalname[] = { "SIGSEGV", "SIGBUS", "SIGFPE",
	"SIGILL", "SIGABRT", "SIGTERM", "SIGINT" };
static struct sigaction oldact[sizeof fatal / sizeof fatal[0]];

/* How long the crash paths wait for the thread that holds the recorder
 * (rec_claim): a call holds it for microseconds around its MPI call, a
 * flush for a fraction of a second. A holder that neither flushes nor
 * records for GRACE ns, and over GRACE_NAPS naps (a chance to run on a
 * busy CPU), is taken to wait inside MPI, its records whole; one still
 * busy after WAIT ns is left alone. Time by the clock, not naps
 * counted: a nap on a busy CPU took 5 ms, not 0.1, and 3 s became
 * minutes. */
enum { GRACE_NAPS = 100 };
#define GRACE 100000000LL
#define WAIT 3000000000LL
enum { T_NONE, T_OWN, T_CLAIMED, T_SEIZED };

/* CLOCK_MONOTONIC's ns: async-signal-safe, whatever rec.clk is. */
static int64_t
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The recorder for a crash path: free (T_CLAIMED, to release), this
 * thread's already (a crash inside MPI, in a call it records), or
 * another thread's, waited for up to WAIT ns (0: looked at once) and
 * with SEIZE (a path that ends the process) seized once that thread has
 * been still for GRACE: its next flush then waits for the end
 * (flush_begin), and records it adds meanwhile are not written. A thread
 * seized while it recorded would leave a call half kept (a flush's mark
 * and the sequence numbers kept for it). T_NONE: not had, and nothing
 * may be written. */
static int
take(int64_t wait, int seize)
{
	long still = 0;
	int64_t seq = -1, t0 = mono(), now = t0, since = t0;
	const void *was = NULL;

	for (;;) {
		const void *o = __atomic_load_n(&rec.owner, __ATOMIC_ACQUIRE);
		int64_t q = __atomic_load_n(&rec.seq, __ATOMIC_RELAXED);

		if (o == &rec_thread)
			return T_OWN;
		if (!o && rec_claim())
			return T_CLAIMED;
		if (S.finished)	/* by a thread that seized it */
			return T_NONE;
		if (o != was || q != seq || atomic_load(&S.flusher)) {
			still = 0;
			since = now;
		}
		was = o;
		seq = q;
		/* Another crashing thread's seizure stands: this one
		 * waits for it to end the process. */
		if (seize && ++still >= GRACE_NAPS && now - since >= GRACE &&
		    mark_own(&S.seized)) {
			if (!atomic_load(&S.flusher))
				return T_SEIZED;
			unmark(&S.seized);
		}
		if (now - t0 >= wait)
			return T_NONE;
		nap();
		now = mono();
	}
}

/* The last flush of a rank that will not reach MPI_Finalize, marked
 * (#meta end.R=WHY) so that tools do not take its records for the
 * whole run. */
static void
end_early(const char *why)
{
	int t;

	if (S.finished)
		return;
	/* exit() in a handler that interrupted this thread's flush (one
	 * that tr-record does not call itself) */
	if (atomic_load(&S.flusher) == &rec_thread) {
		rec_warn("%s while writing the trace: it ends cut, at the "
		    "last flush", why);
		return;
	}
	t = take(WAIT, 1);
	if (t == T_NONE && S.finished)
		return;
	if (t == T_NONE) {
		rec_warn("another thread was still writing the trace: it "
		    "ends cut, at that thread's last flush");
		return;
	}
	if (!S.endwhy)
		S.endwhy = why;
	/* signals kept meanwhile are not raised: the process ends */
	flush(1);
	if (t == T_CLAIMED)
		rec_release();
}

static void oncrash(int sig, siginfo_t *si, void *ctx);

/* Whether the disposition before ours of signal I is a handler. */
static int
handled(size_t i)
{
	const struct sigaction *a = &oldact[i];

	return (a->sa_flags & SA_SIGINFO) || (a->sa_handler != SIG_DFL &&
	    a->sa_handler != SIG_IGN);
}

/* Whether the program's handler of signal I is called by ours, which
 * keeps the recording on: SIGTERM and SIGINT, which a program may
 * survive; a crash's handler is passed the signal once the stream is
 * ended (pass_on). */
static int
forwards(size_t i)
{
	return (fatal[i] == SIGTERM || fatal[i] == SIGINT) && handled(i);
}

/* Ours in place of the program's disposition of signal I, for good:
 * put back after the first signal, the program's handler got the
 * second one itself, during a flush as well, and its exit() cut the
 * file. Its handler runs from ours under the mask and flags it asked
 * for; on its alternate stack too, which a crash's handler needs (a
 * stack overflow leaves no room for ours on the thread's stack). */
static void
install(size_t i)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = oncrash;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (handled(i)) {
		sa.sa_mask = oldact[i].sa_mask;
		sa.sa_flags |= oldact[i].sa_flags &
		    (SA_RESTART | SA_ONSTACK | SA_NODEFER);
	}
	sigaction(fatal[i], &sa, NULL);
}

/* Calls the program's handler of signal I as the kernel would have. */
static void
forward(size_t i, int sig, siginfo_t *si, void *ctx)
{
	struct sigaction h = oldact[i], cur;

	/* once, then the default action (System V's signal()) */
	if (h.sa_flags & SA_RESETHAND) {
		oldact[i].sa_flags = 0;
		oldact[i].sa_handler = SIG_DFL;
	}
	if (h.sa_flags & SA_SIGINFO)
		h.sa_sigaction(sig, si, ctx);
	else
		h.sa_handler(sig);
	/* A handler that installs one (System V's re-arms itself) put it
	 * in ours' place: ours calls it from now on. One that ignores the
	 * signal is left to. */
	if (sigaction(sig, NULL, &cur) == 0 &&
	    !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == oncrash) &&
	    ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_IGN)) {
		oldact[i] = cur;
		install(i);
	}
}

static int
is_ours(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == oncrash;
}

/* Signal SIG, whose stream is ended, to the disposition that was before
 * ours (I), as if ours had not been there: Open MPI's backtrace, or the
 * program's stack dump. Ours, still the signal's, gives way to that one
 * and the signal is sent again, with its own siginfo, to this thread:
 * blocked while ours runs, it comes once ours returns, and the kernel
 * runs the handler itself, with its mask, flags (SA_RESETHAND,
 * SA_ONSTACK) and a frame of the interrupted code, as it would have; a
 * fault's instruction faults again after. Or the default action, or
 * none for an ignored signal. Ours called by a handler that the program
 * installed over it calls the one before it as that one called ours,
 * the program's left in place. */
static void
pass_on(size_t i, int sig, siginfo_t *si, void *ctx)
{
	struct sigaction cur, h = oldact[i];
	sigset_t mask, was;

	if (sigaction(sig, NULL, &cur) == 0 && !is_ours(&cur) &&
	    handled(i)) {
		mask = h.sa_mask;
		if (!(h.sa_flags & SA_NODEFER))
			sigaddset(&mask, sig);
		if (h.sa_flags & SA_RESETHAND) {
			oldact[i].sa_flags = 0;
			oldact[i].sa_handler = SIG_DFL;
		}
		pthread_sigmask(SIG_BLOCK, &mask, &was);
		if (h.sa_flags & SA_SIGINFO)
			h.sa_sigaction(sig, si, ctx);
		else
			h.sa_handler(sig);
		pthread_sigmask(SIG_SETMASK, &was, NULL);
		return;
	}
	sigaction(sig, &h, NULL);
	if (!si || syscall(SYS_rt_tgsigqueueinfo, getpid(),
	    (pid_t)syscall(SYS_gettid), sig, si) < 0)
		raise(sig);
}

static void crashed(int sig, siginfo_t *si, void *ctx);

static void
oncrash(int sig, siginfo_t *si, void *ctx)
{
	int e = errno, was = insig;

	insig = was + 1;
	crashed(sig, si, ctx);
	/* Set, not counted down: a jump within the program's handler,
	 * which returned, was taken for one out of it (rec_jumped) */
	insig = was;
	errno = e;
}

static void
crashed(int sig, siginfo_t *si, void *ctx)
{
	const char *why = "signal";
	size_t i;

	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		if (fatal[i] == sig) {
			why = fatalname[i];
			break;
		}
	/* This thread was writing the trace, and zlib's stream is not
	 * reentrant: a SIGTERM or SIGINT waits for the flush to end, which
	 * raises it again (raise_pending). A fault in the writer itself has
	 * no safe way out: the file ends at the flush before, cut, which
	 * tr-cat reads and says. */
	if (atomic_load_explicit(&S.flusher, memory_order_relaxed) ==
	    &rec_thread) {
		if (sig == SIGTERM || sig == SIGINT) {
			S.pending[sig == SIGINT] = 1;
			return;
		}
		rec_warn("%s while writing the trace: it ends cut, at the "
		    "last flush", why);
		pass_on(i, sig, si, ctx);
		return;
	}
	/* An application's own SIGTERM/SIGINT handler still runs, and the
	 * program may go on (GROMACS stops at its next step and calls
	 * MPI_Finalize): the records so far are written, the stream stays
	 * open, and should the program exit before MPI_Finalize its mark
	 * names the signal. */
	if (i < sizeof fatal / sizeof fatal[0] && forwards(i)) {
		/* Only a free recorder: a flush would empty the buffer
		 * under a record this thread may be adding. */
		if (!S.finished && take(0, 0) == T_CLAIMED) {
			flush(0);
			rec_release();
		}
		if (!S.finished)
			S.sigwhy = why;
		forward(i, sig, si, ctx);
		raise_pending();
		return;
	}
	end_early(why);
	if (S.finished && S.endwhy == why)
		S.crashend = 1;
	pass_on(i, sig, si, ctx);
}

/* Before a longjmp or siglongjmp of the program's (jump.c): a jump out
 * of a signal handler or out of an MPI callback (an error handler) never
 * returns into tr-record, which would stay in the handler (insig) and,
 * jumped out of a wrapper, keep the recorder claimed by this thread:
 * its later calls would look like MPI calling MPI, and not be recorded.
 * Only code run inside a wrapper, or a handler, jumps while the
 * recorder is claimed by its thread: the jump leaves that call, whose
 * record never comes. Async-signal-safe. */
void
rec_jumped(void)
{
	if (S.crashend)
		S.survived = 1;
	if (!insig &&
	    __atomic_load_n(&rec.owner, __ATOMIC_RELAXED) != &rec_thread)
		return;
	insig = 0;
	/* out of this thread's own flush: zlib's stream is half written */
	if (atomic_load_explicit(&S.flusher, memory_order_relaxed) ==
	    &rec_thread) {
		rec_warn("a jump out of a signal handler left the trace "
		    "while it was being written: it ends cut, at the last "
		    "flush");
		S.failed = 1;
		rec.on = 0;
		unmark(&S.flusher);
	}
	if (__atomic_load_n(&rec.owner, __ATOMIC_RELAXED) == &rec_thread)
		rec_release();
}

/* A rank whose recording a crash signal ended, and that lived on (its
 * handler jumped out of it, and it went on to MPI_Finalize or exit):
 * its calls since are not in its file, which says so after the end
 * mark, in a gzip member of its own (outside handlers: zlib allocates). */
static void
note_survival(void)
{
	static const char txt[] = "#tr 1\n#meta unrecorded.survived="
	    "the calls a rank made after the crash signal that ended its "
	    "recording (#meta end.R), which it survived\n";
	unsigned char z[512];
	z_stream zs;

	if (S.noted || !S.crashend || insig)
		return;
	S.noted = 1;
	rec_warn("survived %s, which ended the recording: the calls since "
	    "are not recorded", S.endwhy);
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	zs.next_in = (unsigned char *)txt;
	zs.avail_in = sizeof txt - 1;
	zs.next_out = z;
	zs.avail_out = sizeof z;
	if (deflate(&zs, Z_FINISH) == Z_STREAM_END &&
	    (S.fd = open(S.path, O_WRONLY | O_APPEND | O_CLOEXEC)) >= 0) {
		wfull(z, sizeof z - zs.avail_out);
		if (S.fd >= 0)
			close(S.fd);
		S.fd = -1;
	}
	deflateEnd(&zs);
}

/* A child of fork (not of exec) shares the rank's file: its exit or
 * crash would write its copy of the buffer and end the gzip stream in
 * the middle of the rank's, whose later records are then junk after
 * the end. The rank records; its children do not. */
static void
forked(void)
{
	S.finished = 1;
	rec.on = 0;
}

static void
atexit_flush(void)
{
	if (!S.finished)
		end_early(S.sigwhy ? S.sigwhy : "exit");
	else if (S.survived)
		note_survival();
}

void
rec_abort(void)
{
	end_early("MPI_Abort");
}

/* MPI_ERRORS_ARE_FATAL ends a rank with _exit, past atexit and before
 * any signal: in its place on the world and self communicators (and so
 * on those made from them), this handler writes the rank's records, then
 * aborts as that one does. */
static void
mpi_fatal(MPI_Comm c, int err)
{
	char msg[MPI_MAX_ERROR_STRING];
	int n = 0;

	if (PMPI_Error_string(err, msg, &n) != MPI_SUCCESS)
		snprintf(msg, sizeof msg, "error %d", err);
	fprintf(stderr, "tr-record: rank %d: MPI error: %s: "
	    "MPI_ERRORS_ARE_FATAL, aborting\n", rec.rank, msg);
	end_early("MPI_ERRORS_ARE_FATAL");
	PMPI_Abort(c, err);
}

static void
fatal_error(MPI_Comm *c, int *err, ...)
{
	mpi_fatal(*c, *err);
}

static void
fatal_win_error(MPI_Win *w, int *err, ...)
{
	(void)w;
	mpi_fatal(MPI_COMM_WORLD, *err);
}

/* Windows have handlers of their own, fatal by default too. */
void
rec_win_fatal(MPI_Win w)
{
	static MPI_Errhandler h = MPI_ERRHANDLER_NULL;
	MPI_Errhandler cur;

	if (!rec.on)
		return;
	if (h == MPI_ERRHANDLER_NULL &&
	    PMPI_Win_create_errhandler(fatal_win_error, &h) != MPI_SUCCESS)
		return;
	if (PMPI_Win_get_errhandler(w, &cur) != MPI_SUCCESS)
		return;
	if (cur == MPI_ERRORS_ARE_FATAL)
		PMPI_Win_set_errhandler(w, h);
	if (cur != MPI_ERRORS_ARE_FATAL && cur != MPI_ERRORS_RETURN)
		PMPI_Errhandler_free(&cur);
}

static void
catch_fatal(MPI_Comm c, MPI_Errhandler h)
{
	MPI_Errhandler cur;

	if (PMPI_Comm_get_errhandler(c, &cur) != MPI_SUCCESS)
		return;
	if (cur == MPI_ERRORS_ARE_FATAL)
		PMPI_Comm_set_errhandler(c, h);
	if (cur != MPI_ERRORS_ARE_FATAL && cur != MPI_ERRORS_RETURN)
		PMPI_Errhandler_free(&cur);
}

static int
mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
				*p = '/';
				return -1;
			}
			*p = '/';
		}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static void
parse_skip(const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, ", ");
		int i;

		for (i = 0; i < OP_N; i++) {
			const char *o = rec_opname[i];

			if ((strlen(o) == n && strncasecmp(o, s, n) == 0) ||
			    (strlen(o + 4) == n && strncasecmp(o + 4, s, n) == 0))
				rec.skip[i] = 1;
		}
		s += n;
		s += strspn(s, ", ");
	}
}

static void
text_clean(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/* The global metadata, built on rank 0 and broadcast, so that the
 * per-rank files of a run agree on every shared key. */
enum { GMAX = 4096 };

static char *
global_meta(MPI_Comm c, int64_t timer, int64_t barrier)
{
	char cmd[2048] = "", app[256] = "-", mpi[MPI_MAX_LIBRARY_VERSION_STRING];
	char date[64], eager[128], cpuw[48], *g = NULL;
	int len = 0, n, fd;

	if (rec.rank == 0) {
		time_t now = time(NULL);
		struct tm tm;
		ssize_t k;
		char *p;

		fd = open("/proc/self/cmdline", O_RDONLY);
		k = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : 0;
		if (fd >= 0)
			close(fd);
		if (k < 0)
			k = 0;
		cmd[k] = '\0';
		p = strrchr(cmd, '/');
		snprintf(app, sizeof app, "%s", p && p[1] ? p + 1 : cmd[0] ? cmd : "-");
		for (ssize_t i = 0; i + 1 < k; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (!cmd[0])
			strcpy(cmd, "-");
		text_clean(cmd);
		text_clean(app);
		n = 0;
		mpi[0] = '\0';
		PMPI_Get_library_version(mpi, &n);
		mpi[strcspn(mpi, ",\n")] = '\0';
		text_clean(mpi);
		gmtime_r(&now, &tm);
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
		rec_eager_meta(eager, sizeof eager);
		cpuw[0] = '\0';
		if (rec.cpu)
			snprintf(cpuw, sizeof cpuw, "#meta cpu.window=%lld\n",
			    (long long)rec.cpuwin);
		g = malloc(GMAX);
		if (g) {
			snprintf(g, GMAX, "#meta np=%d\n#meta app=%s\n"
			    "#meta cmd=%s\n#meta date=%s\n"
			    "#meta clock=%s+pingpong\n#meta timer.cost=%lld\n"
			    "%s#meta barrier.cost=%lld\n#meta mpi=%s\n%s"
			    "#meta tool=tr-record %s\n", rec.np, app, cmd, date,
			    rec.clk == CLOCK_REALTIME ? "realtime" : "monotonic",
			    (long long)timer, cpuw, (long long)barrier,
			    mpi[0] ? mpi : "-", eager, TR_VERSION);
			len = strlen(g) + 1;
		}
	}
	PMPI_Bcast(&len, 1, MPI_INT, 0, c);
	if (rec.rank != 0)
		g = malloc(GMAX);
	if (len > 0 && g)
		PMPI_Bcast(g, len, MPI_CHAR, 0, c);
	else if (len > 0) {
		char tmp[GMAX];

		PMPI_Bcast(tmp, len, MPI_CHAR, 0, c);
	}
	return g;
}

static MPI_Comm priv = MPI_COMM_NULL;

static int64_t
envsize(const char *name, int64_t def)
{
	const char *s = getenv(name);
	int64_t v;

	if (!s || !*s || tr_parse_size(s, &v) < 0 || v <= 0)
		return def;
	return v;
}

/* Called inside MPI_Init, after PMPI_Init: everything collective here
 * happens on a private duplicate of MPI_COMM_WORLD. */
void
rec_preinit(void)
{
	const char *s = getenv("TR_RECORD_CLOCK");

	rec.clk = s && strcmp(s, "realtime") == 0 ? CLOCK_REALTIME :
	    CLOCK_MONOTONIC;
}

void
rec_setup(int64_t tinit)
{
	const char *s, *dir;
	int64_t timer = 0, barrier = 0, bytes;
	long long mn;
	size_t i;
	MPI_Comm parent;

	s = getenv("TR_RECORD");
	if (s && strcmp(s, "0") == 0)
		return;
	/* Processes started by MPI_Comm_spawn have a world of their own,
	 * whose rank files would be written over the parents'. */
	if (PMPI_Comm_get_parent(&parent) == MPI_SUCCESS &&
	    parent != MPI_COMM_NULL) {
		PMPI_Comm_rank(MPI_COMM_WORLD, &rec.rank);
		if (rec.rank == 0)
			rec_warn("a process started by MPI_Comm_spawn: not "
			    "recorded");
		return;
	}
	s = getenv("TR_RECORD_CPU");
	rec.cpu = !(s && strcmp(s, "0") == 0);
	s = getenv("TR_RECORD_CPU_WINDOW");
	if (!s || !*s || tr_parse_dur(s, &rec.cpuwin) < 0 || rec.cpuwin < 0)
		rec.cpuwin = 10000;
	parse_skip(getenv("TR_RECORD_SKIP"));
	s = getenv("TR_RECORD_POLL_GAP");
	if (!s || !*s || tr_parse_dur(s, &rec.pollgap) < 0 ||
	    rec.pollgap < 0)
		rec.pollgap = 1000;
	rec.poll[OP_Test] = rec.poll[OP_Testall] = rec.poll[OP_Testany] =
	    rec.poll[OP_Testsome] = rec.poll[OP_Iprobe] =
	    rec.poll[OP_Improbe] = 1;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rec.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &rec.np);
	if (PMPI_Comm_dup(MPI_COMM_WORLD, &priv) != MPI_SUCCESS)
		return;
	gethostname(S.host, sizeof S.host - 1);
	text_clean(S.host);
	if (!S.host[0])
		strcpy(S.host, "-");

	{
		char h0[sizeof S.host];

		memcpy(h0, S.host, sizeof h0);
		PMPI_Bcast(h0, sizeof h0, MPI_CHAR, 0, priv);
		s = getenv("TR_RECORD_SYNC");
		S.samehost = strcmp(h0, S.host) == 0 &&
		    !(s && strcmp(s, "always") == 0);
	}
	S.off0 = rec_sync_offset();
	if (S.samehost)
		S.off0 = 0;
	S.t0 = rec_now();
	timer = rec_timer_cost();
	barrier = rec_barrier_cost(priv);
	S.ghdr = global_meta(priv, timer, barrier);
	exe_module(priv);
	modules_list();
	mn = tinit - S.off0;
	PMPI_Allreduce(MPI_IN_PLACE, &mn, 1, MPI_LONG_LONG, MPI_MIN, priv);
	S.origin = mn;

	bytes = envsize("TR_RECORD_BUF", 4 << 20);
	rec.cap = bytes / sizeof(struct rrec);
	if (rec.cap < 16)
		rec.cap = 16;
	rec.buf = malloc(rec.cap * sizeof *rec.buf);
	if (rec.buf)	/* fault the pages in now, not during the run */
		memset(rec.buf, 0, rec.cap * sizeof *rec.buf);
	S.flushname = name_index("tr.flush");
	S.txt = malloc(TXTCAP);
	S.zout = malloc(ZCAP);
	if (!rec.buf || !S.txt || !S.zout) {
		errno = ENOMEM;
		rec_sys("memory");
		return;
	}
	dir = getenv("TR_RECORD_DIR");
	if (!dir || !*dir)
		dir = "tr-trace";
	snprintf(S.path, sizeof S.path, "%s", dir);
	if (mkdirs(S.path) < 0) {
		rec_sys(S.path);
		return;
	}
	snprintf(S.path, sizeof S.path, "%s/rank.%d.tr.gz", dir, rec.rank);
	S.fd = open(S.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (S.fd < 0) {
		rec_sys(S.path);
		return;
	}
	/* Level 1: a flush is time the program waits, and level 6 took 3x
	 * as long (Meep: 1.7 s of 4.9 against 0.56 s) for files 20 %
	 * smaller. */
	s = getenv("TR_RECORD_LEVEL");
	if (deflateInit2(&S.z, s && *s >= '0' && *s <= '9' ? *s - '0' : 1,
	    Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		rec_sys("zlib");
		return;
	}
	S.zok = 1;
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		sigaction(fatal[i], NULL, &oldact[i]);
		/* A signal the program ignores (SIGINT in a job started in
		 * the background) must not end it now. */
		if ((oldact[i].sa_flags & SA_SIGINFO) ||
		    oldact[i].sa_handler != SIG_IGN)
			install(i);
	}
	atexit(atexit_flush);
	pthread_atfork(NULL, NULL, forked);
	{
		MPI_Errhandler h;

		if (PMPI_Comm_create_errhandler(fatal_error, &h) ==
		    MPI_SUCCESS) {
			catch_fatal(MPI_COMM_WORLD, h);
			catch_fatal(MPI_COMM_SELF, h);
			PMPI_Errhandler_free(&h);
		}
	}
	if (rec.cpu) {
		int64_t a = rec_cpunow(), b = a;

		/* Half of each read is counted between two calls: take one
		 * read's cost off every burst. */
		for (i = 0; i < 64; i++)
			b = rec_cpunow();
		rec.cpucost = (b - a) / 64;
		rec.lastcpu = rec.cpur = rec_cpunow();
		rec.cpuw = rec_now();
	}
	rec.on = 1;
	rec_tab_init();
	/* The header now, so that a rank killed at any later moment leaves a
	 * readable file; the records stay buffered for the clock correction
	 * at MPI_Finalize. */
	rec_flush(0);
}

/* MPI_Finalize's flushes hold the recorder, as a crash path does
 * (take): this thread's when its call is recorded, else waited for from
 * the thread that holds it (MPI_THREAD_MULTIPLE: a region being marked,
 * a call still in MPI) and seized once that one is still, since a flush
 * writes the buffer and empties it under the holder's records. Held
 * from rec_finish to rec_end. */
static int finheld = T_NONE;

static int
fin_hold(void)
{
	if (finheld == T_NONE)
		finheld = take(WAIT, 1);
	return finheld;
}

void
rec_end(void)
{
	/* at MPI_Finalize: it lived on, jumped out or not */
	note_survival();
	if (fin_hold() != T_NONE)
		rec_flush(1);
	if (finheld == T_CLAIMED)
		rec_release();
	finheld = T_NONE;
}

/* At MPI_Finalize: the second offset gives the drift, applied to the
 * records still buffered (all of them when the run fit the buffer). */
void
rec_finish(void)
{
	int64_t t, o;

	if (priv == MPI_COMM_NULL)
		return;
	o = rec_sync_offset();
	if (S.samehost)
		o = 0;
	t = rec_now();
	if (rec.on && t > S.t0 && fin_hold() != T_NONE) {
		double d = (double)(o - S.off0) / (double)(t - S.t0);

		/* Written by the flush, inside its guard, as a flush in a
		 * signal handler meanwhile would write them: this thread
		 * formats no text outside a flush. */
		tr_f64str(S.driftstr, d * 1e9);
		S.offfini = o;
		S.drift = d;
		atomic_signal_fence(memory_order_seq_cst);
		S.havefini = 1;
		S.finhdr = 1;
		rec_flush(0);
	}
	PMPI_Comm_free(&priv);
}

/* Chunk C holds NAMES0 << C names; the 11 of them, the 65536 that a
 * record's op can name. */
enum { NAMES0 = 64, NAMEMAX = 65536 };

/* Name K's place, its chunk made if MAKE (outside handlers: calloc)
 * and published whole; NULL if it has none. */
static char **
name_slot(size_t k, int make)
{
	size_t c = 0, base = 0;
	char **ch;

	while (k - base >= (size_t)NAMES0 << c) {
		base += (size_t)NAMES0 << c;
		if (++c == sizeof S.namech / sizeof S.namech[0])
			return NULL;
	}
	ch = __atomic_load_n(&S.namech[c], __ATOMIC_ACQUIRE);
	if (!ch && make && !insig &&
	    (ch = calloc((size_t)NAMES0 << c, sizeof *ch)) != NULL)
		__atomic_store_n(&S.namech[c], ch, __ATOMIC_RELEASE);
	return ch ? &ch[k - base] : NULL;
}

/* Exported glue for tr.h; see include/tr.h. */
static long
name_index(const char *name)
{
	size_t i, n;
	char *s, **slot;

	if (!name || !*name)
		name = "-";
	for (i = 0; i < S.nname; i++)
		if (strcmp(*name_slot(i, 0), name) == 0)
			return i;
	if (S.nname >= NAMEMAX || !(slot = name_slot(S.nname, 1)))
		return -1;
	/* In a handler, in the room kept for it; else a region left out */
	n = strlen(name) + 1;
	if (insig) {
		if (n > sizeof S.spare - S.nspare)
			return -1;
		s = memcpy(S.spare + S.nspare, name, n);
		S.nspare += n;
	} else if (!(s = strdup(name)))
		return -1;
	text_clean(s);
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = '_';
	*slot = s;
	__atomic_store_n(&S.nname, S.nname + 1, __ATOMIC_RELEASE);
	return S.nname - 1;
}

/* A region's records are the buffer's, like a call's: the thread claims
 * the recorder for them. One that holds it already is inside a call
 * being recorded or inside the recorder (a signal handler or an MPI
 * callback that marks a region), where a record would go into the slot
 * being filled or ahead of the call's own; one that another thread holds
 * is that thread's. Such a region is not recorded (tr-record(1)). */
static void
region(const char *name, int kind)
{
	struct rrec *r;
	int64_t cpu = -1, t, seq;
	long k;

	if (!rec.on || !rec_claim())
		return;
	if (rec.flpend)
		rec_flush_mark();
	rec_flushed();
	t = rec_now();
	if (rec.cpu) {
		int read;

		cpu = rec_cpuat(t, &read);
	}
	t += rec.shift;
	k = name_index(name);
	if (k < 0) {
		rec_release();
		return;
	}
	seq = rec.seq++;	/* before a flush that keeps the next ones */
	r = rec_slot();
	r->kind = kind;
	r->op = k;
	r->start = r->end = t;
	r->seq = seq;
	r->wtime = rec.wtime;
	r->cpu = rec.cpu ? rec_burst(cpu) : -1;
	rec_commit();
	rec.addcpu = 0;
	if (rec.cpu)
		rec.lastcpu = cpu;
	/* A flush in rec_slot, after the reading: as put() does. */
	rec_flushed();
	rec_release();
}

/* The recorder's region names begin with "tr.": a program's region of
 * that name is recorded as "_tr...", lest tools take its time for a
 * flush and leave it out of the program's. */
static void
user_region(const char *name, int kind)
{
	char buf[256];

	if (name && strncmp(name, "tr.", 3) == 0) {
		size_t n = strnlen(name, sizeof buf - 2);

		buf[0] = '_';
		memcpy(buf + 1, name, n);
		buf[n + 1] = '\0';
		name = buf;
	}
	region(name, kind);
}

REC_API void
tr_rec_region_begin(const char *name)
{
	user_region(name, RK_ENTER);
}

REC_API void
tr_rec_region_end(const char *name)
{
	user_region(name, RK_LEAVE);
}

/* Added to the clock by the next thread to claim the recorder, before
 * its call or region starts (rec_claim): one that another thread holds
 * reads the shift at its call's start and end, and this thread may be
 * that holder itself, in a callback or a handler inside a call. */
REC_API void
tr_rec_add_time(double seconds)
{
	if (!rec.on || !(seconds > 0) || seconds > 1e9)
		return;
	__atomic_fetch_add(&rec.added, (int64_t)(seconds * 1e9),
	    __ATOMIC_RELAXED);
}

REC_API int
tr_rec_active(void)
{
	return rec.on;
}
