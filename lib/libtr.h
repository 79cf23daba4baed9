/* libtr.h - libtr, the shared core of the tr tools: one header that
 * brings in every stage's, in pipeline order. Every public name starts
 * with tr_ (functions, types) or TR_ (constants). */
#ifndef LIBTR_H
#define LIBTR_H

#include "core/core.h"
#include "expr/expr.h"
#include "mpi/mpi.h"
#include "gen/gen.h"
#include "analyse/analyse.h"
#include "fit/fit.h"
#include "extrap/extrap.h"
#include "sim/sim.h"
#include "cmp/cmp.h"
#include "plot/plot.h"
#include "conv/conv.h"

#endif
