/* init.c - MPI_Init, MPI_Finalize, MPI_Abort, MPI_Wtime and MPI_Pcontrol,
 * timed around their PMPI twins. */
#include "call.h"
#include "../setup/setup.h"

REC_API int
MPI_Init(int *argc, char ***argv)
{
	struct call c;
	int rc;

	/* Called by a Fortran MPI_INIT that fwrap/init.c records. */
	if (rec.owner)
		return PMPI_Init(argc, argv);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init, __builtin_return_address(0), c.cpu);
	return rc;
}

REC_API int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct call c;
	int rc;

	/* Called by a Fortran MPI_INIT that fwrap/init.c records. */
	if (rec.owner)
		return PMPI_Init_thread(argc, argv, required, provided);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init_thread, __builtin_return_address(0), c.cpu);
	return rc;
}

REC_API int
MPI_Finalize(void)
{
	int rc;
	ENTER(Finalize);

	rec_finish();
	rc = PMPI_Finalize();
	if (ON) {
		LEAVE(Finalize);
		e_.comm = 0;
		put(&e_);
	}
	rec_end();
	return rc;
}

REC_API int
MPI_Abort(MPI_Comm comm, int code)
{
	ENTER(Abort);
	if (ON) {
		LEAVE_OK(Abort);
		e_.comm = rec_comm_id(comm);
		e_.tag = code;
		put(&e_);
	}
	rec_abort();
	return PMPI_Abort(comm, code);
}

REC_API double
MPI_Wtime(void)
{
	rec.wtime++;
	return PMPI_Wtime();
}

REC_API int
MPI_Pcontrol(const int level, ...)
{
	ENTER(Pcontrol);
	if (ON) {
		LEAVE_OK(Pcontrol);
		e_.tag = level;
		put(&e_);
	}
	return MPI_SUCCESS;
}
