/* mpit.c - a program that uses the MPI tool information interface
 * itself, as tr-record does at MPI_Init: the two sessions must not
 * disturb each other.
 *
 * usage: mpit [NAME ...]
 * Each rank opens an MPI_T session before MPI_Init, as a tool would,
 * and keeps it across: rank 0 prints each control variable NAME of type
 * int or unsigned long as NAME=VALUE after MPI_Init (NAME=- if the
 * library has no such variable, or it is of another type). */
#include <mpi.h>
#include <stdio.h>

static void
show(const char *name)
{
	int i, len = 0, desclen = 0, verb, bind, scope, n;
	MPI_Datatype dt;
	MPI_T_enum en;
	MPI_T_cvar_handle h;
	unsigned long ul;
	int iv;

	if (MPI_T_cvar_get_index(name, &i) != MPI_SUCCESS ||
	    MPI_T_cvar_get_info(i, NULL, &len, &verb, &dt, &en, NULL,
	    &desclen, &bind, &scope) != MPI_SUCCESS ||
	    (dt != MPI_INT && dt != MPI_UNSIGNED_LONG) ||
	    MPI_T_cvar_handle_alloc(i, NULL, &h, &n) != MPI_SUCCESS) {
		printf("%s=-\n", name);
		return;
	}
	if (n != 1 || MPI_T_cvar_read(h, dt == MPI_INT ? (void *)&iv :
	    (void *)&ul) != MPI_SUCCESS)
		printf("%s=-\n", name);
	else if (dt == MPI_INT)
		printf("%s=%d\n", name, iv);
	else
		printf("%s=%lu\n", name, ul);
	MPI_T_cvar_handle_free(&h);
}

int
main(int argc, char **argv)
{
	int rank, provided, i;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "mpit: MPI_T_init_thread failed\n");
		return 1;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 1; rank == 0 && i < argc; i++)
		show(argv[i]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_T_finalize();
	MPI_Finalize();
	return 0;
}
