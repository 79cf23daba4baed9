/* tr.h - what an MPI application can tell tr-record. See tr(3).
 *
 * Header only: the functions below call libtr-record.so when it is
 * loaded (tr-record preloads it) and do nothing otherwise, so a program
 * that includes this header needs no extra library at link time. The
 * references are weak, which needs a position-independent executable
 * (the default of gcc on Debian) or an explicit -ltr-record. */
#ifndef TR_H
#define TR_H

#ifdef __cplusplus
extern "C" {
#endif

extern void tr_rec_region_begin(const char *name) __attribute__((weak));
extern void tr_rec_region_end(const char *name) __attribute__((weak));
extern void tr_rec_add_time(double seconds) __attribute__((weak));
extern int tr_rec_active(void) __attribute__((weak));

/* Marks the start and the end of a user phase NAME (no TAB, LF or
 * space; regions nest). Names beginning with "tr." are the recorder's:
 * such a NAME is recorded with a "_" in front. */
static inline void
tr_region_begin(const char *name)
{
	if (tr_rec_region_begin)
		tr_rec_region_begin(name);
}

static inline void
tr_region_end(const char *name)
{
	if (tr_rec_region_end)
		tr_rec_region_end(name);
}

/* Advances this rank's recorded clock by SECONDS without computing: a
 * skeleton program stands in for its compute phases with this. */
static inline void
tr_add_time(double seconds)
{
	if (tr_rec_add_time)
		tr_rec_add_time(seconds);
}

/* 1 when the calls above are being recorded. */
static inline int
tr_active(void)
{
	return tr_rec_active ? tr_rec_active() : 0;
}

#ifdef __cplusplus
}
#endif

#endif
