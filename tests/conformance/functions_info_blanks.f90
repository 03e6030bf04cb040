! Fortran info keys and values with blanks (MPI-3.1 §9: in Fortran, leading and trailing blanks of
! keys and values are stripped; blanks inside are kept): MPI_INFO_SET, MPI_INFO_GET,
! MPI_INFO_GET_NTHKEY, MPI_INFO_GET_VALUELEN and MPI_INFO_DELETE all see the stripped strings.
program info_blanks
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, errs, total, info, nkeys, vlen, i, j, found
  character(len=MPI_MAX_INFO_KEY) :: keys(4), key
  character(len=MPI_MAX_INFO_VAL) :: values(4), value
  character(len=8) :: short
  logical :: flag

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  keys = (/ character(len=MPI_MAX_INFO_KEY) :: 'Key1', 'A Key With Blanks', 'See Below', 'last' /)
  values = (/ character(len=MPI_MAX_INFO_VAL) :: 'value 1', 'key=valu:3', 'false', 'no test' /)

  call mpi_info_create(info, ierr)
  call mpi_info_set(info, keys(1), values(1), ierr)
  call mpi_info_set(info, '  A Key With Blanks', '   key=valu:3  ', ierr)
  call mpi_info_set(info, ' See Below', values(3), ierr)
  call mpi_info_set(info, keys(4), ' no test ', ierr)
  if (ierr /= MPI_SUCCESS) call fail('mpi_info_set')

  call mpi_info_get_nkeys(info, nkeys, ierr)
  if (nkeys /= 4) call fail('not 4 keys')
  found = 0
  do i = 1, nkeys
    call mpi_info_get_nthkey(info, i - 1, key, ierr)
    do j = 1, 4
      if (key == keys(j)) then
        found = found + 1
        call mpi_info_get_valuelen(info, key, vlen, flag, ierr)
        if (.not. flag .or. vlen /= len_trim(values(j))) call fail('valuelen of ' // trim(key))
        call mpi_info_get(info, key, MPI_MAX_INFO_VAL, value, flag, ierr)
        if (.not. flag .or. value /= values(j)) call fail('value of ' // trim(key) // ': "' // trim(value) // '"')
      end if
    end do
  end do
  if (found /= 4) call fail('get_nthkey did not return the stripped keys')

  ! Lookups with blanks around the key find the stripped one; blanks inside still matter.
  call mpi_info_get(info, '  See Below   ', MPI_MAX_INFO_VAL, value, flag, ierr)
  if (.not. flag .or. value /= 'false') call fail('get with blanks around the key')
  call mpi_info_get_valuelen(info, ' last ', vlen, flag, ierr)
  if (.not. flag .or. vlen /= 7) call fail('get_valuelen with blanks around the key')
  call mpi_info_get(info, 'SeeBelow', MPI_MAX_INFO_VAL, value, flag, ierr)
  if (flag) call fail('a key without its inner blank was found')
  ! A value longer than the variable is cut to it.
  call mpi_info_get(info, keys(2), len(short), short, flag, ierr)
  if (.not. flag .or. short /= 'key=valu') call fail('a value cut to 8 characters: "' // short // '"')
  call mpi_info_delete(info, '   A Key With Blanks ', ierr)
  if (ierr /= MPI_SUCCESS) call fail('delete with blanks around the key')
  call mpi_info_get_nkeys(info, nkeys, ierr)
  if (nkeys /= 3) call fail('the deleted key is still there')

  call mpi_info_free(info, ierr)
  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_info_blanks.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program info_blanks
