/* env.c - the recorder's settings, read from the environment that
 * tr-record(1) sets (TR_RECORD_*). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libtr.h"
#include "setup.h"

/* Whether variable NAME is set to V. */
static int
is(const char *name, const char *v)
{
	const char *s = getenv(name);

	return s && strcmp(s, v) == 0;
}

/* TR_RECORD=0: the run is not recorded. */
int
rec_env_off(void)
{
	return is("TR_RECORD", "0");
}

clockid_t
rec_env_clock(void)
{
	return is("TR_RECORD_CLOCK", "realtime") ? CLOCK_REALTIME :
	    CLOCK_MONOTONIC;
}

static void
parse_skip(const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, ", ");
		int i;

		for (i = 0; i < OP_N; i++) {
			const char *o = rec_opname[i];

			if ((strlen(o) == n && strncasecmp(o, s, n) == 0) ||
			    (strlen(o + 4) == n && strncasecmp(o + 4, s, n) == 0))
				rec.skip[i] = 1;
		}
		s += n;
		s += strspn(s, ", ");
	}
}

/* What is recorded: CPU time and its window, the calls left out, and
 * the polls merged. */
void
rec_env_calls(void)
{
	const char *s;

	rec.cpu = !is("TR_RECORD_CPU", "0");
	s = getenv("TR_RECORD_CPU_WINDOW");
	if (!s || !*s || tr_parse_dur(s, &rec.cpuwin) < 0 || rec.cpuwin < 0)
		rec.cpuwin = 10000;
	parse_skip(getenv("TR_RECORD_SKIP"));
	s = getenv("TR_RECORD_POLL_GAP");
	if (!s || !*s || tr_parse_dur(s, &rec.pollgap) < 0 ||
	    rec.pollgap < 0)
		rec.pollgap = 1000;
	rec.poll[OP_Test] = rec.poll[OP_Testall] = rec.poll[OP_Testany] =
	    rec.poll[OP_Testsome] = rec.poll[OP_Iprobe] =
	    rec.poll[OP_Improbe] = 1;
}

/* TR_RECORD_SYNC=always: clocks synchronised on rank 0's host too. */
int
rec_env_sync_always(void)
{
	return is("TR_RECORD_SYNC", "always");
}

/* The buffer's size in bytes. */
int64_t
rec_env_buf(void)
{
	const char *s = getenv("TR_RECORD_BUF");
	int64_t v;

	if (!s || !*s || tr_parse_size(s, &v) < 0 || v <= 0)
		return 4 << 20;
	return v;
}

const char *
rec_env_dir(void)
{
	const char *dir = getenv("TR_RECORD_DIR");

	return !dir || !*dir ? "tr-trace" : dir;
}

/* -1, igzip's level 1 (buf/zout.c), unless a zlib level is asked for: a
 * flush is time the program waits, and zlib's level 6 took 3x as long
 * as its level 1 (Meep: 1.7 s of 4.9 against 0.56 s) for files 20 %
 * smaller. */
int
rec_env_level(void)
{
	const char *s = getenv("TR_RECORD_LEVEL");

	return s && *s >= '0' && *s <= '9' ? *s - '0' : -1;
}

/* The run's problem size (tr-record -N), for tr-fit's models in (np,
 * N): a number above 0 as tr-record checked it, else NULL. Set by hand
 * to anything else it is said and left out, not written where every
 * reader of the trace would stop at it. */
const char *
rec_env_size(void)
{
	const char *s = getenv("TR_RECORD_N");
	char *e;
	double v;

	if (!s || !*s)
		return NULL;
	v = strtod(s, &e);
	if (*e || !(v > 0) || strlen(s) > 64) {
		char b[65];
		size_t n = strnlen(s, sizeof b - 1);

		/* (rec_warn's format has no precision) */
		memcpy(b, s, n);
		b[n] = '\0';
		if (rec.rank == 0)
			rec_warn("TR_RECORD_N=%s: not a size above 0; "
			    "no #meta N written", b);
		return NULL;
	}
	return s;
}
