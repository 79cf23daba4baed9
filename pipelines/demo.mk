# The main job, on the bundled real samples (the project's 2-D stencil
# recorded with tr-record at 4 to 64 ranks); `make demo` runs it.
#
#  1. extrapolate: fit np=4..32, predict np=64 (statistics and a whole
#     synthetic trace), verify against the measured np=64 run;
#  2. simulate: replay the measured np=16 run and the synthetic np=64
#     trace on a modelled fat tree;
#  3. wait states of the measured np=16 run;
#  4. one static HTML report of it all.
TR_BIN ?= bin
# bash with pipefail: a failed tr-cat before tr-nsim fails the step
# instead of a simulation of an empty stream.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
OUT ?= demo-out
S = samples/stencil
NET = pipelines/net/cluster.net
T = $(TR_BIN)/tr-

.PHONY: all extrap
.DELETE_ON_ERROR:
all: $(OUT)/report.html
	@echo
	@echo "report: $(abspath $(OUT)/report.html)"

extrap:
	@echo "== 1. extrapolation: np=64 from np=4 8 16 32"
	@$(MAKE) --no-print-directory -s -f pipelines/extrap.mk TRACES=$(S) \
	    SCALES="4 8 16 32" TARGET=64 TR_BIN=$(TR_BIN) OUT=$(OUT)/extrap

$(OUT)/extrap/table.txt: extrap

$(OUT)/sim16.tr: $(wildcard $(S)/np16/*.tr.gz)
	@mkdir -p $(@D)
	$(T)cat -m $(S)/np16/*.tr.gz | $(T)nsim -M $(NET) > $@

$(OUT)/sim64.tr: $(OUT)/extrap/table.txt
	$(T)nsim -M $(NET) $(OUT)/extrap/synthetic.tr.gz > $@

$(OUT)/waits16.tr: $(wildcard $(S)/np16/*.tr.gz)
	@mkdir -p $(@D)
	$(T)waits $(S)/np16/*.tr.gz > $@

$(OUT)/summary.txt: $(OUT)/sim16.tr $(OUT)/sim64.tr $(OUT)/waits16.tr
	@{ echo "== 2. simulation on $(NET)"; \
	  for f in sim16 sim64; do \
	    awk -F'\t' -v f=$$f '$$1 == "simrun" { printf \
	      "%s: np=%s predicted runtime %.3f ms (compute %.1f, comm %.1f, wait %.1f ms summed over ranks)\n", \
	      f, $$2, $$3 / 1e6, $$5 / 1e6, $$6 / 1e6, $$7 / 1e6 }' $(OUT)/$$f.tr; \
	  done; \
	  echo "== 3. wait states of the measured np=16 run (total over ranks)"; \
	  awk -F'\t' '$$1 == "wait" && $$3 == -1 { printf "%-14s %6d waits %12.3f ms\n", \
	    $$2, $$5, $$6 / 1e6 }' $(OUT)/waits16.tr; \
	  awk -F'\t' '$$1 == "blame" && $$3 >= 0 { t[$$3] += $$5 } END { \
	    for (r in t) if (t[r] > m) { m = t[r]; w = r } \
	    if (m) printf "most blamed: rank %d, %.3f ms of others waiting\n", w, m / 1e6 }' \
	    $(OUT)/waits16.tr; } > $@
	@cat $@

$(OUT)/report.html: $(OUT)/summary.txt
	@mkdir -p $(OUT)/report
	@cp $(OUT)/extrap/models.tr $(OUT)/extrap/predicted.tr \
	    $(OUT)/extrap/accuracy.tr $(OUT)/waits16.tr $(OUT)/report/
	@for n in 4 8 16 32 64; do cp $(OUT)/extrap/np$$n/dsum.tr \
	    $(OUT)/report/dsum.np$$n.tr; done
	$(T)report -H "tr demo: 2-D stencil, np=64 predicted from np=4..32" \
	    -n 64 $(OUT)/report $(S)/np16 > $@
