! The Fortran types MPI_OFFSET, MPI_COUNT, MPI_INTEGER16, MPI_REAL16 and MPI_COMPLEX8/16/32 from
! Fortran (mpif.h): messages and the reductions the standard defines on each. MPI_OFFSET was no
! PARAMETER of mpif.h before, so a send with it failed at run time.
program datatypes
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, errs, total, to, from, r
  integer(kind=MPI_OFFSET_KIND) :: off(2), offin(2), offsum
  integer(kind=MPI_COUNT_KIND) :: cnt, cntmax
  integer(kind=16) :: big, bigsum
  real(kind=16) :: q, qsum
  complex(kind=4) :: c8, c8sum
  complex(kind=8) :: c16, c16prod, c16want
  complex(kind=16) :: c32, c32sum, c32prod, c32want

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  to = mod(rank + 1, np)
  from = mod(rank + np - 1, np)

  off = (/ int(rank, MPI_OFFSET_KIND) * 2_MPI_OFFSET_KIND**40, -5_MPI_OFFSET_KIND /)
  call mpi_sendrecv(off, 2, MPI_OFFSET, to, 1, offin, 2, MPI_OFFSET, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. offin(1) /= int(from, MPI_OFFSET_KIND) * 2_MPI_OFFSET_KIND**40 .or. offin(2) /= -5) &
    call fail('a message of MPI_OFFSET')
  call mpi_allreduce(off(1), offsum, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (offsum /= int(np * (np - 1) / 2, MPI_OFFSET_KIND) * 2_MPI_OFFSET_KIND**40) call fail('MPI_OFFSET sum')

  cnt = int(rank, MPI_COUNT_KIND) + 2_MPI_COUNT_KIND**35
  call mpi_allreduce(cnt, cntmax, 1, MPI_COUNT, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (cntmax /= int(np - 1, MPI_COUNT_KIND) + 2_MPI_COUNT_KIND**35) call fail('MPI_COUNT max')

  big = 2_16**100 + rank
  call mpi_allreduce(big, bigsum, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. bigsum /= np * 2_16**100 + np * (np - 1) / 2) call fail('MPI_INTEGER16 sum')

  ! 1 + 2**-100 needs quad precision: a double sum would lose the small part.
  q = 1.0_16 + 2.0_16**(-100)
  call mpi_allreduce(q, qsum, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. qsum /= np * q) call fail('MPI_REAL16 sum')

  c8 = cmplx(1.0, real(rank), kind=4)
  call mpi_allreduce(c8, c8sum, 1, MPI_COMPLEX8, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (c8sum /= cmplx(real(np), real(np * (np - 1) / 2), kind=4)) call fail('MPI_COMPLEX8 sum')

  c16 = (0.0_8, 1.0_8)
  call mpi_allreduce(c16, c16prod, 1, MPI_COMPLEX16, MPI_PROD, MPI_COMM_WORLD, ierr)
  c16want = (1.0_8, 0.0_8)
  do r = 1, np
    c16want = c16want * c16
  end do
  if (c16prod /= c16want) call fail('MPI_COMPLEX16 prod')

  c32 = cmplx(1.0_16 + 2.0_16**(-100), real(rank, 16), kind=16)
  call mpi_allreduce(c32, c32sum, 1, MPI_COMPLEX32, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (real(c32sum, 16) /= np * (1.0_16 + 2.0_16**(-100)) .or. aimag(c32sum) /= real(np * (np - 1) / 2, 16)) &
    call fail('MPI_COMPLEX32 sum')
  c32 = (0.5_16, 0.5_16)
  call mpi_allreduce(c32, c32prod, 1, MPI_COMPLEX32, MPI_PROD, MPI_COMM_WORLD, ierr)
  c32want = (1.0_16, 0.0_16)
  do r = 1, np
    c32want = c32want * c32
  end do
  if (c32prod /= c32want) call fail('MPI_COMPLEX32 prod')

  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_datatypes.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program datatypes
