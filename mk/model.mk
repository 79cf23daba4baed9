# mk/model.mk - tr-bench, an MPI program installed beside the filters
# (its source is in mpi/, away from the examples/ and cmd/ globs), and
# the worked example's solver (examples/cg.c, built by mk/mpi.mk).
BENCH := $(BINDIR)/tr-bench

all: $(BENCH)

# num.c comes along for the shortest float form, opt.c and err.c for the
# options; libtr.a is not linked because it may be built for musl or with
# sanitizers.
BENCH_SRC := mpi/tr-bench.c lib/core/num.c lib/core/opt.c lib/core/err.c \
	lib/core/mem.c
$(BENCH): $(BENCH_SRC) $(LIBHDR) | $(BINDIR)/.dir
	$(MPICC) $(MPI_CFLAGS) -Ilib -o $@ $(BENCH_SRC) -lm

install: install-bench
.PHONY: install-bench phases
install-bench: $(BENCH)
	mkdir -p $(DESTDIR)$(PREFIX)/bin
	cp $(BENCH) $(DESTDIR)$(PREFIX)/bin/

# The worked example: record, correct, model and compare the CG solver.
phases: all
	$(MAKE) --no-print-directory -f pipelines/phases.mk \
		TR_BIN=$(CURDIR)/$(BINDIR) TR_MPIBIN=$(CURDIR)/$(MPIDIR)
