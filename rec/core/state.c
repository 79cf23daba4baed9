/* state.c - the recorder's state and the names of the calls it knows. */
#include "core.h"

const char *const rec_opname[OP_N] = {
#define OP(x) "MPI_" #x,
#define OPS(x, s) "MPI_" #s,
#include "../ops.h"
#undef OP
#undef OPS
};

struct rec_state rec = { .clk = CLOCK_MONOTONIC };
__thread char rec_thread;
__thread int rec_insig;
