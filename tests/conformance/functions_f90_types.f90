! MPI_TYPE_CREATE_F90_REAL/INTEGER, MPI_TYPE_MATCH_SIZE and MPI_SIZEOF from Fortran (MPI-3.1
! §17.1.9): the type of a parameterized kind has the kind's storage size and reduces data of that
! kind; MPI_SIZEOF gives an element's storage size for scalars and arrays of every numeric kind.
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
  call sizeof_checks()
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
contains
  subroutine expect_size(what, got, want)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, want
    if (got /= want) then
      print *, 'rank', rank, ': MPI_SIZEOF of ', what, ' gives', got, ', storage_size says', want
      fails = fails + 1
    end if
  end subroutine expect_size
  subroutine sizeof_checks()
    integer(kind=1) :: i1(3)
    integer(kind=2) :: i2
    integer :: i4(2, 2)
    integer(kind=8) :: i8s
    real :: r4
    real(kind=dp) :: r8(5)
    real(kind=selected_real_kind(18)) :: r10
    complex :: c4
    complex(kind=dp) :: c8(2)
    logical :: l4(3)
    character(len=7) :: ch
    integer :: s, e
    call MPI_SIZEOF(i1, s, e)
    call expect_size('integer(1) array', s, storage_size(i1) / 8)
    call MPI_SIZEOF(i2, s, e)
    call expect_size('integer(2)', s, storage_size(i2) / 8)
    call MPI_SIZEOF(i4, s, e)
    call expect_size('integer 2-D array', s, storage_size(i4) / 8)
    call MPI_SIZEOF(i8s, s, e)
    call expect_size('integer(8)', s, storage_size(i8s) / 8)
    call MPI_SIZEOF(r4, s, e)
    call expect_size('real', s, storage_size(r4) / 8)
    call MPI_SIZEOF(r8, s, e)
    call expect_size('real(dp) array', s, storage_size(r8) / 8)
    call MPI_SIZEOF(r10, s, e)
    call expect_size('real(10)', s, storage_size(r10) / 8)
    call MPI_SIZEOF(c4, s, e)
    call expect_size('complex', s, storage_size(c4) / 8)
    call MPI_SIZEOF(c8, s, e)
    call expect_size('complex(dp) array', s, storage_size(c8) / 8)
    call MPI_SIZEOF(l4, s, e)
    call expect_size('logical array', s, storage_size(l4) / 8)
    call MPI_SIZEOF(ch, s, e)
    call expect_size('character(7) (one character)', s, 1)
    if (e /= MPI_SUCCESS) fails = fails + 1
  end subroutine sizeof_checks
end program f90_types
