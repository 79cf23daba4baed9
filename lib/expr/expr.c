/* expr.c - the expression language's entry points: an expression
 * parsed, folded and compiled to postfix code, freed, and a parse error
 * shown. It runs as that code over a stack of values (expr-code.c) or,
 * bound to a record layout, as a tree of typed nodes (expr-bind.c);
 * never compiled to machine code: the input is user text. */
#include <stdio.h>
#include <stdlib.h>

#include "expr-int.h"

struct tr_expr *
tr_expr_parse(const char *src, tr_expr_lookup lookup, void *ctx, char *err,
    size_t errsz, int *errcol)
{
	struct parser ps;
	struct node *n;
	struct tr_expr *e = tr_calloc(1, sizeof *e);
	int depth;

	memset(&ps, 0, sizeof ps);
	ps.src = ps.p = src;
	ps.lookup = lookup;
	ps.ctx = ctx;
	ps.err = err;
	ps.errsz = errsz;
	ps.e = e;
	e->bufp = tr_calloc(1, sizeof *e->bufp);
	e->bufcap = tr_calloc(1, sizeof *e->bufcap);
	expr_next(&ps);
	if (ps.tok == T_EOF && !ps.failed)
		expr_fail(&ps, ps.tcol, "empty expression");
	n = ps.failed ? NULL : expr_parse_or(&ps);
	if (n && ps.tok != T_EOF)
		expr_fail(&ps, ps.tcol, "unexpected '%.*s'", (int)ps.tn, ps.ts);
	if (n && !ps.failed)
		expr_fold(&ps, n);
	if (n && !ps.failed) {
		depth = expr_gen(e, n);
		if (depth > MAXSTACK)
			expr_fail(&ps, 0, "expression too large");
	}
	if (ps.failed) {
		expr_freenode(n);
		if (errcol)
			*errcol = ps.errcol;
		tr_expr_free(e);
		return NULL;
	}
	e->root = n;
	return e;
}

void
tr_expr_free(struct tr_expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nstrs; i++)
		free(e->strs[i]);
	free(e->strs);
	for (i = 0; i < e->nres; i++) {
		regfree(&e->res[i]);
		free(e->memo[i].ent);
		free(e->memo[i].bytes);
		free(e->memo[i].sh);
		free(e->memo[i].lits);
	}
	free(e->res);
	free(e->memo);
	for (i = 0; i < e->nsets; i++) {
		free(e->sets[i].v);
		free(e->sets[i].lits);
	}
	free(e->sets);
	free(e->slots);
	free(e->code);
	expr_freenode(e->root);
	if (e->bufp)
		free(*e->bufp);
	free(e->bufp);
	free(e->bufcap);
	free(e);
}

void
tr_expr_slots(const struct tr_expr *e, void (*fn)(void *, int), void *ctx)
{
	size_t i;

	for (i = 0; i < e->nslots; i++)
		fn(ctx, e->slots[i]);
}
void
tr_expr_perror(const char *src, const char *err, int errcol)
{
	int i;

	fprintf(stderr, "%s: bad expression: %s\n  %s\n  ", tr_argv0, err, src);
	for (i = 0; i < errcol && src[i]; i++)
		fputc(src[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}
