/* tr-record - run an MPI program with libtr-record.so preloaded. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "libtr.h"

static const struct option longopts[] = {
	{"no-cpu", no_argument, NULL, 'C'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-record [-C] [-b size] [-c window] [-g gap] [-N size] [-o dir] "
	"[-x ops] "
	"program [arg ...]",
	"-b size\tbuffer size per rank (default 4MiB)\n"
	"-C, --no-cpu\tdo not sample the thread CPU clock\n"
	"-c window\tread the CPU clock at a call only when window has "
	"passed since the last read (default 10us)\n"
	"-g gap\tpolls that found nothing, less than gap apart, are one "
	"record (default 1us)\n"
	"-N size\tthe run's problem size, written as #meta N\n"
	"-o dir\toutput directory, made if needed (default tr-trace)\n"
	"-x ops\tMPI functions not to record, comma-separated\n",
	longopts
};

static void
usage(void)
{
	tr_usage(&opts);
}

static int
readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* TR_PRELOAD, then beside this program, then ../lib/tr/ from it, then
 * the build tree's build/mpi/ (for bin/ and build/V/bin/). */
static const char *
findlib(void)
{
	static char buf[PATH_MAX + 64];
	static const char *rel[] = { "libtr-record.so",
		"../lib/tr/libtr-record.so", "../build/mpi/libtr-record.so",
		"../../mpi/libtr-record.so" };
	char self[PATH_MAX];
	const char *s = getenv("TR_PRELOAD");
	ssize_t n;
	size_t i;
	char *slash;

	if (s && *s)
		return readable(s) ? s : NULL;
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		snprintf(buf, sizeof buf, "%s/%s", self, rel[i]);
		if (readable(buf))
			return buf;
	}
	return NULL;
}

/* The calls libtr-record.so records, as -x names them (rec/ops.h). */
static const char *const ops[] = {
#define OP(x) #x,
#define OPS(x, s) #s,
#include "../rec/ops.h"
#undef OP
#undef OPS
};

/* -x names calls the library records, with or without MPI_, as the
 * library matches them; a name it does not know (a typo, Iprob) used
 * to leave the call recorded without a word. */
static void
check_skip(const char *s)
{
	size_t n, i, p;

	for (s += strspn(s, ", "); *s; s += strspn(s, ", ")) {
		n = strcspn(s, ", ");
		p = n > 4 && strncasecmp(s, "MPI_", 4) == 0 ? 4 : 0;
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
			if (strlen(ops[i]) == n - p &&
			    strncasecmp(ops[i], s + p, n - p) == 0)
				break;
		if (i == sizeof ops / sizeof ops[0])
			tr_opt_bad('x', tr_strndup(s, n), "no MPI call that "
			    "tr-record records");
		s += n;
	}
}

static void
setenv_or_die(const char *k, const char *v)
{
	if (setenv(k, v, 1) < 0)
		tr_die(TR_EXIT_SYS, "setenv %s:", k);
}

int
main(int argc, char **argv)
{
	const char *lib, *old;
	char *pre;
	int c;

	tr_init("tr-record");
	while ((c = tr_getopt(argc, argv, "+Cb:c:g:N:o:x:", &opts)) != -1) {
		switch (c) {
		case 'C':
			setenv_or_die("TR_RECORD_CPU", "0");
			break;
		case 'c':
			tr_opt_dur('c', optarg, 0);
			setenv_or_die("TR_RECORD_CPU_WINDOW", optarg);
			break;
		case 'b':
			tr_opt_size('b', optarg, 1, INT64_MAX);
			setenv_or_die("TR_RECORD_BUF", optarg);
			break;
		case 'N':
			tr_opt_pos('N', optarg);
			setenv_or_die("TR_RECORD_N", optarg);
			break;
		case 'o':
			setenv_or_die("TR_RECORD_DIR", optarg);
			break;
		case 'g':
			tr_opt_dur('g', optarg, 0);
			setenv_or_die("TR_RECORD_POLL_GAP", optarg);
			break;
		case 'x':
			check_skip(optarg);
			setenv_or_die("TR_RECORD_SKIP", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	if (!(lib = findlib()))
		tr_die(TR_EXIT_SYS, "cannot find libtr-record.so "
		    "(set TR_PRELOAD)");
	old = getenv("LD_PRELOAD");
	if (old && *old) {
		pre = tr_malloc(strlen(lib) + strlen(old) + 2);
		sprintf(pre, "%s:%s", lib, old);
	} else
		pre = tr_strdup(lib);
	setenv_or_die("LD_PRELOAD", pre);
	free(pre);
	execvp(argv[0], argv);
	tr_die(errno == ENOENT ? 127 : 126, "%s:", argv[0]);
}
