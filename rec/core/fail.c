/* fail.c - calls that returned an error: under MPI_ERRORS_RETURN (or a
 * handler of the program's that returns) a failed call moved no data,
 * or not the data its arguments say, and is written as a fail record
 * with its error class in place of an ev, which every tool that reads
 * ev records would take for a call that did its work. */
#include <stddef.h>

#include "core.h"

/* The classes MPI 3.1 names. By name, which every MPI library shares,
 * unlike the numbers. */
static const struct {
	int cls;
	const char *name;
} classes[] = {
#define E(x) { x, #x }
	E(MPI_ERR_BUFFER), E(MPI_ERR_COUNT), E(MPI_ERR_TYPE), E(MPI_ERR_TAG),
	E(MPI_ERR_COMM), E(MPI_ERR_RANK), E(MPI_ERR_REQUEST), E(MPI_ERR_ROOT),
	E(MPI_ERR_GROUP), E(MPI_ERR_OP), E(MPI_ERR_TOPOLOGY), E(MPI_ERR_DIMS),
	E(MPI_ERR_ARG), E(MPI_ERR_UNKNOWN), E(MPI_ERR_TRUNCATE),
	E(MPI_ERR_OTHER), E(MPI_ERR_INTERN), E(MPI_ERR_IN_STATUS),
	E(MPI_ERR_PENDING), E(MPI_ERR_ACCESS), E(MPI_ERR_AMODE),
	E(MPI_ERR_ASSERT), E(MPI_ERR_BAD_FILE), E(MPI_ERR_BASE),
	E(MPI_ERR_CONVERSION), E(MPI_ERR_DISP), E(MPI_ERR_DUP_DATAREP),
	E(MPI_ERR_FILE_EXISTS), E(MPI_ERR_FILE_IN_USE), E(MPI_ERR_FILE),
	E(MPI_ERR_INFO_KEY), E(MPI_ERR_INFO_NOKEY), E(MPI_ERR_INFO_VALUE),
	E(MPI_ERR_INFO), E(MPI_ERR_IO), E(MPI_ERR_KEYVAL),
	E(MPI_ERR_LOCKTYPE), E(MPI_ERR_NAME), E(MPI_ERR_NO_MEM),
	E(MPI_ERR_NOT_SAME), E(MPI_ERR_NO_SPACE), E(MPI_ERR_NO_SUCH_FILE),
	E(MPI_ERR_PORT), E(MPI_ERR_QUOTA), E(MPI_ERR_READ_ONLY),
	E(MPI_ERR_RMA_CONFLICT), E(MPI_ERR_RMA_SYNC), E(MPI_ERR_SERVICE),
	E(MPI_ERR_SIZE), E(MPI_ERR_SPAWN), E(MPI_ERR_UNSUPPORTED_DATAREP),
	E(MPI_ERR_UNSUPPORTED_OPERATION), E(MPI_ERR_WIN),
	E(MPI_ERR_RMA_RANGE), E(MPI_ERR_RMA_ATTACH), E(MPI_ERR_RMA_FLAVOR),
	E(MPI_ERR_RMA_SHARED),
#undef E
};

int32_t
rec_errclass(int rc)
{
	int cls = MPI_ERR_UNKNOWN;

	if (PMPI_Error_class(rc, &cls) != MPI_SUCCESS || cls == MPI_SUCCESS)
		cls = MPI_ERR_UNKNOWN;
	return cls;
}

int32_t
rec_fail(int rc)
{
	rec_unrecorded(UNREC_FAILED);
	return rec_errclass(rc);
}

const char *
rec_errname(int32_t cls)
{
	size_t i;

	for (i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (classes[i].cls == cls)
			return classes[i].name;
	return NULL;
}
