/* file.c - MPI-IO, timed around its PMPI twins. */
#include "call.h"

/* ---- MPI-IO: blocking calls, which keep their time in a replay ---- */

REC_API int
MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info,
    MPI_File *fh)
{
	int rc;
	ENTER(File_open);

	rc = PMPI_File_open(comm, name, amode, info, fh);
	if (ON) {
		LEAVE(File_open);
		e_.comm = rec_comm_id(comm);
		if (rc == MPI_SUCCESS)
			rec_file_new(*fh, e_.comm);
		put(&e_);
	}
	return rc;
}

REC_API int
MPI_File_close(MPI_File *fh)
{
	MPI_File f = *fh;
	int rc;
	ENTER(File_close);

	rc = PMPI_File_close(fh);
	if (ON) {
		LEAVE(File_close);
		e_.comm = rec_file_comm(f);
		put(&e_);
	}
	if (KEEP)
		rec_file_free(f);
	return rc;
}

REC_API int
MPI_File_sync(MPI_File fh)
{
	int rc;
	ENTER(File_sync);

	rc = PMPI_File_sync(fh);
	if (ON) {
		LEAVE(File_sync);
		e_.comm = rec_file_comm(fh);
		put(&e_);
	}
	return rc;
}

REC_API int
MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype et,
    MPI_Datatype ft, const char *rep, MPI_Info info)
{
	int rc;
	ENTER(File_set_view);

	rc = PMPI_File_set_view(fh, disp, et, ft, rep, info);
	if (ON) {
		LEAVE(File_set_view);
		e_.comm = rec_file_comm(fh);
		put(&e_);
	}
	return rc;
}

/* Reads and writes: the bytes asked for, and the file's communicator. */
#define FILEIO(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, BUFQ void *buf, int count, MPI_Datatype t, \
    MPI_Status *st) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, buf, count, t, st); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(fh); \
		e_.bytes = tbytes(t, count); \
		put(&e_); \
	} \
	return rc; \
}
#define FILEIO_AT(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, MPI_Offset off, BUFQ void *buf, int count, \
    MPI_Datatype t, MPI_Status *st) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, off, buf, count, t, st); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(fh); \
		e_.bytes = tbytes(t, count); \
		put(&e_); \
	} \
	return rc; \
}
FILEIO(read, )
FILEIO(read_all, )
FILEIO(read_shared, )
FILEIO(read_ordered, )
FILEIO(write, const)
FILEIO(write_all, const)
FILEIO(write_shared, const)
FILEIO(write_ordered, const)
FILEIO_AT(read_at, )
FILEIO_AT(read_at_all, )
FILEIO_AT(write_at, const)
FILEIO_AT(write_at_all, const)

/* Nonblocking reads and writes start a request that the completion
 * call names, as a collective's does; the transfer's time shows there. */
#define IFILEIO(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, BUFQ void *buf, int count, MPI_Datatype t, \
    MPI_Request *req) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, buf, count, t, req); \
	if (ON) { \
		LEAVE(File_##name); \
		ifile(&e_, fh, tbytes(t, count), req, *req, rc); \
	} \
	return rc; \
}
#define IFILEIO_AT(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, MPI_Offset off, BUFQ void *buf, int count, \
    MPI_Datatype t, MPI_Request *req) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, off, buf, count, t, req); \
	if (ON) { \
		LEAVE(File_##name); \
		ifile(&e_, fh, tbytes(t, count), req, *req, rc); \
	} \
	return rc; \
}
IFILEIO(iread, )
IFILEIO(iread_all, )
IFILEIO(iread_shared, )
IFILEIO(iwrite, const)
IFILEIO(iwrite_all, const)
IFILEIO(iwrite_shared, const)
IFILEIO_AT(iread_at, )
IFILEIO_AT(iread_at_all, )
IFILEIO_AT(iwrite_at, const)
IFILEIO_AT(iwrite_at_all, const)
