"""otf2gen.py DIR [CASE]: writes an OTF2 archive DIR/traces.otf2 with
python3-otf2, as Score-P would for a small MPI program, for the tests
of tr-from-otf2. Times are in ns (timer resolution 1e9).

CASE halo (default): 4 ranks on two nodes, each in region main:
MPI_Init; 3 iterations of region exchange: MPI_Irecv from both ring
neighbours, MPI_Isend to both, one MPI_Waitall for the four requests;
then MPI_Allreduce of 8 bytes on the world, MPI_Comm_split into
{0,2} and {1,3} and an MPI_Bcast of 64 bytes there from its rank 1,
an MPI_Sendrecv of 100 bytes to the right neighbour, from the left
(rank r sends tag 5 + r), MPI_Finalize. Each rank's events start 1000 ns after the
previous rank's.

CASE rma: 2 ranks; each makes a window on the world (MPI_Win_create),
then between two fences (MPI_Win_fence) rank 0 puts 800 bytes to rank
1, gets 400 back, accumulates 80 and fetches-and-adds 8; then locks
rank 1's window, puts 16 bytes, unlocks, and both free the window.

CASE backwards: the halo trace with rank 2's last event (the leave of
main) moved to before the event it follows, in the event file, where
libotf2's writer would refuse it. CASE omp: rank 0 also has an OpenMP fork
and join, which tr has no record for.

CASE ids FIRST: the halo trace with the ids of each kind of definition
(strings, regions, groups, communicators, system tree nodes, location
groups, locations) from FIRST on instead of 0, as a tool that merges
archives may number them: the same trace for a reader."""
import sys

import otf2
from otf2.enums import (CollectiveOp, GroupType, LocationGroupType,
                        LocationType, LockType, Paradigm, RegionRole,
                        RmaAtomicType, RmaSyncLevel, RmaWinFlag)

case = sys.argv[2] if len(sys.argv) > 2 else "halo"
NP = 2 if case == "rma" else 4
NOROOT = 0xffffffff
d = sys.argv[1]

with otf2.writer.open(d, timer_resolution=1000000000) as tr:
    defs = tr.definitions
    if case == "ids":
        # python3-otf2 numbers each kind on from the largest id it holds
        for reg in (defs._strings, defs._regions, defs._groups, defs._comms,
                    defs._system_tree_nodes, defs._location_groups,
                    defs._locations):
            reg._ref = int(sys.argv[3]) - 1
    root = defs.system_tree_node("machine")
    nodes = [defs.system_tree_node("node%d" % i, parent=root)
             for i in range(2)]
    groups = [defs.location_group("MPI Rank %d" % r,
                                  location_group_type=LocationGroupType.PROCESS,
                                  system_tree_parent=nodes[r // 2])
              for r in range(NP)]
    locs = [defs.location("Master thread", type=LocationType.CPU_THREAD,
                          group=groups[r]) for r in range(NP)]

    def mpi(name):
        return defs.region(name, paradigm=Paradigm.MPI,
                           region_role=RegionRole.FUNCTION)

    main = defs.region("main", source_file="halo.c",
                       begin_line_number=10)
    exch = defs.region("exchange", source_file="halo.c",
                       begin_line_number=30)
    R = {n: mpi(n) for n in ("MPI_Init", "MPI_Irecv", "MPI_Isend",
                             "MPI_Waitall", "MPI_Allreduce",
                             "MPI_Comm_split", "MPI_Bcast", "MPI_Sendrecv",
                             "MPI_Finalize", "MPI_Win_create",
                             "MPI_Win_fence", "MPI_Put", "MPI_Get",
                             "MPI_Accumulate", "MPI_Fetch_and_op",
                             "MPI_Win_lock", "MPI_Win_unlock",
                             "MPI_Win_free")}
    world_locs = defs.group("", group_type=GroupType.COMM_LOCATIONS,
                            paradigm=Paradigm.MPI, members=locs)
    world_grp = defs.group("", group_type=GroupType.COMM_GROUP,
                           paradigm=Paradigm.MPI, members=list(range(NP)))
    self_grp = defs.group("", group_type=GroupType.COMM_SELF,
                          paradigm=Paradigm.MPI, members=[])
    world = defs.comm("MPI_COMM_WORLD", group=world_grp)
    defs.comm("MPI_COMM_SELF", group=self_grp)
    win = defs.rma_win("Win 0", comm=world,
                       flags=RmaWinFlag.CREATE_DESTROY_EVENTS) \
        if case == "rma" else None
    halves = [defs.comm("Comm %d" % c,
                        group=defs.group("", group_type=GroupType.COMM_GROUP,
                                         paradigm=Paradigm.MPI,
                                         members=[c, c + 2]),
                        parent=world) for c in range(2)] if NP == 4 else []

    for r in range(NP):
        w = tr.event_writer_from_location(locs[r])
        t = [1000 + 1000 * r]

        def at(dt=100):
            t[0] += dt
            return t[0]

        def call(name, body=None, dt=200):
            w.enter(at(), R[name])
            if body:
                body()
            w.leave(at(dt), R[name])

        left, right = (r - 1) % NP, (r + 1) % NP
        w.enter(at(), main)
        call("MPI_Init", dt=5000)
        if case == "rma":
            def fence():
                w.rma_collective_begin(at(10))
                w.rma_collective_end(at(10), CollectiveOp.BARRIER,
                                     RmaSyncLevel.PROCESS, win, NOROOT, 0, 0)
            call("MPI_Win_create", lambda: w.rma_win_create(at(10), win))
            call("MPI_Win_fence", fence)
            if r == 0:
                call("MPI_Put", lambda: w.rma_put(at(10), win, 1, 800, 1))
                call("MPI_Get", lambda: w.rma_get(at(10), win, 1, 400, 2))
                call("MPI_Accumulate", lambda: w.rma_atomic(
                    at(10), win, 1, RmaAtomicType.ACCUMULATE, 80, 0, 3))
                call("MPI_Fetch_and_op", lambda: w.rma_atomic(
                    at(10), win, 1, RmaAtomicType.FETCH_AND_ADD, 8, 8, 4))
            call("MPI_Win_fence", fence)
            if r == 0:
                call("MPI_Win_lock", lambda: w.rma_acquire_lock(
                    at(10), win, 1, 0, LockType.EXCLUSIVE))
                call("MPI_Put", lambda: w.rma_put(at(10), win, 1, 16, 5))
                call("MPI_Win_unlock", lambda: w.rma_release_lock(
                    at(10), win, 1, 0))
            call("MPI_Win_free", lambda: w.rma_win_destroy(at(10), win))
            call("MPI_Finalize")
            w.leave(at(), main)
            continue
        for it in range(3):
            w.enter(at(), exch)
            base = 10 * it
            call("MPI_Irecv", lambda: w.mpi_irecv_request(at(10), base + 1))
            call("MPI_Irecv", lambda: w.mpi_irecv_request(at(10), base + 2))
            call("MPI_Isend", lambda: w.mpi_isend(at(10), left, world, 7,
                                                  1024, base + 3))
            call("MPI_Isend", lambda: w.mpi_isend(at(10), right, world, 7,
                                                  1024, base + 4))

            def waitall():
                w.mpi_irecv(at(10), left, world, 7, 1024, base + 1)
                w.mpi_irecv(at(10), right, world, 7, 1024, base + 2)
                w.mpi_isend_complete(at(10), base + 3)
                w.mpi_isend_complete(at(10), base + 4)
            call("MPI_Waitall", waitall, dt=3000)
            w.leave(at(), exch)

        def allreduce():
            w.mpi_collective_begin(at(10))
            w.mpi_collective_end(at(10), CollectiveOp.ALLREDUCE, world,
                                 NOROOT, 8 * NP, 8 * NP)
        call("MPI_Allreduce", allreduce, dt=2000)

        def split():
            w.mpi_collective_begin(at(10))
            w.mpi_collective_end(at(10), CollectiveOp.ALLGATHER, world,
                                 NOROOT, 8 * NP, 8 * NP)
        call("MPI_Comm_split", split)
        half = halves[r % 2]

        def bcast():
            w.mpi_collective_begin(at(10))
            me = r // 2
            w.mpi_collective_end(at(10), CollectiveOp.BCAST, half, 1,
                                 64 * 2 if me == 1 else 0, 64)
        call("MPI_Bcast", bcast, dt=1000)

        def sendrecv():
            w.mpi_send(at(10), right, world, 5 + r, 100)
            w.mpi_recv(at(10), left, world, 5 + left, 100)
        call("MPI_Sendrecv", sendrecv, dt=1000)
        call("MPI_Finalize")
        w.leave(at(), main)
        if r == 2:
            last2 = t[0]
        if case == "omp" and r == 0:
            w.omp_fork(at(), 4)

if case == "backwards":
    import struct
    f = "%s/traces/2.evt" % d
    b = open(f, "rb").read()
    old = struct.pack("<Q", last2)
    assert b.count(old) == 1
    open(f, "wb").write(b.replace(old, struct.pack("<Q", last2 - 150)))
