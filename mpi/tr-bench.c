/* tr-bench - measure the timer, barriers and the alpha and beta of
 * point-to-point and collective calls on this machine; write them as
 * param records.
 *
 * Every point is the mean time of REPS calls, the slowest rank's, and
 * the best of TRIALS such means: the slowest rank because a collective
 * ends for the program when its last rank leaves it, the best trial
 * because noise on a shared machine only ever adds time. */
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libtr.h"

#define MAXPT 32

static int rflag, trials = 3;
static int64_t lo = 8, hi = 262144;
static double budget = 2e-3;	/* seconds per measured point */
static int rank, np;
static char *sbuf, *rbuf;

/* NOP, the barrier, ends the operations measured on each communicator.
 * REDLOCAL is what a reduction computes besides its messages: every rank
 * reducing M bytes of doubles into its own at once, as the ranks of a
 * collective do (they share the memory bandwidth); 1 / beta is
 * tr-net(5)'s reduce-bandwidth. EXCH is the first two ranks each sending
 * M bytes to the other at once: both copies share the node's memory, as a
 * halo exchange's do, which a ping-pong never shows; tr-nsim's
 * node-bandwidth comes from it. tr-model prices MPI_Sendrecv by the
 * ping-pong (MPI_Send), so this op is not in TR_BENCH_OPS. */
enum { P2P, BCAST, ALLREDUCE, ALLGATHER, ALLTOALL, NOP, REDLOCAL, EXCH };
static const char *const opname[] = { TR_BENCH_OPS, "MPI_Sendrecv" };

static const struct tr_opts opts = {
	"tr-bench [-r] [-s lo:hi] [-b budget] [-T trials]",
	"-b budget\ttime spent on one point of one trial (default 2ms)\n"
	"-r\talso write the measured points, as benchpt records\n"
	"-s lo:hi\tmessage sizes, from 8 bytes to 64MiB (default 8:256KiB)\n"
	"-T trials\ttrials per point, the best kept (default 3)\n",
	NULL
};

static void
finalize(void)
{
	MPI_Finalize();
}

/* Output goes through one buffer, written by rank 0 at the end. */
static char *obuf;
static size_t olen, ocap;

static void
out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (olen + (size_t)n + 1 > ocap) {
		ocap = (olen + (size_t)n + 1) * 2;
		obuf = realloc(obuf, ocap);
		if (!obuf) {
			fprintf(stderr, "tr-bench: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, TR_EXIT_SYS);
		}
	}
	va_start(ap, fmt);
	vsnprintf(obuf + olen, ocap - olen, fmt, ap);
	va_end(ap);
	olen += (size_t)n;
}

/* A float as the format wants it, rounded to 6 significant digits: the
 * noise is far larger than that. */
static const char *
flt(char *buf, double v)
{
	char t[32];

	snprintf(t, sizeof t, "%.6g", v);
	return tr_f64str(buf, strtod(t, NULL));
}

static void
once(int op, MPI_Comm c, int me, int m)
{
	switch (op) {
	case P2P:
		if (me == 0) {
			MPI_Send(sbuf, m, MPI_BYTE, 1, 7, c);
			MPI_Recv(rbuf, m, MPI_BYTE, 1, 7, c, MPI_STATUS_IGNORE);
		} else if (me == 1) {
			MPI_Recv(rbuf, m, MPI_BYTE, 0, 7, c, MPI_STATUS_IGNORE);
			MPI_Send(sbuf, m, MPI_BYTE, 0, 7, c);
		}
		break;
	case BCAST:
		MPI_Bcast(sbuf, m, MPI_BYTE, 0, c);
		break;
	case ALLREDUCE:
		/* Bytes as doubles, so the reduction does real arithmetic. */
		MPI_Allreduce(sbuf, rbuf, m / 8, MPI_DOUBLE, MPI_SUM, c);
		break;
	case ALLGATHER:
		MPI_Allgather(sbuf, m, MPI_BYTE, rbuf, m, MPI_BYTE, c);
		break;
	case ALLTOALL:
		MPI_Alltoall(sbuf, m, MPI_BYTE, rbuf, m, MPI_BYTE, c);
		break;
	case NOP:
		MPI_Barrier(c);
		break;
	case REDLOCAL:
		MPI_Reduce_local(sbuf, rbuf, m / 8, MPI_DOUBLE, MPI_SUM);
		break;
	case EXCH:
		if (me < 2)
			MPI_Sendrecv(sbuf, m, MPI_BYTE, 1 - me, 8, rbuf, m,
			    MPI_BYTE, 1 - me, 8, c, MPI_STATUS_IGNORE);
		break;
	}
}

/* Seconds per call of OP with M bytes on C (as seen by its slowest
 * rank); a ping-pong counts as two calls. */
static double
measure(int op, MPI_Comm c, int m)
{
	int me, size, reps, i, k;
	double t0, t, best = 1e30;

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &size);
	/* A first call warms up and sizes the repetitions; every rank
	 * must agree on them. */
	MPI_Barrier(c);
	t0 = MPI_Wtime();
	once(op, c, me, m);
	t = MPI_Wtime() - t0;
	MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, c);
	reps = t > 0 ? (int)(budget / t) : 1000;
	if (reps < 2)
		reps = 2;
	if (reps > 2000)
		reps = 2000;
	for (k = 0; k < trials; k++) {
		MPI_Barrier(c);
		t0 = MPI_Wtime();
		for (i = 0; i < reps; i++)
			once(op, c, me, m);
		t = (MPI_Wtime() - t0) / reps;
		MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, c);
		if (t < best)
			best = t;
	}
	return op == P2P ? best / 2 : best;
}

/* Weighted least squares of t = a + b m, weights 1/t^2, so that small
 * messages (where alpha shows) count as much as large ones. */
static void
fit(const double *m, const double *t, int n, double *a, double *b,
    double *err)
{
	double sw = 0, sm = 0, st = 0, smm = 0, smt = 0, w, d, e;
	int i;

	for (i = 0; i < n; i++) {
		w = 1 / (t[i] * t[i]);
		sw += w;
		sm += w * m[i];
		st += w * t[i];
		smm += w * m[i] * m[i];
		smt += w * m[i] * t[i];
	}
	d = sw * smm - sm * sm;
	*b = d > 0 ? (sw * smt - sm * st) / d : 0;
	*a = (st - *b * sm) / sw;
	if (*b < 0) {
		*b = 0;
		*a = st / sw;
	}
	if (*a < 0) {
		*a = 0;
		*b = smm > 0 ? smt / smm : 0;
	}
	*err = 0;
	for (i = 0; i < n; i++) {
		e = fabs(*a + *b * m[i] - t[i]) / t[i];
		if (e > *err)
			*err = e;
	}
}

/* OP on C at every size: its points (-r) and the line fitted to them. */
static void
bench_op(int op, MPI_Comm c, const char *label, int size)
{
	double m[MAXPT], t[MAXPT], a, b, err;
	char f1[32], f2[32], f3[32];
	int n = 0;
	int64_t s;

	for (s = lo; s <= hi && n < MAXPT; s *= 4) {
		m[n] = (double)s;
		t[n] = measure(op, c, (int)s) * 1e9;
		if (rflag)
			out("benchpt\t%s\t%s\t%d\t%lld\t%s\n", opname[op],
			    label, size, (long long)s, flt(f1, t[n]));
		n++;
	}
	fit(m, t, n, &a, &b, &err);
	out("param\t%s\t%s\t%d\t%s\t%s\t%lld\t%lld\t%d\t%s\n",
	    opname[op], label, size, flt(f1, a), flt(f2, b), (long long)lo,
	    (long long)m[n - 1], n, flt(f3, err));
}

static void
bench_comm(MPI_Comm c, const char *label)
{
	char f1[32];
	int op, size;

	MPI_Comm_size(c, &size);
	if (size < 2)
		return;
	for (op = 0; op < NOP; op++)
		bench_op(op, c, label, size);
	out("param\tMPI_Barrier\t%s\t%d\t%s\t0\t0\t0\t1\t0\n", label, size,
	    flt(f1, measure(NOP, c, 0) * 1e9));
}

/* One MPI_Wtime read, ns: the best of several long loops. */
static double
timer_cost(void)
{
	enum { N = 100000 };
	double t0, t1, best = 1e30, sink = 0;
	int k, i;

	for (k = 0; k < 5; k++) {
		t0 = MPI_Wtime();
		for (i = 0; i < N; i++)
			sink += MPI_Wtime();
		t1 = MPI_Wtime();
		if ((t1 - t0) / (N + 1) < best)
			best = (t1 - t0) / (N + 1);
	}
	return sink < 0 ? 0 : best * 1e9;
}

static int64_t
parse_bytes(const char *s)
{
	int64_t v;

	if (tr_parse_size(s, &v) < 0 || v <= 0)
		tr_opt_bad('s', s, "not a positive size");
	return v;
}

int
main(int argc, char **argv)
{
	MPI_Comm row, col;
	int c, rows, cols, n;
	double tc, bc;
	char *colon, date[32], mpi[MPI_MAX_LIBRARY_VERSION_STRING];
	char f1[32];
	time_t now;
	int fd1 = -1, fd2 = -1, null;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	tr_init("tr-bench");
	tr_atdie = finalize;
	/* Every rank reads the options; rank 0 alone answers. */
	if (rank != 0) {
		fd1 = dup(1);
		fd2 = dup(2);
		if ((null = open("/dev/null", O_WRONLY)) >= 0) {
			dup2(null, 1);
			dup2(null, 2);
			close(null);
		}
	}
	while ((c = tr_getopt(argc, argv, "b:rs:T:", &opts)) != -1) {
		switch (c) {
		case 'b':
			budget = (double)tr_opt_dur('b', optarg, 1) * 1e-9;
			break;
		case 'T': trials = (int)tr_opt_int('T', optarg, 1, 100); break;
		case 'r': rflag = 1; break;
		case 's':
			colon = strchr(optarg, ':');
			if (!colon)
				tr_opt_bad('s', optarg, "not lo:hi");
			*colon = '\0';
			lo = parse_bytes(optarg);
			hi = parse_bytes(colon + 1);
			if (lo < 8 || hi < lo || hi > (1 << 26)) {
				*colon = ':';
				tr_opt_bad('s', optarg, "not 8 <= lo <= hi <= "
				    "64MiB");
			}
			break;
		default: tr_usage(&opts);
		}
	}
	if (optind < argc)
		tr_usage(&opts);
	if (rank != 0) {
		dup2(fd1, 1);
		dup2(fd2, 2);
		close(fd1);
		close(fd2);
	}
	/* Allreduce moves doubles: sizes are whole doubles. */
	lo = (lo + 7) / 8 * 8;
	sbuf = calloc((size_t)hi, (size_t)np);
	rbuf = calloc((size_t)hi, (size_t)np);
	if (!sbuf || !rbuf) {
		fprintf(stderr, "tr-bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, TR_EXIT_SYS);
	}
	/* Written, so that every page is the process's own: a buffer
	 * never written reads the kernel's one zero page, in cache, and
	 * reduces far faster than memory (21 GB/s against 7 here). */
	memset(sbuf, 1, (size_t)hi * (size_t)np);
	memset(rbuf, 1, (size_t)hi * (size_t)np);
	for (rows = (int)sqrt((double)np); rows > 1 && np % rows; rows--)
		;
	if (rows < 1)
		rows = 1;
	cols = np / rows;
	MPI_Comm_split(MPI_COMM_WORLD, rank / cols, rank % cols, &row);
	MPI_Comm_split(MPI_COMM_WORLD, rank % cols, rank / cols, &col);

	tc = timer_cost();
	bc = measure(NOP, MPI_COMM_WORLD, 0) * 1e9;
	now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	n = 0;
	MPI_Get_library_version(mpi, &n);
	mpi[strcspn(mpi, ",\n")] = '\0';
	out("#tr 1\n#meta np=%d\n#meta tool=tr-bench %s\n#meta date=%s\n"
	    "#meta mpi=%s\n#meta grid=%dx%d\n#meta timer.cost=%lld\n"
	    "#meta barrier.cost=%lld\n", np, TR_VERSION, date, mpi, rows,
	    cols, llround(tc), llround(bc));
	out("#fields\tparam\top\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\t"
	    "err\n");
	if (rflag)
		out("#fields\tbenchpt\top\tcomm\tsize\tbytes\ttime\n");
	out("param\ttimer\tworld\t%d\t%s\t0\t0\t0\t1\t0\n", np, flt(f1, tc));
	bench_comm(MPI_COMM_WORLD, "world");
	bench_comm(row, "row");
	bench_comm(col, "col");
	bench_op(REDLOCAL, MPI_COMM_WORLD, "world", np);
	if (np > 1)
		bench_op(EXCH, MPI_COMM_WORLD, "world", np);
	if (rank == 0 && (fwrite(obuf, 1, olen, stdout) != olen ||
	    fflush(stdout) != 0)) {
		fprintf(stderr, "tr-bench: write error\n");
		MPI_Abort(MPI_COMM_WORLD, TR_EXIT_SYS);
	}
	free(obuf);
	free(sbuf);
	free(rbuf);
	MPI_Comm_free(&row);
	MPI_Comm_free(&col);
	MPI_Finalize();
	return 0;
}
