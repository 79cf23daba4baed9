/* expr/expr.h - the expression language. */
#ifndef TR_EXPR_H
#define TR_EXPR_H

#include "../core/core.h"

/* ---- expr*.c: the expression language of tr-filter, tr-runs, tr-fit, tr-model ---- */

struct tr_val { int isstr; double num; const char *s; size_t n; };
struct tr_expr;
/* Resolves a variable name to a slot index >= 0, or -1 if unknown. */
typedef int (*tr_expr_lookup)(void *ctx, const char *name, size_t n);
/* NULL on error: err gets a one-line message, *errcol the 0-based column. */
struct tr_expr *tr_expr_parse(const char *src, tr_expr_lookup lookup, void *ctx,
    char *err, size_t errsz, int *errcol);
/* 0 ok, -1 runtime error (type mismatch): out undefined. slots indexed by slot number. */
int tr_expr_eval(const struct tr_expr *e, const struct tr_val *slots, struct tr_val *out);
/* Whether E is one comparison of a slot with a number, "rank == 0":
 * its slot, the relation (0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=) and the
 * number, so that a caller may test a record without evaluating E. */
int tr_expr_cmpnum(const struct tr_expr *e, int *slot, int *rel, double *num);
double tr_expr_num(const struct tr_expr *e, const struct tr_val *slots); /* NaN if not numeric */
int tr_expr_true(const struct tr_expr *e, const struct tr_val *slots);  /* nonzero number or nonempty string */
void tr_expr_free(struct tr_expr *e);
/* Prints a caret diagnostic for a parse error: "tr-x: bad expression: MSG\n  EXPR\n     ^" */
void tr_expr_perror(const char *src, const char *err, int errcol);
/* The slots the expression reads: calls fn(ctx, slot) once per distinct slot. */
void tr_expr_slots(const struct tr_expr *e, void (*fn)(void *ctx, int slot), void *ctx);
/* Where a slot's value is in a record: an int64_t at byte OFF of struct
 * tr_rec (one of the parsed integers), or the text of field COL. */
enum { TR_SRC_NONE, TR_SRC_I64, TR_SRC_STR };
struct tr_slotsrc { int kind; long off; int col; };
struct tr_expr_bound;
/* E bound to a record layout, SRC per slot, for tr_expr_test: the same
 * results as tr_expr_true without filling slots. NULL when a part of E
 * needs tr_expr_eval (an operand of unknown kind, a string where a
 * number goes, a regex built at run time). */
struct tr_expr_bound *tr_expr_bind(const struct tr_expr *e, const struct tr_slotsrc *src);
int tr_expr_test(const struct tr_expr_bound *b, const struct tr_rec *r);
void tr_expr_unbind(struct tr_expr_bound *b);

#endif
