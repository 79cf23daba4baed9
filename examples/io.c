/* io.c - MPI-IO, which tr-record records: every rank writes its block
 * of a shared file collectively (at explicit offsets, then through a
 * view), syncs, reads it back, and one rank writes a header alone;
 * then writes and reads it once more with nonblocking calls, the read
 * completed together with a message to the next rank.
 *
 * usage: io FILE [DOUBLES]	(default 4096 doubles a rank) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	MPI_File fh;
	MPI_Offset off;
	MPI_Request rq[3];
	double *b, *c, x, y = 0;
	int rank, np, n, i, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: io FILE [DOUBLES]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	n = argc > 2 ? atoi(argv[2]) : 4096;
	b = malloc((size_t)n * sizeof *b);
	c = malloc((size_t)n * sizeof *c);
	if (!b || !c)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (i = 0; i < n; i++)
		b[i] = rank * 1e6 + i;
	off = 64 + (MPI_Offset)rank * n * (MPI_Offset)sizeof(double);
	MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE |
	    MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
	if (rank == 0)
		MPI_File_write_at(fh, 0, "tr io header", 12, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	MPI_File_write_at_all(fh, off, b, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
	MPI_File_sync(fh);
	MPI_File_set_view(fh, off, MPI_DOUBLE, MPI_DOUBLE, "native",
	    MPI_INFO_NULL);
	MPI_File_write_all(fh, b, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		b[i] = -1;
	MPI_File_set_view(fh, off, MPI_DOUBLE, MPI_DOUBLE, "native",
	    MPI_INFO_NULL);
	MPI_File_read_all(fh, b, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		bad += b[i] != rank * 1e6 + i;
	/* offsets now count doubles from the view's start, the rank's block */
	MPI_File_iwrite_at_all(fh, 0, b, n, MPI_DOUBLE, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	x = rank;
	MPI_File_iread_at(fh, 0, c, n, MPI_DOUBLE, &rq[0]);
	MPI_Irecv(&y, 1, MPI_DOUBLE, (rank + np - 1) % np, 7, MPI_COMM_WORLD,
	    &rq[1]);
	MPI_Isend(&x, 1, MPI_DOUBLE, (rank + 1) % np, 7, MPI_COMM_WORLD,
	    &rq[2]);
	MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
	for (i = 0; i < n; i++)
		bad += c[i] != b[i];
	bad += y != (rank + np - 1) % np;
	MPI_File_close(&fh);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("io: %s\n", bad ? "read back differs" : "read back");
	free(b);
	free(c);
	MPI_Finalize();
	return bad != 0;
}
