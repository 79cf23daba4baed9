! fio.f90 - the MPI-IO calls of io.c, from Fortran (the mpi module), so
! that tr-record's tests can check the two traces agree.
!
! usage: fio FILE   (1000 doubles a rank)
program fio
  use mpi
  implicit none
  integer, parameter :: n = 1000
  integer :: rank, np, ierr, fh, i, bad
  integer :: rq(3)
  integer(kind=MPI_OFFSET_KIND) :: off, zero
  double precision :: b(n), c(n), x, y
  character(len=256) :: name
  character(len=12) :: hdr = 'tr io header'

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call get_command_argument(1, name)
  do i = 1, n
     b(i) = rank * 1d6 + (i - 1)
  end do
  off = 64 + int(rank, MPI_OFFSET_KIND) * n * 8
  zero = 0
  call MPI_File_open(MPI_COMM_WORLD, trim(name), &
       MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  if (rank == 0) then
     call MPI_File_write_at(fh, zero, hdr, 12, MPI_CHARACTER, &
          MPI_STATUS_IGNORE, ierr)
  end if
  call MPI_File_write_at_all(fh, off, b, n, MPI_DOUBLE_PRECISION, &
       MPI_STATUS_IGNORE, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_File_set_view(fh, off, MPI_DOUBLE_PRECISION, &
       MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
  call MPI_File_write_all(fh, b, n, MPI_DOUBLE_PRECISION, &
       MPI_STATUS_IGNORE, ierr)
  b = -1
  call MPI_File_set_view(fh, off, MPI_DOUBLE_PRECISION, &
       MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
  call MPI_File_read_all(fh, b, n, MPI_DOUBLE_PRECISION, &
       MPI_STATUS_IGNORE, ierr)
  bad = 0
  do i = 1, n
     if (b(i) /= rank * 1d6 + (i - 1)) bad = bad + 1
  end do
  call MPI_File_iwrite_at_all(fh, zero, b, n, MPI_DOUBLE_PRECISION, &
       rq(1), ierr)
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  x = rank
  y = 0
  call MPI_File_iread_at(fh, zero, c, n, MPI_DOUBLE_PRECISION, rq(1), ierr)
  call MPI_Irecv(y, 1, MPI_DOUBLE_PRECISION, mod(rank + np - 1, np), 7, &
       MPI_COMM_WORLD, rq(2), ierr)
  call MPI_Isend(x, 1, MPI_DOUBLE_PRECISION, mod(rank + 1, np), 7, &
       MPI_COMM_WORLD, rq(3), ierr)
  call MPI_Waitall(3, rq, MPI_STATUSES_IGNORE, ierr)
  do i = 1, n
     if (c(i) /= b(i)) bad = bad + 1
  end do
  if (y /= mod(rank + np - 1, np)) bad = bad + 1
  call MPI_File_close(fh, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, &
       MPI_COMM_WORLD, ierr)
  if (rank == 0) then
     if (bad == 0) then
        print '(a)', 'io: read back'
     else
        print '(a)', 'io: read back differs'
     end if
  end if
  call MPI_Finalize(ierr)
end program fio
