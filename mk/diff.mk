# mk/diff.mk - tr-diff's test helper: a preload library that slows one
# MPI function down (the known truth of relative profiling tests).

SLOWOP := $(MPIDIR)/libslowop.so

mpi: $(SLOWOP)

$(SLOWOP): examples/lib/slowop.c | $(MPIDIR)/.dir
	$(MPICC) -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC -shared \
		-o $@ $< -ldl
