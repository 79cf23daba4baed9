! A coarray halo exchange (OpenCoarrays: caf -o halo halo-caf.f90): its
! puts are MPI_Put under MPI_Win_lock, its sync all MPI_Barrier, and at
! its end OpenCoarrays frees its communicator before its windows.
program halo
  implicit none
  integer, parameter :: n = 2000, iters = 20
  real(8), allocatable :: u(:)[:], v(:)
  real(8) :: s
  integer :: me, np, it, left, right
  me = this_image(); np = num_images()
  allocate(u(0:n+1)[*], v(0:n+1))
  u = real(me, 8); v = 0
  left = me - 1; if (left < 1) left = np
  right = me + 1; if (right > np) right = 1
  sync all
  do it = 1, iters
    u(n+1)[left] = u(1)      ! my first cell is my left neighbour's right halo
    u(0)[right] = u(n)
    sync all
    v(1:n) = 0.5d0 * u(1:n) + 0.25d0 * (u(0:n-1) + u(2:n+1))
    sync all
    u(1:n) = v(1:n)
    if (mod(it, 10) == 0) then
      s = sum(u(1:n))
      call co_sum(s)
      if (me == 1) print *, 'iter', it, 'sum', s
    end if
  end do
end program
