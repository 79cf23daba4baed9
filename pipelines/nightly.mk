# Nightly relative profiling: run an application REPS times under each
# condition, add the runs to the run store, compare tonight with the
# baseline condition (BASE) or, without BASE, each condition with its
# last night; write a text report; fail on a significant regression.
#
#   make -f pipelines/nightly.mk STORE=/var/tr/runs
#   make -f pipelines/nightly.mk CONDS='eager sync' BASE=eager \
#       RUN_sync='mpirun -np 4 --mca btl_vader_eager_limit 56 $(REC) $$out $(APP)'
#
# RUN (or RUN_cond for one condition) is the command of one run: it
# must write a trace directory or a profile to $$out (a shell variable
# the recipe sets).
#
# The report is $(REPORT), written whatever happens: the comparisons,
# or what failed (which run, its exit status and the end of its
# output), and a last line with the outcome. The outcome's status is
# that of tr-diff --fail-above: 0 no regression, 1 some key got slower
# by more than FAIL % (Welch p < ALPHA after CORRECT's correction for
# the keys tested: holm, bh or none), and for a failure the status of
# what failed as tr(7) has it: 4 a run failed or a system error, 3 bad
# data, 2 bad usage (a wrong variable). make itself can only exit 0 or
# 2; pipelines/nightly.sh runs this file with the same variables and
# exits with the outcome's status, for cron. STATUS=file writes the
# status to file.
#
# A night's runs of a condition enter the store only when all REPS of
# them succeeded: a run that fails (a crash, a timeout) leaves none of
# the condition's runs in the store, and a tr-runs add that fails
# disables those of tonight it added (tr-runs disable; selections skip
# them, tr-runs list -a shows them). So a failed night is no baseline:
# the next night compares each condition with its last whole night, on
# as many runs as REPS. The conditions before the failure are stored,
# whole; those after it are not run. Rerunning a night (the same NIGHT)
# disables the condition's runs of the earlier attempt once the new
# ones are in. A condition's REPS outputs wait in WORK until all are
# made: room for REPS traces, not one.
#
# Each recipe keeps its files (outputs, logs, the means it compares) in
# a directory of its own under WORK, $(NIGHT).XXXXXX (mktemp), so that
# nights run at once on one store, each with its own CONDS and REPORT,
# do not overwrite each other's; it is removed when the recipe ends,
# and kept when it failed: the report names the log there. Its runs
# have a directory of their own for Open MPI's files too
# (orte_tmpdir_base): two mpiruns that make and remove the shared
# /tmp/ompi.HOST.UID at once fail in orte_init ("File exists").

# The programs beside this file's checkout, wherever make runs (a cron
# job's directory): a relative bin/ was that directory's.
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
TR_BIN ?= $(abspath $(HERE)../bin)
# bash with pipefail, without -e: the recipes judge every status
# themselves (tr-diff's 1 is a finding, not a failure of make).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
MPIDIR ?= $(abspath $(HERE)../build/mpi)
STORE ?= runs
APP ?= $(MPIDIR)/stencil 128 50
NP ?= 4
REPS ?= 3
CONDS ?= default
BASE ?=
NIGHT ?= $(shell date -u +%Y%m%d)
FAIL ?= 10
ALPHA ?= 0.05
CORRECT ?= holm
LABELS ?=
WORK ?= $(STORE)/work
REPORT ?= $(STORE)/report.$(NIGHT).txt
STATUS ?=
MPIRUN ?= mpirun --oversubscribe -np $(NP)
REC = $(TR_BIN)/tr-record -o
RUN ?= $(MPIRUN) $(REC) $$out $(APP)

T = $(TR_BIN)/tr-
export PATH := $(TR_BIN):$(PATH)

.PHONY: all record report
all: report

# The command of condition $(1).
run_cmd = $(or $(RUN_$(1)),$(RUN))

# Shell functions of the recipes. finish STATUS OUTCOME ends the report
# with the outcome, writes STATUS to $(STATUS), shows the report and
# exits with STATUS; failed STATUS WHAT [LOG] says in the report what
# failed and the end of its output, and ends with STATUS, or 4 if it is
# not one of tr's (a shell's 127, a signal's 128 + N), and keeps the
# recipe's directory; drop COND removes the condition's outputs of
# tonight (their logs stay); workdir makes the recipe's directory, $w.
FUNCS = finish() { \
		echo "== night $(NIGHT): $$2" >>$(REPORT); \
		[ -z "$(STATUS)" ] || echo $$1 >"$(STATUS)"; \
		cat $(REPORT); exit $$1; }; \
	failed() { \
		trap - EXIT; \
		[ -z "$$ses" ] || rm -rf "$$ses"; \
		case $$1 in 2|3|4) s=$$1;; *) s=4;; esac; \
		echo "== FAILED: $$2" >>$(REPORT); \
		if [ -s "$$3" ]; then \
			echo "== the end of $$3:" >>$(REPORT); \
			tail -n 20 "$$3" >>$(REPORT); \
		fi; \
		finish $$s "failed (status $$s)"; }; \
	drop() { for j in $$(seq 1 $(REPS)); do \
		rm -rf "$$w/$$1.$$j"; done; }; \
	workdir() { \
		w=$$(mktemp -d "$(WORK)/$(NIGHT).XXXXXX") || \
			failed 4 "no directory of this night's in $(WORK)"; \
		ses=$$(mktemp -d "$${TMPDIR:-/tmp}/tr-mpi.XXXXXX") || \
			failed 4 "no directory for Open MPI's files"; \
		export OMPI_MCA_orte_tmpdir_base=$$ses; \
		trap 'rm -rf "$$w" "$$ses"' EXIT; }

# A condition's REPS runs are all made before any is added, so that a
# failed run leaves none of them in the store; the runs of an earlier
# attempt at the same night are disabled once the new ones are in. A
# BASE that names no condition, or the only one, would leave every
# night "no baseline yet" or with nothing compared, and no alarm ever:
# a wrong variable, failed before any run.
record:
	@$(FUNCS); mkdir -p $(WORK) && : >$(REPORT) || failed 4 "no $(REPORT)"; \
	$(if $(BASE),$(if $(filter $(BASE),$(CONDS)),,failed 2 "BASE=$(BASE) is not one of CONDS=$(CONDS): nothing would be compared with it";)) \
	$(if $(BASE),$(if $(filter-out $(BASE),$(CONDS)),,failed 2 "BASE=$(BASE) and no other condition in CONDS=$(CONDS) to compare with it";)) \
	workdir; \
	$(foreach c,$(CONDS),\
	for i in $$(seq 1 $(REPS)); do \
		out=$$w/$(c).$$i; rm -rf $$out; \
		$(call run_cmd,$(c)) >$$out.log 2>&1 || { s=$$?; drop $(c); \
			failed 4 "run $$i of $(REPS) of condition $(c) exited with status $$s; no run of the condition stored" $$out.log; }; \
	done; \
	old=$$($(T)runs -d $(STORE) list 'night == $(NIGHT) && cond == "$(c)"' | cut -f1 | sed 's/^id=//'); \
	ids=; \
	for i in $$(seq 1 $(REPS)); do \
		out=$$w/$(c).$$i; \
		id=$$($(T)runs -d $(STORE) add -l night=$(NIGHT) -l cond=$(c) \
			$(LABELS) $$out 2>$$out.err) || { s=$$?; drop $(c); \
			what="tr-runs add of run $$i of condition $(c)"; \
			[ -z "$$ids" ] || { $(T)runs -d $(STORE) disable $$ids; \
				what="$$what; its runs$$ids disabled"; }; \
			failed $$s "$$what" $$out.err; }; \
		ids="$$ids $$id"; rm -rf $$out $$out.err; \
	done; \
	[ -z "$$old" ] || $(T)runs -d $(STORE) disable $$old;)

# One comparison per condition: against BASE tonight, or against the
# same condition on the last night before this one that has runs.
report: record
	@$(FUNCS); status=0; workdir; \
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
		$(T)mean $$then >$$w/a.tr 2>$$w/mean.err && \
			$(T)mean $$now >$$w/b.tr 2>$$w/mean.err || \
			failed $$? "tr-mean of the runs of $$what" $$w/mean.err; \
		echo "== $$what" >>$(REPORT); \
		$(T)diff -T -c 10 -a $(ALPHA) -C $(CORRECT) --fail-above $(FAIL) \
			$$w/a.tr $$w/b.tr >>$(REPORT) 2>&1; \
		s=$$?; [ $$s -gt $$status ] && status=$$s; \
	done; \
	case $$status in \
	0) finish 0 "no regression";; \
	1) finish 1 "regression (status 1)";; \
	*) failed $$status "tr-diff";; \
	esac
