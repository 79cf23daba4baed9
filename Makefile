# tr - trace, extrapolate, simulate and compare MPI runs.
#
#   make            build every program into bin/ (changes nothing else)
#   make deps       install what the build needs (as root, Debian)
#   make check      install what the tests need, build, run the suite
#   make demo       install what the build needs, build, run the main job
#   make install    PREFIX=/usr/local
#   make env        the line that puts bin/ on PATH: eval "$(make -s env)"
#
# Variants build out of tree: `make V=musl` (static, musl-gcc) and
# `make V=asan` (AddressSanitizer + UBSan) put their programs in
# build/$(V)/bin; `make check V=asan` tests those.

PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man

CFLAGS_BASE = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
	-D_DEFAULT_SOURCE -Ilib
OPT ?= -O2 -g
LDLIBS = -lz -lm -pthread

ifeq ($(V),)
B := build
BINDIR := bin
else
B := build/$(V)
BINDIR := build/$(V)/bin
endif
ifeq ($(V),musl)
CC = musl-gcc
# Debian ships zlib for glibc only; its static archive links fine into
# musl programs, but its headers must not drag in glibc's.
CFLAGS_BASE += -I$(B)/zinc
LDFLAGS += -static
LDLIBS = /usr/lib/x86_64-linux-gnu/libz.a -lm -pthread
OTF2LIB = /usr/lib/x86_64-linux-gnu/libotf2.a $(LIBA)
endif
ifeq ($(V),asan)
OPT = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ALL_CFLAGS = $(CFLAGS_BASE) $(OPT) $(CFLAGS)

# One program list, found by listing cmd/, and one link rule.
BIN := $(patsubst cmd/%.c,$(BINDIR)/%,$(wildcard cmd/*.c))
LIBOBJ := $(patsubst lib/%.c,$(B)/lib/%.o,$(wildcard lib/*/*.c))
LIBHDR := lib/libtr.h $(wildcard lib/*/*.h)
LIBA := $(B)/libtr.a

# MPI parts are built with mpicc whatever the variant: they are loaded
# into (or are) MPI programs, which use the system's glibc OpenMPI.
MPICC ?= mpicc
MPIDIR := build/mpi

.DELETE_ON_ERROR:
.PHONY: all check demo install clean deps checkdeps mpi bench samples env
.SUFFIXES:
.PRECIOUS: %/.dir

all: $(BIN) mpi

$(BINDIR)/%: cmd/%.c $(LIBA) | $(BINDIR)/.dir
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

# OTF2 is read and written through its own library. Debian builds it
# with _FORTIFY_SOURCE, so a static musl program links lib/conv's
# stand-ins for glibc's checked printf calls.
$(BINDIR)/tr-from-otf2: LDLIBS += $(OTF2LIB)
$(BINDIR)/tr-to-otf2: LDLIBS += $(OTF2LIB)
OTF2LIB ?= -lotf2

# tr-record checks its -x against the calls the library records.
$(BINDIR)/tr-record: rec/ops.h

$(B)/lib/%.o: lib/%.c $(LIBHDR) $(if $(filter musl,$(V)),$(B)/zinc/zlib.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/zinc/zlib.h: | $(B)/zinc/.dir
	cp /usr/include/zlib.h /usr/include/zconf.h $(B)/zinc/
	cp -r /usr/include/otf2 $(B)/zinc/

%/.dir:
	mkdir -p $(@D)
	touch $@

# The MPI side (tr-record's preload library, the project's MPI programs)
# is described in mk/mpi.mk.
-include mk/*.mk

# Debian packages: what the build needs (compiler, zlib, ISA-L, mpicc), and
# what the tests add (the real MPI applications they record, SimGrid,
# Chromium, ...). As root, missing ones are installed; otherwise they
# are named and the work goes on.
BUILD_DEBS = gcc make zlib1g-dev libisal-dev musl-tools binutils openmpi-bin \
	libopenmpi-dev gfortran libotf2-trace-dev
TEST_DEBS = bats jq mawk otf2-tools python3-otf2 hpcc lammps lammps-examples mpb-mpi \
	quantum-espresso quantum-espresso-data nwchem-openmpi cp2k gromacs \
	libsimgrid-dev chromium libxml2-utils strace mandoc bc \
	libcoarrays-openmpi-dev python3-mpi4py python3-numpy slurm-wlm munge \
	clang llvm afl++
# $(call debs,PACKAGES): installs those of PACKAGES that are missing.
debs = @missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'ok installed' || printf '%s ' $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing: $$missing"; \
			export DEBIAN_FRONTEND=noninteractive; \
			apt-get update -qq && \
			apt-get install -y -qq --no-install-recommends $$missing \
				>/dev/null || exit 1; \
		else \
			echo "warning: missing Debian packages: $$missing" >&2; \
		fi; \
	fi
# npm packages the tests open pages with (speedscope, for tr-to-chrome),
# installed under build/npm, never into the tree.
TEST_NPMS = speedscope@1.25.0
npms = @if command -v npm >/dev/null; then \
		for p in $(1); do \
			[ -d build/npm/node_modules/$${p%@*} ] && continue; \
			echo "installing: $$p (npm, into build/npm)"; \
			npm install --prefix build/npm --no-audit --no-fund \
				--silent $$p >/dev/null || exit 1; \
		done; \
	else \
		echo "warning: no npm, missing npm packages: $(1)" >&2; \
	fi
deps:
	$(call debs,$(BUILD_DEBS))
checkdeps:
	$(call debs,$(BUILD_DEBS) $(TEST_DEBS))
	$(call npms,$(TEST_NPMS))

TESTS ?= tests
check: checkdeps
	@$(MAKE) --no-print-directory all
	TR_BIN=$(CURDIR)/$(BINDIR) TR_MPIBIN=$(CURDIR)/$(MPIDIR) \
		sh tests/run $(TESTS)

demo: deps
	@$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory -f pipelines/demo.mk TR_BIN=$(CURDIR)/$(BINDIR)

# The variant's programs on PATH, for `eval "$(make -s env)"`; quoted
# for the shell, a checkout's path may hold spaces.
env:
	@printf 'export PATH=%s:"$$PATH"\n' "'$(subst ','\'',$(CURDIR)/$(BINDIR))'"

bench: all
	sh bench/run

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7
	cp $(BIN) $(DESTDIR)$(PREFIX)/bin/
	for s in 1 3 5 7; do \
		for f in man/*.$$s; do [ -e "$$f" ] && \
			cp "$$f" $(DESTDIR)$(MANDIR)/man$$s/; done; \
	done; true
	# `man tr` is coreutils' tr(1): the overview is also tr-toolkit(7).
	ln -sf tr.7 $(DESTDIR)$(MANDIR)/man7/tr-toolkit.7

clean:
	rm -rf bin build
