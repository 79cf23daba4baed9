/* zout.c - the rank's trace file, one gzip stream written by deflate, and
 * the recorder's stop at a failure of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"

enum { ZCAP = 1 << 16 };

atomic_int rec_finished, rec_failed;

static struct {
	int fd, zok, warned;
	char path[4096];
	z_stream z;
	unsigned char *zout;
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

static void
wfull(const unsigned char *p, size_t n)
{
	while (n > 0 && Z.fd >= 0) {
		ssize_t w = write(Z.fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			rec_sys(Z.path);
			return;
		}
		p += w;
		n -= w;
	}
}

int
rec_out_deflate(const char *txt, size_t n, int mode)
{
	int flush = mode == OUT_END ? Z_FINISH : mode == OUT_SYNC ?
	    Z_SYNC_FLUSH : Z_NO_FLUSH;

	if (Z.fd < 0)
		return 0;
	Z.z.next_in = (unsigned char *)txt;
	Z.z.avail_in = n;
	do {
		int r;

		Z.z.next_out = Z.zout;
		Z.z.avail_out = ZCAP;
		r = deflate(&Z.z, flush);
		if (r == Z_STREAM_ERROR) {
			errno = EIO;
			rec_sys("zlib");
			return 0;
		}
		wfull(Z.zout, ZCAP - Z.z.avail_out);
	} while (Z.z.avail_out == 0 && Z.fd >= 0);
	return 1;
}

int
rec_out_alloc(void)
{
	return (Z.zout = malloc(ZCAP)) ? 0 : -1;
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
	snprintf(Z.path, sizeof Z.path, "%s", dir);
	if (mkdirs(Z.path) < 0) {
		rec_sys(Z.path);
		return -1;
	}
	snprintf(Z.path, sizeof Z.path, "%s/rank.%d.tr.gz", dir, rec.rank);
	Z.fd = open(Z.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (Z.fd < 0) {
		rec_sys(Z.path);
		return -1;
	}
	if (deflateInit2(&Z.z, level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		rec_sys("zlib");
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
	if (!rec_insig)	/* free() */
		deflateEnd(&Z.z);
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
