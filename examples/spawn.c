/* spawn.c - MPI_Comm_spawn: the parents start two children running this
 * program, rank 0 sends each 400 bytes over the intercommunicator and
 * receives 200 back. tr-record's tests check that the children are not
 * recorded over the parents' files, and that the trace says so.
 *
 * usage: spawn */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	MPI_Comm parent, ic;
	int rank, k, b[100] = {0};
	char *args[] = {"child", NULL};

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL) {
		MPI_Recv(b, 100, MPI_INT, 0, 5, parent, MPI_STATUS_IGNORE);
		MPI_Send(b, 50, MPI_INT, 0, 6, parent);
		MPI_Comm_disconnect(&parent);
		MPI_Finalize();
		return 0;
	}
	MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
	    &ic, MPI_ERRCODES_IGNORE);
	if (rank == 0)
		for (k = 0; k < 2; k++) {
			MPI_Send(b, 100, MPI_INT, k, 5, ic);
			MPI_Recv(b, 50, MPI_INT, k, 6, ic, MPI_STATUS_IGNORE);
		}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Comm_disconnect(&ic);
	if (rank == 0)
		printf("spawn: done\n");
	MPI_Finalize();
	return 0;
}
