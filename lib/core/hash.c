/* hash.c - a fast hash of byte strings, a word at a time, for caches
 * in front of slower lookups. Only ever kept in memory: the values may
 * change between versions. */
#include <string.h>

#include "core.h"

#define M1 0xff51afd7ed558ccdULL

static uint64_t
ld8(const unsigned char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

static uint64_t
ld4(const unsigned char *s)
{
	uint32_t w;

	memcpy(&w, s, 4);
	return w;
}

uint64_t
tr_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, w;

	/* The tail is read as loads of fixed size that may overlap bytes
	 * already mixed (the length is in h): a copy of n bytes costs more
	 * than the whole hash of a field as short as an operation's name. */
	if (n >= 8) {
		for (; n > 8; s += 8, n -= 8) {
			h = (h ^ ld8(s)) * M1;
			h ^= h >> 32;
		}
		w = ld8(s + n - 8);
	} else if (n >= 4)
		w = ld4(s) | ld4(s + n - 4) << 32;
	else if (n)
		w = s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16;
	else
		w = 0;
	h = (h ^ w) * M1;
	/* Every input bit reaches the low bits, which index tables. */
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}
