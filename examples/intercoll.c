/* intercoll.c - v-collectives across an intercommunicator of unequal
 * groups, whose count arrays run over the remote group.
 *
 * usage: intercoll	(3 ranks or more)
 * The world splits into the even ranks (group A) and the odd (group B),
 * joined by MPI_Intercomm_create. Then:
 * 1. MPI_Alltoallv: every rank sends 1 + j ints to rank j of the other
 *    group (the counts it receives: its own rank + 1 from each);
 * 2. MPI_Gatherv to rank 0 of B (MPI_ROOT there, MPI_PROC_NULL on the
 *    rest of B): rank i of A sends 2 + i ints;
 * 3. MPI_Scatterv from rank 0 of A back: rank j of B gets 3 + j ints.
 * Each prints its expected bytes as "bytes RANK OP N" for the test. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, lr, ln, rn, i, a, *sc, *sd, *rc, *rd, *buf, *rbuf;
	long sent;
	MPI_Comm half, inter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (np < 3) {
		if (rank == 0)
			fprintf(stderr, "intercoll: needs 3 ranks or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	a = rank % 2 == 0;
	MPI_Comm_split(MPI_COMM_WORLD, !a, rank, &half);
	MPI_Comm_rank(half, &lr);
	MPI_Comm_size(half, &ln);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, a ? 1 : 0, 7, &inter);
	MPI_Comm_remote_size(inter, &rn);

	sc = calloc((size_t)rn, sizeof *sc);
	sd = calloc((size_t)rn, sizeof *sd);
	rc = calloc((size_t)rn, sizeof *rc);
	rd = calloc((size_t)rn, sizeof *rd);
	buf = calloc(64 + 4 * (size_t)(rn + ln), sizeof *buf);
	rbuf = calloc(64 + 4 * (size_t)(rn + ln), sizeof *rbuf);
	for (i = 0, sent = 0; i < rn; i++) {
		sc[i] = 1 + i;
		sd[i] = (int)sent;
		sent += sc[i];
		rc[i] = 1 + lr;
		rd[i] = i * (1 + lr);
	}
	MPI_Alltoallv(buf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, inter);
	printf("bytes %d MPI_Alltoallv %ld\n", rank, sent * 4);

	/* Gatherv: A sends, rank 0 of B gathers. */
	if (a) {
		MPI_Gatherv(buf, 2 + lr, MPI_INT, NULL, NULL, NULL, MPI_INT, 0,
		    inter);
		printf("bytes %d MPI_Gatherv %d\n", rank, (2 + lr) * 4);
	} else if (lr == 0) {
		for (i = 0, sent = 0; i < rn; i++) {
			rc[i] = 2 + i;
			rd[i] = (int)sent;
			sent += rc[i];
		}
		MPI_Gatherv(NULL, 0, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_ROOT,
		    inter);
		printf("bytes %d MPI_Gatherv %ld\n", rank, sent * 4);
	} else {
		MPI_Gatherv(NULL, 0, MPI_INT, NULL, NULL, NULL, MPI_INT,
		    MPI_PROC_NULL, inter);
		printf("bytes %d MPI_Gatherv 0\n", rank);
	}

	/* Scatterv: rank 0 of A scatters to B. */
	if (!a) {
		MPI_Scatterv(NULL, NULL, NULL, MPI_INT, rbuf, 3 + lr, MPI_INT, 0,
		    inter);
		printf("bytes %d MPI_Scatterv %d\n", rank, (3 + lr) * 4);
	} else if (lr == 0) {
		for (i = 0, sent = 0; i < rn; i++) {
			sc[i] = 3 + i;
			sd[i] = (int)sent;
			sent += sc[i];
		}
		MPI_Scatterv(buf, sc, sd, MPI_INT, NULL, 0, MPI_INT, MPI_ROOT,
		    inter);
		printf("bytes %d MPI_Scatterv %ld\n", rank, sent * 4);
	} else {
		MPI_Scatterv(NULL, NULL, NULL, MPI_INT, NULL, 0, MPI_INT,
		    MPI_PROC_NULL, inter);
		printf("bytes %d MPI_Scatterv 0\n", rank);
	}

	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(buf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
