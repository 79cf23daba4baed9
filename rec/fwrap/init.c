/* init.c - the Fortran MPI_INIT, MPI_FINALIZE, MPI_ABORT, MPI_WTIME and
 * MPI_PCONTROL. */
#include "fwrap.h"
#include "../setup/setup.h"

REC_API void
mpi_init_(F *ierr)
{
	struct call c;
	REAL(init);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	/* In case the library's Fortran init calls MPI_Init. */
	rec.owner = &rec_thread;
	real_(ierr);
	rec.owner = NULL;
	if (*ierr == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init, rec_fsite(__builtin_return_address(0)), c.cpu);
}
ALIAS(init, INIT)

REC_API void
mpi_init_thread_(F *required, F *provided, F *ierr)
{
	struct call c;
	REAL(init_thread);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rec.owner = &rec_thread;
	real_(required, provided, ierr);
	rec.owner = NULL;
	if (*ierr == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init_thread, rec_fsite(__builtin_return_address(0)),
	    c.cpu);
}
ALIAS(init_thread, INIT_THREAD)

REC_API void
mpi_finalize_(F *ierr)
{
	REAL(finalize);
	ENTER(Finalize);

	rec_finish();
	real_(ierr);
	if (ON) {
		LEAVE(Finalize);
		e_.comm = 0;
		put(&e_);
	}
	rec_end();
}
ALIAS(finalize, FINALIZE)

REC_API void
mpi_abort_(F *comm, F *code, F *ierr)
{
	REAL(abort);
	ENTER(Abort);

	if (ON) {
		LEAVE_OK(Abort);
		e_.comm = rec_comm_id(COMM(comm));
		e_.tag = *code;
		put(&e_);
	}
	rec_abort();
	real_(comm, code, ierr);
}
ALIAS(abort, ABORT)

REC_API double
mpi_wtime_(void)
{
	rec.wtime++;
	return PMPI_Wtime();
}
ALIAS(wtime, WTIME)

REC_API void
mpi_pcontrol_(F *level)
{
	ENTER(Pcontrol);
	if (ON) {
		LEAVE_OK(Pcontrol);
		e_.tag = *level;
		put(&e_);
	}
}
ALIAS(pcontrol, PCONTROL)
