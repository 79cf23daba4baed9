! fspawn.f90 - MPI_COMM_SPAWN from Fortran (the mpi module): the parents
! start two children running this program, and rank 0 sends each 400
! bytes over the intercommunicator. tr-record's tests check that the
! Fortran call is recorded as the C one is (examples/spawn.c).
!
! usage: fspawn
program fspawn
  use mpi
  implicit none
  integer :: rank, ierr, parent, ic, k
  integer :: b(100)
  character(len=4096) :: self

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_get_parent(parent, ierr)
  b = 0
  if (parent /= MPI_COMM_NULL) then
    call MPI_Recv(b, 100, MPI_INTEGER, 0, 5, parent, MPI_STATUS_IGNORE, ierr)
    call MPI_Comm_disconnect(parent, ierr)
    call MPI_Finalize(ierr)
    stop
  end if
  call get_command_argument(0, self)
  call MPI_Comm_spawn(trim(self), MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, &
      MPI_COMM_WORLD, ic, MPI_ERRCODES_IGNORE, ierr)
  if (rank == 0) then
    do k = 0, 1
      call MPI_Send(b, 100, MPI_INTEGER, k, 5, ic, ierr)
    end do
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Comm_disconnect(ic, ierr)
  if (rank == 0) print '(a)', 'fspawn: done'
  call MPI_Finalize(ierr)
end program fspawn
