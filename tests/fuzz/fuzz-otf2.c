/* fuzz-otf2.c - tr-from-otf2's importer, on an archive the input is.
 *
 * The input is an archive's global definitions and its locations'
 * files, one after another, each after a line "@otf2:NAME": NAME
 * "defs" (traces.def), or a location's "ID.evt" or "ID.def" (in
 * traces/). Not one file of a fixed archive mutated: what the importer
 * does with events hangs on the definitions (the regions entered, the
 * communicators and windows named, the locations and their ranks), and
 * libotf2 is not built for coverage, so the fuzzer sees only the
 * importer's callbacks; with all the files in one input, a mutation of
 * a definition and one of an event that uses it add up, and a location
 * can be defined, dropped or given files of its own.
 *
 * The anchor file is the harness's, not the input's: libotf2 alone
 * reads it (the chunk sizes; the counts in it are not checked), and an
 * anchor it cannot read leaks an open file and 10 KB in libotf2 3.0.2
 * at each OTF2_Reader_Open, which a fuzzing run would pile up. The
 * seeds are archives of tr-to-otf2 and the tests' otf2gen.py
 * (tests/fuzz/seeds.sh).
 *
 * What the importer writes is read back by tr's reader: an archive it
 * accepts must give a trace tr accepts, so an error exit there is a
 * finding (abort), as a crash is. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

/* libotf2 3.0.2 allocates what a record's count says before it reads
 * the record: a group of 2^32 - 1 members asks for 32 GB. A malloc
 * past 1 GB fails here, which libotf2 reports as an error and the
 * importer says: neither libFuzzer's malloc limit nor the RSS that
 * ASan's shadow of a huge block takes (2 GB for 16 GB) is a finding of
 * the importer's. */
#define FUZZ_ASAN_OPTIONS "detect_leaks=0:allocator_may_return_null=1:" \
	"max_allocation_size_mb=1024"

#include "fuzz.h"

#define MARK "@otf2:"
#define MAXFILES 64

/* tr-to-otf2's anchor of a 4-rank archive: chunks of 256 KiB, more
 * than an input holds. */
static const unsigned char anchor_bytes[] = {
	0x03, 0x42, 0x4f, 0x54, 0x46, 0x32, 0x00, 0x03, 0x02, 0x03, 0x00, 0x02,
	0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x1e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x74,
	0x72, 0x2d, 0x74, 0x6f, 0x2d, 0x6f, 0x74, 0x66, 0x32, 0x20, 0x30, 0x2e,
	0x31, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xb8, 0x68, 0xc3, 0xae, 0x7e,
	0x99, 0x84, 0x6a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x01, 0x00
};

static char dir[256], sub[300], anchor[300];
static char written[MAXFILES][320];
static int nwritten;

/* The archive's folder and anchor, made for each input and removed
 * after it: a harness killed between inputs leaves nothing. */
static void
mkdirs(void)
{
	FILE *f;

	if ((mkdir(dir, 0700) && errno != EEXIST) ||
	    (mkdir(sub, 0700) && errno != EEXIST) ||
	    !(f = fopen(anchor, "wb")) || fwrite(anchor_bytes, 1,
	    sizeof anchor_bytes, f) != sizeof anchor_bytes || fclose(f))
		abort();
}

static void
rmdirs(void)
{
	unlink(anchor);
	rmdir(sub);
	rmdir(dir);
}

static void
unlink_written(void)
{
	while (nwritten > 0)
		unlink(written[--nwritten]);
}

/* Names the file of section NAME in written[nwritten]; 0 for a name
 * the harness does not write: only an archive's own files, in its own
 * directory. */
static int
name_file(const uint8_t *name, size_t n)
{
	char nm[32], *p = written[nwritten];
	size_t i;

	if (n == 0 || n >= sizeof nm)
		return 0;
	memcpy(nm, name, n);
	nm[n] = 0;
	if (strcmp(nm, "defs") == 0)
		return snprintf(p, sizeof written[0], "%s/traces.def", dir) > 0;
	for (i = 0; i < n && nm[i] >= '0' && nm[i] <= '9'; i++)
		;
	if (i == 0 || i > 20 || (strcmp(nm + i, ".evt") != 0 &&
	    strcmp(nm + i, ".def") != 0))
		return 0;
	return snprintf(p, sizeof written[0], "%s/%s", sub, nm) > 0;
}

/* The next mark in [P, E), or E. */
static const uint8_t *
mark(const uint8_t *p, const uint8_t *e)
{
	size_t m = strlen(MARK);

	for (; (p = memchr(p, MARK[0], (size_t)(e - p))); p++)
		if ((size_t)(e - p) >= m && memcmp(p, MARK, m) == 0)
			return p;
	return e;
}

/* The sections of D as files; whether there were definitions. */
static int
write_archive(const uint8_t *d, size_t n)
{
	const uint8_t *e = d + n, *p, *nl, *next;
	int seen = 0;
	FILE *f;

	if (n == 0)
		return 0;
	for (p = mark(d, e); p < e && nwritten < MAXFILES; p = next) {
		p += strlen(MARK);
		next = mark(p, e);
		nl = memchr(p, '\n', (size_t)(next - p));
		if (nl && name_file(p, (size_t)(nl - p))) {
			seen |= strcmp(written[nwritten] + strlen(dir),
			    "/traces.def") == 0;
			nl++;
			if (!(f = fopen(written[nwritten], "wb")) ||
			    fwrite(nl, 1, (size_t)(next - nl), f) !=
			    (size_t)(next - nl) || fclose(f))
				abort();
			nwritten++;
		}
	}
	return seen;
}

/* The importer's output, read through as any tool reads it. */
static void
readback(char *path)
{
	struct tr_rec r;
	struct tr_in *in = tr_open(1, &path);

	while (tr_next(in, &r) != TR_EOF)
		;
	tr_close(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tr_out *volatile o;
	static volatile int imported;
	static char out[320];
	int fd;

	if (!*dir) {
		fuzz_sweep();
		snprintf(dir, sizeof dir, "%s/trfuzz.%ld.otf2", fuzz_dir(),
		    (long)getpid());
		snprintf(sub, sizeof sub, "%s/traces", dir);
		snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
		snprintf(out, sizeof out, "%s/out.tr", dir);
	}
	mkdirs();
	if (!write_archive(data, size)) {
		unlink_written();
		rmdirs();
		return 0;
	}
	imported = 0;
	if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		abort();
	o = tr_out_open(fd, 0);
	if (FUZZ_TRY()) {
		tr_otf2_read(anchor, o, 1);
		imported = 1;
		tr_out_close(o);	/* and the error exit with it */
		o = NULL;
		tr_atdie = fuzz_atdie;
		readback(out);
	} else if (imported) {
		abort();	/* a trace tr-from-otf2 wrote, that tr rejects */
	}
	if (o)
		tr_out_close(o);
	o = NULL;
	fuzz_end();
	unlink(out);
	unlink_written();
	rmdirs();
	return 0;
}
