/* zout.c - the rank's trace file, one gzip stream written by deflate, and
 * the recorder's stop at a failure of its own.
 *
 * The deflate is ISA-L's igzip at its level 1 unless a zlib level is
 * asked for (TR_RECORD_LEVEL): on the records' text it takes 145 ns of
 * CPU time a record against zlib level 1's 490 ns, and writes 12.8
 * bytes a record against 14.2 (bench/record.sh). Both make one stream,
 * made decodable at each flush by a sync flush. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include "libtr.h"
#include "buf.h"

enum { ZCAP = 1 << 16 };

atomic_int rec_finished, rec_failed;

/* The file's length after the last whole flush, and the stream's CRC
 * and length of text then: a write that fails cuts the file back to
 * it and ends the stream there (cut). */
static struct {
	int fd, zok, warned;
	int reg;		/* a regular file, which cut and room can change */
	int nofalloc;		/* its file system keeps no room (reserve) */
	char path[4096];
	z_stream z;
	struct isal_zstream *iz;	/* igzip's, if not NULL; else z */
	unsigned char *zout;
	off_t pos, good;
	uLong crc, len;
	int havegood;
} Z = { .fd = -1 };

/* Our own failures must not hurt the application: say so once, stop. */
void
rec_sys(const char *what)
{
	const char *e = strerrordesc_np(errno);

	/* (strerrordesc_np: a table's entry, not strerror's locale) */
	if (!Z.warned)
		rec_warn("%s: %s; recording stopped", what, e ? e : "error");
	Z.warned = 1;
	rec_failed = 1;
	rec.on = 0;
	if (Z.fd >= 0)
		close(Z.fd);
	Z.fd = -1;
}

static int
wraw(const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(Z.fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= w;
		Z.pos += w;
	}
	return 0;
}

static unsigned char *
le32(unsigned char *p, uLong v)
{
	for (int i = 0; i < 4; i++)
		*p++ = (unsigned char)(v >> 8 * i);
	return p;
}

/* After a failed write: the stream ended at the file's last whole
 * flush by hand (a sync flush leaves it at a byte boundary), with a
 * stored block that says why, #meta end.R, in the same member as the
 * records, as an early end is marked; the file cut after it. Written
 * over what followed the flush, or into the room kept past it (room),
 * so that a full disk has the room it needs; if it has not, the file
 * ends at the flush unterminated, which readers call cut. No
 * allocation: a flush may be in a signal handler. */
static void
cut(int err)
{
	static const char k[] = "#tr 1\n#meta end.", v[] = "=write failed: ";
	unsigned char b[320], *p = b + 5;
	const char *e = strerrordesc_np(err);
	char *t = (char *)p;
	size_t n;

	if (!Z.havegood || !Z.reg)
		return;
	memcpy(t, k, sizeof k - 1);
	t = tr_fmt_i64(t + sizeof k - 1, rec.rank);
	memcpy(t, v, sizeof v - 1);
	t += sizeof v - 1;
	n = strlen(e ? e : "error");
	if (n > 200)
		n = 200;
	memcpy(t, e ? e : "error", n);
	t += n;
	*t++ = '\n';
	n = t - (char *)p;
	/* a stored block (BFINAL 0), then the last, empty one */
	b[0] = 0;
	b[1] = n & 255;
	b[2] = n >> 8;
	b[3] = ~n & 255;
	b[4] = ~n >> 8 & 255;
	p += n;
	memcpy(p, "\1\0\0\377\377", 5);
	p = le32(p + 5, crc32(Z.crc, (const unsigned char *)b + 5, n));
	p = le32(p, Z.len + n);
	if (pwrite(Z.fd, b, p - b, Z.good) == p - b)
		Z.good += p - b;
	if (ftruncate(Z.fd, Z.good) < 0)
		return;
}

/* Room for cut's mark kept past the end of the file, where the file
 * system can (tmpfs, ext4, xfs): the write that fails may be the first
 * one after a flush. */
static void
room(void)
{
	if (!Z.reg || fallocate(Z.fd, FALLOC_FL_KEEP_SIZE, Z.pos, 4096) < 0)
		return;
}

/* The room for cut's mark kept ahead of every write after a flush, not
 * only at the flush: on a disk that another writer fills, a write must
 * fail here, while the mark's room past the last flush is still held. */
static int
reserve(size_t n)
{
	if (!Z.reg || !Z.havegood || Z.nofalloc ||
	    fallocate(Z.fd, FALLOC_FL_KEEP_SIZE, Z.pos, n + 4096) == 0)
		return 0;
	if (errno == ENOSPC || errno == EDQUOT)
		return -1;
	Z.nofalloc = 1;
	return 0;
}

static void
wfull(const unsigned char *p, size_t n)
{
	if (Z.fd < 0)
		return;
	if (reserve(n) < 0 || wraw(p, n) < 0) {
		int err = errno;

		cut(err);
		errno = err;
		rec_sys(Z.path);
	}
}

/* One step of the stream into Z.zout: 0, or -1 if the library failed. */
static int
zstep(int mode)
{
	if (Z.iz) {
		Z.iz->next_out = Z.zout;
		Z.iz->avail_out = ZCAP;
		Z.iz->flush = mode == OUT_MORE ? NO_FLUSH : SYNC_FLUSH;
		Z.iz->end_of_stream = mode == OUT_END;
		if (isal_deflate(Z.iz) != COMP_OK)
			return -1;
		return 0;
	}
	Z.z.next_out = Z.zout;
	Z.z.avail_out = ZCAP;
	return deflate(&Z.z, mode == OUT_END ? Z_FINISH : mode == OUT_SYNC ?
	    Z_SYNC_FLUSH : Z_NO_FLUSH) == Z_STREAM_ERROR ? -1 : 0;
}

int
rec_out_deflate(const char *txt, size_t n, int mode)
{
	size_t left;

	if (Z.fd < 0)
		return 0;
	if (Z.iz) {
		Z.iz->next_in = (unsigned char *)txt;
		Z.iz->avail_in = n;
	} else {
		Z.z.next_in = (unsigned char *)txt;
		Z.z.avail_in = n;
	}
	do {
		if (zstep(mode) < 0) {
			errno = EIO;
			rec_sys(Z.iz ? "igzip" : "zlib");
			return 0;
		}
		left = Z.iz ? Z.iz->avail_out : Z.z.avail_out;
		wfull(Z.zout, ZCAP - left);
		/* (igzip may stop with input left and room too) */
	} while ((left == 0 || (Z.iz && Z.iz->avail_in > 0)) && Z.fd >= 0);
	if (mode == OUT_SYNC && Z.fd >= 0) {
		Z.good = Z.pos;
		Z.crc = Z.iz ? Z.iz->internal_state.crc : Z.z.adler;
		Z.len = Z.iz ? Z.iz->total_in : Z.z.total_in;
		Z.havegood = 1;
		room();
	}
	return Z.fd >= 0;
}

int
rec_out_alloc(void)
{
	return (Z.zout = malloc(ZCAP)) ? 0 : -1;
}

/* igzip's stream and the buffer of its level 1 (its small size: the
 * large one is no faster on the records' text), or -1. */
static int
isal_open(void)
{
	static const size_t lvl = ISAL_DEF_LVL1_SMALL;
	struct isal_zstream *z = malloc(sizeof *z);
	unsigned char *b = malloc(lvl);

	if (!z || !b) {
		free(z);
		free(b);
		return -1;
	}
	isal_deflate_init(z);
	z->level = 1;
	z->level_buf = b;
	z->level_buf_size = lvl;
	z->gzip_flag = IGZIP_GZIP;
	Z.iz = z;
	return 0;
}

static int
mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
				*p = '/';
				return -1;
			}
			*p = '/';
		}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int
rec_out_open(const char *dir, int level)
{
	struct stat st;

	snprintf(Z.path, sizeof Z.path, "%s", dir);
	if (mkdirs(Z.path) < 0) {
		rec_sys(Z.path);
		return -1;
	}
	snprintf(Z.path, sizeof Z.path, "%s/rank.%d.tr.gz", dir, rec.rank);
	/* Truncated only once locked: a second recording into the same
	 * directory at once stops there, and leaves the first one's. */
	Z.fd = open(Z.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (Z.fd >= 0 && flock(Z.fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			errno = EBUSY;
		rec_warn("%s: being written by another recording at once; "
		    "not recorded", Z.path);
		Z.warned = 1;
		rec_sys(Z.path);
		return -1;
	}
	/* (a FIFO, or a device, is written as it is) */
	if (Z.fd < 0 || (fstat(Z.fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (Z.reg = 1) && ftruncate(Z.fd, 0) < 0)) {
		rec_sys(Z.path);
		return -1;
	}
	if (level < 0 ? isal_open() < 0 : deflateInit2(&Z.z, level,
	    Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		rec_sys(level < 0 ? "igzip" : "zlib");
		return -1;
	}
	Z.zok = 1;
	return 0;
}

int
rec_out_ready(void)
{
	return Z.zok;
}

void
rec_out_close(void)
{
	if (!rec_insig && !Z.iz)	/* free() */
		deflateEnd(&Z.z);
	/* the room kept for cut's mark given back */
	if (Z.reg && Z.havegood && Z.fd >= 0 && ftruncate(Z.fd, Z.pos) < 0)
		rec_sys(Z.path);
	Z.havegood = 0;
	if (Z.fd >= 0 && close(Z.fd) < 0)
		rec_sys(Z.path);
	Z.fd = -1;
}

void
rec_out_member(const char *txt, size_t n)
{
	unsigned char z[512];
	z_stream zs;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	zs.next_in = (unsigned char *)txt;
	zs.avail_in = n;
	zs.next_out = z;
	zs.avail_out = sizeof z;
	if (deflate(&zs, Z_FINISH) == Z_STREAM_END &&
	    (Z.fd = open(Z.path, O_WRONLY | O_APPEND | O_CLOEXEC)) >= 0) {
		wfull(z, sizeof z - zs.avail_out);
		if (Z.fd >= 0)
			close(Z.fd);
		Z.fd = -1;
	}
	deflateEnd(&zs);
}
