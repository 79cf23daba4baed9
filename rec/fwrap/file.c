/* file.c - the Fortran MPI-IO calls. */
#include "fwrap.h"

/* LEN is a CHARACTER argument's hidden length (see wrap/file.c). */

#define FH(f) PMPI_File_f2c(*(f))

REC_API void
mpi_file_open_(F *comm, char *name, F *amode, F *info, F *fh, F *ierr,
    size_t len)
{
	REAL(file_open);
	ENTER(File_open);

	real_(comm, name, amode, info, fh, ierr, len);
	if (ON) {
		LEAVE(File_open);
		e_.comm = rec_comm_id(COMM(comm));
		if (*ierr == MPI_SUCCESS)
			rec_file_new(FH(fh), e_.comm);
		put(&e_);
	}
}
ALIAS(file_open, FILE_OPEN)

REC_API void
mpi_file_close_(F *fh, F *ierr)
{
	MPI_File f = FH(fh);
	REAL(file_close);
	ENTER(File_close);

	real_(fh, ierr);
	if (ON) {
		LEAVE(File_close);
		e_.comm = rec_file_comm(f);
		put(&e_);
	}
	if (KEEP)
		rec_file_free(f);
}
ALIAS(file_close, FILE_CLOSE)

REC_API void
mpi_file_sync_(F *fh, F *ierr)
{
	REAL(file_sync);
	ENTER(File_sync);

	real_(fh, ierr);
	if (ON) {
		LEAVE(File_sync);
		e_.comm = rec_file_comm(FH(fh));
		put(&e_);
	}
}
ALIAS(file_sync, FILE_SYNC)

REC_API void
mpi_file_set_view_(F *fh, MPI_Offset *disp, F *et, F *ft, char *rep,
    F *info, F *ierr, size_t len)
{
	REAL(file_set_view);
	ENTER(File_set_view);

	real_(fh, disp, et, ft, rep, info, ierr, len);
	if (ON) {
		LEAVE(File_set_view);
		e_.comm = rec_file_comm(FH(fh));
		put(&e_);
	}
}
ALIAS(file_set_view, FILE_SET_VIEW)

#define FFILEIO(lc, UC, name) \
REC_API void \
mpi_file_##lc##_(F *fh, void *buf, F *count, F *t, F *st, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##name); \
	real_(fh, buf, count, t, st, ierr); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(FH(fh)); \
		e_.bytes = tbytes(TYPE(t), *count); \
		put(&e_); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
#define FFILEIO_AT(lc, UC, name) \
REC_API void \
mpi_file_##lc##_(F *fh, MPI_Offset *off, void *buf, F *count, F *t, \
    F *st, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##name); \
	real_(fh, off, buf, count, t, st, ierr); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(FH(fh)); \
		e_.bytes = tbytes(TYPE(t), *count); \
		put(&e_); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
FFILEIO(read, READ, read)
FFILEIO(read_all, READ_ALL, read_all)
FFILEIO(read_shared, READ_SHARED, read_shared)
FFILEIO(read_ordered, READ_ORDERED, read_ordered)
FFILEIO(write, WRITE, write)
FFILEIO(write_all, WRITE_ALL, write_all)
FFILEIO(write_shared, WRITE_SHARED, write_shared)
FFILEIO(write_ordered, WRITE_ORDERED, write_ordered)
FFILEIO_AT(read_at, READ_AT, read_at)
FFILEIO_AT(read_at_all, READ_AT_ALL, read_at_all)
FFILEIO_AT(write_at, WRITE_AT, write_at)
FFILEIO_AT(write_at_all, WRITE_AT_ALL, write_at_all)
#define FIFILEIO(lc, UC) \
REC_API void \
mpi_file_##lc##_(F *fh, void *buf, F *count, F *t, F *req, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##lc); \
	real_(fh, buf, count, t, req, ierr); \
	if (ON) { \
		LEAVE(File_##lc); \
		ifile(&e_, FH(fh), tbytes(TYPE(t), *count), req, \
		    PMPI_Request_f2c(*req), *ierr); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
#define FIFILEIO_AT(lc, UC) \
REC_API void \
mpi_file_##lc##_(F *fh, MPI_Offset *off, void *buf, F *count, F *t, \
    F *req, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##lc); \
	real_(fh, off, buf, count, t, req, ierr); \
	if (ON) { \
		LEAVE(File_##lc); \
		ifile(&e_, FH(fh), tbytes(TYPE(t), *count), req, \
		    PMPI_Request_f2c(*req), *ierr); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
FIFILEIO(iread, IREAD)
FIFILEIO(iread_all, IREAD_ALL)
FIFILEIO(iread_shared, IREAD_SHARED)
FIFILEIO(iwrite, IWRITE)
FIFILEIO(iwrite_all, IWRITE_ALL)
FIFILEIO(iwrite_shared, IWRITE_SHARED)
FIFILEIO_AT(iread_at, IREAD_AT)
FIFILEIO_AT(iread_at_all, IREAD_AT_ALL)
FIFILEIO_AT(iwrite_at, IWRITE_AT)
FIFILEIO_AT(iwrite_at_all, IWRITE_AT_ALL)
