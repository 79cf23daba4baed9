/* ring.c - a token passed around all ranks with blocking Send/Recv.
 *
 * usage: ring [ROUNDS [BYTES]]	(default 3 8)
 * Rank r sends ROUNDS messages of BYTES bytes to r+1 and receives as many
 * from r-1 (mod np), tag = round. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, rounds, bytes, r, next, prev;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 3;
	bytes = argc > 2 ? atoi(argv[2]) : 8;
	buf = calloc(bytes > 0 ? bytes : 1, 1);
	next = (rank + 1) % np;
	prev = (rank + np - 1) % np;
	for (r = 0; r < rounds; r++) {
		if (rank == 0) {
			MPI_Send(buf, bytes, MPI_BYTE, next, r, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, prev, r, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_BYTE, prev, r, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_BYTE, next, r, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("ring: np=%d rounds=%d\n", np, rounds);
	free(buf);
	MPI_Finalize();
	return 0;
}
