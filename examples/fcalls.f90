! fcalls.f90 - the calls of examples/calls.c, in the same order, made
! from Fortran (the mpi module), for tr-record's Fortran wrappers.
program fcalls
  use mpi
  implicit none
  integer :: sub, cart, dup, graph, rq(2), rank, np, right, left, i, s, idx, ierr
  integer :: a(100), b(100), g(300), dims(1)
  integer :: wc(100), wd(100), st(100), rt(100), msg, win
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer(kind=8) :: i8(3)
  logical :: periods(1), flag
  double precision :: d(10), e(10), r8(8), s8(8)

  a = 0
  d = 0
  e = 0
  i8 = (/ 0, 1, 0 /)
  r8 = 0
  periods(1) = .true.
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
  dims(1) = np
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)

  call MPI_Irecv(e, 10, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 7, &
       MPI_COMM_WORLD, rq(1), ierr)
  call MPI_Isend(d, 10, MPI_DOUBLE_PRECISION, right, 7, MPI_COMM_WORLD, &
       rq(2), ierr)
  call MPI_Waitall(2, rq, MPI_STATUSES_IGNORE, ierr)
  call MPI_Sendrecv(a, 5, MPI_INTEGER, right, 3 + rank, b, 5, MPI_INTEGER, &
       left, 3 + left, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (rank == 0) then
     do s = 1, np - 1
        call MPI_Recv(b, 4, MPI_INTEGER, MPI_ANY_SOURCE, 100 + s, &
             MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     end do
  else
     call MPI_Ssend(a, 4, MPI_INTEGER, 0, 100 + rank, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Bcast(a, 100, MPI_INTEGER, 0, sub, ierr)
  call MPI_Reduce(r8, s8, 8, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
       MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_INTEGER, MPI_SUM, cart, ierr)
  if (rank == 0) then
     call MPI_Gather(MPI_IN_PLACE, 3, MPI_INTEGER, g, 3, MPI_INTEGER, 0, &
          MPI_COMM_WORLD, ierr)
  else
     call MPI_Gather(a, 3, MPI_INTEGER, g, 3, MPI_INTEGER, 0, &
          MPI_COMM_WORLD, ierr)
  end if

  call MPI_Irecv(e, 6, MPI_DOUBLE_PRECISION, left, 8, MPI_COMM_WORLD, &
       rq(1), ierr)
  call MPI_Isend(d, 6, MPI_DOUBLE_PRECISION, right, 8, MPI_COMM_WORLD, &
       rq(2), ierr)
  do i = 1, 2
     call MPI_Waitany(2, rq, idx, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Irecv(e, 2, MPI_DOUBLE_PRECISION, left, 9, MPI_COMM_WORLD, &
       rq(1), ierr)
  call MPI_Isend(d, 2, MPI_DOUBLE_PRECISION, right, 9, MPI_COMM_WORLD, &
       rq(2), ierr)
  flag = .false.
  do while (.not. flag)
     call MPI_Testall(2, rq, flag, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Recv_init(e, 4, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 10, &
       MPI_COMM_WORLD, rq(1), ierr)
  call MPI_Ssend_init(d, 4, MPI_DOUBLE_PRECISION, right, 10, &
       MPI_COMM_WORLD, rq(2), ierr)
  do i = 1, 2
     call MPI_Startall(2, rq, ierr)
     call MPI_Waitall(2, rq, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Start(rq(1), ierr)
  call MPI_Start(rq(2), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(rq(2), MPI_STATUS_IGNORE, ierr)
  call MPI_Request_free(rq(1), ierr)
  call MPI_Request_free(rq(2), ierr)
  call MPI_Irecv(e, 1, MPI_DOUBLE_PRECISION, left, 13, MPI_COMM_WORLD, &
       rq(1), ierr)
  call MPI_Isend(d, 1, MPI_DOUBLE_PRECISION, right, 13, MPI_COMM_WORLD, &
       rq(2), ierr)
  call MPI_Request_free(rq(2), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Send(d, 3, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, ierr)
  call MPI_Mprobe(left, 11, MPI_COMM_WORLD, msg, MPI_STATUS_IGNORE, ierr)
  call MPI_Mrecv(e, 3, MPI_DOUBLE_PRECISION, msg, MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(d, 5, MPI_DOUBLE_PRECISION, right, 12, MPI_COMM_WORLD, &
       rq(2), ierr)
  flag = .false.
  do while (.not. flag)
     call MPI_Improbe(MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, flag, msg, &
          MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Imrecv(e, 5, MPI_DOUBLE_PRECISION, msg, rq(1), ierr)
  call MPI_Waitall(2, rq, MPI_STATUSES_IGNORE, ierr)
  call MPI_Iallreduce(r8, s8, 4, MPI_DOUBLE_PRECISION, MPI_MAX, &
       MPI_COMM_WORLD, rq(1), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Alltoall(a, 1, MPI_INTEGER, g, 1, MPI_INTEGER, dup, ierr)
  do i = 1, min(np, 100)
     wc(i) = 1
     wd(i) = 4 * (i - 1)
     if (mod(i - 1, 2) == 1) then
        st(i) = MPI_INTEGER
     else
        st(i) = MPI_INTEGER2
     end if
     if (mod(rank, 2) == 1) then
        rt(i) = MPI_INTEGER
     else
        rt(i) = MPI_INTEGER2
     end if
  end do
  call MPI_Alltoallw(a, wc, wd, st, g, wc, wd, rt, dup, ierr)
  call MPI_Neighbor_alltoall(a, 1, MPI_INTEGER, g, 1, MPI_INTEGER, cart, ierr)
  call MPI_Ineighbor_allgather(a, 2, MPI_INTEGER, g, 2, MPI_INTEGER, cart, &
       rq(1), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  wc(1) = left
  wc(2) = right
  wd(1) = 1
  wd(2) = 1
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, wc, wd, 2, wc, wd, &
       MPI_INFO_NULL, .false., graph, ierr)
  call MPI_Neighbor_allgather(a, 1, MPI_INTEGER, g, 1, MPI_INTEGER, graph, &
       ierr)
  call MPI_Comm_free(graph, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  wsize = 80
  call MPI_Win_create(d, wsize, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(e, 2, MPI_DOUBLE_PRECISION, right, disp, 2, &
       MPI_DOUBLE_PRECISION, win, ierr)
  disp = 4
  call MPI_Get(e(5), 3, MPI_DOUBLE_PRECISION, left, disp, 3, &
       MPI_DOUBLE_PRECISION, win, ierr)
  disp = 8
  call MPI_Accumulate(e, 1, MPI_DOUBLE_PRECISION, 0, disp, 1, &
       MPI_DOUBLE_PRECISION, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_lock_all(0, win, ierr)
  disp = 9
  call MPI_Fetch_and_op(e, e(2), MPI_DOUBLE_PRECISION, 0, disp, MPI_SUM, &
       win, ierr)
  disp = 2
  call MPI_Compare_and_swap(i8(1), i8(2), i8(3), MPI_INTEGER8, right, &
       disp, win, ierr)
  disp = 4
  call MPI_Rget(e, 2, MPI_DOUBLE_PRECISION, left, disp, 2, &
       MPI_DOUBLE_PRECISION, win, rq(1), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Win_flush_all(win, ierr)
  call MPI_Win_unlock_all(win, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win, ierr)
  disp = 3
  call MPI_Put(e, 1, MPI_DOUBLE_PRECISION, right, disp, 1, &
       MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_flush(right, win, ierr)
  call MPI_Win_unlock(right, win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)
end program fcalls
