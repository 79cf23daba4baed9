! f08ring.f90 - a ring exchange through the mpi_f08 module, whose
! procedures reach the recorder from inside Open MPI's f08 library.
program f08ring
  use mpi_f08
  implicit none
  integer :: rank, np, x, y, i
  type(MPI_Request) :: rq(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  do i = 1, 3
     call MPI_Irecv(y, 1, MPI_INTEGER, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &
          rq(1))
     call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + 1, np), 5, &
          MPI_COMM_WORLD, rq(2))
     call MPI_Waitall(2, rq, MPI_STATUSES_IGNORE)
  end do
  x = rank
  call MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
end program f08ring
