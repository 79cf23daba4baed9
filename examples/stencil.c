/* stencil.c - 2-D Jacobi iteration on an N x N grid split over a
 * Cartesian process grid: per iteration, a halo exchange with the four
 * neighbours (Irecv/Isend/Waitall) and an Allreduce of the residual.
 *
 * usage: stencil [N [ITERATIONS [p]]]	(default 256 20)
 * The global grid is fixed: more ranks means less compute per rank.
 * With p the process grid wraps around (periodic boundaries). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tr.h"

#define U(i, j) u[(size_t)(i) * (nx + 2) + (j)]
#define V(i, j) v[(size_t)(i) * (nx + 2) + (j)]

int
main(int argc, char **argv)
{
	int np, rank, dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, coords[2];
	int up, down, left, right, n, iters, nx, ny, it, i, j;
	double *u, *v, *sendl, *sendr, *recvl, *recvr, res, gres = 0;
	MPI_Comm cart;
	MPI_Request rq[8];

	MPI_Init(&argc, &argv);
	n = argc > 1 ? atoi(argv[1]) : 256;
	iters = argc > 2 ? atoi(argv[2]) : 20;
	if (argc > 3 && argv[3][0] == 'p')
		periods[0] = periods[1] = 1;
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	MPI_Dims_create(np, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Comm_rank(cart, &rank);
	MPI_Cart_coords(cart, rank, 2, coords);
	MPI_Cart_shift(cart, 0, 1, &up, &down);
	MPI_Cart_shift(cart, 1, 1, &left, &right);
	/* Rows split over dims[0], columns over dims[1]; the remainder goes
	 * to the first ranks. */
	ny = n / dims[0] + (coords[0] < n % dims[0]);
	nx = n / dims[1] + (coords[1] < n % dims[1]);
	u = calloc((size_t)(nx + 2) * (ny + 2), sizeof *u);
	v = calloc((size_t)(nx + 2) * (ny + 2), sizeof *v);
	sendl = malloc(4 * (size_t)ny * sizeof *sendl);
	if (!u || !v || !sendl) {
		fprintf(stderr, "stencil: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	sendr = sendl + ny;
	recvl = sendr + ny;
	recvr = recvl + ny;
	if (coords[0] == 0)
		for (j = 0; j < nx + 2; j++)
			U(0, j) = V(0, j) = 1.0;

	tr_region_begin("solve");
	for (it = 0; it < iters; it++) {
		for (i = 0; i < ny; i++) {
			sendl[i] = U(i + 1, 1);
			sendr[i] = U(i + 1, nx);
		}
		MPI_Irecv(&U(0, 1), nx, MPI_DOUBLE, up, 1, cart, &rq[0]);
		MPI_Irecv(&U(ny + 1, 1), nx, MPI_DOUBLE, down, 2, cart, &rq[1]);
		MPI_Irecv(recvl, ny, MPI_DOUBLE, left, 3, cart, &rq[2]);
		MPI_Irecv(recvr, ny, MPI_DOUBLE, right, 4, cart, &rq[3]);
		MPI_Isend(&U(1, 1), nx, MPI_DOUBLE, up, 2, cart, &rq[4]);
		MPI_Isend(&U(ny, 1), nx, MPI_DOUBLE, down, 1, cart, &rq[5]);
		MPI_Isend(sendl, ny, MPI_DOUBLE, left, 4, cart, &rq[6]);
		MPI_Isend(sendr, ny, MPI_DOUBLE, right, 3, cart, &rq[7]);
		MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
		if (left != MPI_PROC_NULL)
			for (i = 0; i < ny; i++)
				U(i + 1, 0) = recvl[i];
		if (right != MPI_PROC_NULL)
			for (i = 0; i < ny; i++)
				U(i + 1, nx + 1) = recvr[i];
		res = 0;
		for (i = 1; i <= ny; i++)
			for (j = 1; j <= nx; j++) {
				double d;

				V(i, j) = 0.25 * (U(i - 1, j) + U(i + 1, j) +
				    U(i, j - 1) + U(i, j + 1));
				d = V(i, j) - U(i, j);
				res += d * d;
			}
		{
			double *t = u;

			u = v;
			v = t;
		}
		MPI_Allreduce(&res, &gres, 1, MPI_DOUBLE, MPI_SUM, cart);
	}
	tr_region_end("solve");
	if (rank == 0)
		printf("stencil: np=%d n=%d iters=%d residual=%.6e\n", np, n,
		    iters, sqrt(gres));
	free(u);
	free(v);
	free(sendl);
	MPI_Comm_free(&cart);
	MPI_Finalize();
	return 0;
}
