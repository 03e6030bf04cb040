! The window and MPI-IO bindings from Fortran: a few calls of each kind, results checked.
! Windows: create (fence, put, get, accumulate), allocate (the base address as an
! INTEGER(KIND=MPI_ADDRESS_KIND), seen through C_F_POINTER), lock_all with fetch_and_op,
! the error class of a put outside an epoch, hints, a user's error handler.
! Files: explicit offsets, the individual pointer (blocking, nonblocking, split collective),
! the shared pointer (ordered), sizes, hints, error classes, a user's error handler.
program onesided_io
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, total, nerr, handled, handled_code
  common /errs/ nerr
  common /handler/ handled, handled_code

  nerr = 0
  handled = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call twindows(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tfiles(rank, np)
  call mpi_allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'onesided_io.f90: PASS on ', np, ' ranks'
    else
      print '(a,i0,a)', 'onesided_io.f90: FAIL, ', total, ' errors'
    end if
  end if
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
end program onesided_io

subroutine check(ok, what)
  implicit none
  logical, intent(in) :: ok
  character(len=*), intent(in) :: what
  integer :: nerr
  common /errs/ nerr
  if (.not. ok) then
    nerr = nerr + 1
    print '(2a)', 'check failed: ', what
  end if
end subroutine check

! A user's error handler (for windows and files alike): counts the calls, keeps the class.
subroutine on_error(handle, code)
  implicit none
  integer :: handle, code
  integer :: handled, handled_code
  common /handler/ handled, handled_code
  if (handle < 0) return
  handled = handled + 1
  handled_code = code
end subroutine on_error

subroutine twindows(rank, np)
  use iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, win, win2, right, left, info, used, eh, handled, handled_code, one, old, v
  ! Volatile: other ranks change the window between the calls that do not take it as an argument.
  integer, volatile :: mem(4)
  integer :: back
  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp, baseptr, attr
  integer :: key
  type(c_ptr) :: p
  integer, pointer, volatile :: counter(:)
  character(len=MPI_MAX_INFO_VAL) :: value
  logical :: flag
  external on_error
  common /handler/ handled, handled_code

  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  mem = -1
  winsize = 16
  call mpi_info_create(info, ierr)
  call mpi_info_set(info, 'no_locks', 'false', ierr)
  call mpi_win_create(mem, winsize, 4, info, MPI_COMM_WORLD, win, ierr)
  call check(ierr == MPI_SUCCESS, 'win_create')
  ! Fence epoch: my rank into slot 2 of the right neighbour, then read it back.
  call mpi_win_fence(0, win, ierr)
  disp = 1
  call mpi_put(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call mpi_win_fence(0, win, ierr)
  call check(mem(2) == left, 'put under fence')
  back = -1
  call mpi_get(back, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call mpi_win_fence(0, win, ierr)
  call check(back == rank, 'get under fence')
  ! Accumulate: every rank adds rank + 1 into slot 3 of rank 0.
  if (rank == 0) mem(3) = 0
  call mpi_win_fence(0, win, ierr)
  disp = 2
  call mpi_accumulate(rank + 1, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call mpi_win_fence(MPI_MODE_NOSUCCEED, win, ierr)
  if (rank == 0) call check(mem(3) == np * (np + 1) / 2, 'accumulate')
  ! Hints: the creation's and set_info's.
  call mpi_info_set(info, 'accumulate_ordering', 'none', ierr)
  call mpi_win_set_info(win, info, ierr)
  call check(ierr == MPI_SUCCESS, 'win_set_info')
  call mpi_info_free(info, ierr)
  call mpi_win_get_info(win, used, ierr)
  call mpi_info_get(used, 'no_locks', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(flag .and. value == 'false', 'win_get_info keeps the creation hint')
  call mpi_info_free(used, ierr)
  ! Errors: a put outside an epoch, returned; then to a user's handler.
  call mpi_win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call mpi_put(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call check(ierr == MPI_ERR_RMA_SYNC, 'put outside an epoch: MPI_ERR_RMA_SYNC')
  call mpi_win_create_errhandler(on_error, eh, ierr)
  call mpi_win_set_errhandler(win, eh, ierr)
  call check(ierr == MPI_SUCCESS, 'win_set_errhandler with a user handler')
  handled = 0
  call mpi_put(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call check(ierr == MPI_ERR_RMA_SYNC .and. handled == 1 .and. handled_code == MPI_ERR_RMA_SYNC, &
             'the user handler saw the put outside an epoch')
  call mpi_win_call_errhandler(win, MPI_ERR_OTHER, ierr)
  call check(ierr == MPI_SUCCESS .and. handled == 2 .and. handled_code == MPI_ERR_OTHER, 'win_call_errhandler')
  call mpi_win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call mpi_errhandler_free(eh, ierr)
  ! A user attribute on the window: its value itself comes back.
  call mpi_win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND, ierr)
  call check(ierr == MPI_SUCCESS, 'win_create_keyval')
  attr = 4242
  call mpi_win_set_attr(win, key, attr, ierr)
  attr = 0
  call mpi_win_get_attr(win, key, attr, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. attr == 4242, 'win_set_attr / win_get_attr')
  call mpi_win_delete_attr(win, key, ierr)
  call mpi_win_get_attr(win, key, attr, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'win_delete_attr')
  call mpi_win_delete_attr(win, MPI_WIN_BASE, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'win_delete_attr of a predefined key: MPI_ERR_KEYVAL')
  call mpi_win_free_keyval(key, ierr)
  call check(ierr == MPI_SUCCESS .and. key == MPI_KEYVAL_INVALID, 'win_free_keyval')
  call mpi_win_free(win, ierr)
  call check(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL, 'win_free')

  ! Allocated memory and a passive-target counter on rank 0.
  winsize = 4
  call mpi_win_allocate(winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win2, ierr)
  call check(ierr == MPI_SUCCESS, 'win_allocate')
  p = transfer(baseptr, p)
  call c_f_pointer(p, counter, [1])
  counter(1) = 0
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_win_lock_all(0, win2, ierr)
  one = 1
  old = -1
  disp = 0
  call mpi_fetch_and_op(one, old, MPI_INTEGER, 0, disp, MPI_SUM, win2, ierr)
  call mpi_win_flush(0, win2, ierr)
  call check(old >= 0 .and. old < np, 'fetch_and_op returns an earlier count')
  call mpi_win_unlock_all(win2, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call mpi_win_lock(MPI_LOCK_SHARED, 0, 0, win2, ierr)
    v = counter(1)
    call mpi_win_unlock(0, win2, ierr)
    call check(v == np, 'fetch_and_op counted every rank')
  end if
  call mpi_win_free(win2, ierr)
end subroutine twindows

subroutine tfiles(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, fh, i, req, count, info, used, eh, handled, handled_code, bad
  integer :: a(10), b(10), st(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: disp, offset, pos, fsize
  character(len=64) :: fname
  character(len=MPI_MAX_INFO_VAL) :: value
  logical :: flag
  external on_error
  common /handler/ handled, handled_code

  ! One name for the job: rank 0's process id.
  if (rank == 0) write (fname, '(a,i0)') 'onesided_io_f90_', getpid()
  call mpi_bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call mpi_info_create(info, ierr)
  call mpi_info_set(info, 'access_style', 'read_mostly', ierr)
  call mpi_file_open(MPI_COMM_WORLD, fname, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     info, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'file_open')
  call mpi_info_free(info, ierr)
  ! Each rank's own 10 integers after the others' (a view with a displacement).
  disp = int(rank, MPI_OFFSET_KIND) * 40
  call mpi_file_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  call check(ierr == MPI_SUCCESS, 'file_set_view')
  do i = 1, 10
    a(i) = rank * 100 + i
  end do
  offset = 0
  call mpi_file_write_at(fh, offset, a, 4, MPI_INTEGER, st, ierr)
  call mpi_get_count(st, MPI_INTEGER, count, ierr)
  call check(ierr == MPI_SUCCESS .and. count == 4, 'file_write_at')
  ! The individual pointer: past the 4, a split collective write of 3, then a nonblocking one.
  offset = 4
  call mpi_file_seek(fh, offset, MPI_SEEK_SET, ierr)
  call mpi_file_write_all_begin(fh, a(5), 3, MPI_INTEGER, ierr)
  call mpi_file_write_all_end(fh, a(5), st, ierr)
  call mpi_get_count(st, MPI_INTEGER, count, ierr)
  call check(ierr == MPI_SUCCESS .and. count == 3, 'file_write_all_begin/end')
  call mpi_file_iwrite(fh, a(8), 3, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call mpi_file_get_position(fh, pos, ierr)
  call check(pos == 10, 'file_get_position after 10 integers')
  ! Read them back: explicit, nonblocking collective, split collective.
  b = -1
  offset = 0
  call mpi_file_read_at_all(fh, offset, b, 2, MPI_INTEGER, st, ierr)
  call mpi_file_iread_at(fh, offset + 2, b(3), 2, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  offset = 4
  call mpi_file_seek(fh, offset, MPI_SEEK_SET, ierr)
  call mpi_file_iread_all(fh, b(5), 3, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call mpi_get_count(st, MPI_INTEGER, count, ierr)
  call check(count == 3, 'file_iread_all count')
  call mpi_file_read_all_begin(fh, b(8), 3, MPI_INTEGER, ierr)
  call mpi_file_read_all_end(fh, b(8), MPI_STATUS_IGNORE, ierr)
  call check(all(a == b), 'file reads give back what was written')
  ! Errors: a negative count, an end without a begin.
  call mpi_file_read_at(fh, offset, b, -1, MPI_INTEGER, st, ierr)
  call check(ierr == MPI_ERR_COUNT, 'file_read_at with a negative count: MPI_ERR_COUNT')
  call mpi_file_read_all_end(fh, b, st, ierr)
  call check(ierr == MPI_ERR_IO, 'file_read_all_end without a begin: MPI_ERR_IO')
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_file_get_size(fh, fsize, ierr)
  call check(fsize == int(np, MPI_OFFSET_KIND) * 40, 'file_get_size')
  ! The shared pointer, after every rank's part: ranks in order.
  disp = int(np, MPI_OFFSET_KIND) * 40
  call mpi_file_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  call mpi_file_write_ordered(fh, rank, 1, MPI_INTEGER, st, ierr)
  offset = 0
  call mpi_file_seek_shared(fh, offset, MPI_SEEK_SET, ierr)
  i = -1
  call mpi_file_read_ordered(fh, i, 1, MPI_INTEGER, st, ierr)
  call check(i == rank, 'file_read_ordered')
  ! The other nonblocking and split forms (the view's integers np.. after the ordered ones).
  call mpi_file_iwrite_shared(fh, rank, 1, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  offset = np
  i = -1
  call mpi_file_iread_at_all(fh, offset + rank, i, 1, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call check(i >= 0 .and. i < np, 'file_iwrite_shared then file_iread_at_all')
  call mpi_file_write_at_all_begin(fh, 2 * offset + rank, rank, 1, MPI_INTEGER, ierr)
  call mpi_file_write_at_all_end(fh, rank, st, ierr)
  call mpi_file_read_at_all_begin(fh, 2 * offset + rank, i, 1, MPI_INTEGER, ierr)
  call mpi_file_read_at_all_end(fh, i, st, ierr)
  call check(ierr == MPI_SUCCESS .and. i == rank, 'file_write/read_at_all_begin/end')
  call mpi_file_iwrite_at_all(fh, 3 * offset + rank, rank, 1, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call mpi_file_seek(fh, 4 * offset + rank, MPI_SEEK_SET, ierr)
  call mpi_file_iwrite_all(fh, rank, 1, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_file_seek_shared(fh, 3 * offset, MPI_SEEK_SET, ierr)
  i = -1
  call mpi_file_iread_shared(fh, i, 1, MPI_INTEGER, req, ierr)
  call mpi_wait(req, st, ierr)
  call check(i >= 0 .and. i < np, 'file_iwrite_at_all then file_iread_shared')
  call mpi_file_seek_shared(fh, 4 * offset, MPI_SEEK_SET, ierr)
  call mpi_file_read_ordered_begin(fh, i, 1, MPI_INTEGER, ierr)
  call mpi_file_read_ordered_end(fh, i, st, ierr)
  call check(i == rank, 'file_iwrite_all then file_read_ordered_begin/end')
  call mpi_file_write_ordered_begin(fh, rank, 1, MPI_INTEGER, ierr)
  call mpi_file_write_ordered_end(fh, rank, st, ierr)
  call mpi_get_count(st, MPI_INTEGER, count, ierr)
  call check(count == 1, 'file_write_ordered_begin/end')
  call mpi_file_iread_shared(fh, i, -1, MPI_INTEGER, req, ierr)
  call check(ierr == MPI_ERR_COUNT, 'file_iread_shared with a negative count: MPI_ERR_COUNT')
  ! Hints and a user's error handler.
  call mpi_file_get_info(fh, used, ierr)
  call mpi_info_get(used, 'access_style', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(flag .and. value == 'read_mostly', 'file_get_info keeps the open hint')
  call mpi_info_free(used, ierr)
  bad = 12345
  call mpi_file_set_info(fh, bad, ierr)
  call check(ierr == MPI_ERR_INFO, 'file_set_info with a bad info: MPI_ERR_INFO')
  call mpi_file_create_errhandler(on_error, eh, ierr)
  call mpi_file_set_errhandler(fh, eh, ierr)
  handled = 0
  call mpi_file_read_at(fh, offset, b, 1, MPI_DATATYPE_NULL, st, ierr)
  call check(ierr == MPI_ERR_TYPE .and. handled == 1 .and. handled_code == MPI_ERR_TYPE, &
             'the file handler saw MPI_ERR_TYPE')
  call mpi_file_call_errhandler(fh, MPI_ERR_IO, ierr)
  call check(ierr == MPI_SUCCESS .and. handled == 2, 'file_call_errhandler')
  call mpi_file_set_errhandler(fh, MPI_ERRORS_RETURN, ierr)
  call mpi_errhandler_free(eh, ierr)
  call mpi_file_close(fh, ierr)
  call check(ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL, 'file_close')
  ! Deleted on close: opening it read-only finds nothing.
  call mpi_file_open(MPI_COMM_WORLD, fname, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_ERR_NO_SUCH_FILE, 'file_open of a deleted file: MPI_ERR_NO_SUCH_FILE')
end subroutine tfiles
