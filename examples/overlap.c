/* overlap.c - computation between the start and the end of a large
 * message exchange: does the transfer move while the ranks compute?
 *
 * usage: overlap [ROUNDS [BYTES [COMPUTE_US [TESTS]]]]
 *	(defaults 20, 4194304, 2000, 0)
 * Each round, every rank posts an MPI_Irecv from and an MPI_Isend to its
 * partner (rank ^ 1) of BYTES, computes for COMPUTE_US microseconds,
 * then waits for both. With TESTS > 0 the computation is cut in TESTS
 * pieces with an MPI_Testall after each. Without a progress thread,
 * Open MPI and MPICH move a rendezvous message only inside MPI calls:
 * a round then takes the computation plus the transfer, not the larger
 * of the two. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double
spin(double s)
{
	double t0 = MPI_Wtime(), x = 0;

	while (MPI_Wtime() - t0 < s)
		x += 1e-9;
	return x;
}

int
main(int argc, char **argv)
{
	int rank, np, rounds, bytes, tests, r, k, flag;
	double us, x = 0;
	char *in, *out;
	MPI_Request rq[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 20;
	bytes = argc > 2 ? atoi(argv[2]) : 1 << 22;
	us = argc > 3 ? atof(argv[3]) : 2000;
	tests = argc > 4 ? atoi(argv[4]) : 0;
	if (np % 2 || rounds < 0 || bytes < 1 || us < 0 || tests < 0) {
		if (rank == 0)
			fprintf(stderr, "overlap: an even number of ranks, "
			    "ROUNDS >= 0, BYTES >= 1, COMPUTE_US >= 0, "
			    "TESTS >= 0\n");
		MPI_Finalize();
		return 1;
	}
	in = calloc(bytes, 1);
	out = calloc(bytes, 1);
	if (!in || !out)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (r = 0; r < rounds; r++) {
		MPI_Irecv(in, bytes, MPI_BYTE, rank ^ 1, 9, MPI_COMM_WORLD,
		    &rq[0]);
		MPI_Isend(out, bytes, MPI_BYTE, rank ^ 1, 9, MPI_COMM_WORLD,
		    &rq[1]);
		if (tests == 0)
			x += spin(us * 1e-6);
		for (k = 0; k < tests; k++) {
			x += spin(us * 1e-6 / tests);
			MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
		}
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	}
	if (rank == 0)
		printf("overlap: %d rounds of %d bytes, %.0f\n", rounds, bytes,
		    x * 0);
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
