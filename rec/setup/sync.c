/* sync.c - the offset of this rank's clock to rank 0's, and the costs
 * measured once at init. */
#include <stdlib.h>

#include "setup.h"

enum { ROUNDS = 8, TAG = 7207 };

/* Rank 0 answers each of the NFAR ranks not on its host in turn, in
 * the order they come; the exchange with the smallest round trip gives
 * the offset (local time at the midpoint minus rank 0's reply). A rank
 * on rank 0's host shares its clock, and exchanges nothing: where ranks
 * outnumber cores, each round waits for its partner to be scheduled,
 * milliseconds at a time. Only MPI_COMM_WORLD's group is used, on a duplicate
 * so no application message can match. */
int64_t
rec_sync_offset(int far, int nfar)
{
	MPI_Comm c;
	MPI_Status st;
	int64_t best = -1, off = 0, t0, t1, t2;
	int k, i;

	if ((rec.rank != 0 && !far) || (rec.rank == 0 && nfar == 0) ||
	    PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
		return 0;
	if (rec.rank == 0) {
		for (k = 0; k < nfar; k++) {
			PMPI_Recv(&t1, 1, MPI_INT64_T, MPI_ANY_SOURCE, TAG, c,
			    &st);
			for (i = 0; i < ROUNDS; i++) {
				if (i > 0)
					PMPI_Recv(&t1, 1, MPI_INT64_T,
					    st.MPI_SOURCE, TAG, c,
					    MPI_STATUS_IGNORE);
				t0 = rec_now();
				PMPI_Send(&t0, 1, MPI_INT64_T, st.MPI_SOURCE,
				    TAG, c);
			}
		}
	} else {
		for (i = 0; i < ROUNDS; i++) {
			t1 = rec_now();
			PMPI_Send(&t1, 1, MPI_INT64_T, 0, TAG, c);
			PMPI_Recv(&t0, 1, MPI_INT64_T, 0, TAG, c,
			    MPI_STATUS_IGNORE);
			t2 = rec_now();
			if (best < 0 || t2 - t1 < best) {
				best = t2 - t1;
				off = t1 + (t2 - t1) / 2 - t0;
			}
		}
	}
	PMPI_Comm_free(&c);
	return off;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t
rec_timer_cost(void)
{
	enum { N = 1000 };
	int64_t a, b = 0;
	int i;

	a = rec_now();
	for (i = 0; i < N; i++)
		b += rec_now() & 1;
	b = rec_now() + (b & 0);
	return (b - a) / (N + 1);
}

/* Collective: every rank times barriers; rank 0's median is kept. */
int64_t
rec_barrier_cost(MPI_Comm c)
{
	enum { N = 21 };
	int64_t t[N], a;
	int i;

	for (i = 0; i < 3; i++)
		PMPI_Barrier(c);
	for (i = 0; i < N; i++) {
		a = rec_now();
		PMPI_Barrier(c);
		t[i] = rec_now() - a;
	}
	qsort(t, N, sizeof t[0], cmp64);
	return t[N / 2];
}
