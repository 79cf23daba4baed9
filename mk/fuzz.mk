# mk/fuzz.mk - the parsers' harnesses (tests/fuzz/fuzz-*.c), each built
# twice against a libtr of its own (ASan, UBSan): with clang for
# libFuzzer, and with AFL++'s afl-clang-fast, whose driver calls the
# same LLVMFuzzerTestOneInput (when afl++ is installed). `make fuzz`
# builds them, makes seed corpora from tr-gen, the samples and the
# tests' fixtures, and runs each for FUZZTIME seconds under libFuzzer,
# then under afl-fuzz; findings go to $(FUZZDIR)/NAME/findings and
# $(FUZZDIR)/NAME/afl/default/crashes. tests/fuzz.bats runs each over
# its regression inputs (tests/fuzz/regress/NAME/) only. FUZZCOV=1 adds
# clang's source coverage (bench/fuzz.sh reports it).
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

AFLCC ?= afl-clang-fast
AFLB := build/fuzz-afl
AFL_BIN := $(if $(shell command -v $(AFLCC)),$(patsubst %,$(AFLB)/fuzz-%,$(FUZZ_NAMES)))
AFL_LIBOBJ := $(patsubst lib/%.c,$(AFLB)/lib/%.o,$(wildcard lib/*/*.c))
AFLFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ilib \
	-O1 -g -fno-omit-frame-pointer $(FUZZSAN)
# afl-fuzz on a shared machine: no CPU binding, no core_pattern or
# governor demands, no screen.
AFLENV = AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 \
	AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_QUIET=1 AFL_AUTORESUME=1 \
	ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0

.PHONY: fuzz fuzz-build fuzz-seeds
fuzz-build: $(FUZZ_BIN) $(AFL_BIN)

$(FUZZB)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZB)/libtr.a: $(FUZZ_LIBOBJ)
	rm -f $@
	ar rcs $@ $^

# The OTF2 importer's harness links libotf2, as tr-from-otf2 does (the
# build needs it: BUILD_DEBS); the system's, not built for coverage.
$(FUZZB)/fuzz-otf2 $(AFLB)/fuzz-otf2: FUZZLIBS = -lotf2

$(FUZZB)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZB)/libtr.a
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZB)/libtr.a \
		$(FUZZLIBS) -lz -lm -pthread

$(AFLB)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	AFL_QUIET=1 $(AFLCC) $(AFLFLAGS) -c -o $@ $<

$(AFLB)/libtr.a: $(AFL_LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(AFLB)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(AFLB)/libtr.a
	AFL_QUIET=1 $(AFLCC) $(AFLFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(AFLB)/libtr.a $(FUZZLIBS) -lz -lm -pthread

# Seeds: tr-gen traces and the samples (in, expr), the networks and
# models of the tests' here-docs and the man pages (net, model), strace
# logs and run indexes made by the tools (strace, runs), OTF2 archives
# of tr-to-otf2 and tests/otf2gen.py (otf2).
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
		[ -x $(AFLB)/fuzz-$$t ] || continue; \
		$(AFLENV) afl-fuzz -V $(FUZZTIME) -m none -t 10000 \
			-i $(FUZZDIR)/$$t/seeds -o $(FUZZDIR)/$$t/afl \
			-- $(AFLB)/fuzz-$$t >/dev/null 2>&1; \
		echo "$$t afl: $$(sed -n 's/^execs_done *: //p' \
			$(FUZZDIR)/$$t/afl/default/fuzzer_stats) execs," \
			"$$(ls $(FUZZDIR)/$$t/afl/default/crashes | \
			grep -vc README) crashes"; \
	done; true
