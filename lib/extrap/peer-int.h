/* extrap/peer-int.h - what the files of tr_pat share: the peer
 * functions a call site's messages are tried against, and the peers
 * recorded at each scale. */
#ifndef TR_PEER_INT_H
#define TR_PEER_INT_H

#include <stdlib.h>
#include <string.h>

#include "extrap.h"

/* Peers kept per (call site, scale, rank): a candidate is checked on
 * them, and on the count of all (a whole number of its cycles). They
 * bound the memory by ranks and call sites, never by the trace. */
#define PAT_MAXSEQ 4096
/* Recorded scales (distinct np), and grid offsets of one candidate. */
#define PAT_MAXSCALES 32
#define PAT_MAXOFF 64

enum pat_fn {
	PAT_NONE, PAT_GRID, PAT_SHIFT, PAT_XOR, PAT_PAIRS, PAT_XORPAIRS,
	PAT_OTHERS, PAT_ROOT, PAT_PARENT, PAT_CHILDREN, PAT_XORBIT
};
/* An offset of PAT_SHIFT in ranks: c, c * sqrt(P) or c * P / 2. */
enum { PAT_CONST, PAT_SQRT, PAT_HALF };

struct pat_cand {
	enum pat_fn fn;
	int nd, periodic;	/* PAT_GRID, PAT_SHIFT (nd 1) */
	int noff;
	int off[PAT_MAXOFF][TR_GRID_MAXD];
	int kind[PAT_MAXOFF];	/* PAT_SHIFT: what off[i][0] multiplies */
	int desc;		/* PAT_XOR, PAT_CHILDREN: k downwards; PAT_PAIRS:
				 * rank - i; PAT_ROOT: P - 1 */
	int set;		/* PAT_XORBIT: the levels k whose bit of the
				 * rank is set (else clear) */
};

/* The peers of rank R of P in one cycle of C, into OUT (room for
 * P + PAT_MAXOFF); their number, or -1 if C has no meaning at P (a
 * butterfly on a P not a power of 2, an offset of sqrt(P) not whole). */
long pat_cycle(const struct pat_cand *c, long r, long P, long *out);
/* What tells R's cycle from another's of the same length: for offsets
 * on a grid or a line, which of them R has, bit i for offset i (an edge
 * of a 2-D grid has three of four, and which three decide the tags its
 * calls send); for the levels of a reduction, 1 plus the bits of R at
 * its first and its last level with a partner (whether it sends or
 * receives there); else its length. 0 for none, -1 as pat_cycle. OUT
 * as pat_cycle's. */
long pat_shape(const struct pat_cand *c, long r, long P, long *out);
/* Turns C into the function whose cycle at R names, at each place, the
 * rank whose peer R is at that place of its own cycle: 0, or -1 if C
 * has none of that kind (a tree, a root, every other rank). */
int pat_inverse(struct pat_cand *c);
/* The partners of rank R of P in the rounds of a round-robin
 * tournament, each round a pairing of every rank with one other (one
 * sits out of each if P is odd), into OUT (room for P): P-1 of them.
 * Exchanges in that order never wait on one another in a cycle. */
long pat_rounds(long r, long P, long *out);
/* The tag of a message from S to R of P by tag function FN: the
 * template's own (-1), the sender's rank, the receiver's, or
 * (S * P + R) or (R * P + S) in 16 bits. */
enum {
	PAT_TAG_KEPT, PAT_TAG_SENDER, PAT_TAG_RECEIVER, PAT_TAG_SP,
	PAT_TAG_RP, PAT_NTAG
};
int64_t pat_tag(int fn, long s, long r, long P);
const char *pat_tag_name(int fn);
/* C's fn, arg and trips columns. */
const char *pat_fn_name(const struct pat_cand *c);
void pat_arg_str(const struct pat_cand *c, char *buf, size_t n);
const char *pat_trips(const struct pat_cand *c, char *buf, size_t n);

#endif
