# The worked example of tr-model(1): the CG solver of examples/cg.c,
# recorded with tr-record under mpirun, once per instrumentation
# configuration and problem size; the measurements corrected for the
# timers and barriers the program added (tr-barrier-correct), modelled
# with pipelines/cg.model and parameters measured by tr-bench, and
# compared phase by phase (tr-model).
#
#   make phases                    (from the top directory)
#   make -f pipelines/phases.mk NP=4 SIZES='480 960 1920' OUT=/tmp/ph
#
# The compute rates of the model are calibrated on the first size of
# SIZES; the other sizes are predictions.

# The programs beside this file's checkout, wherever make runs.
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
TR_BIN ?= $(abspath $(HERE)../bin)
# bash with pipefail: a failed run in `mpirun ... | sed` fails the
# recipe, not only a failed sed.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
TR_MPIBIN ?= $(abspath $(HERE)../build/mpi)
NP ?= 2
SIZES ?= 480 960 1920
ITERS ?= 20
REPS ?= 3
CONFIGS ?= ends phase comm
OUT ?= build/phases
MODEL ?= $(abspath $(HERE)cg.model)
BENCHFLAGS ?= -s 8:65536
# BCFLAGS=-C takes compute times from CPU time (see tr-barrier-correct).
BCFLAGS ?=
MPIRUN ?= mpirun --oversubscribe --allow-run-as-root -np $(NP)
export PATH := $(TR_BIN):$(PATH)

N0 := $(firstword $(SIZES))
RUNS := $(foreach n,$(SIZES),$(foreach c,$(CONFIGS),$(n)-$(c)))

.PHONY: all
.DELETE_ON_ERROR:
.SECONDARY:
all: $(OUT)/table.txt $(OUT)/table-ends.txt $(OUT)/overhead.txt
	@cat $(OUT)/overhead.txt
	@echo; echo "model against the per-phase instrumented runs, corrected:"
	@cat $(OUT)/table.txt
	@echo; echo "model against the runs without per-phase instrumentation:"
	@cat $(OUT)/table-ends.txt

$(OUT)/.dir:
	mkdir -p $(OUT) && touch $@

# Each mpirun has a directory of its own for Open MPI's files: two that
# make and remove the shared /tmp/ompi.HOST.UID at once (make -j) fail
# in orte_init ("File exists").
MPITMP = ses=$$(mktemp -d "$${TMPDIR:-/tmp}/tr-mpi.XXXXXX"); \
	trap 'rm -rf "$$ses"' EXIT; export OMPI_MCA_orte_tmpdir_base=$$ses

$(OUT)/params.tr: | $(OUT)/.dir
	$(MPITMP); $(MPIRUN) $(TR_BIN)/tr-bench $(BENCHFLAGS) > $@

# One recorded run per size and configuration: the fastest of REPS, as
# the solver itself timed it, since a shared machine only adds time.
# Waiting ranks yield the core, which matters when they outnumber them.
$(OUT)/%.tr.gz: | $(OUT)/.dir
	rm -rf $(OUT)/$*.d*
	$(MPITMP); for i in $$(seq $(REPS)); do \
		OMPI_MCA_mpi_yield_when_idle=1 $(MPIRUN) $(TR_BIN)/tr-record \
			-o $(OUT)/$*.d$$i $(TR_MPIBIN)/cg $(subst -, $(ITERS) ,$*) | \
			sed -n "s/.* time=\([0-9.]*\) s$$/\1 $$i/p" || exit 1; \
	done | sort -g | head -n 1 > $(OUT)/$*.best
	test -s $(OUT)/$*.best
	tr-cat -m -z $(OUT)/$*.d$$(cut -d' ' -f2 $(OUT)/$*.best)/* > $@
	rm -rf $(OUT)/$*.d* $(OUT)/$*.best

# Measured and corrected phases of a run, with tr-record's calibration
# of the timer and barrier costs (its trace header).
$(OUT)/%.corr: $(OUT)/%.tr.gz
	tr-barrier-correct $(BCFLAGS) -c $(lastword $(subst -, ,$*)) \
		-N $(firstword $(subst -, ,$*)) $< > $@

# The configurations side by side: total against the baseline (ends),
# before and after correction.
$(OUT)/overhead.tr: $(RUNS:%=$(OUT)/%.corr)
	cat $^ | tr-barrier-correct -B $(firstword $(CONFIGS)) > $@

$(OUT)/overhead.txt: $(OUT)/overhead.tr
	mawk -F '\t' 'BEGIN { print "config\tnp\tN\tmeasured_ns\tcorrected_ns\tratio\tcorrected_ratio" } \
		$$1 == "overhead" { print $$2 "\t" $$3 "\t" $$4 "\t" $$5 "\t" $$6 "\t" $$7 "\t" $$8 }' $< > $@

# Compute rates from the first size's corrected per-phase run:
# ns per multiply-add (matvec) and per vector element (update).
$(OUT)/rates: $(OUT)/$(N0)-phase.corr
	mawk -F '\t' -v it=$(ITERS) -v n=$(N0) -v p=$(NP) \
		'$$1 == "phase" && $$2 == "corrected" && $$3 == "matvec" { mv = $$6 / (it * n * n / p) } \
		 $$1 == "phase" && $$2 == "corrected" && $$3 == "update" { vec = $$6 / (2 * it * n / p) } \
		 END { if (mv <= 0 || vec <= 0) exit 3; printf "-D c_mv=%.6g -D c_vec=%.6g -D iters=%d\n", mv, vec, it }' \
		$< > $@

$(OUT)/compare.tr: $(SIZES:%=$(OUT)/%-phase.corr) $(OUT)/params.tr $(OUT)/rates $(MODEL)
	cat $(SIZES:%=$(OUT)/%-phase.corr) | \
		tr-model -f $(MODEL) -P $(OUT)/params.tr $$(cat $(OUT)/rates) > $@

# The same model against the baseline runs, whose phases carry no
# barriers or timers of their own: nothing to correct.
$(OUT)/compare-ends.tr: $(SIZES:%=$(OUT)/%-$(firstword $(CONFIGS)).corr) $(OUT)/params.tr $(OUT)/rates $(MODEL)
	cat $(SIZES:%=$(OUT)/%-$(firstword $(CONFIGS)).corr) | \
		tr-model -f $(MODEL) -P $(OUT)/params.tr $$(cat $(OUT)/rates) > $@

$(OUT)/table.txt $(OUT)/table-ends.txt: $(OUT)/table%.txt: $(OUT)/compare%.tr
	mawk -F '\t' 'BEGIN { print "phase\tnp\tN\tpart\tmeasured_ns\tpredicted_ns\terror_%" } \
		$$1 == "phasecmp" { print $$2 "\t" $$3 "\t" $$4 "\t" $$5 "\t" $$6 "\t" $$7 "\t" $$8 }' $< > $@
