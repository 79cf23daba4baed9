/* threads.c - two threads of each rank in MPI at once
 * (MPI_THREAD_MULTIPLE). The main thread waits in MPI_Recv for the
 * partner rank (rank ^ 1) to say it is done, while a second thread,
 * started a moment later, exchanges messages with the partner's second
 * thread and then says so. A rank's trace holds one call at a time, so
 * tr-record's tests check that it says what it left out, and that what
 * it wrote is sound.
 *
 * With a second operand, N threads of each rank instead make the
 * ITERATIONS exchanges each, all at once, with a tag per thread: the
 * recorder must keep its buffer one thread's at a time.
 *
 * usage: threads [ITERATIONS [THREADS]]	(default 200) */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rank, iters;

static void *
race(void *arg)
{
	int i, tag = (int)(long)arg, x = rank, y;

	for (i = 0; i < iters; i++)
		MPI_Sendrecv(&x, 1, MPI_INT, rank ^ 1, tag, &y, 1, MPI_INT,
		    rank ^ 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

static void *
talk(void *arg)
{
	struct timespec ts = {0, 200000000};
	int i, x = rank, y;

	(void)arg;
	/* the main thread is in its MPI_Recv by then */
	nanosleep(&ts, NULL);
	for (i = 0; i < iters; i++)
		MPI_Sendrecv(&x, 1, MPI_INT, rank ^ 1, 1, &y, 1, MPI_INT,
		    rank ^ 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Send(&x, 1, MPI_INT, rank ^ 1, 9, MPI_COMM_WORLD);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t, ts[16];
	int provided, np, y, nt;
	long i;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 200;
	nt = argc > 2 ? atoi(argv[2]) : 0;
	if (nt > 16)
		nt = 16;
	if (provided < MPI_THREAD_MULTIPLE || np % 2) {
		if (rank == 0)
			fprintf(stderr, "threads: needs MPI_THREAD_MULTIPLE "
			    "and an even number of ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 0; i < nt; i++)
		if (pthread_create(&ts[i], NULL, race, (void *)i) != 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
	for (i = 0; i < nt; i++)
		pthread_join(ts[i], NULL);
	if (!nt) {
		if (pthread_create(&t, NULL, talk, NULL) != 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
		MPI_Recv(&y, 1, MPI_INT, rank ^ 1, 9, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		pthread_join(t, NULL);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("threads: done\n");
	MPI_Finalize();
	return 0;
}
