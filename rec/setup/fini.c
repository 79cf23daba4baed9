/* fini.c - MPI_Finalize's side of the recorder: the clock's drift
 * measured, and the last flush. */
#include <stdatomic.h>

#include "libtr.h"
#include "setup.h"
#include "setup-int.h"

/* MPI_Finalize's flushes hold the recorder, as a crash path does
 * (rec_take): this thread's when its call is recorded, else waited for
 * from the thread that holds it (MPI_THREAD_MULTIPLE: a region being marked,
 * a call still in MPI) and seized once that one is still, since a flush
 * writes the buffer and empties it under the holder's records. Held
 * from rec_finish to rec_end. */
static int finheld = TAKE_NONE;

static int
fin_hold(void)
{
	if (finheld == TAKE_NONE)
		finheld = rec_take(TAKE_WAIT, 1);
	return finheld;
}

void
rec_end(void)
{
	/* at MPI_Finalize: it lived on, jumped out or not */
	rec_exit_note();
	if (fin_hold() != TAKE_NONE)
		rec_flush(1);
	if (finheld == TAKE_CLAIMED)
		rec_release();
	finheld = TAKE_NONE;
}

/* At MPI_Finalize: the second offset gives the drift, applied to the
 * records still buffered (all of them when the run fit the buffer). */
void
rec_finish(void)
{
	int64_t t, o;

	if (rec_priv == MPI_COMM_NULL)
		return;
	o = rec_sync_offset(!rec_samehost, rec_nfar);
	t = rec_now();
	if (rec.on && t > rec_head.t0 && fin_hold() != TAKE_NONE) {
		double d = (double)(o - rec_head.off0) /
		    (double)(t - rec_head.t0);

		/* Written by the flush, inside its guard, as a flush in a
		 * signal handler meanwhile would write them: this thread
		 * formats no text outside a flush. */
		tr_f64str(rec_head.driftstr, d * 1e9);
		rec_head.offfini = o;
		rec_head.drift = d;
		atomic_signal_fence(memory_order_seq_cst);
		rec_head.havefini = 1;
		rec_head.finhdr = 1;
		rec_flush(0);
	}
	PMPI_Comm_free(&rec_priv);
}

