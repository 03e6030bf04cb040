! MPI_REGISTER_DATAREP from Fortran (MPI-3.1 §13.5.3): conversion functions written in Fortran
! (the file holds each INTEGER negated) are called for every write and read of a view that names
! the representation; MPI_CONVERSION_FN_NULL converts nothing; a second registration of the name is
! MPI_ERR_DUP_DATAREP.
module negating_rep
  use mpi
  implicit none
  integer :: calls = 0
contains
  subroutine to_file(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    do i = 1, count
      filebuf(i) = -userbuf(position + i) + int(extra_state) - 100
    end do
    calls = calls + 1
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER) ierror = MPI_ERR_CONVERSION
  end subroutine to_file
  subroutine from_file(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    do i = 1, count
      userbuf(position + i) = -filebuf(i)
    end do
    calls = calls + 1
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER .or. extra_state /= 100) ierror = MPI_ERR_CONVERSION
  end subroutine from_file
  subroutine file_extent(datatype, extent, extra_state, ierror)
    integer :: datatype, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state, lb
    call MPI_TYPE_GET_EXTENT(datatype, lb, extent, ierror)
  end subroutine file_extent
end module negating_rep

program datarep_f90
  use mpi
  use negating_rep
  implicit none
  integer :: ierr, rank, fh, raw, fails, allfails, v(3), back(3), got(3)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  character(len=32) :: name
  integer(kind=MPI_OFFSET_KIND) :: zero
  fails = 0
  zero = 0
  extra = 100
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_REGISTER_DATAREP('negating', from_file, to_file, file_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) fails = fails + 1
  call MPI_REGISTER_DATAREP('negating', from_file, to_file, file_extent, extra, ierr)
  if (ierr /= MPI_ERR_DUP_DATAREP) then
    print *, 'rank', rank, ': second registration gives', ierr
    fails = fails + 1
  end if
  call MPI_REGISTER_DATAREP('untouched', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, file_extent, extra, ierr)
  write (name, '(a,i0)') 'datarep_f.', rank
  call MPI_FILE_OPEN(MPI_COMM_SELF, name, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call MPI_FILE_SET_VIEW(fh, zero, MPI_INTEGER, MPI_INTEGER, 'negating', MPI_INFO_NULL, ierr)
  v = (/ 5, -6, 7 /)
  call MPI_FILE_WRITE_AT(fh, zero, v, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_FILE_OPEN(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, raw, ierr)
  call MPI_FILE_READ_AT(raw, zero, got, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_FILE_CLOSE(raw, ierr)
  if (any(got /= -v)) then
    print *, 'rank', rank, ': the file holds', got
    fails = fails + 1
  end if
  call MPI_FILE_READ_AT(fh, zero, back, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. any(back /= v) .or. calls /= 2) then
    print *, 'rank', rank, ': read back', back, ' calls', calls, ' ierr', ierr
    fails = fails + 1
  end if
  call MPI_FILE_SET_VIEW(fh, zero, MPI_INTEGER, MPI_INTEGER, 'untouched', MPI_INFO_NULL, ierr)
  call MPI_FILE_WRITE_AT(fh, zero, v, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_FILE_READ_AT(fh, zero, back, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (any(back /= v) .or. calls /= 2) then
    print *, 'rank', rank, ': untouched read back', back, ' calls', calls
    fails = fails + 1
  end if
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FILE_DELETE(name, MPI_INFO_NULL, ierr)
  call MPI_ALLREDUCE(fails, allfails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. allfails == 0) print *, 'functions.datarep_f90: all checks passed'
  call MPI_FINALIZE(ierr)
  if (allfails /= 0) stop 1
end program datarep_f90
