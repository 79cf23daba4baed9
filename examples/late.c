/* late.c - a receiver that is late: what an eager limit decides.
 *
 * usage: late [ROUNDS [BYTES [MS]]]	(default 5 8192 20)
 * Each round, after a barrier, rank 0 sends BYTES bytes to rank 1 with
 * MPI_Send, and rank 1 sleeps MS milliseconds, in no MPI call, before
 * it posts the receive. A message above the eager limit keeps rank 0 in
 * MPI_Send until then. Other ranks take part in the barriers only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
	int rank, np, rounds, bytes, ms, r;
	struct timespec ts;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 5;
	bytes = argc > 2 ? atoi(argv[2]) : 8192;
	ms = argc > 3 ? atoi(argv[3]) : 20;
	if (np < 2 || bytes < 0 || ms < 0) {
		if (rank == 0)
			fprintf(stderr, "late: needs 2 ranks, BYTES, MS >= 0\n");
		MPI_Finalize();
		return 2;
	}
	buf = calloc(bytes > 0 ? bytes : 1, 1);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	for (r = 0; r < rounds; r++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			MPI_Send(buf, bytes, MPI_BYTE, 1, r, MPI_COMM_WORLD);
		else if (rank == 1) {
			nanosleep(&ts, NULL);
			MPI_Recv(buf, bytes, MPI_BYTE, 0, r, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		}
	}
	if (rank == 0)
		printf("late: np=%d rounds=%d bytes=%d ms=%d\n", np, rounds,
		    bytes, ms);
	free(buf);
	MPI_Finalize();
	return 0;
}
