/* expr-value.c - one operation on values, shared by folding and both
 * engines: comparisons, the functions, the kinds of a set. */
#include "expr-int.h"

static int
strcmpv(const struct tr_val *a, const struct tr_val *b)
{
	char ba[32], bb[32];
	size_t na, nb;
	const char *sa = text(a, ba, &na), *sb = text(b, bb, &nb);
	int c = memcmp(sa, sb, na < nb ? na : nb);

	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

int
expr_compare(enum op op, const struct tr_val *a, const struct tr_val *b)
{
	int c;

	if (!a->isstr && !b->isstr) {
		switch (op) {
		case O_EQ: return a->num == b->num;
		case O_NE: return a->num != b->num;
		case O_LT: return a->num < b->num;
		case O_LE: return a->num <= b->num;
		case O_GT: return a->num > b->num;
		default: return a->num >= b->num;
		}
	}
	c = strcmpv(a, b);
	switch (op) {
	case O_EQ: return c == 0;
	case O_NE: return c != 0;
	case O_LT: return c < 0;
	case O_LE: return c <= 0;
	case O_GT: return c > 0;
	default: return c >= 0;
	}
}

double
expr_callfn(int f, const struct tr_val *a, int n)
{
	double x = a[0].num;
	int i;

	switch (f) {
	case F_ABS: return fabs(x);
	case F_MIN:
		for (i = 1; i < n; i++)
			if (a[i].num < x)
				x = a[i].num;
		return x;
	case F_MAX:
		for (i = 1; i < n; i++)
			if (a[i].num > x)
				x = a[i].num;
		return x;
	case F_LOG2: return log2(x);
	case F_LOG: return log(x);
	case F_LOG10: return log10(x);
	case F_EXP: return exp(x);
	case F_SQRT: return sqrt(x);
	case F_POW: return pow(x, a[1].num);
	case F_FLOOR: return floor(x);
	default: return ceil(x);
	}
}

/* The set's members all strings (want 1) or all numbers (want 0):
 * mixed sets compare a number's text, which only the slots have. */
int
expr_setof(const struct set *s, int want)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].isstr != want)
			return 0;
	return 1;
}
