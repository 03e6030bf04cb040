! Attributes across languages (MPI-3.1 §17.2.7, Examples 17.13 to 17.15): a value set in Fortran
! (MPI_COMM_SET_ATTR, MPI_TYPE_SET_ATTR, MPI_WIN_SET_ATTR, MPI-1's MPI_ATTR_PUT) is read in C
! through a pointer to it (*value == the value), and in Fortran as the value; a value set in C is
! read in Fortran as the C pointer's address. A communicator duplicated with a Fortran copy
! callback gives it the value, and its copy reads the same from both languages. The C side is
! outside_attr_languages_c.c.
program outside_attr_languages
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, failures, total, key, tkey, wkey, key1, dup, wint, win
  integer(kind=MPI_ADDRESS_KIND) :: val, got, extra
  integer :: val1, got1
  logical :: flag
  integer :: c_reads_aint, c_reads_int, c_sets
  external :: copy_plus_one  ! (mpif.h declares the predefined callbacks)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  failures = 0
  extra = 0

  ! Set in Fortran, read in C and in Fortran.
  call MPI_COMM_CREATE_KEYVAL(copy_plus_one, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  val = 5555 + rank
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, val, ierr)
  if (c_reads_aint(0, MPI_COMM_WORLD, key, val) /= 0) call fail('MPI_COMM_SET_ATTR, read in C')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, key, got, flag, ierr)
  if (.not. flag .or. got /= val) call fail('MPI_COMM_SET_ATTR, read in Fortran')

  ! The copy callback (Fortran) gets the value and gives value + 1.
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, key, got, flag, ierr)
  if (.not. flag .or. got /= val + 1) call fail('the Fortran copy callback''s value, read in Fortran')
  if (c_reads_aint(0, dup, key, val + 1) /= 0) call fail('the Fortran copy callback''s value, read in C')
  call MPI_COMM_FREE(dup, ierr)

  ! Set in C (a pointer to a C int holding 77): Fortran reads the pointer's address, C the int.
  if (c_sets(MPI_COMM_WORLD, key) /= 0) call fail('MPI_Comm_set_attr from C')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, key, got, flag, ierr)
  if (.not. flag .or. got == 77 .or. got == 0) call fail('set in C, read in Fortran: not the address')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, key, ierr)
  call MPI_COMM_FREE_KEYVAL(key, ierr)

  ! MPI-1's MPI_ATTR_PUT: C reads a pointer to an int.
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, key1, 0, ierr)
  val1 = 7 + rank
  call MPI_ATTR_PUT(MPI_COMM_WORLD, key1, val1, ierr)
  if (c_reads_int(MPI_COMM_WORLD, key1, val1) /= 0) call fail('MPI_ATTR_PUT, read in C')
  call MPI_ATTR_GET(MPI_COMM_WORLD, key1, got1, flag, ierr)
  if (.not. flag .or. got1 /= val1) call fail('MPI_ATTR_PUT, read with MPI_ATTR_GET')
  call MPI_KEYVAL_FREE(key1, ierr)

  ! Datatypes and windows.
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tkey, extra, ierr)
  val = 4242
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tkey, val, ierr)
  if (c_reads_aint(1, MPI_INTEGER, tkey, val) /= 0) call fail('MPI_TYPE_SET_ATTR, read in C')
  call MPI_TYPE_GET_ATTR(MPI_INTEGER, tkey, got, flag, ierr)
  if (.not. flag .or. got /= val) call fail('MPI_TYPE_SET_ATTR, read in Fortran')
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tkey, ierr)
  call MPI_TYPE_FREE_KEYVAL(tkey, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkey, extra, ierr)
  call MPI_WIN_CREATE(wint, 4_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  val = 31337
  call MPI_WIN_SET_ATTR(win, wkey, val, ierr)
  if (c_reads_aint(2, win, wkey, val) /= 0) call fail('MPI_WIN_SET_ATTR, read in C')
  call MPI_WIN_GET_ATTR(win, wkey, got, flag, ierr)
  if (.not. flag .or. got /= val) call fail('MPI_WIN_SET_ATTR, read in Fortran')
  call MPI_WIN_FREE(win, ierr)
  call MPI_WIN_FREE_KEYVAL(wkey, ierr)

  call MPI_ALLREDUCE(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a)', 'ok'
    else
      print '(i0, a)', total, ' failed checks'
    end if
  end if
  call MPI_FINALIZE(ierr)
  if (total /= 0) stop 1

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a, i0, a, a)', 'rank ', rank, ': FAILED: ', what
    failures = failures + 1
  end subroutine

end program

subroutine copy_plus_one(oldcomm, keyval, extra_state, value_in, value_out, flag, ierr)
  implicit none
  include 'mpif.h'
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
  logical :: flag
  value_out = value_in + 1
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine
