/* fatal.c - MPI_ERRORS_ARE_FATAL, which ends a rank with _exit, past
 * atexit and before any signal, replaced by a handler that writes the
 * rank's records first. */
#include <stdio.h>

#include "crash.h"

/* MPI_ERRORS_ARE_FATAL ends a rank with _exit, past atexit and before
 * any signal: in its place on the world and self communicators (and so
 * on those made from them), this handler writes the rank's records, then
 * aborts as that one does. */
static void
mpi_fatal(MPI_Comm c, int err)
{
	char msg[MPI_MAX_ERROR_STRING];
	int n = 0;

	if (PMPI_Error_string(err, msg, &n) != MPI_SUCCESS)
		snprintf(msg, sizeof msg, "error %d", err);
	fprintf(stderr, "tr-record: rank %d: MPI error: %s: "
	    "MPI_ERRORS_ARE_FATAL, aborting\n", rec.rank, msg);
	rec_exit_early("MPI_ERRORS_ARE_FATAL");
	PMPI_Abort(c, err);
}

static void
fatal_error(MPI_Comm *c, int *err, ...)
{
	mpi_fatal(*c, *err);
}

static void
fatal_win_error(MPI_Win *w, int *err, ...)
{
	(void)w;
	mpi_fatal(MPI_COMM_WORLD, *err);
}

/* Windows have handlers of their own, fatal by default too. */
void
rec_fatal_win(MPI_Win w)
{
	static MPI_Errhandler h = MPI_ERRHANDLER_NULL;
	MPI_Errhandler cur;

	if (!rec.on)
		return;
	if (h == MPI_ERRHANDLER_NULL &&
	    PMPI_Win_create_errhandler(fatal_win_error, &h) != MPI_SUCCESS)
		return;
	if (PMPI_Win_get_errhandler(w, &cur) != MPI_SUCCESS)
		return;
	if (cur == MPI_ERRORS_ARE_FATAL)
		PMPI_Win_set_errhandler(w, h);
	if (cur != MPI_ERRORS_ARE_FATAL && cur != MPI_ERRORS_RETURN)
		PMPI_Errhandler_free(&cur);
}

static void
catch_fatal(MPI_Comm c, MPI_Errhandler h)
{
	MPI_Errhandler cur;

	if (PMPI_Comm_get_errhandler(c, &cur) != MPI_SUCCESS)
		return;
	if (cur == MPI_ERRORS_ARE_FATAL)
		PMPI_Comm_set_errhandler(c, h);
	if (cur != MPI_ERRORS_ARE_FATAL && cur != MPI_ERRORS_RETURN)
		PMPI_Errhandler_free(&cur);
}

/* In place of MPI_ERRORS_ARE_FATAL on the world and self communicators
 * (and so on those made from them). */
void
rec_fatal_init(void)
{
	MPI_Errhandler h;

	if (PMPI_Comm_create_errhandler(fatal_error, &h) == MPI_SUCCESS) {
		catch_fatal(MPI_COMM_WORLD, h);
		catch_fatal(MPI_COMM_SELF, h);
		PMPI_Errhandler_free(&h);
	}
}
