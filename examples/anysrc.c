/* anysrc.c - nonblocking messages received with MPI_ANY_SOURCE.
 *
 * usage: anysrc [ROUNDS]	(default 2)
 * Each round, every rank r > 0 sends 8*r bytes with tag 50 to rank 0
 * (MPI_Isend + MPI_Wait); rank 0 posts np-1 wildcard MPI_Irecv and
 * completes them with MPI_Waitany, then with MPI_Waitsome in odd rounds.
 * Then rank 0 receives one message per rank with a blocking wildcard
 * MPI_Recv after an MPI_Probe, and the round ends with MPI_Testall
 * polling on a last exchange. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, rounds, r, i, k, idx, out, flag, *idxs;
	double *buf;
	MPI_Request *rq, one;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 2;
	buf = calloc((size_t)np * np, sizeof *buf);
	rq = calloc(np, sizeof *rq);
	idxs = calloc(np, sizeof *idxs);
	for (r = 0; r < rounds; r++) {
		if (rank == 0) {
			for (i = 1; i < np; i++)
				MPI_Irecv(buf + i * np, np, MPI_DOUBLE,
				    MPI_ANY_SOURCE, 50, MPI_COMM_WORLD,
				    &rq[i - 1]);
			for (k = 0; k < np - 1;) {
				if (r % 2) {
					MPI_Waitsome(np - 1, rq, &out, idxs,
					    MPI_STATUSES_IGNORE);
					k += out;
				} else {
					MPI_Waitany(np - 1, rq, &idx, &st);
					k++;
				}
			}
			for (i = 1; i < np; i++) {
				MPI_Probe(MPI_ANY_SOURCE, 100, MPI_COMM_WORLD,
				    &st);
				MPI_Recv(buf, np, MPI_DOUBLE, st.MPI_SOURCE,
				    100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		} else {
			MPI_Isend(buf, rank, MPI_DOUBLE, 0, 50,
			    MPI_COMM_WORLD, &one);
			MPI_Wait(&one, MPI_STATUS_IGNORE);
			MPI_Send(buf, 1, MPI_DOUBLE, 0, 100, MPI_COMM_WORLD);
		}
		/* A last exchange with the next rank, polled. */
		MPI_Irecv(buf, 2, MPI_DOUBLE, (rank + np - 1) % np, 200,
		    MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(buf + np, 2, MPI_DOUBLE, (rank + 1) % np, 200,
		    MPI_COMM_WORLD, &rq[1]);
		do
			MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
		while (!flag);
		/* Keeps a fast rank's next round out of this one's wildcards. */
		MPI_Barrier(MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("anysrc: np=%d rounds=%d\n", np, rounds);
	free(buf);
	free(rq);
	free(idxs);
	MPI_Finalize();
	return 0;
}
