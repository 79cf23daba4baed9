/* peers.c - the point-to-point patterns of SPMD codes beyond a grid,
 * each at its own call site, for tr-pattern(1) to name: recursive
 * doubling (an allreduce by MPI_Sendrecv with rank XOR 2^k), a pairwise
 * transpose (MPI_Sendrecv to rank + i, from rank - i), a broadcast down
 * rank 0's binomial tree (MPI_Recv from the parent, MPI_Send to the
 * children) and a 27-point halo exchange on a 3-D grid (MPI_Irecv and
 * MPI_Isend with each of the 26 neighbours there are, one call site).
 *
 * usage: peers [ITERATIONS]	(default 3)
 * Recursive doubling runs only on a power of 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void
doubling(int rank, int np, double *x)
{
	double y;
	int k;

	if (np & (np - 1))
		return;
	for (k = 1; k < np; k <<= 1) {
		MPI_Sendrecv(x, 1, MPI_DOUBLE, rank ^ k, 1, &y, 1, MPI_DOUBLE,
		    rank ^ k, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		*x += y;
	}
}

static void
transpose(int rank, int np, double *blk)
{
	int i;

	for (i = 1; i < np; i++)
		MPI_Sendrecv(&blk[(rank + i) % np], 1, MPI_DOUBLE,
		    (rank + i) % np, 2, &blk[(rank - i + np) % np], 1,
		    MPI_DOUBLE, (rank - i + np) % np, 2, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
}

static void
tree(int rank, int np, double *x)
{
	int k, low = rank ? rank & -rank : np;

	if (rank)
		MPI_Recv(x, 1, MPI_DOUBLE, rank & (rank - 1), 3,
		    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (k = 1; k < low && rank + k < np; k <<= 1)
		MPI_Send(x, 1, MPI_DOUBLE, rank + k, 3, MPI_COMM_WORLD);
}

static void
halo(int rank, const int *dims, double *x)
{
	MPI_Request rq[52];
	double in[26];
	int c[3], o, d, n = 0, q, to[3];

	c[0] = rank / (dims[1] * dims[2]);
	c[1] = rank / dims[2] % dims[1];
	c[2] = rank % dims[2];
	for (o = 0; o < 27; o++) {
		for (d = 0; d < 3; d++)
			to[d] = c[d] + (d == 0 ? o / 9 : d == 1 ? o / 3 % 3 :
			    o % 3) - 1;
		if (o == 13 || to[0] < 0 || to[1] < 0 || to[2] < 0 ||
		    to[0] >= dims[0] || to[1] >= dims[1] || to[2] >= dims[2])
			continue;
		q = (to[0] * dims[1] + to[1]) * dims[2] + to[2];
		MPI_Irecv(&in[n / 2], 1, MPI_DOUBLE, q, 4 + 26 - o,
		    MPI_COMM_WORLD, &rq[n]);
		MPI_Isend(x, 1, MPI_DOUBLE, q, 4 + o, MPI_COMM_WORLD,
		    &rq[n + 1]);
		n += 2;
	}
	MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
}

int
main(int argc, char **argv)
{
	int np, rank, it, iters, dims[3] = {0, 0, 0};
	double x, *blk;

	MPI_Init(&argc, &argv);
	iters = argc > 1 ? atoi(argv[1]) : 3;
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Dims_create(np, 3, dims);
	blk = calloc((size_t)np, sizeof *blk);
	x = rank;
	for (it = 0; it < iters; it++) {
		doubling(rank, np, &x);
		transpose(rank, np, blk);
		tree(rank, np, &x);
		halo(rank, dims, &x);
	}
	if (rank == 0)
		printf("%g\n", x);
	free(blk);
	MPI_Finalize();
	return 0;
}
