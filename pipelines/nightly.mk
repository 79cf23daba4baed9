# Nightly relative profiling: run an application REPS times under each
# condition, add the runs to the run store, compare tonight with the
# baseline condition (BASE) or, without BASE, each condition with its
# last night; write a text report; fail on a significant regression.
#
#   make -f pipelines/nightly.mk TR_BIN=$PWD/bin STORE=/var/tr/runs
#   make -f pipelines/nightly.mk CONDS='eager sync' BASE=eager \
#       RUN_sync='mpirun -np 4 --mca btl_vader_eager_limit 1 $(REC) $$out $(APP)'
#
# RUN (or RUN_cond for one condition) is the command of one run: it
# must write a trace directory or a profile to $$out (a shell variable
# the recipe sets). The report is $(REPORT); the exit status is that of
# tr-diff --fail-above (1: some key got slower by more than FAIL %,
# Welch p < ALPHA).

TR_BIN ?= bin
MPIDIR ?= build/mpi
STORE ?= runs
APP ?= $(MPIDIR)/stencil 128 50
NP ?= 4
REPS ?= 3
CONDS ?= default
BASE ?=
NIGHT ?= $(shell date -u +%Y%m%d)
FAIL ?= 10
ALPHA ?= 0.05
LABELS ?=
WORK ?= $(STORE)/work
REPORT ?= $(STORE)/report.$(NIGHT).txt
MPIRUN ?= mpirun --oversubscribe -np $(NP)
REC = $(TR_BIN)/tr-record -o
RUN ?= $(MPIRUN) $(REC) $$out $(APP)

T = $(TR_BIN)/tr-
export PATH := $(TR_BIN):$(PATH)

.PHONY: all record report
all: report

# The command of condition $(1).
run_cmd = $(or $(RUN_$(1)),$(RUN))

record:
	@mkdir -p $(WORK)
	$(foreach c,$(CONDS),\
	for i in $$(seq 1 $(REPS)); do \
		out=$(WORK)/$(NIGHT).$(c).$$i; rm -rf $$out; \
		$(call run_cmd,$(c)) >$(WORK)/$(NIGHT).$(c).$$i.log 2>&1 || \
			{ echo "run failed: see $$out.log" >&2; exit 4; }; \
		$(T)runs -d $(STORE) add -l night=$(NIGHT) -l cond=$(c) \
			$(LABELS) $$out >/dev/null || exit 4; \
		rm -rf $$out; \
	done;)

# One comparison per condition: against BASE tonight, or against the
# same condition on the last night before this one that has runs.
report: record
	@status=0; : >$(REPORT); \
	for c in $(CONDS); do \
		now=$$($(T)runs -d $(STORE) paths "night == $(NIGHT) && cond == \"$$c\""); \
		if [ -n "$(BASE)" ]; then \
			[ "$$c" = "$(BASE)" ] && continue; \
			what="$(BASE) vs $$c, night $(NIGHT)"; \
			then=$$($(T)runs -d $(STORE) paths "night == $(NIGHT) && cond == \"$(BASE)\""); \
		else \
			last=$$($(T)runs -d $(STORE) values night "night < $(NIGHT) && cond == \"$$c\"" | tail -n 1); \
			what="$$c: night $$last vs $(NIGHT)"; \
			then=; [ -n "$$last" ] && then=$$($(T)runs -d $(STORE) paths "night == $$last && cond == \"$$c\""); \
		fi; \
		if [ -z "$$then" ]; then \
			echo "== $$c: no baseline yet" >>$(REPORT); continue; \
		fi; \
		$(T)mean $$then >$(WORK)/a.tr && $(T)mean $$now >$(WORK)/b.tr || exit 4; \
		echo "== $$what" >>$(REPORT); \
		$(T)diff -t -n 10 -a $(ALPHA) --fail-above $(FAIL) \
			$(WORK)/a.tr $(WORK)/b.tr >>$(REPORT) 2>&1; \
		s=$$?; [ $$s -gt $$status ] && status=$$s; \
	done; \
	cat $(REPORT); exit $$status
