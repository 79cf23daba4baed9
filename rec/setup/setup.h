/* setup/setup.h - the recorder set up at MPI_Init and ended at
 * MPI_Finalize: the environment's settings, the run's metadata, the
 * clocks' offsets to rank 0's. */
#ifndef REC_SETUP_H
#define REC_SETUP_H

#include "../tab/tab.h"
#include "../crash/crash.h"

/* ---- init.c ---- */

void rec_preinit(void);			/* before PMPI_Init */
void rec_setup(int64_t tinit);		/* after PMPI_Init */

/* ---- fini.c ---- */

void rec_finish(void);			/* at MPI_Finalize, before PMPI */
void rec_end(void);			/* MPI_Finalize's last flush */

/* ---- env.c: TR_RECORD_* ---- */

int rec_env_off(void);
clockid_t rec_env_clock(void);
void rec_env_calls(void);
int rec_env_sync_always(void);
int64_t rec_env_buf(void);
const char *rec_env_dir(void);
int rec_env_level(void);
const char *rec_env_size(void);

/* ---- meta.c ---- */

/* Rank 0's global #meta lines, broadcast (collective on C). */
char *rec_meta_global(MPI_Comm c, int64_t timer, int64_t barrier);

/* ---- sync.c: offsets of this rank's clock to rank 0's, by ping-pong ---- */

/* Collective on MPI_COMM_WORLD's ranks off rank 0's host (FAR), and
 * rank 0, which knows their number NFAR. */
int64_t rec_sync_offset(int far, int nfar);
int64_t rec_timer_cost(void);
int64_t rec_barrier_cost(MPI_Comm c);

/* ---- mca.c: Open MPI's parameters without MPI_T ---- */

/* Whether a shared object whose name starts with NAME is loaded; its
 * path in PATH (of SIZE), if given. */
int rec_mca_loaded(const char *name, char *path, size_t size);
/* Parameter NAME (or ALIAS) as Open MPI would set it; DEF if unset. */
long long rec_mca_param(const char *name, const char *alias, long long def);
/* Whether rec_mca_param can tell: the components are shared objects,
 * no other parameter files are named, TR_RECORD_MPIT is not set. */
int rec_mca_resolvable(void);

/* ---- eager.c ---- */

/* "#meta eager.shm=N\n#meta eager.net=N\n", the lines the run's MPI
 * library has, into BUF; their length. */
int rec_eager_meta(char *buf, size_t size);

#endif
