# Shards: a run's rank files analysed as K shards of ranks, each by its
# own process (under make -j, or as a Slurm job step each), their outputs
# merged into the whole run's.
#
#   make -j4 -f pipelines/shard.mk RUN=tr-trace K=4 OUT=shard-out
#   make -f pipelines/shard.mk RUN=tr-trace K=4 RUNNER='srun -n1 -c1 --exact'
#   make -f pipelines/shard.mk record APP='build/mpi/stencil 96 30' NP=16 \
#       MPIRUN='srun --mpi=pmix -n'
#
# RUN holds rank.R.tr or rank.R.tr.gz for every rank R below np (the
# header's #meta np), as tr-record writes them. Shard I of K holds ranks
# I*np/K to (I+1)*np/K - 1 (so K is at most np); a file missing from a
# shard is its tool's error, which names the rank. Products in OUT:
#   dsum.tr      tr-delta -s, merged with tr-delta -m
#   stat.tr      tr-stat -s, merged with tr-stat -m -s
#   profile.tr   tr-profile -a, merged with tr-profile -m -a
#   hist.tr      tr-delta | tr-hist -l 10, merged with tr-hist -m
#   waits.tr     tr-waits, merged with tr-waits -m (each shard reads every
#                rank: a wait needs both sides of a message, a collective
#                all its members; it counts only its own ranks' waits)
#   shard.I/     each shard's outputs
# byte for byte what one process writes of the whole run: `make whole`
# writes those to OUT/whole/ for comparison.
# RUNNER prefixes every shard's command: srun inside an allocation
# (salloc, or an sbatch script that runs this make) makes each a job step.
# `make record` records APP at NP ranks into RUN with tr-record under
# MPIRUN (mpirun, or srun with the MPI's PMI plug-in).

HERE := $(dir $(lastword $(MAKEFILE_LIST)))
TR_BIN ?= $(abspath $(HERE)../bin)
RUN ?= tr-trace
OUT ?= shard-out
K ?= 2
RUNNER ?=
APP ?=
NP ?= 4
MPIRUN ?= mpirun --oversubscribe --allow-run-as-root -np
HISTOPT ?= -l 10

T = $(TR_BIN)/tr-
SHARDS := $(shell seq 0 $$(($(K) - 1)))
KINDS := dsum stat profile hist waits

# Sets np (from a rank file's header), lo and hi (shard $(1)'s ranks),
# files (theirs, in rank order) and all (every rank's): shell globs, so
# that files recorded after make started are seen.
define range
ranks=$$(ls $(RUN) | sed -n 's/^rank\.\([0-9]*\)\.tr\(\.gz\)\{0,1\}$$/\1 &/p' | \
    sort -n); \
np=$$(gzip -dcf $(RUN)/$$(echo "$$ranks" | sed -n '1s/.* //p') | \
    sed -n '/^[^#]/q; s/^\#meta np=//p'); \
[ -n "$$np" ] && [ "$(K)" -le "$$np" ] || \
    { echo "shard.mk: $(RUN): no #meta np, or K=$(K) above it" >&2; exit 1; }; \
lo=$$(($(1) * np / $(K))); hi=$$((($(1) + 1) * np / $(K) - 1)); \
files=$$(echo "$$ranks" | awk -v d=$(RUN) -v lo=$$lo -v hi=$$hi \
    '$$1 >= lo && $$1 <= hi { print d "/" $$2 }'); \
all=$$(echo "$$ranks" | awk -v d=$(RUN) '{ print d "/" $$2 }')
endef

all: $(KINDS:%=$(OUT)/%.tr)

record:
	rm -rf $(RUN)
	$(MPIRUN) $(NP) $(T)record -o $(RUN) $(APP) > $(RUN).log

$(OUT)/shard.%/.dir:
	mkdir -p $(@D) && touch $@

# -s, -G: a shard's sums and statistics (tr-stat's imbal per rank), which
# the merge puts together as one process would have counted them.
$(OUT)/shard.%/dsum.tr: | $(OUT)/shard.%/.dir
	@$(call range,$*); set -x; \
	$(RUNNER) $(T)delta -s -G $$lo-$$hi $$files > $@.tmp && mv $@.tmp $@
$(OUT)/shard.%/stat.tr: | $(OUT)/shard.%/.dir
	@$(call range,$*); set -x; \
	$(RUNNER) $(T)stat -s -G $$lo-$$hi $$files > $@.tmp && mv $@.tmp $@
$(OUT)/shard.%/profile.tr: | $(OUT)/shard.%/.dir
	@$(call range,$*); set -x; \
	$(RUNNER) $(T)profile -G $$lo-$$hi $$files > $@.tmp && mv $@.tmp $@
$(OUT)/shard.%/hist.tr: | $(OUT)/shard.%/.dir
	@$(call range,$*); set -x; \
	$(RUNNER) sh -c '$(T)delta -G $$0 "$$@" | $(T)hist $(HISTOPT)' \
	    $$lo-$$hi $$files > $@.tmp && mv $@.tmp $@
$(OUT)/shard.%/waits.tr: | $(OUT)/shard.%/.dir
	@$(call range,$*); set -x; \
	$(RUNNER) $(T)waits -G $$lo-$$hi $$all > $@.tmp && mv $@.tmp $@

merge_dsum = $(T)delta -m
merge_stat = $(T)stat -m -s
merge_profile = $(T)profile -m -a
merge_hist = $(T)hist -m
merge_waits = $(T)waits -m

# In shard order, which is rank order: keys new to the run come in the
# order one process meets them.
$(OUT)/%.tr: $(foreach i,$(SHARDS),$(OUT)/shard.$(i)/%.tr)
	cat $^ | $(merge_$*) > $@.tmp && mv $@.tmp $@

whole_dsum = $(T)delta -s
whole_stat = $(T)stat -s
whole_profile = $(T)profile -a
whole_waits = $(T)waits

whole: $(KINDS:%=$(OUT)/whole/%.tr)

$(OUT)/whole/hist.tr:
	@mkdir -p $(@D); $(call range,0); set -x; \
	$(T)delta $$all | $(T)hist $(HISTOPT) > $@.tmp && mv $@.tmp $@
$(OUT)/whole/%.tr:
	@mkdir -p $(@D); $(call range,0); set -x; \
	$(whole_$*) $$all > $@.tmp && mv $@.tmp $@

clean:
	rm -rf $(OUT)

.PHONY: all whole record clean
.SECONDARY:
.DELETE_ON_ERROR:
