/* eager.c - the run's eager limits, for tr-waits: which messages leave
 * without waiting for their receive.
 *
 * Open MPI's ob1 PML sends a message eagerly when it fits in the BTL's
 * eager limit together with a header of 56 bytes (the limit's minimum,
 * as Open MPI says when it is set lower); messages of up to 256 bytes
 * go inline over shared memory whatever the limit. Measured with Open
 * MPI 4.1.4 by a receive posted 20 ms late: vader at 4096 sends 4040
 * bytes eagerly and waits with 4041; at 8192, 8136 and 8137; at 100,
 * 256 and 257; tcp at 65536, 65480 and 65481; at 8192, 8136 and 8137;
 * at 100, 44 and 45. Other PMLs (ucx, cm) ignore the BTL limits.
 *
 * The limits are Open MPI's parameters, resolved as it resolves them:
 * OMPI_MCA_ variables (mpirun's --mca among them), then the user's and
 * the system's mca-params.conf, then the defaults; the components in
 * use are those whose shared objects MPI_Init kept loaded (mca.c).
 * Asking the tool interface (MPI_T) instead costs about 0.2 s at
 * MPI_Init: Open MPI opens every component to list its variables,
 * probing the network hardware again (bench/record.sh). MPI_T is asked
 * only where the parameters cannot be resolved so: components built
 * into the library, other parameter files named, or TR_RECORD_MPIT=1. */
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

/* The limits from the parameters: -1 for a transport not in use. */
static int
limits(long long *shm, long long *net)
{
	*shm = *net = -1;
	if (!rec_mca_loaded("mca_pml_ob1.so", NULL, 0))
		return 0;
	if (rec_mca_loaded("mca_btl_vader.so", NULL, 0) ||
	    rec_mca_loaded("mca_btl_sm.so", NULL, 0))
		*shm = rec_mca_param("btl_vader_eager_limit", "btl_sm_eager_limit",
		    4096);
	if (rec_mca_loaded("mca_btl_tcp.so", NULL, 0))
		*net = rec_mca_param("btl_tcp_eager_limit",
		    "btl_tcp_eager_limit", 65536);
	return 1;
}

/* The limits through an MPI_T session of its own, finalized here: an
 * application's use of MPI_T is counted apart from it. */
static int
mpit_limits(long long *shm, long long *net)
{
	int provided, ob1;

	*shm = *net = -1;
	if (PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return 0;
	ob1 = cvar("pml_ob1_priority") >= 0;
	if (ob1) {
		/* sm in Open MPI 5, vader in 4 */
		if ((*shm = cvar("btl_sm_eager_limit")) < 0)
			*shm = cvar("btl_vader_eager_limit");
		*net = cvar("btl_tcp_eager_limit");
	}
	PMPI_T_finalize();
	return ob1;
}

int
rec_eager_meta(char *buf, size_t size)
{
	long long shm, net;
	int n = 0;

	buf[0] = '\0';
	if (rec_mca_resolvable() ? limits(&shm, &net) :
	    mpit_limits(&shm, &net)) {
		if (shm >= 0)
			n += snprintf(buf + n, size - n, "#meta eager.shm=%lld\n",
			    payload(shm, SHM_INLINE));
		if (net >= 0 && (size_t)n < size)
			n += snprintf(buf + n, size - n, "#meta eager.net=%lld\n",
			    payload(net, 0));
	}
	if ((size_t)n >= size)
		n = 0;
	buf[n] = '\0';
	return n;
}
