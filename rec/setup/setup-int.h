/* setup/setup-int.h - what init and finalize share. */
#ifndef REC_SETUP_INT_H
#define REC_SETUP_INT_H

#include "setup.h"

extern MPI_Comm rec_priv;	/* MPI_COMM_WORLD's, for the recorder's calls */
extern int rec_samehost;	/* shares rank 0's clock: offsets are 0 */
extern int rec_nfar;		/* the ranks that do not */

#endif
