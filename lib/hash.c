/* hash.c - a fast hash of byte strings, a word at a time, for caches
 * in front of slower lookups. */
#include <string.h>

#include "libtr.h"

uint64_t
tr_hash(const void *p, size_t n)
{
	const char *s = p;
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	/* Every input bit reaches the low bits, which index tables. */
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}
