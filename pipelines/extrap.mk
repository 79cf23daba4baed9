# Extrapolation: from runs at small process counts, predict the trace
# statistics and a whole trace at a large count, and check the prediction
# against a measured run at that count when there is one.
#
#   make -f pipelines/extrap.mk TRACES=samples/stencil SCALES="4 8 16 32" \
#       TARGET=64
#   make -j2 -f pipelines/extrap.mk APP='build/mpi/stencil 1024 40' \
#       SCALES="4 8 16" TARGET=32 REPS=5
#
# TRACES is a directory holding npN/*.tr.gz for every N of SCALES (and of
# TARGET, to verify). Without TRACES, APP is recorded with tr-record under
# MPIRUN at every scale, and at TARGET unless VERIFY=no. REPS=k runs
# every scale of SCALES k times (the repetitions 2..k in npN.2 ... npN.k,
# from TRACES too) and tr-fit fits their medians; Extra-P's authors
# recommend five. Products in OUT, by default extrap-out/NAME-SUM, NAME
# the program (or TRACES's last part) and SUM a checksum of APP (or of
# TRACES), so that two applications never share their results:
#   npN/{dsum,hist,stat}.tr   delta sums, delta histograms (wall, cpu), statistics
#                             (with messages per call site: tr-stat -s)
#   models.tr                 tr-fit models (FAMILY: pmnf or scalaextrap)
#   predicted.tr              tr-extrap statistics at TARGET
#   synthetic.tr.gz           tr-extrap -T trace at TARGET (seed SEED)
#   synthetic/{dsum,stat}.tr  the statistics of the synthetic trace
#   synthetic/check.tr        it checked against the models (tr-check)
#   accuracy.tr, table.txt    predicted vs measured, when measured
# SYNTH=auto (the default) makes the synthetic trace where tr-extrap -T
# understands the pattern and otherwise says in one line why not and
# goes on with the statistics (the reason stays in synthetic.why);
# SYNTH=yes fails instead, SYNTH=no does not try.
# SIZES="256 512 1024" grows the problem too: the runs are every count
# of SCALES at every size of SIZES (whole numbers, in increasing order),
# npP-NS (npP-NS.k for REPS), each recorded with tr-record -N S, so that
# its traces and products carry #meta N=S and tr-fit fits in (np, N); in
# APP, {N} stands for the size (neither make nor sh expands it):
#   make -j2 -f pipelines/extrap.mk APP='build/mpi/stencil {N} 200' \
#       SCALES="2 3 4" SIZES="256 512 1024" TARGET=8 TARGETN=2048
# The target is (TARGET, TARGETN), TARGETN by default the last of SIZES;
# the template of the synthetic trace is the last of SCALES at the last
# of SIZES, grown to both (tr-extrap -T -N TARGETN), and the run that
# verifies is made at both. With TRACES, its npP-NS traces must carry
# their #meta N (tr-record -N, tr-gen -N): a run without it stops make,
# since two sizes at one count would be fitted as repetitions.
# Changing APP, TRACES, SCALES, SIZES, REPS, FAMILY, BINS, TARGET, TARGETN
# or SEED remakes what depends on them: each group's values are kept in a
# stamp file (OUT/.app, .scales, .target) rewritten only when they change.
# Recipes run in bash with pipefail: a failure anywhere in a pipe, not
# only in its last stage, stops make (an empty trace from a failed
# tr-extrap is no success).
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
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
SCALES ?= 4 8 16 32
TARGET ?= 64
TRACES ?=
APP ?=
FAMILY ?= pmnf
BINS ?= 8
SEED ?= 1
VERIFY ?= yes
SYNTH ?= auto
APPDIR ?= no
REPS ?= 1
SIZES ?=
TARGETN ?= $(lastword $(SIZES))
MPIRUN ?= mpirun --oversubscribe --allow-run-as-root -np

# $(call sum,TEXT): a checksum of TEXT, for names.
sum = $(firstword $(shell printf '%s' '$(subst ','\'',$(1))' | cksum))
ifeq ($(origin OUT),undefined)
ifneq ($(TRACES),)
OUT := extrap-out/$(notdir $(abspath $(TRACES)))-$(call sum,$(abspath $(TRACES)))
else
OUT := extrap-out/$(notdir $(firstword $(APP)))-$(call sum,$(APP))
endif
endif

T = $(TR_BIN)/tr-
# A point is a process count, or with SIZES a count and a size, P-NS;
# TPT is the target's, LAST the template's (the last of SCALES at the
# last of SIZES).
pt = $(1)$(if $(SIZES),-N$(2))
LAST := $(call pt,$(lastword $(SCALES)),$(lastword $(SIZES)))
TPT := $(call pt,$(TARGET),$(TARGETN))
# The runs of a point: npPT, then npPT.2 ... npPT.REPS; $(call np,STEM)
# is a run's process count, $(call size,STEM) its size, $(call app,STEM)
# its command (APP with {N} its size).
REPNS := $(wordlist 2,$(REPS),$(shell seq $(REPS) 2>/dev/null))
POINTS := $(foreach n,$(SCALES),$(if $(SIZES),$(foreach s,$(SIZES),\
	$(call pt,$(n),$(s))),$(n)))
runs = $(foreach n,$(1),np$(n) $(foreach k,$(REPNS),np$(n).$(k)))
base = $(subst -N, ,$(firstword $(subst ., ,$(1))))
np = $(firstword $(call base,$(1)))
size = $(word 2,$(call base,$(1)))
app = $(subst {N},$(call size,$(1)),$(APP))

ifneq ($(TRACES),)
run_dir = $(TRACES)/np$(1)
HAVE_TARGET := $(wildcard $(TRACES)/np$(TPT)/*.tr*)
else
run_dir = $(OUT)/np$(1)/run
HAVE_TARGET := $(if $(filter yes,$(VERIFY)),$(if $(APP),yes))
endif
ifeq ($(filter $(SYNTH),auto yes no),)
$(error extrap.mk: SYNTH=$(SYNTH): not auto, yes or no)
endif
ifeq ($(shell [ "$(REPS)" -ge 1 ] 2>/dev/null && echo ok),)
$(error extrap.mk: REPS=$(REPS): not a count of 1 or more)
endif
# Sizes name directories (npP-NS.k): whole numbers, no dots.
$(foreach s,$(SIZES) $(TARGETN),$(if $(shell [ "$(s)" -ge 1 ] 2>/dev/null \
	&& echo ok),,$(error extrap.mk: SIZES or TARGETN: $(s): not a whole \
	number of 1 or more)))
ifneq ($(if $(SIZES),,$(findstring {N},$(APP))),)
$(error extrap.mk: APP has {N} but no SIZES to put in its place)
endif
ifneq ($(if $(SIZES),,$(TARGETN)),)
$(error extrap.mk: TARGETN=$(TARGETN) without SIZES: give the sizes recorded)
endif
# A shell glob: make's own wildcard would not see files recorded after it
# first read the directory.
traces = $(call run_dir,$(1))/*.tr*
MEASURED := $(if $(HAVE_TARGET),$(TPT))
SYN := $(if $(filter-out no,$(SYNTH)),$(OUT)/synthetic/dsum.tr \
	$(OUT)/synthetic/stat.tr $(OUT)/synthetic/check.tr)

WHERE = np=$(TARGET)$(if $(SIZES), N=$(TARGETN))
.PHONY: all FORCE
.DELETE_ON_ERROR:
# A recording is the expensive step: its marker must survive as make's
# intermediate file, or a second make after a failure records again.
.PRECIOUS: $(OUT)/np%/run/.done
all: $(if $(MEASURED),$(OUT)/table.txt,$(OUT)/predicted.tr $(SYN))
	@if [ -f $(OUT)/table.txt ]; then cat $(OUT)/table.txt; \
	else echo "no measured run at $(WHERE): predictions in $(OUT)"; fi

# Stamps: $(call stamp,VALUES) rewrites the target only when VALUES
# changed, so that what depends on it is remade then and only then.
stamp = @mkdir -p $(@D); printf '%s\n' '$(subst ','\'',$(1))' > $@.new; \
	if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi
$(OUT)/.app: FORCE
	$(call stamp,$(if $(TRACES),$(abspath $(TRACES)),$(APP) | $(MPIRUN) | $(APPDIR)) | $(BINS))
$(OUT)/.scales: FORCE
	$(call stamp,$(SCALES) | $(SIZES) | $(REPS) | $(FAMILY))
$(OUT)/.target: FORCE
	$(call stamp,$(TARGET) | $(TARGETN) | $(SEED))

# Recording (only without TRACES). The output is kept per scale: -j2
# runs two scales at once, whose reports interleaved (QE's), and an app's
# report says what changed between scales (QE diagonalises on a 2x2
# ScaLAPACK grid from 4 ranks on). A run in npN/app writes no files that
# another scale's run, at the same time or later, would overwrite.
# Each run has its own directory for Open MPI's files: two mpiruns that
# make and remove the shared /tmp/ompi.HOST.UID at once fail in
# orte_init ("File exists"), one run in about 15 at -j2.
LOG = $(OUT)/np$*/app.log
WORK = $(if $(filter yes,$(APPDIR)),$(OUT)/np$*/app,.)
$(OUT)/np%/run/.done: $(OUT)/.app
	@test -n "$(APP)" || { echo "extrap.mk: give TRACES or APP" >&2; exit 2; }
	@rm -rf $(@D) && mkdir -p $(@D) $(WORK)
	(ses=$$(mktemp -d "$${TMPDIR:-/tmp}/tr-mpi.XXXXXX") || exit 1; \
	    cd $(WORK) && OMPI_MCA_orte_tmpdir_base=$$ses $(MPIRUN) \
	    $(call np,$*) $(abspath $(T))record \
	    $(if $(SIZES),-N $(call size,$*)) -o $(abspath $(@D)) \
	    $(call app,$*); st=$$?; rm -rf "$$ses"; exit $$st) \
	    > $(LOG) 2>&1 || { st=$$?; \
	    tail -n 20 $(LOG) >&2; echo "extrap.mk: the run at np=$* failed" \
	    "(status $$st); its output is in $(LOG)" >&2; exit $$st; }
	@touch $@

ifeq ($(TRACES),)
RUNDEP = $(OUT)/np%/run/.done
else
RUNDEP = $(OUT)/.app
endif

# Per scale, three independent products. With SIZES each carries its
# run's #meta N, from tr-record -N (or the traces of TRACES), for
# tr-fit's models in (np, N): without it two sizes at one count would
# be fitted as repetitions.
$(OUT)/np%/dsum.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)delta -s $(call traces,$*) > $@
	$(if $(SIZES),@grep -qx '#meta N=$(call size,$*)' $@ || { rm $@; \
	    echo "extrap.mk: $(call run_dir,$*): no #meta N=$(call size,$*)" \
	    "in its traces (tr-record -N records it)" >&2; exit 3; })
# Wall and CPU time: tr-extrap -T draws each from its own histograms.
$(OUT)/np%/hist.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)delta $(call traces,$*) | $(T)hist -p -t delta -f wall -k key \
	    -b $(BINS) | $(T)hist -t delta -f cpu -k key -b $(BINS) > $@
# The communication matrix is per rank pair: nothing to fit across
# scales. The regions tr-stat passes through are left out too: two runs
# at one count (REPS) would read as one whose ranks go back in time.
$(OUT)/np%/stat.tr: $(RUNDEP)
	@mkdir -p $(@D)
	$(T)stat -s $(call traces,$*) | \
	    $(T)filter 'type != "cmat" && type != "reg"' > $@

FITIN = $(foreach r,$(call runs,$(POINTS)),$(OUT)/$(r)/dsum.tr \
	$(OUT)/$(r)/hist.tr $(OUT)/$(r)/stat.tr)

# Keys seen at too few scales (a boundary interval present only in the
# larger grids) are left out with -i, named and counted on stderr.
# Repetitions at one scale are reduced by their median (tr-fit -r).
$(OUT)/models.tr: $(FITIN) $(OUT)/.scales
	$(T)fit -i -f $(FAMILY) $(FITIN) > $@

NOPT = $(if $(SIZES),-N $(TARGETN))
$(OUT)/predicted.tr: $(OUT)/models.tr $(OUT)/.target
	$(T)extrap -n $(TARGET) $(NOPT) $< > $@

# The synthetic trace follows the largest recorded run rank class by
# rank class. synthetic.done says the attempt was made: with SYNTH=auto
# a pattern tr-extrap -T refuses (status 3) leaves synthetic.why and no
# trace, and the synthetic statistics empty. A trace that disagrees
# with its models (status 1) is kept aside as failed.tr.gz and stops
# make whatever SYNTH says: it is no prediction.
$(OUT)/synthetic.done: $(OUT)/models.tr $(OUT)/.target \
    $(if $(TRACES),,$(OUT)/np$(LAST)/run/.done)
	@rm -f $(OUT)/synthetic.tr.gz $(OUT)/synthetic.why $(OUT)/failed.tr.gz $@
	@st=0; $(T)extrap -T -n $(TARGET) $(NOPT) -R $(SEED) $(OUT)/models.tr \
	    $(call traces,$(LAST)) 2> $(OUT)/synthetic.err | gzip -1 > \
	    $(OUT)/synthetic.tr.gz || st=$$?; \
	if [ $$st -eq 0 ]; then rm -f $(OUT)/synthetic.err; \
	elif [ $$st -eq 1 ]; then cat $(OUT)/synthetic.err >&2; \
	    mv $(OUT)/synthetic.tr.gz $(OUT)/failed.tr.gz; \
	    rm -f $(OUT)/synthetic.err $(OUT)/table.txt; \
	    echo "extrap.mk: the synthetic trace disagrees with its models" \
	    "(above), no prediction: kept as $(OUT)/failed.tr.gz" >&2; exit 1; \
	elif [ "$(SYNTH)" = yes ]; then cat $(OUT)/synthetic.err >&2; \
	    rm -f $(OUT)/synthetic.tr.gz $(OUT)/synthetic.err; \
	    echo "extrap.mk: no synthetic trace; SYNTH=auto or no predicts" \
	    "the statistics alone" >&2; exit 3; \
	else rm -f $(OUT)/synthetic.tr.gz; \
	    mv $(OUT)/synthetic.err $(OUT)/synthetic.why; \
	    echo "extrap.mk: statistics only, no synthetic trace:" \
	    "$$(tail -n 1 $(OUT)/synthetic.why)" >&2; fi
	@touch $@

$(OUT)/synthetic/dsum.tr: $(OUT)/synthetic.done
	@mkdir -p $(@D)
	if [ -e $(OUT)/synthetic.tr.gz ]; then \
	    $(T)delta -s $(OUT)/synthetic.tr.gz; fi > $@
$(OUT)/synthetic/stat.tr: $(OUT)/synthetic.done
	@mkdir -p $(@D)
	if [ -e $(OUT)/synthetic.tr.gz ]; then \
	    $(T)stat $(OUT)/synthetic.tr.gz; fi > $@
$(OUT)/synthetic/check.tr: $(OUT)/synthetic.done
	@mkdir -p $(@D)
	@: > $(@D)/check.txt
	if [ -e $(OUT)/synthetic.tr.gz ]; then \
	    $(T)check $(OUT)/models.tr $(OUT)/synthetic.tr.gz \
	    2> $(@D)/check.txt || { cat $(@D)/check.txt >&2; exit 1; }; \
	fi > $@

M = $(OUT)/np$(TPT)
$(OUT)/accuracy.tr: $(OUT)/predicted.tr $(M)/dsum.tr $(M)/hist.tr $(M)/stat.tr
	$(T)accuracy $(OUT)/predicted.tr $(M)/dsum.tr $(M)/hist.tr \
	    $(M)/stat.tr > $@

# The table: the headline statistics fitted and extrapolated, then the
# counts and bytes of the synthetic trace for every operation that it or
# the measured run made, then every key in summary.
$(OUT)/table.txt: $(OUT)/accuracy.tr $(SYN)
	{ echo "== $(WHERE) predicted from np=$(SCALES)$(if $(SIZES)," \
	    "x N=$(SIZES)) ($(FAMILY)):" \
	    "delta sums per rank, max and mean over ranks"; \
	  echo "   (cpu: the thread CPU time of each compute burst; wall" \
	    "follows the scheduler when ranks outnumber cores)"; \
	  $(T)accuracy -T -t dmax,dsum -K 'key=*' \
	    -q cpu,cpu:max,cpu:med,wall,wall:max,wall:med,mean \
	    $(OUT)/predicted.tr $(M)/dsum.tr; \
	  if [ -s $(OUT)/synthetic/stat.tr ]; then \
	  echo "== synthetic trace (tr-extrap -T): calls, intervals, bytes"; \
	  awk -F'\t' '$$1 == "accsum" { printf "checked against its models:" \
	    " %s values, %s beyond the tolerance\n", $$2, $$9 }' \
	    $(OUT)/synthetic/check.tr; sed 's/^tr-check: //' \
	    $(OUT)/synthetic/check.txt; \
	  $(T)accuracy -T -t opstat,dmax -K "key=*$$(awk -F'\t' \
	    '$$1 == "opstat" && !seen[$$2]++ { printf ",op=%s", $$2 }' \
	    $(M)/stat.tr $(OUT)/synthetic/stat.tr)" \
	    -q calls,bytes,bytes/call,n,ranks \
	    -P $(OUT)/synthetic/stat.tr -P $(OUT)/synthetic/dsum.tr \
	    $(M)/stat.tr $(M)/dsum.tr; fi; \
	  echo "== every fitted key (full list in $(OUT)/accuracy.tr)"; \
	  awk -F'\t' 'function num(v) { return v == int(v) || v >= 1e5 || \
	    v <= -1e5 ? sprintf("%.0f", v) : sprintf("%.6g", v) } \
	    $$1 == "accsum" { printf "compared %s, missing on" \
	    " one side %s, median accuracy %.2f%%, within 5/10/25%%:" \
	    " %.0f/%.0f/%.0f%% of keys\n", $$2, $$3, $$4, $$6, $$7, $$8 } \
	    $$1 == "accworst" { if (!w++) print "worst keys:"; \
	    printf "%-6s %-44s %-12s %14s %14s %8.2f%%\n", $$2, $$3, $$4, \
	    num($$5), num($$6), $$7 }' \
	    $(OUT)/accuracy.tr; \
	} > $@
