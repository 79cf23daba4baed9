# mk/mpi.mk - the MPI side: tr-record's preload library and the
# project's own MPI programs (examples/*.c), built with $(MPICC) into
# $(MPIDIR) whatever the variant. Included by the Makefile.

MPI_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
	-D_DEFAULT_SOURCE -O2 -g
# rec/ has one folder per layer (core site buf tab crash setup wrap
# fwrap; see rec/core/core.h), each with its header.
REC_SRC := $(wildcard rec/*/*.c)
REC_HDR := rec/ops.h $(wildcard rec/*/*.h)
REC_OBJ := $(patsubst rec/%.c,$(MPIDIR)/rec/%.o,$(REC_SRC)) \
	$(MPIDIR)/rec/num.o
EXAMPLES := $(patsubst examples/%.c,$(MPIDIR)/%,$(wildcard examples/*.c)) \
	$(patsubst examples/%.f90,$(MPIDIR)/%,$(wildcard examples/*.f90))
# Fortran programs check the recorder's Fortran wrappers (rec/fwrap/).
MPIFC ?= mpifort
RECLIB := $(MPIDIR)/libtr-record.so

mpi: $(RECLIB) $(EXAMPLES)

# Only the MPI_* functions and the tr.h entry points are exported: the
# helpers taken from lib/ stay private to the library.
$(MPIDIR)/rec/%.o: rec/%.c $(REC_HDR) $(LIBHDR)
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -fPIC -fvisibility=hidden -Ilib -c -o $@ $<

$(MPIDIR)/rec/num.o: lib/core/num.c $(LIBHDR) | $(MPIDIR)/rec/.dir
	$(MPICC) $(MPI_CFLAGS) -fPIC -fvisibility=hidden -Ilib -c -o $@ $<

$(RECLIB): $(REC_OBJ)
	$(MPICC) -shared -o $@ $(REC_OBJ) -lisal -lz -lm

$(MPIDIR)/%: examples/%.c include/tr.h | $(MPIDIR)/.dir
	$(MPICC) $(MPI_CFLAGS) -Iinclude -o $@ $< -lm

$(MPIDIR)/%: examples/%.f90 | $(MPIDIR)/.dir
	$(MPIFC) -O2 -g -Wall -Werror -J $(MPIDIR) -o $@ $<

install: install-mpi
.PHONY: install-mpi
install-mpi: mpi
	mkdir -p $(DESTDIR)$(PREFIX)/lib/tr $(DESTDIR)$(PREFIX)/include
	cp $(RECLIB) $(DESTDIR)$(PREFIX)/lib/tr/
	cp include/tr.h $(DESTDIR)$(PREFIX)/include/

# The bundled samples: the 2-D stencil, strong scaling on a fixed
# 2048x2048 grid, 20 iterations, at 4 to 64 ranks. Record them on an idle
# machine: CPU time per burst is the measurement, and a busy machine
# (hyperthreads shared with other jobs) inflates it. Their call sites
# are stored symbolized (main@stencil.c:63): the binary that recorded
# them is not in the tree, and is rebuilt whenever stencil.c changes.
SAMPLE_NP = 4 8 16 32 64
SAMPLE_ARGS = 2048 20
samples: $(BINDIR)/tr-record $(BINDIR)/tr-symbolize mpi
	for np in $(SAMPLE_NP); do \
		rm -rf samples/stencil/np$$np; \
		OMPI_MCA_rmaps_base_oversubscribe=1 \
		TR_PRELOAD=$(CURDIR)/$(RECLIB) mpirun --allow-run-as-root \
			--oversubscribe -np $$np $(BINDIR)/tr-record \
			-o samples/stencil/np$$np $(MPIDIR)/stencil \
			$(SAMPLE_ARGS) || exit 1; \
		for f in samples/stencil/np$$np/rank.*.tr.gz; do \
			$(BINDIR)/tr-symbolize $$f > $$f.txt && \
			gzip -9n < $$f.txt > $$f && rm $$f.txt || exit 1; \
		done; \
	done

# The stencil linked against the library instead of preloading it.
mpi: $(MPIDIR)/stencil-linked
$(MPIDIR)/stencil-linked: examples/stencil.c include/tr.h $(RECLIB)
	$(MPICC) $(MPI_CFLAGS) -Iinclude -o $@ $< -L$(MPIDIR) -ltr-record \
		-Wl,-rpath,'$$ORIGIN' -lm
