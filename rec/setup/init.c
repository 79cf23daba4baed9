/* init.c - the recorder set up inside MPI_Init: settings, the clock's
 * offset to rank 0's, the header's metadata, the buffer and its file,
 * the crash paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "setup.h"
#include "setup-int.h"

MPI_Comm rec_priv = MPI_COMM_NULL;
int rec_samehost, rec_nfar;

void
rec_preinit(void)
{
	rec.clk = rec_env_clock();
	rec_tick_init();
}

/* Whether this rank shares rank 0's host, and so its clock: then its
 * offsets are 0. */
static void
host(void)
{
	char h0[sizeof rec_head.host];

	gethostname(rec_head.host, sizeof rec_head.host - 1);
	rec_clean(rec_head.host);
	if (!rec_head.host[0])
		strcpy(rec_head.host, "-");
	memcpy(h0, rec_head.host, sizeof h0);
	PMPI_Bcast(h0, sizeof h0, MPI_CHAR, 0, rec_priv);
	rec_samehost = strcmp(h0, rec_head.host) == 0 &&
	    !rec_env_sync_always();
	rec_nfar = rec.rank != 0 && !rec_samehost;
	PMPI_Allreduce(MPI_IN_PLACE, &rec_nfar, 1, MPI_INT, MPI_SUM, rec_priv);
}

/* Half of each read of the CPU clock is counted between two calls:
 * one read's cost is taken off every burst. */
static void
cpu_cost(void)
{
	int64_t a = rec_cpunow(), b = a;
	int i;

	for (i = 0; i < 64; i++)
		b = rec_cpunow();
	rec.cpucost = (b - a) / 64;
	rec.lastcpu = rec.cpur = rec_cpunow();
	rec.cpuw = rec_now();
}

/* Called inside MPI_Init, after PMPI_Init: everything collective here
 * happens on a private duplicate of MPI_COMM_WORLD. */
void
rec_setup(int64_t tinit)
{
	int64_t timer = 0, barrier = 0, bytes;
	long long mn;
	MPI_Comm parent;

	if (rec_env_off())
		return;
	/* Processes started by MPI_Comm_spawn have a world of their own,
	 * whose rank files would be written over the parents'. */
	if (PMPI_Comm_get_parent(&parent) == MPI_SUCCESS &&
	    parent != MPI_COMM_NULL) {
		PMPI_Comm_rank(MPI_COMM_WORLD, &rec.rank);
		if (rec.rank == 0)
			rec_warn("a process started by MPI_Comm_spawn: not "
			    "recorded");
		return;
	}
	rec_env_calls();
	PMPI_Comm_rank(MPI_COMM_WORLD, &rec.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &rec.np);
	if (PMPI_Comm_dup(MPI_COMM_WORLD, &rec_priv) != MPI_SUCCESS)
		return;
	host();
	rec_head.off0 = rec_sync_offset(!rec_samehost, rec_nfar);
	rec_head.t0 = rec_now();
	timer = rec_timer_cost();
	barrier = rec_barrier_cost(rec_priv);
	rec_head.ghdr = rec_meta_global(rec_priv, timer, barrier);
	rec_mod_exe(rec_priv);
	rec_mod_list();
	mn = tinit - rec_head.off0;
	PMPI_Allreduce(MPI_IN_PLACE, &mn, 1, MPI_LONG_LONG, MPI_MIN,
	    rec_priv);
	rec_head.origin = mn;

	bytes = rec_env_buf();
	rec.cap = bytes / sizeof(struct rrec);
	if (rec.cap < 16)
		rec.cap = 16;
	rec.buf = malloc(rec.cap * sizeof *rec.buf);
	if (rec.buf)	/* fault the pages in now, not during the run */
		memset(rec.buf, 0, rec.cap * sizeof *rec.buf);
	rec.flushname = rec_name_index("tr.flush");
	if (!rec.buf || rec_text_alloc() < 0 || rec_out_alloc() < 0) {
		errno = ENOMEM;
		rec_sys("memory");
		return;
	}
	if (rec_out_open(rec_env_dir(), rec_env_level()) < 0)
		return;
	rec_signal_init();
	rec_exit_init();
	rec_fatal_init();
	if (rec.cpu)
		cpu_cost();
	rec_flush_init();
	rec.on = 1;
	rec_tab_init();
	/* The header now, so that a rank killed at any later moment leaves a
	 * readable file; the records stay buffered for the clock correction
	 * at MPI_Finalize. */
	rec_flush(0);
}
