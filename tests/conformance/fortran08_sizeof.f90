! use mpi_f08: MPI_Sizeof (with and without ierror) for scalars and arrays of several kinds, and
! the parameterized-type functions (MPI-3.1 §17.1.9): MPI_Type_create_f90_real and _integer give
! types of the kind's size that reduce data of that kind; MPI_Type_match_size.
program fortran08_sizeof
  use mpi_f08
  implicit none
  integer, parameter :: dp = selected_real_kind(15)
  integer :: rank, nranks, s, ierr, fails, allfails, tsize
  integer(kind=2) :: i2(4)
  integer(kind=8) :: i8
  real :: r4(2, 3)
  real(kind=dp) :: x(2), total(2)
  complex(kind=dp) :: z
  logical :: flag
  character(len=3) :: word
  type(MPI_Datatype) :: treal, tint, tmatch
  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call MPI_Sizeof(i2, s, ierr)
  call expect('integer(2) array', s, storage_size(i2) / 8)
  if (ierr /= MPI_SUCCESS) fails = fails + 1
  call MPI_Sizeof(i8, s)
  call expect('integer(8)', s, storage_size(i8) / 8)
  call MPI_Sizeof(r4, s)
  call expect('real 2-D array', s, storage_size(r4) / 8)
  call MPI_Sizeof(z, s)
  call expect('complex(dp)', s, storage_size(z) / 8)
  call MPI_Sizeof(flag, s)
  call expect('logical', s, storage_size(flag) / 8)
  call MPI_Sizeof(word, s)
  call expect('character', s, 1)

  call MPI_Type_create_f90_real(15, MPI_UNDEFINED, treal, ierr)
  call MPI_Type_size(treal, tsize)
  call expect('MPI_Type_create_f90_real(15)', tsize, storage_size(x(1)) / 8)
  x = [real(rank, dp), 0.25_dp]
  call MPI_Allreduce(x, total, 2, treal, MPI_SUM, MPI_COMM_WORLD)
  if (total(1) /= real(nranks * (nranks - 1) / 2, dp) .or. total(2) /= 0.25_dp * nranks) then
    print *, 'rank', rank, ': sums', total
    fails = fails + 1
  end if
  call MPI_Type_create_f90_integer(18, tint)
  call MPI_Type_size(tint, tsize)
  call expect('MPI_Type_create_f90_integer(18)', tsize, 8)
  call MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, tmatch)
  call MPI_Type_size(tmatch, tsize)
  call expect('MPI_Type_match_size(complex, 16)', tsize, 16)

  call MPI_Allreduce(fails, allfails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. allfails == 0) print '(a)', 'fortran08.sizeof: all checks passed'
  call MPI_Finalize()
  if (allfails /= 0) error stop 1
contains
  subroutine expect(what, got, want)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, want
    if (got /= want) then
      print *, 'rank', rank, ': ', what, ' gives', got, ', want', want
      fails = fails + 1
    end if
  end subroutine expect
end program fortran08_sizeof
