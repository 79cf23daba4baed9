"""2-D heat diffusion, Jacobi, on a Cartesian grid of ranks (mpi4py).

usage: mpirun -np P tr-record -o run /usr/bin/python3 heat.py N ITERS

A halo exchange of numpy rows and columns (Irecv, Isend, Waitall), every
10th iteration a residual (Allreduce of a buffer) and a row sum (the
pickled allreduce of a Python float on the row communicator of
Comm.Split, which mpi4py sends along a tree). Its phases are tr regions,
called through ctypes when tr-record's library is loaded."""
import ctypes
import sys
import numpy as np
from mpi4py import MPI

# tr-record's regions, when it is recording (its library is preloaded)
_tr = ctypes.CDLL(None)
if hasattr(_tr, "tr_rec_region_begin"):
    def region(name, on):
        (_tr.tr_rec_region_begin if on else _tr.tr_rec_region_end)(name.encode())
else:
    def region(name, on):
        pass

comm = MPI.COMM_WORLD
n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
iters = int(sys.argv[2]) if len(sys.argv) > 2 else 100
dims = MPI.Compute_dims(comm.size, 2)
cart = comm.Create_cart(dims, periods=[False, False], reorder=False)
py, px = cart.Get_coords(cart.rank)
row = cart.Split(py, px)            # ranks of one grid row
ny, nx = n // dims[0], n // dims[1]
u = np.zeros((ny + 2, nx + 2))
if py == 0:
    u[0, :] = 1.0
new = u.copy()
up, down = cart.Shift(0, 1)
left, right = cart.Shift(1, 1)
sendl = np.empty(ny); sendr = np.empty(ny)
recvl = np.empty(ny); recvr = np.empty(ny)
cart.Barrier()
t0 = MPI.Wtime()
tcomm = 0.0
glob = np.zeros(1)      # the residual, every 10th iteration
for it in range(iters):
    t1 = MPI.Wtime()
    region("halo", 1)
    reqs = [cart.Irecv(u[0, 1:-1], up, 0), cart.Irecv(u[-1, 1:-1], down, 1),
            cart.Irecv(recvl, left, 2), cart.Irecv(recvr, right, 3)]
    rows_out = [u[1, 1:-1].copy(), u[-2, 1:-1].copy()]
    sendl[:] = u[1:-1, 1]; sendr[:] = u[1:-1, -2]
    reqs += [cart.Isend(rows_out[0], up, 1), cart.Isend(rows_out[1], down, 0),
             cart.Isend(sendl, left, 3), cart.Isend(sendr, right, 2)]
    MPI.Request.Waitall(reqs)
    if left != MPI.PROC_NULL: u[1:-1, 0] = recvl
    if right != MPI.PROC_NULL: u[1:-1, -1] = recvr
    region("halo", 0)
    tcomm += MPI.Wtime() - t1
    region("update", 1)
    new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    if py == 0:
        new[0, :] = 1.0
    u, new = new, u
    region("update", 0)
    if it % 10 == 9:
        t1 = MPI.Wtime()
        # the interior: ghost cells hold halos of different ages
        local = np.array([np.sum((u[1:-1, 1:-1] - new[1:-1, 1:-1]) ** 2)])
        cart.Allreduce(local, glob, op=MPI.SUM)
        rowsum = row.allreduce(float(u[1:-1, 1:-1].sum()))
        tcomm += MPI.Wtime() - t1
t = MPI.Wtime() - t0
tot = cart.reduce(float(u[1:-1, 1:-1].sum()), op=MPI.SUM, root=0)
ts = cart.gather((t, tcomm), root=0)
if cart.rank == 0:
    print("grid %dx%d ranks %dx%d iters %d sum %.6f residual %.3e" % (n, n, dims[0], dims[1], iters, tot, glob[0]))
    for r, (a, c) in enumerate(ts):
        print("rank %d time %.6f comm %.6f" % (r, a, c))
row.Free(); cart.Free()
