/* poll.c - ranks that wait by polling, as hpcc's RandomAccess does.
 *
 * usage: poll [ROUNDS [WAIT_US [WORK]]]	(defaults 20, 1000, 0)
 * Each round rank 0 computes WAIT_US microseconds, then sends 8 bytes to
 * every other rank. The others post an MPI_Irecv and loop until it is
 * done: WORK steps of arithmetic, an MPI_Iprobe for a tag that never
 * comes, an MPI_Test of the receive. Each rank but 0 prints the number
 * of calls that found nothing, "polls RANK N", so that a recording can
 * be checked against it. */
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
	int rank, np, rounds, work, r, p, k, flag;
	long polls = 0;
	double us, x = 1, buf = 0;
	MPI_Request q;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 20;
	us = argc > 2 ? atof(argv[2]) : 1000;
	work = argc > 3 ? atoi(argv[3]) : 0;
	if (np < 2 || rounds < 0 || us < 0 || work < 0) {
		if (rank == 0)
			fprintf(stderr, "poll: 2 ranks or more, ROUNDS >= 0, "
			    "WAIT_US >= 0, WORK >= 0\n");
		MPI_Finalize();
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		if (rank == 0) {
			x += spin(us * 1e-6);
			for (p = 1; p < np; p++)
				MPI_Send(&x, 1, MPI_DOUBLE, p, 7,
				    MPI_COMM_WORLD);
		} else {
			MPI_Irecv(&buf, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD,
			    &q);
			for (flag = 0; !flag;) {
				for (k = 0; k < work; k++)
					x = x * 1.0000001 + 1e-9;
				MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD,
				    &flag, MPI_STATUS_IGNORE);
				polls++;
				MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
				if (!flag)
					polls++;
			}
		}
		MPI_Barrier(MPI_COMM_WORLD);
	}
	if (rank > 0)
		printf("polls %d %ld\n", rank, polls + (x < 0));
	MPI_Finalize();
	return 0;
}
