! MPI_BOTTOM from Fortran (mpif.h's MPI_BOTTOM) with derived types of absolute addresses from
! MPI_GET_ADDRESS: a struct of 10 INTEGERs and a DOUBLE PRECISION sent around a ring with
! MPI_SENDRECV, and a broadcast. The buffers are VOLATILE: they reach MPI only through their
! addresses, so the compiler must not keep them in registers across the calls.
program semantics_bottom_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, right, left, i, stype, rtype, failures, total
  integer, volatile :: sbuf(10), rbuf(10)
  double precision, volatile :: sd, rd
  integer(kind=MPI_ADDRESS_KIND) :: addrs(2)
  integer :: lens(2), types(2)
  integer :: status(MPI_STATUS_SIZE)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  failures = 0
  do i = 1, 10
    sbuf(i) = 100 * rank + i
    rbuf(i) = -1
  end do
  sd = 0.5d0 + rank
  rd = -1.0d0
  lens = (/ 10, 1 /)
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_GET_ADDRESS(sbuf, addrs(1), ierr)
  call MPI_GET_ADDRESS(sd, addrs(2), ierr)
  call MPI_TYPE_CREATE_STRUCT(2, lens, addrs, types, stype, ierr)
  call MPI_TYPE_COMMIT(stype, ierr)
  call MPI_GET_ADDRESS(rbuf, addrs(1), ierr)
  call MPI_GET_ADDRESS(rd, addrs(2), ierr)
  call MPI_TYPE_CREATE_STRUCT(2, lens, addrs, types, rtype, ierr)
  call MPI_TYPE_COMMIT(rtype, ierr)

  call MPI_SENDRECV(MPI_BOTTOM, 1, stype, right, 1, MPI_BOTTOM, 1, rtype, left, 1, &
                    MPI_COMM_WORLD, status, ierr)
  if (ierr /= MPI_SUCCESS) then
    print *, 'rank', rank, ': FAILED: MPI_SENDRECV with MPI_BOTTOM returned', ierr
    failures = failures + 1
  end if
  do i = 1, 10
    if (rbuf(i) /= 100 * left + i) then
      print *, 'rank', rank, ': FAILED: sendrecv rbuf(', i, ') =', rbuf(i)
      failures = failures + 1
    end if
  end do
  if (rd /= 0.5d0 + left) then
    print *, 'rank', rank, ': FAILED: sendrecv rd =', rd
    failures = failures + 1
  end if

  ! A broadcast of the struct from the last rank into MPI_BOTTOM.
  if (rank == nprocs - 1) then
    do i = 1, 10
      rbuf(i) = 7 * i
    end do
    rd = 2.25d0
  end if
  call MPI_BCAST(MPI_BOTTOM, 1, rtype, nprocs - 1, MPI_COMM_WORLD, ierr)
  do i = 1, 10
    if (rbuf(i) /= 7 * i) then
      print *, 'rank', rank, ': FAILED: bcast rbuf(', i, ') =', rbuf(i)
      failures = failures + 1
    end if
  end do
  if (rd /= 2.25d0) then
    print *, 'rank', rank, ': FAILED: bcast rd =', rd
    failures = failures + 1
  end if

  call MPI_TYPE_FREE(stype, ierr)
  call MPI_TYPE_FREE(rtype, ierr)
  call MPI_ALLREDUCE(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'MPI_BOTTOM (Fortran): all checks passed'
  call MPI_FINALIZE(ierr)
  if (total /= 0) stop 1
end program semantics_bottom_f
