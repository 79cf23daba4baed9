# Extrapolation: from runs at small process counts, predict the trace
# statistics and a whole trace at a large count, and check the prediction
# against a measured run at that count when there is one.
#
#   make -f pipelines/extrap.mk TRACES=samples/stencil SCALES="4 8 16 32" \
#       TARGET=64 OUT=out/extrap
#   make -j2 -f pipelines/extrap.mk APP='build/mpi/stencil 1024 40' \
#       SCALES="4 8 16" TARGET=32
#
# TRACES is a directory holding npN/*.tr.gz for every N of SCALES (and of
# TARGET, to verify). Without TRACES, APP is recorded with tr-record under
# MPIRUN at every scale, and at TARGET unless VERIFY=no. Products in OUT:
#   npN/{dsum,hist,stat}.tr   delta sums, delta histograms (wall, cpu), statistics
#                             (with messages per call site: tr-stat -s)
#   models.tr                 tr-fit models (FAMILY: pmnf or scalaextrap)
#   predicted.tr              tr-extrap statistics at TARGET
#   synthetic.tr.gz           tr-extrap -T trace at TARGET (seed SEED)
#   synthetic/{dsum,stat}.tr  the statistics of the synthetic trace
#   synthetic/check.tr        it checked against the models (tr-check)
#   accuracy.tr, table.txt    predicted vs measured, when measured
# SYNTH=no leaves the synthetic trace out, for codes whose messages do not
# follow a process grid (tr-extrap -T refuses them); the statistics are
# still predicted and checked.
# A recorded run's standard output and error go to npN/app.log (shown
# from its end when the run fails). APP runs in make's directory, where
# its relative paths are; APPDIR=yes runs it in npN/app instead, so that
# the files it writes where it runs stay per scale (GROMACS's md.log, QE's
# outdir), its paths then absolute: APP='gmx_mpi mdrun -s $(CURDIR)/t.tpr'.

# The programs beside this file's checkout, wherever make runs (make -f
# ~/tr/pipelines/extrap.mk in a directory of runs): a relative bin/ was
# the run directory's, "bin/tr-delta: not found".
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
TR_BIN ?= $(abspath $(HERE)../bin)
OUT ?= extrap-out
SCALES ?= 4 8 16 32
TARGET ?= 64
TRACES ?=
APP ?=
FAMILY ?= pmnf
BINS ?= 8
SEED ?= 1
VERIFY ?= yes
SYNTH ?= yes
APPDIR ?= no
MPIRUN ?= mpirun --oversubscribe --allow-run-as-root -np

T = $(TR_BIN)/tr-
LAST := $(lastword $(SCALES))

ifneq ($(TRACES),)
run_dir = $(TRACES)/np$(1)
HAVE_TARGET := $(wildcard $(TRACES)/np$(TARGET)/*.tr*)
else
run_dir = $(OUT)/np$(1)/run
HAVE_TARGET := $(if $(filter yes,$(VERIFY)),$(if $(APP),yes))
endif
# A shell glob: make's own wildcard would not see files recorded after it
# first read the directory.
traces = $(call run_dir,$(1))/*.tr*
MEASURED := $(if $(HAVE_TARGET),$(TARGET))
SYN := $(if $(filter yes,$(SYNTH)),$(OUT)/synthetic/dsum.tr $(OUT)/synthetic/stat.tr \
	$(OUT)/synthetic/check.tr)

.PHONY: all
.DELETE_ON_ERROR:
# A recording is the expensive step: its marker must survive as make's
# intermediate file, or a second make after a failure records again.
.PRECIOUS: $(OUT)/np%/run/.done
all: $(if $(MEASURED),$(OUT)/table.txt,$(OUT)/predicted.tr $(SYN))
	@if [ -f $(OUT)/table.txt ]; then cat $(OUT)/table.txt; \
	else echo "no measured run at np=$(TARGET): predictions in $(OUT)"; fi

# Recording (only without TRACES). The output is kept per scale: -j2
# runs two scales at once, whose reports interleaved (QE's), and an app's
# report says what changed between scales (QE diagonalises on a 2x2
# ScaLAPACK grid from 4 ranks on). A run in npN/app writes no files that
# another scale's run, at the same time or later, would overwrite.
LOG = $(OUT)/np$*/app.log
WORK = $(if $(filter yes,$(APPDIR)),$(OUT)/np$*/app,.)
$(OUT)/np%/run/.done:
	@test -n "$(APP)" || { echo "extrap.mk: give TRACES or APP" >&2; exit 2; }
	@mkdir -p $(@D) $(WORK)
	(cd $(WORK) && exec $(MPIRUN) $* $(abspath $(T))record \
	    -o $(abspath $(@D)) $(APP)) > $(LOG) 2>&1 || { st=$$?; \
	    tail -n 20 $(LOG) >&2; echo "extrap.mk: the run at np=$* failed" \
	    "(status $$st); its output is in $(LOG)" >&2; exit $$st; }
	@touch $@

ifeq ($(TRACES),)
RUNDEP = $(OUT)/np%/run/.done
else
RUNDEP =
endif

# Per scale, three independent products.
$(OUT)/np%/dsum.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)delta -s $(call traces,$*) > $@
# Wall and CPU time: tr-extrap -T draws each from its own histograms.
$(OUT)/np%/hist.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)delta $(call traces,$*) | $(T)hist -p -t delta -f wall -k key \
	    -b $(BINS) | $(T)hist -t delta -f cpu -k key -b $(BINS) > $@
# The communication matrix is per rank pair: nothing to fit across scales.
$(OUT)/np%/stat.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)stat -s $(call traces,$*) | $(T)filter 'type != "cmat"' > $@

FITIN = $(foreach n,$(SCALES),$(OUT)/np$(n)/dsum.tr $(OUT)/np$(n)/hist.tr \
	$(OUT)/np$(n)/stat.tr)

# Keys seen at too few scales (a boundary interval present only in the
# larger grids) are left out with -i, named and counted on stderr.
$(OUT)/models.tr: $(FITIN)
	$(T)fit -i -f $(FAMILY) $(FITIN) > $@

$(OUT)/predicted.tr: $(OUT)/models.tr
	$(T)extrap -n $(TARGET) $< > $@

# The synthetic trace follows the largest recorded run rank class by
# rank class. One that disagrees with its models (status 1) is kept
# aside, and nothing is made of it. Not piped into gzip: sh has no
# pipefail, and a failure of tr-extrap must stop make here, not as an
# empty trace further on.
$(OUT)/synthetic.tr.gz: $(OUT)/models.tr $(if $(TRACES),,$(OUT)/np$(LAST)/run/.done)
	$(T)extrap -T -n $(TARGET) -R $(SEED) $(OUT)/models.tr \
	    $(call traces,$(LAST)) > $@.tmp || { st=$$?; \
	    if [ $$st -eq 1 ]; then gzip -1 < $@.tmp > $(OUT)/failed.tr.gz; \
	    echo "extrap.mk: the synthetic trace disagrees with its models" \
	    "(above), no prediction: kept as $(OUT)/failed.tr.gz" >&2; \
	    else echo "extrap.mk: no synthetic trace; SYNTH=no predicts" \
	    "the statistics alone" >&2; fi; \
	    rm -f $@ $@.tmp $(OUT)/table.txt; exit $$st; }
	gzip -1 < $@.tmp > $@ && rm -f $@.tmp

$(OUT)/synthetic/dsum.tr: $(OUT)/synthetic.tr.gz
	@mkdir -p $(@D)
	$(T)delta -s $< > $@
$(OUT)/synthetic/stat.tr: $(OUT)/synthetic.tr.gz
	@mkdir -p $(@D)
	$(T)stat $< > $@
$(OUT)/synthetic/check.tr: $(OUT)/models.tr $(OUT)/synthetic.tr.gz
	@mkdir -p $(@D)
	$(T)check $^ > $@ 2> $(@D)/check.txt || { cat $(@D)/check.txt >&2; \
	    rm -f $@; exit 1; }

M = $(OUT)/np$(TARGET)
$(OUT)/accuracy.tr: $(OUT)/predicted.tr $(M)/dsum.tr $(M)/hist.tr $(M)/stat.tr
	$(T)accuracy $(OUT)/predicted.tr $(M)/dsum.tr $(M)/hist.tr \
	    $(M)/stat.tr > $@

# The table: the headline statistics fitted and extrapolated, then the
# counts and bytes of the synthetic trace for every operation that it or
# the measured run made, then every key in summary.
$(OUT)/table.txt: $(OUT)/accuracy.tr $(SYN)
	{ echo "== np=$(TARGET) predicted from np=$(SCALES) ($(FAMILY)):" \
	    "delta sums per rank, max and mean over ranks"; \
	  echo "   (cpu: the thread CPU time of each compute burst; wall" \
	    "follows the scheduler when ranks outnumber cores)"; \
	  $(T)accuracy -T -t dmax,dsum -K 'key=*' \
	    -q cpu,cpu:max,cpu:med,wall,wall:max,wall:med,mean \
	    $(OUT)/predicted.tr $(M)/dsum.tr; \
	  if [ -n "$(SYN)" ]; then \
	  echo "== synthetic trace (tr-extrap -T): calls, intervals, bytes"; \
	  awk -F'\t' '$$1 == "accsum" { printf "checked against its models:" \
	    " %s values, %s beyond the tolerance\n", $$2, $$6 }' \
	    $(OUT)/synthetic/check.tr; sed 's/^tr-check: //' \
	    $(OUT)/synthetic/check.txt; \
	  $(T)accuracy -T -t opstat,dmax -K "key=*$$(awk -F'\t' \
	    '$$1 == "opstat" && !seen[$$2]++ { printf ",op=%s", $$2 }' \
	    $(M)/stat.tr $(OUT)/synthetic/stat.tr)" \
	    -q calls,bytes,bytes/call,n,ranks \
	    -P $(OUT)/synthetic/stat.tr -P $(OUT)/synthetic/dsum.tr \
	    $(M)/stat.tr $(M)/dsum.tr; fi; \
	  echo "== every fitted key (full list in $(OUT)/accuracy.tr)"; \
	  grep '^accsum' $(OUT)/accuracy.tr | awk -F'\t' '{ printf \
	    "compared %s, missing on one side %s, mean accuracy %.2f%%\n", \
	    $$2, $$3, $$4 }'; \
	  grep '^acc	' $(OUT)/accuracy.tr | cut -f7 | sort -g | awk '{ \
	    a[NR] = $$1; w10 += $$1 >= 90; w25 += $$1 >= 75 } END { if (NR) \
	    printf "median accuracy %.2f%%, within 10%%: %d, within 25%%:" \
	    " %d of %d\n", (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2, \
	    w10, w25, NR }'; \
	} > $@
