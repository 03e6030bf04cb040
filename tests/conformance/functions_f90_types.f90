! MPI_TYPE_CREATE_F90_REAL/INTEGER and MPI_TYPE_MATCH_SIZE from Fortran (MPI-3.1 §17.1.9): the
! type of a parameterized kind has the kind's storage size and reduces data of that kind.
program f90_types
  use mpi
  implicit none
  integer, parameter :: dp = selected_real_kind(15)
  integer, parameter :: i8 = selected_int_kind(18)
  real(kind=dp) :: x(2), s(2)
  integer(kind=i8) :: n, total
  integer :: ierr, rank, nranks, treal, tint, tmatch, tsize, fails, allfails
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  fails = 0
  call MPI_TYPE_CREATE_F90_REAL(15, MPI_UNDEFINED, treal, ierr)
  call MPI_TYPE_SIZE(treal, tsize, ierr)
  if (ierr /= MPI_SUCCESS .or. tsize * 8 /= storage_size(x(1))) then
    print *, 'rank', rank, ': real kind 15 size', tsize
    fails = fails + 1
  end if
  call MPI_TYPE_CREATE_F90_INTEGER(18, tint, ierr)
  call MPI_TYPE_SIZE(tint, tsize, ierr)
  if (tsize * 8 /= storage_size(n)) then
    print *, 'rank', rank, ': integer kind 18 size', tsize
    fails = fails + 1
  end if
  x = (/ real(rank, dp), 1.5_dp /)
  call MPI_ALLREDUCE(x, s, 2, treal, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (s(1) /= real(nranks * (nranks - 1) / 2, dp) .or. s(2) /= 1.5_dp * nranks) then
    print *, 'rank', rank, ': sums', s
    fails = fails + 1
  end if
  n = 2_i8**40 + rank
  call MPI_ALLREDUCE(n, total, 1, tint, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= nranks * 2_i8**40 + nranks * (nranks - 1) / 2) then
    print *, 'rank', rank, ': integer sum', total
    fails = fails + 1
  end if
  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, 8, tmatch, ierr)
  call MPI_TYPE_SIZE(tmatch, tsize, ierr)
  if (ierr /= MPI_SUCCESS .or. tsize /= 8) then
    print *, 'rank', rank, ': match_size real 8 gives size', tsize
    fails = fails + 1
  end if
  call MPI_ALLREDUCE(fails, allfails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. allfails == 0) print *, 'functions.f90_types_f90: all checks passed'
  call MPI_FINALIZE(ierr)
  if (allfails /= 0) stop 1
end program f90_types
