/* eager.c - the run's eager limits, read through the MPI tool
 * information interface, for tr-waits: which messages leave without
 * waiting for their receive.
 *
 * Open MPI's ob1 PML sends a message eagerly when it fits in the BTL's
 * eager limit together with a header of 56 bytes (the limit's minimum,
 * as Open MPI says when it is set lower); messages of up to 256 bytes
 * go inline over shared memory whatever the limit. Measured with Open
 * MPI 4.1.4 by a receive posted 20 ms late: vader at 4096 sends 4040
 * bytes eagerly and waits with 4041; at 8192, 8136 and 8137; at 100,
 * 256 and 257; tcp at 65536, 65480 and 65481; at 8192, 8136 and 8137;
 * at 100, 44 and 45. Other PMLs (ucx, cm) ignore the BTL limits. */
#include <stdio.h>

#include "setup.h"

enum { OB1_HDR = 56, SHM_INLINE = 256 };

/* Control variable NAME as an integer; -1 if the library has none or
 * it is not one. Open MPI drops the variables of components it closed
 * (not selected, or excluded) at MPI_Init. */
static long long
cvar(const char *name)
{
	int i, len = 0, desclen = 0, verb, bind, scope, n;
	MPI_Datatype dt;
	MPI_T_enum en;
	MPI_T_cvar_handle h;
	union {
		int i;
		unsigned u;
		long l;
		unsigned long ul;
		long long ll;
		unsigned long long ull;
		MPI_Count c;
		char pad[64];
	} v;
	long long x = -1;

	if (PMPI_T_cvar_get_index(name, &i) != MPI_SUCCESS ||
	    PMPI_T_cvar_get_info(i, NULL, &len, &verb, &dt, &en, NULL,
	    &desclen, &bind, &scope) != MPI_SUCCESS ||
	    bind != MPI_T_BIND_NO_OBJECT ||
	    PMPI_T_cvar_handle_alloc(i, NULL, &h, &n) != MPI_SUCCESS)
		return -1;
	if (n == 1 && PMPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
		if (dt == MPI_INT)
			x = v.i;
		else if (dt == MPI_UNSIGNED)
			x = v.u;
		else if (dt == MPI_LONG)
			x = v.l;
		else if (dt == MPI_UNSIGNED_LONG)
			x = v.ul <= 0x7fffffffffffffffULL ? (long long)v.ul : -1;
		else if (dt == MPI_LONG_LONG)
			x = v.ll;
		else if (dt == MPI_UNSIGNED_LONG_LONG)
			x = v.ull <= 0x7fffffffffffffffULL ? (long long)v.ull : -1;
		else if (dt == MPI_COUNT)
			x = v.c;
	}
	PMPI_T_cvar_handle_free(&h);
	return x < 0 ? -1 : x;
}

static long long
payload(long long limit, long long floor)
{
	limit -= OB1_HDR;
	return limit > floor ? limit : floor;
}

int
rec_eager_meta(char *buf, size_t size)
{
	long long shm, net;
	int provided, n = 0;

	buf[0] = '\0';
	/* Its own session, finalized here: an application's use of MPI_T
	 * is counted apart from it. */
	if (PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return 0;
	if (cvar("pml_ob1_priority") >= 0) {
		/* sm in Open MPI 5, vader in 4 */
		if ((shm = cvar("btl_sm_eager_limit")) < 0)
			shm = cvar("btl_vader_eager_limit");
		net = cvar("btl_tcp_eager_limit");
		if (shm >= 0)
			n += snprintf(buf + n, size - n, "#meta eager.shm=%lld\n",
			    payload(shm, SHM_INLINE));
		if (net >= 0 && (size_t)n < size)
			n += snprintf(buf + n, size - n, "#meta eager.net=%lld\n",
			    payload(net, 0));
	}
	PMPI_T_finalize();
	if ((size_t)n >= size)
		n = 0;
	buf[n] = '\0';
	return n;
}
