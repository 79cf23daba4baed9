# mk/fuzz.mk - libFuzzer harnesses of the parsers (tests/fuzz/fuzz-*.c),
# built with clang against a libtr of their own (ASan, UBSan, coverage
# counters). `make fuzz` builds them, makes seed corpora from tr-gen,
# the samples and the tests' fixtures, and runs each for FUZZTIME
# seconds; findings go to $(FUZZDIR)/NAME/findings. tests/fuzz.bats
# runs each over its regression inputs (tests/fuzz/regress/NAME/) only.
# FUZZCOV=1 adds clang's source coverage (bench/fuzz.sh reports it).
FUZZCC ?= clang
FUZZTIME ?= 20
FUZZDIR ?= build/fuzz/run
FUZZB := build/fuzz$(if $(FUZZCOV),-cov)
FUZZSAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ilib \
	-O1 -g -fno-omit-frame-pointer $(FUZZSAN) \
	$(if $(FUZZCOV),-fprofile-instr-generate -fcoverage-mapping)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BIN := $(patsubst %,$(FUZZB)/fuzz-%,$(FUZZ_NAMES))
FUZZ_LIBOBJ := $(patsubst lib/%.c,$(FUZZB)/lib/%.o,$(wildcard lib/*/*.c))

.PHONY: fuzz fuzz-build fuzz-seeds
fuzz-build: $(FUZZ_BIN)

$(FUZZB)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZB)/libtr.a: $(FUZZ_LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZB)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZB)/libtr.a
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZB)/libtr.a \
		-lz -lm -pthread

# Seeds: tr-gen traces and the samples (in, expr), the networks and
# models of the tests' here-docs and the man pages (net, model), strace
# logs and run indexes made by the tools (strace, runs).
fuzz-seeds: all
	sh tests/fuzz/seeds.sh $(FUZZDIR) $(CURDIR)/$(BINDIR)

fuzz: fuzz-build fuzz-seeds
	for t in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZDIR)/$$t/corpus $(FUZZDIR)/$$t/findings; \
		$(FUZZB)/fuzz-$$t -max_total_time=$(FUZZTIME) -rss_limit_mb=2048 \
			-timeout=10 -max_len=65536 \
			-artifact_prefix=$(FUZZDIR)/$$t/findings/ \
			$(FUZZDIR)/$$t/corpus $(FUZZDIR)/$$t/seeds \
			tests/fuzz/regress/$$t 2>&1 | \
			grep -E '^(#[0-9]+.*DONE|==[0-9]+==ERROR|SUMMARY)' ; \
	done; true
