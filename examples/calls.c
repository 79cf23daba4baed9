/* calls.c - one of each kind of MPI call the recorder wraps, in a fixed
 * order; examples/fcalls.f90 makes the same calls from Fortran, so that
 * tr-record's tests can check the two traces agree. Wildcard receives
 * are made deterministic by their tags.
 *
 * usage: calls */
#include <mpi.h>
#include <stdint.h>

int
main(int argc, char **argv)
{
	MPI_Comm sub, cart, dup, graph;
	MPI_Request rq[2];
	MPI_Message msg;
	MPI_Win win;
	double d[10] = {0}, e[10] = {0}, r8[8] = {0}, s8[8];
	int64_t i8[3] = {0, 1, 0};
	int rank, np, right, left, i, s, idx, flag;
	int a[100] = {0}, b[100], g[300], dims[1], periods[1] = {1};
	int wc[100], wd[100];
	MPI_Datatype st[100], rt[100];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	right = (rank + 1) % np;
	left = (rank + np - 1) % np;
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
	dims[0] = np;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);

	MPI_Irecv(e, 10, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(d, 10, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	/* tags sent and received differ, as in FFTW's transposes */
	MPI_Sendrecv(a, 5, MPI_INT, right, 3 + rank, b, 5, MPI_INT, left,
	    3 + left, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (rank == 0)
		for (s = 1; s < np; s++)
			MPI_Recv(b, 4, MPI_INT, MPI_ANY_SOURCE, 100 + s,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else
		MPI_Ssend(a, 4, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
	MPI_Bcast(a, 100, MPI_INT, 0, sub);
	MPI_Reduce(r8, s8, 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_INT, MPI_SUM, cart);
	if (rank == 0)
		MPI_Gather(MPI_IN_PLACE, 3, MPI_INT, g, 3, MPI_INT, 0,
		    MPI_COMM_WORLD);
	else
		MPI_Gather(a, 3, MPI_INT, g, 3, MPI_INT, 0, MPI_COMM_WORLD);

	MPI_Irecv(e, 6, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(d, 6, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &rq[1]);
	for (i = 0; i < 2; i++)
		MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
	MPI_Irecv(e, 2, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(d, 2, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &rq[1]);
	do
		MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
	while (!flag);
	MPI_Recv_init(e, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD,
	    &rq[0]);
	MPI_Ssend_init(d, 4, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &rq[1]);
	for (i = 0; i < 2; i++) {
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	}
	MPI_Start(&rq[0]);
	MPI_Start(&rq[1]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	MPI_Irecv(e, 1, MPI_DOUBLE, left, 13, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(d, 1, MPI_DOUBLE, right, 13, MPI_COMM_WORLD, &rq[1]);
	MPI_Request_free(&rq[1]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Send(d, 3, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
	MPI_Mprobe(left, 11, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
	MPI_Mrecv(e, 3, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE);
	MPI_Isend(d, 5, MPI_DOUBLE, right, 12, MPI_COMM_WORLD, &rq[1]);
	do
		MPI_Improbe(MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &flag, &msg,
		    MPI_STATUS_IGNORE);
	while (!flag);
	MPI_Imrecv(e, 5, MPI_DOUBLE, &msg, &rq[0]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	MPI_Iallreduce(r8, s8, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Alltoall(a, 1, MPI_INT, g, 1, MPI_INT, dup);
	/* rank i gets a short from everyone if i is even, an int if odd */
	for (i = 0; i < np && i < 100; i++) {
		wc[i] = 1;
		wd[i] = 4 * i;
		st[i] = i % 2 ? MPI_INT : MPI_SHORT;
		rt[i] = rank % 2 ? MPI_INT : MPI_SHORT;
	}
	MPI_Alltoallw(a, wc, wd, st, g, wc, wd, rt, dup);
	MPI_Neighbor_alltoall(a, 1, MPI_INT, g, 1, MPI_INT, cart);
	MPI_Ineighbor_allgather(a, 2, MPI_INT, g, 2, MPI_INT, cart, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	/* the same ring as a graph, whose messages the trace cannot tell */
	wc[0] = left;
	wc[1] = right;
	wd[0] = wd[1] = 1;
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, wc, wd, 2, wc, wd,
	    MPI_INFO_NULL, 0, &graph);
	MPI_Neighbor_allgather(a, 1, MPI_INT, g, 1, MPI_INT, graph);
	MPI_Comm_free(&graph);
	MPI_Barrier(MPI_COMM_WORLD);
	/* a window: transfers in a fence epoch and in passive ones */
	MPI_Win_create(d, sizeof d, sizeof d[0], MPI_INFO_NULL, MPI_COMM_WORLD,
	    &win);
	MPI_Win_fence(0, win);
	MPI_Put(e, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, win);
	MPI_Get(e + 4, 3, MPI_DOUBLE, left, 4, 3, MPI_DOUBLE, win);
	MPI_Accumulate(e, 1, MPI_DOUBLE, 0, 8, 1, MPI_DOUBLE, MPI_SUM, win);
	MPI_Win_fence(0, win);
	MPI_Win_lock_all(0, win);
	MPI_Fetch_and_op(e, e + 1, MPI_DOUBLE, 0, 9, MPI_SUM, win);
	MPI_Compare_and_swap(i8, i8 + 1, i8 + 2, MPI_INT64_T, right, 2, win);
	MPI_Rget(e, 2, MPI_DOUBLE, left, 4, 2, MPI_DOUBLE, win, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Win_flush_all(win);
	MPI_Win_unlock_all(win);
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
	MPI_Put(e, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE, win);
	MPI_Win_flush(right, win);
	MPI_Win_unlock(right, win);
	MPI_Win_free(&win);
	MPI_Comm_free(&sub);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&cart);
	MPI_Finalize();
	return 0;
}
