/* expr-lex.c - the tokens of an expression: numbers and their units,
 * names, strings and operators. */
#include <stdarg.h>
#include <stdio.h>

#include "expr-int.h"

void
expr_fail(struct parser *ps, int col, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	ps->errcol = col;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errsz, fmt, ap);
	va_end(ap);
}

static const struct {
	const char *name;
	double mul;
} units[] = {
	{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	{"B", 1}, {"KB", 1e3}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
	{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
};

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static int
isidstart(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
isid(int c)
{
	return isidstart(c) || isdig(c) || c == '.';
}

void
expr_next(struct parser *ps)
{
	const char *p = ps->p, *q;
	size_t i;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	ps->ts = p;
	ps->tcol = (int)(p - ps->src);
	if (!*p) {
		ps->tok = T_EOF;
		ps->tn = 0;
		ps->p = p;
		return;
	}
	if (isdig(*p) || (*p == '.' && isdig(p[1]))) {
		q = p;
		while (isdig(*q))
			q++;
		if (*q == '.')
			for (q++; isdig(*q); q++)
				;
		if ((*q == 'e' || *q == 'E') && (isdig(q[1]) ||
		    ((q[1] == '+' || q[1] == '-') && isdig(q[2])))) {
			for (q += 2; isdig(*q); q++)
				;
		}
		if (tr_parse_f64(p, (size_t)(q - p), &ps->tnum) != 0) {
			expr_fail(ps, ps->tcol, "bad number");
			ps->tnum = 0;
		}
		if (isidstart(*q)) {
			const char *u = q;

			while (isid(*q))
				q++;
			for (i = 0; i < sizeof units / sizeof units[0]; i++)
				if (strlen(units[i].name) == (size_t)(q - u) &&
				    memcmp(units[i].name, u, (size_t)(q - u)) == 0)
					break;
			if (i == sizeof units / sizeof units[0])
				expr_fail(ps, (int)(u - ps->src),
				    "unknown unit '%.*s' (ns us ms s B KB kB MB GB "
				    "KiB MiB GiB)", (int)(q - u), u);
			else
				ps->tnum *= units[i].mul;
		}
		ps->tok = T_NUM;
		ps->tn = (size_t)(q - p);
		ps->p = q;
		return;
	}
	if (isidstart(*p)) {
		for (q = p; isid(*q); q++)
			;
		ps->tn = (size_t)(q - p);
		ps->tok = ps->tn == 2 && memcmp(p, "in", 2) == 0 ? T_IN : T_ID;
		ps->p = q;
		return;
	}
	if (*p == '"') {
		for (q = p + 1; *q && *q != '"'; q++)
			if (*q == '\\' && q[1])
				q++;
		if (!*q) {
			expr_fail(ps, ps->tcol, "unterminated string");
			ps->tok = T_EOF;
			ps->p = q;
			return;
		}
		ps->tok = T_STR;
		ps->tn = (size_t)(q + 1 - p);
		ps->p = q + 1;
		return;
	}
	ps->tn = 2;
	ps->p = p + 2;
	if (p[0] == '=' && p[1] == '=')
		ps->tok = T_EQ;
	else if (p[0] == '!' && p[1] == '=')
		ps->tok = T_NE;
	else if (p[0] == '<' && p[1] == '=')
		ps->tok = T_LE;
	else if (p[0] == '>' && p[1] == '=')
		ps->tok = T_GE;
	else if (p[0] == '&' && p[1] == '&')
		ps->tok = T_AND;
	else if (p[0] == '|' && p[1] == '|')
		ps->tok = T_OR;
	else if (p[0] == '!' && p[1] == '~')
		ps->tok = T_NMATCH;
	else if (strchr("+-*/%^()<>!~{},", *p)) {
		ps->tok = (unsigned char)*p;
		ps->tn = 1;
		ps->p = p + 1;
	} else {
		if (*p == '=')
			expr_fail(ps, ps->tcol, "unexpected '=' (use == to "
			    "compare)");
		else if (*p == '&' || *p == '|')
			expr_fail(ps, ps->tcol, "unexpected '%c' (use %c%c)",
			    *p, *p, *p);
		else if (*p == '\'')
			expr_fail(ps, ps->tcol, "strings take double quotes");
		else
			expr_fail(ps, ps->tcol, "unexpected '%c'", *p);
		ps->tok = T_EOF;
		ps->tn = 1;
		ps->p = p + 1;
	}
}
