/* expr-code.c - a tree compiled to postfix code, and the code run over
 * a stack of values. */
#include "expr-int.h"

static size_t
emit(struct tr_expr *e, int op, int arg, double num)
{
	tr_grow(&e->code, &e->capcode, e->ncode + 1, sizeof *e->code);
	e->code[e->ncode].op = op;
	e->code[e->ncode].arg = arg;
	e->code[e->ncode].arg2 = 0;
	e->code[e->ncode].num = num;
	return e->ncode++;
}

static void
addslot(struct tr_expr *e, int slot)
{
	size_t i;

	for (i = 0; i < e->nslots; i++)
		if (e->slots[i] == slot)
			return;
	e->slots = tr_realloc(e->slots, (e->nslots + 1) * sizeof *e->slots);
	e->slots[e->nslots++] = slot;
}

/* Emits code for n; returns the stack depth it needs. */
int
expr_gen(struct tr_expr *e, const struct node *n)
{
	size_t j;
	int i, d, m = 0;

	switch (n->op) {
	case O_NUM:
		emit(e, O_NUM, 0, n->v.num);
		return 1;
	case O_STR:
		/* The constant's bytes live in e->strs; find its index. */
		for (i = 0; i < (int)e->nstrs; i++)
			if (e->strs[i] == n->v.s)
				break;
		emit(e, O_STR, i, (double)n->v.n);
		return 1;
	case O_VAR:
		addslot(e, n->arg);
		emit(e, O_VAR, n->arg, 0);
		return 1;
	case O_AND:
	case O_OR:
		d = expr_gen(e, n->kid[0]);
		j = emit(e, n->op == O_AND ? O_JF : O_JT, 0, 0);
		i = expr_gen(e, n->kid[1]);
		emit(e, O_BOOL, 0, 0);
		e->code[j].arg = (int)e->ncode;
		return d > i ? d : i;
	case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT: case O_GE:
		if (n->kid[0]->op == O_VAR && n->kid[1]->op == O_NUM) {
			addslot(e, n->kid[0]->arg);
			emit(e, O_VEQN + (n->op - O_EQ), n->kid[0]->arg,
			    n->kid[1]->v.num);
			return 1;
		}
		if ((n->op == O_EQ || n->op == O_NE) && ((n->kid[0]->op ==
		    O_VAR && n->kid[1]->op == O_STR) || (n->kid[0]->op ==
		    O_STR && n->kid[1]->op == O_VAR))) {
			const struct node *v = n->kid[n->kid[0]->op == O_STR],
			    *c = n->kid[n->kid[0]->op == O_VAR];

			addslot(e, v->arg);
			for (i = 0; i < (int)e->nstrs; i++)
				if (e->strs[i] == c->v.s)
					break;
			j = emit(e, n->op == O_EQ ? O_VEQS : O_VNES, v->arg,
			    (double)c->v.n);
			e->code[j].arg2 = i;
			return 1;
		}
		break;
	case O_MATCH: case O_NMATCH:
		if (n->arg >= 0) {
			d = expr_gen(e, n->kid[0]);
			emit(e, n->op, n->arg, 0);
			return d;
		}
		break;
	default:
		break;
	}
	for (i = 0; i < n->nkid; i++) {
		d = expr_gen(e, n->kid[i]) + i;
		if (d > m)
			m = d;
	}
	emit(e, n->op, n->op == O_CALL ? n->arg : n->op == O_IN ? n->arg :
	    n->op == O_MATCH || n->op == O_NMATCH ? -1 : 0,
	    (double)n->nkid);
	return m;
}

static void
setnum(struct tr_val *v, double x)
{
	v->isstr = 0;
	v->num = x;
	v->s = NULL;
	v->n = 0;
}

int
tr_expr_eval(const struct tr_expr *e, const struct tr_val *slots,
    struct tr_val *out)
{
	struct tr_val st[MAXSTACK + 1], *sp = st;	/* sp: next free */
	const struct ins *c = e->code, *end = e->code + e->ncode;
	const struct tr_val *v;
	double x;
	int k, r;

	while (c < end) {
		switch (c->op) {
		case O_NUM:
			setnum(sp++, c->num);
			break;
		case O_STR:
			sp->isstr = 1;
			sp->s = e->strs[c->arg];
			sp->n = (size_t)c->num;
			sp->num = 0;
			sp++;
			break;
		case O_VAR:
			*sp++ = slots[c->arg];
			break;
		case O_VEQN: case O_VNEN: case O_VLTN: case O_VLEN:
		case O_VGTN: case O_VGEN:
			v = &slots[c->arg];
			if (v->isstr) {
				struct tr_val b;

				setnum(&b, c->num);
				r = expr_compare(O_EQ + (c->op - O_VEQN), v,
				    &b);
			} else {
				x = v->num;
				switch (c->op) {
				case O_VEQN: r = x == c->num; break;
				case O_VNEN: r = x != c->num; break;
				case O_VLTN: r = x < c->num; break;
				case O_VLEN: r = x <= c->num; break;
				case O_VGTN: r = x > c->num; break;
				default: r = x >= c->num;
				}
			}
			setnum(sp++, r);
			break;
		case O_VEQS:
		case O_VNES:
			v = &slots[c->arg];
			if (v->isstr || v->s)
				r = v->n == (size_t)c->num && (v->n == 0 ||
				    memcmp(v->s, e->strs[c->arg2], v->n) == 0);
			else {
				struct tr_val b = {1, 0, e->strs[c->arg2],
				    (size_t)c->num};

				r = expr_compare(O_EQ, v, &b);
			}
			setnum(sp++, c->op == O_VEQS ? r : !r);
			break;
		case O_NEG:
			if (sp[-1].isstr)
				return -1;
			setnum(sp - 1, -sp[-1].num);
			break;
		case O_NOT:
			setnum(sp - 1, !truth(sp - 1));
			break;
		case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MOD:
		case O_POW:
			sp--;
			if (sp[-1].isstr || sp[0].isstr)
				return -1;
			setnum(sp - 1, arith(c->op, sp[-1].num, sp[0].num));
			break;
		case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT:
		case O_GE:
			sp--;
			setnum(sp - 1, expr_compare(c->op, sp - 1, sp));
			break;
		case O_MATCH: case O_NMATCH:
			if (c->arg >= 0)
				r = expr_rematch_memo(e, c->arg, sp - 1);
			else {
				sp--;
				if (expr_dynmatch(e, sp - 1, sp, &r) < 0)
					return -1;
			}
			setnum(sp - 1, c->op == O_MATCH ? r : !r);
			break;
		case O_IN:
			setnum(sp - 1, inset(&e->sets[c->arg], sp - 1));
			break;
		case O_JF:
		case O_JT:
			r = truth(sp - 1);
			if (r == (c->op == O_JT)) {
				setnum(sp - 1, r);
				c = e->code + c->arg;
				continue;
			}
			sp--;
			break;
		case O_BOOL:
			setnum(sp - 1, truth(sp - 1));
			break;
		case O_CALL:
			k = (int)c->num;
			sp -= k;
			for (r = 0; r < k; r++)
				if (sp[r].isstr)
					return -1;
			setnum(sp, expr_callfn(c->arg, sp, k));
			sp++;
			break;
		}
		c++;
	}
	/* Member by member: a whole-struct copy would load 16 bytes that
	 * setnum() stored as 4 and 8, which stalls store forwarding. */
	out->isstr = sp[-1].isstr;
	out->num = sp[-1].num;
	out->s = sp[-1].s;
	out->n = sp[-1].n;
	return 0;
}

int
tr_expr_cmpnum(const struct tr_expr *e, int *slot, int *rel, double *num)
{
	const struct ins *c = e->code;

	if (e->ncode != 1 || c->op < O_VEQN || c->op > O_VGEN)
		return 0;
	*slot = c->arg;
	*rel = c->op - O_VEQN;
	*num = c->num;
	return 1;
}

double
tr_expr_num(const struct tr_expr *e, const struct tr_val *slots)
{
	struct tr_val v;

	if (tr_expr_eval(e, slots, &v) < 0 || v.isstr)
		return NAN;
	return v.num;
}

int
tr_expr_true(const struct tr_expr *e, const struct tr_val *slots)
{
	struct tr_val v;

	if (tr_expr_eval(e, slots, &v) < 0)
		return 0;
	return truth(&v);
}
