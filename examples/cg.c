/* cg.c - conjugate gradients on a dense symmetric positive definite
 * N x N matrix, rows split in blocks over the ranks; the phases of an
 * iteration are user regions for tr-record:
 *   matvec  MPI_Allgather of the search direction, then q = A p
 *   dot     p.q with an MPI_Allreduce of 8 bytes
 *   update  x += a p, r -= a q (no communication)
 *   norm    r.r with an MPI_Allreduce of 8 bytes, then p = r + b p
 *
 * usage: cg [N [ITERATIONS [ends|phase|comm]]]	(default 480 20 ends)
 * The third argument says what the program measures by itself, with
 * MPI_Barrier and MPI_Wtime: the whole solve (ends), every phase
 * (phase), or also every communication call (comm). N must be a
 * multiple of the number of ranks. Rank 0 prints the residual and the
 * time it measured. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr.h"

enum { ENDS, PHASE, COMM };
static int level;
static double tphase[4], tstart[COMM + 1];

/* The instrumentation under study: a barrier, then a timer read. */
static void
mark_begin(int lv)
{
	if (level >= lv) {
		MPI_Barrier(MPI_COMM_WORLD);
		tstart[lv] = MPI_Wtime();
	}
}

static void
mark_end(int lv, int k)
{
	if (level >= lv)
		tphase[k] += MPI_Wtime() - tstart[lv];
}

static void
allreduce(double *v)
{
	mark_begin(COMM);
	MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	mark_end(COMM, 3);
}

int
main(int argc, char **argv)
{
	int np, rank, n, m, iters, it, i, j;
	double *a, *x, *r, *p, *q, *pl, rr, rr1, pq, al, t0 = 0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	n = argc > 1 ? atoi(argv[1]) : 480;
	iters = argc > 2 ? atoi(argv[2]) : 20;
	if (argc > 3)
		level = strcmp(argv[3], "comm") == 0 ? COMM :
		    strcmp(argv[3], "phase") == 0 ? PHASE :
		    strcmp(argv[3], "ends") == 0 ? ENDS : -1;
	if (n <= 0 || n % np || iters <= 0 || level < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: cg [N [ITERATIONS "
			    "[ends|phase|comm]]] (N a multiple of the ranks)\n");
		MPI_Finalize();
		return 2;
	}
	m = n / np;
	a = malloc((size_t)m * n * sizeof *a);
	x = calloc((size_t)m, sizeof *x);
	r = malloc((size_t)m * sizeof *r);
	q = malloc((size_t)m * sizeof *q);
	p = malloc((size_t)n * sizeof *p);
	if (!a || !x || !r || !q || !p) {
		fprintf(stderr, "cg: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 4);
	}
	/* Diagonally dominant, so positive definite; b = 1, x0 = 0. */
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			a[(size_t)i * n + j] = rank * m + i == j ? 2 * (log(n) + 1) :
			    1.0 / (1 + abs(rank * m + i - j));
	for (i = 0; i < m; i++)
		r[i] = p[rank * m + i] = 1;
	rr = m;
	MPI_Allreduce(MPI_IN_PLACE, &rr, 1, MPI_DOUBLE, MPI_SUM,
	    MPI_COMM_WORLD);
	pl = p + (size_t)rank * m;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (it = 0; it < iters; it++) {
		tr_region_begin("matvec");
		mark_begin(PHASE);
		mark_begin(COMM);
		MPI_Allgather(MPI_IN_PLACE, m, MPI_DOUBLE, p, m, MPI_DOUBLE,
		    MPI_COMM_WORLD);
		mark_end(COMM, 3);
		for (i = 0; i < m; i++) {
			const double *ai = a + (size_t)i * n;
			double s = 0;

			for (j = 0; j < n; j++)
				s += ai[j] * p[j];
			q[i] = s;
		}
		mark_end(PHASE, 0);
		tr_region_end("matvec");

		tr_region_begin("dot");
		mark_begin(PHASE);
		pq = 0;
		for (i = 0; i < m; i++)
			pq += pl[i] * q[i];
		allreduce(&pq);
		al = pq != 0 ? rr / pq : 0;
		mark_end(PHASE, 1);
		tr_region_end("dot");

		tr_region_begin("update");
		mark_begin(PHASE);
		for (i = 0; i < m; i++) {
			x[i] += al * pl[i];
			r[i] -= al * q[i];
		}
		mark_end(PHASE, 2);
		tr_region_end("update");

		tr_region_begin("norm");
		mark_begin(PHASE);
		rr1 = 0;
		for (i = 0; i < m; i++)
			rr1 += r[i] * r[i];
		allreduce(&rr1);
		for (i = 0; i < m; i++)
			pl[i] = r[i] + (rr > 0 ? rr1 / rr : 0) * pl[i];
		rr = rr1;
		mark_end(PHASE, 3);
		tr_region_end("norm");
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t1 = MPI_Wtime();
	if (rank == 0)
		printf("cg: N=%d P=%d iterations=%d residual=%.3g time=%.6f s\n",
		    n, np, iters, sqrt(rr), t1 - t0);
	free(a);
	free(x);
	free(r);
	free(q);
	free(p);
	MPI_Finalize();
	return 0;
}
