/* expr-fold.c - a tree's constants folded bottom up, its literal
 * regexes compiled, and the type errors it shows reported. */
#include <stdlib.h>

#include "expr-int.h"

static int
addregex(struct parser *ps, const struct tr_val *pat, int col)
{
	struct tr_expr *e = ps->e;
	const char *why = expr_recost(pat->s);
	char msg[128];
	int rc;

	if (why) {
		expr_fail(ps, col, "regular expression refused: %s", why);
		return -1;
	}
	e->res = tr_realloc(e->res, (e->nres + 1) * sizeof *e->res);
	e->memo = tr_realloc(e->memo, (e->nres + 1) * sizeof *e->memo);
	memset(&e->memo[e->nres], 0, sizeof *e->memo);
	rc = regcomp(&e->res[e->nres], pat->s, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &e->res[e->nres], msg, sizeof msg);
		regfree(&e->res[e->nres]);
		expr_fail(ps, col, "bad regular expression: %s", msg);
		return -1;
	}
	e->memo[e->nres].lits = expr_litset(pat->s);
	return (int)e->nres++;
}

static int
isconst(const struct node *n)
{
	return n->op == O_NUM || n->op == O_STR;
}

static const char *
opname(enum op op)
{
	static const char *names[] = {
		[O_NEG] = "-", [O_NOT] = "!", [O_ADD] = "+", [O_SUB] = "-",
		[O_MUL] = "*", [O_DIV] = "/", [O_MOD] = "%", [O_POW] = "^",
	};

	return op <= O_POW && names[op] ? names[op] : "?";
}

/* Folds constants bottom up; reports type errors it can see. */
int
expr_fold(struct parser *ps, struct node *n)
{
	struct tr_val args[64];
	int i, all = 1;

	for (i = 0; i < n->nkid; i++) {
		if (expr_fold(ps, n->kid[i]) < 0)
			return -1;
		if (!isconst(n->kid[i]))
			all = 0;
	}
	switch (n->op) {
	case O_NEG: case O_ADD: case O_SUB: case O_MUL: case O_DIV:
	case O_MOD: case O_POW:
		for (i = 0; i < n->nkid; i++)
			if (n->kid[i]->op == O_STR) {
				expr_fail(ps, n->col, "'%s' needs numbers, "
				    "not a string", opname(n->op));
				return -1;
			}
		break;
	case O_CALL:
		for (i = 0; i < n->nkid; i++)
			if (n->kid[i]->op == O_STR) {
				expr_fail(ps, n->kid[i]->col, "%s needs "
				    "numbers, not a string",
				    expr_fns[n->arg].name);
				return -1;
			}
		break;
	case O_MATCH: case O_NMATCH:
		if (n->kid[1]->op == O_NUM) {
			expr_fail(ps, n->kid[1]->col, "a regular expression "
			    "is a string");
			return -1;
		}
		if (n->kid[1]->op == O_STR && !all) {
			n->arg = addregex(ps, &n->kid[1]->v, n->kid[1]->col);
			if (n->arg < 0)
				return -1;
		} else
			n->arg = -1;
		break;
	default:
		break;
	}
	if (!all || n->nkid == 0)
		return 0;
	if (n->op == O_CALL && n->nkid > 64)
		return 0;
	for (i = 0; i < n->nkid; i++)
		args[i] = n->kid[i]->v;
	switch (n->op) {
	case O_NEG:
		n->v.num = -args[0].num;
		break;
	case O_NOT:
		n->v.num = !truth(&args[0]);
		break;
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MOD:
	case O_POW:
		n->v.num = arith(n->op, args[0].num, args[1].num);
		break;
	case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT: case O_GE:
		n->v.num = expr_compare(n->op, &args[0], &args[1]);
		break;
	case O_MATCH: case O_NMATCH: {
		int r;

		if (expr_dynmatch(ps->e, &args[0], &args[1], &r) < 0) {
			expr_fail(ps, n->kid[1]->col, "bad regular expression");
			return -1;
		}
		n->v.num = n->op == O_MATCH ? r : !r;
		break;
	}
	case O_IN:
		n->v.num = inset(&ps->e->sets[n->arg], &args[0]);
		break;
	case O_AND:
		n->v.num = truth(&args[0]) && truth(&args[1]);
		break;
	case O_OR:
		n->v.num = truth(&args[0]) || truth(&args[1]);
		break;
	case O_CALL:
		n->v.num = expr_callfn(n->arg, args, n->nkid);
		break;
	default:
		return 0;
	}
	n->v.isstr = 0;
	n->v.s = NULL;
	n->v.n = 0;
	n->op = O_NUM;
	for (i = 0; i < n->nkid; i++)
		expr_freenode(n->kid[i]);
	n->nkid = 0;
	return 0;
}
