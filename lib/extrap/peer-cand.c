/* peer-cand.c - the peer functions of (rank, P) a call site's messages
 * are tried against: offsets on a process grid, shifts, butterflies,
 * all-pairs loops, roots, binomial trees, a master's workers. */
#include <stdio.h>

#include "peer-int.h"

static long
isqrt(long P)
{
	long s = 0;

	while ((s + 1) * (s + 1) <= P)
		s++;
	return s * s == P ? s : -1;
}

static int
log2exact(long P)
{
	int k = 0;

	if (P < 1 || (P & (P - 1)))
		return -1;
	while ((1L << k) < P)
		k++;
	return k;
}

static long
grid_cycle(const struct pat_cand *c, long r, long P, long *out)
{
	struct tr_grid g;
	int i, d, at[TR_GRID_MAXD], to[TR_GRID_MAXD];
	long n = 0, q;

	memset(&g, 0, sizeof g);
	g.nd = c->nd;
	g.np = P;
	tr_grid_dims(P, c->nd, g.dims);
	for (d = 0; d < c->nd; d++)
		g.periodic[d] = c->periodic;
	tr_grid_coords(&g, r, at);
	for (i = 0; i < c->noff; i++) {
		for (d = 0; d < c->nd; d++)
			to[d] = at[d] + c->off[i][d];
		if ((q = tr_grid_rank(&g, to)) >= 0)
			out[n++] = q;
	}
	return n;
}

static long
shift_cycle(const struct pat_cand *c, long r, long P, long *out)
{
	long n = 0, s = isqrt(P), q, unit;
	int i;

	for (i = 0; i < c->noff; i++) {
		unit = c->kind[i] == PAT_SQRT ? s : c->kind[i] == PAT_HALF ?
		    (P % 2 ? -1 : P / 2) : 1;
		if (unit < 0)
			return -1;
		q = r + c->off[i][0] * unit;
		if (c->periodic)
			q = ((q % P) + P) % P;
		else if (q < 0 || q >= P)
			continue;
		out[n++] = q;
	}
	return n;
}

long
pat_cycle(const struct pat_cand *c, long r, long P, long *out)
{
	long n = 0, i, low;
	int k, lv, lg = log2exact(P);

	switch (c->fn) {
	case PAT_NONE:
		return 0;
	case PAT_GRID:
		return grid_cycle(c, r, P, out);
	case PAT_SHIFT:
		return shift_cycle(c, r, P, out);
	case PAT_XOR:
		if (lg < 0)
			return -1;
		for (k = 0; k < lg; k++)
			out[n++] = r ^ (1L << (c->desc ? lg - 1 - k : k));
		return n;
	case PAT_PAIRS:
		for (i = 1; i < P; i++)
			out[n++] = c->desc ? (r - i + P) % P : (r + i) % P;
		return n;
	case PAT_XORPAIRS:
		if (lg < 0)
			return -1;
		for (i = 1; i < P; i++)
			out[n++] = r ^ i;
		return n;
	case PAT_OTHERS:
		for (i = 0; i < P; i++)
			if (i != r)
				out[n++] = i;
		return n;
	case PAT_ROOT:
		i = c->desc ? P - 1 : 0;
		if (r != i)
			out[n++] = i;
		return n;
	case PAT_PARENT:
		/* MPI's binomial tree from root 0: a rank's parent clears
		 * its lowest set bit. */
		if (r > 0)
			out[n++] = r & (r - 1);
		return n;
	case PAT_XORBIT:
		/* A reduction in which a rank sends at every level whose
		 * bit it has and receives at every other (mpi4py's reduce
		 * of objects, which does not stop after its send): the
		 * partner rank XOR 2^k, for any P. */
		for (lv = 0; (1L << lv) < P; lv++)
			;
		for (i = 0; i < lv; i++) {
			k = c->desc ? lv - 1 - (int)i : (int)i;
			if (((r >> k) & 1) == c->set && (r ^ (1L << k)) < P)
				out[n++] = r ^ (1L << k);
		}
		return n;
	case PAT_CHILDREN:
		low = r ? r & -r : 1L << 62;
		for (k = 0; (1L << k) < low && r + (1L << k) < P; k++)
			;
		for (i = 0; i < k; i++)
			out[n++] = r + (1L << (c->desc ? k - 1 - i : i));
		return n;
	}
	return -1;
}

long
pat_shape(const struct pat_cand *c, long r, long P, long *out)
{
	struct pat_cand one;
	long n = pat_cycle(c, r, P, out), m = 0;
	int i;

	if (n > 0 && c->fn == PAT_XORBIT) {
		int lv, k, top = 0;

		/* the kinds of the first and the last level with a partner:
		 * a reduction's compute between its rounds lies between
		 * those two calls */
		for (lv = 0; (1L << lv) < P; lv++)
			;
		for (k = 0; k < lv; k++)
			if ((r ^ (1L << k)) < P)
				top = k;
		return 1 + (r & 1) + 2 * ((r >> top) & 1);
	}
	if (n <= 0 || (c->fn != PAT_GRID && c->fn != PAT_SHIFT))
		return n;
	/* an offset at a time: its peer there or not */
	one = *c;
	one.noff = 1;
	for (i = 0; i < c->noff && i < 63; i++) {
		memcpy(one.off[0], c->off[i], sizeof one.off[0]);
		one.kind[0] = c->kind[i];
		if (pat_cycle(&one, r, P, out) > 0)
			m |= 1L << i;
	}
	return m;
}

int
pat_inverse(struct pat_cand *c)
{
	int i, d;

	switch (c->fn) {
	case PAT_NONE:
	case PAT_XOR:
	case PAT_XORPAIRS:
		return 0;
	case PAT_PAIRS:
		c->desc = !c->desc;
		return 0;
	case PAT_GRID:
	case PAT_SHIFT:
		for (i = 0; i < c->noff; i++)
			for (d = 0; d < c->nd; d++)
				c->off[i][d] = -c->off[i][d];
		return 0;
	default:
		return -1;
	}
}

const char *
pat_fn_name(const struct pat_cand *c)
{
	static const char *names[] = {"none", "grid", "shift", "xor",
	    "pairs", "xorpairs", "others", "root", "parent", "children",
	    "xorbit"};

	return names[c->fn];
}

void
pat_arg_str(const struct pat_cand *c, char *buf, size_t n)
{
	static const char *unit[] = {"", "sqrtP", "P/2"};
	size_t m = 0;
	int i, d;

	buf[0] = '\0';
	switch (c->fn) {
	case PAT_GRID:
	case PAT_SHIFT:
		m = (size_t)snprintf(buf, n, "%dd/%s/", c->nd,
		    c->periodic ? "periodic" : "open");
		for (i = 0; i < c->noff && m < n; i++) {
			m += (size_t)snprintf(buf + m, n - m, "(");
			for (d = 0; d < c->nd && m < n; d++)
				m += (size_t)snprintf(buf + m, n - m, "%s%+d%s",
				    d ? "," : "", c->off[i][d],
				    unit[c->kind[i]]);
			if (m < n)
				m += (size_t)snprintf(buf + m, n - m, ")");
		}
		break;
	case PAT_XOR:
	case PAT_CHILDREN:
		snprintf(buf, n, "%s", c->desc ? "desc" : "asc");
		break;
	case PAT_XORBIT:
		snprintf(buf, n, "%s/%s", c->set ? "set" : "clear",
		    c->desc ? "desc" : "asc");
		break;
	case PAT_PAIRS:
		snprintf(buf, n, "%s", c->desc ? "-i" : "+i");
		break;
	case PAT_ROOT:
		snprintf(buf, n, "%s", c->desc ? "P-1" : "0");
		break;
	default:
		snprintf(buf, n, "-");
	}
}

const char *
pat_trips(const struct pat_cand *c, char *buf, size_t n)
{
	switch (c->fn) {
	case PAT_GRID:
	case PAT_SHIFT:
		snprintf(buf, n, "%d", c->noff);
		return buf;
	case PAT_XOR: return "log2(P)";
	case PAT_PAIRS: case PAT_XORPAIRS: case PAT_OTHERS: return "P-1";
	case PAT_ROOT: case PAT_PARENT: return "1";
	case PAT_CHILDREN: case PAT_XORBIT: return "log2(P)";
	default: return "0";
	}
}

long
pat_rounds(long r, long P, long *out)
{
	/* The circle method: rank M-1 stays, the others turn; an odd P
	 * takes a rank P that is no one, whose partner sits out. */
	long M = P % 2 ? P + 1 : P, m = M - 1, k, q, n = 0;

	for (k = 0; k < m; k++) {
		if (r == m)
			q = k;
		else if (r == k)
			q = m;
		else
			q = ((2 * k - r) % m + m) % m;
		if (q < P)
			out[n++] = q;
	}
	return n;
}

int64_t
pat_tag(int fn, long s, long r, long P)
{
	switch (fn) {
	case PAT_TAG_SENDER: return s;
	case PAT_TAG_RECEIVER: return r;
	/* FFTW's transposes: 16 bits, which MPI_TAG_UB always allows */
	case PAT_TAG_SP: return (int64_t)((s * P + r) & 0xffff);
	case PAT_TAG_RP: return (int64_t)((r * P + s) & 0xffff);
	default: return -1;
	}
}

const char *
pat_tag_name(int fn)
{
	static const char *names[] = {"kept", "sender", "receiver",
	    "sP+r", "rP+s"};

	return names[fn];
}
