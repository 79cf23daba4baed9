# The main job on the bundled samples; `make demo` runs it.
TR_BIN ?= bin
OUT ?= demo-out
export PATH := $(TR_BIN):$(PATH)

.PHONY: all
all: $(OUT)/ops.txt

$(OUT)/.dir:
	mkdir -p $(OUT) && touch $@

# A synthetic run, checked and summarised with jq.
$(OUT)/ops.txt: $(OUT)/.dir
	tr-gen -p stencil2d -n 16 -i 20 -j 0.1 | tr-cat | tr-json | \
	    jq -rs 'group_by(.op) | map("\(.[0].op)\t\(length)\t\(map(.bytes) | add)") | .[]' > $@
	@printf 'operation\tcalls\tbytes\n'; cat $@
