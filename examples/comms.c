/* comms.c - sub-communicators, a Cartesian communicator and collectives.
 *
 * usage: comms
 * 1. MPI_Comm_split of MPI_COMM_WORLD by rank parity; an MPI_Bcast from
 *    rank 1 of each half, an MPI_Allreduce on each half.
 * 2. MPI_Comm_dup of the world; MPI_Gatherv to rank 0 (rank r gives r+1
 *    ints) and MPI_Alltoall of one int on the duplicate.
 * 3. A periodic 2-D MPI_Cart_create; MPI_Sendrecv of 4 ints with both
 *    neighbours along dimension 1 (MPI_Cart_shift); MPI_Cart_sub keeps the
 *    rows, MPI_Reduce to row rank 0.
 * Also calls MPI_Wtime 3 times inside a region "timed" and MPI_Pcontrol(2).
 * 4. MPI_Comm_dup_with_info of the grid, an MPI_Neighbor_allgather of one
 *    int on it; MPI_Comm_split_type (shared memory) and a barrier on it.
 * 5. MPI_Intercomm_create between the halves of 1., MPI_Sendrecv of 2
 *    ints with the same rank of the other half (world rank ^ 1),
 *    MPI_Intercomm_merge and an MPI_Allreduce on the merged world. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tr.h"

int
main(int argc, char **argv)
{
	int rank, np, hr, v = 0, sum, i, *cnt, *dsp, *all, *a2, dims[2] = { 0, 0 };
	int periods[2] = { 1, 1 }, remain[2] = { 0, 1 }, src, dst, sb[4], rb[4];
	MPI_Comm half, dup, cart, row, cdup, node, inter, merged;
	int nb[4];
	double t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);

	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Comm_rank(half, &hr);
	if (hr == 1)
		v = 42;
	MPI_Comm_size(half, &i);
	if (i > 1)
		MPI_Bcast(&v, 1, MPI_INT, 1, half);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	cnt = calloc(np, sizeof *cnt);
	dsp = calloc(np, sizeof *dsp);
	all = calloc((size_t)np * (np + 1), sizeof *all);
	a2 = calloc(2 * (size_t)np, sizeof *a2);
	for (i = 0; i < np; i++) {
		cnt[i] = i + 1;
		dsp[i] = i ? dsp[i - 1] + cnt[i - 1] : 0;
	}
	MPI_Gatherv(all, rank + 1, MPI_INT, all + np, cnt, dsp, MPI_INT, 0,
	    dup);
	MPI_Alltoall(a2, 1, MPI_INT, a2 + np, 1, MPI_INT, dup);

	MPI_Dims_create(np, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Cart_shift(cart, 1, 1, &src, &dst);
	MPI_Sendrecv(sb, 4, MPI_INT, dst, 7, rb, 4, MPI_INT, src, 7, cart,
	    MPI_STATUS_IGNORE);
	MPI_Sendrecv(sb, 4, MPI_INT, src, 8, rb, 4, MPI_INT, dst, 8, cart,
	    MPI_STATUS_IGNORE);
	MPI_Cart_sub(cart, remain, &row);
	MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_MAX, 0, row);

	tr_region_begin("timed");
	t = MPI_Wtime();
	t = MPI_Wtime() - t;
	t += MPI_Wtime();
	tr_region_end("timed");
	MPI_Pcontrol(2);

	MPI_Comm_dup_with_info(cart, MPI_INFO_NULL, &cdup);
	MPI_Neighbor_allgather(&rank, 1, MPI_INT, nb, 1, MPI_INT, cdup);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
	    MPI_INFO_NULL, &node);
	MPI_Barrier(node);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 5,
	    &inter);
	MPI_Comm_remote_size(inter, &i);
	if (hr < i)
		MPI_Sendrecv(sb, 2, MPI_INT, hr, 9, rb, 2, MPI_INT, hr, 9,
		    inter, MPI_STATUS_IGNORE);
	MPI_Intercomm_merge(inter, rank % 2, &merged);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
	if (rank == 0)
		printf("comms: np=%d dims=%dx%d\n", np, dims[0], dims[1]);
	MPI_Comm_free(&merged);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&node);
	MPI_Comm_free(&cdup);
	MPI_Comm_free(&row);
	MPI_Comm_free(&cart);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&half);
	free(cnt);
	free(dsp);
	free(all);
	free(a2);
	MPI_Finalize();
	return t < 0;
}
