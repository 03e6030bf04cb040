! use mpi_f08: one-sided communication (a window over an array, fence and lock epochs, put, get,
! accumulate, request-based get, memory from MPI_Win_allocate as TYPE(C_PTR)) and MPI-IO
! (explicit offsets, a view, non-blocking writes, collective reads, a file name as CHARACTER).
program fortran08_onesided_io
  use, intrinsic :: iso_c_binding
  use mpi_f08
  implicit none
  integer :: rank, n, fails, i, right, left, amode
  integer, asynchronous :: local(8), got(8)
  integer, pointer :: shared(:)
  real(8), asynchronous :: row(4), back(4)
  type(MPI_Win) :: win, win2
  type(MPI_Request) :: req
  type(MPI_File) :: fh
  type(MPI_Status) :: st
  type(c_ptr) :: mem, mem2
  type(MPI_Datatype) :: etype, ftype
  character(len=MPI_MAX_DATAREP_STRING) :: datarep
  integer, pointer :: scratch(:)
  integer(kind=MPI_OFFSET_KIND) :: fsize, offset
  character(len=*), parameter :: fname = 'fortran08_onesided_io.dat'

  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)

  ! A window over local(8); fence epochs.
  local = -1
  call MPI_Win_create(local, int(8 * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_fence(0, win)
  got = [(rank * 10 + i, i = 1, 8)]
  ! Every other element of got (a strided section) to elements 0..3 of the right neighbour.
  call MPI_Put(got(1:8:2), 4, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call check(all(local(1:4) == [(left * 10 + i, i = 1, 8, 2)]) .and. all(local(5:8) == -1), 'put of a section')
  ! (Before anyone's accumulate reaches local(5:6).)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Accumulate([1, 1], 2, MPI_INTEGER, right, 4_MPI_ADDRESS_KIND, 2, MPI_INTEGER, MPI_SUM, win)
  call MPI_Win_fence(0, win)
  call check(all(local(5:6) == 0), 'accumulate')
  got = 0
  call MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win)
  call MPI_Rget(got(1:3), 3, MPI_INTEGER, left, 0_MPI_ADDRESS_KIND, 3, MPI_INTEGER, win, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Win_unlock(left, win)
  call check(all(got(1:3) == local_of(left)), 'rget under a lock')
  call MPI_Win_fence(0, win)
  call MPI_Win_free(win)
  call check(win == MPI_WIN_NULL, 'win_free')

  ! Memory the library allocates, reached through C_F_POINTER.
  call MPI_Win_allocate(int(4 * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, mem, win2)
  call c_f_pointer(mem, shared, [4])
  shared = rank
  call MPI_Win_fence(0, win2)
  call MPI_Get(got(1:4), 4, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win2)
  call MPI_Win_fence(0, win2)
  call check(all(got(1:4) == right), 'get from MPI_Win_allocate memory')
  call MPI_Win_free(win2)
  call MPI_Alloc_mem(int(64, MPI_ADDRESS_KIND), MPI_INFO_NULL, mem2)
  call c_f_pointer(mem2, scratch, [16])
  scratch = rank
  call check(sum(scratch) == 16 * rank, 'alloc_mem')
  call MPI_Free_mem(scratch)

  ! MPI-IO: each rank writes its row at its offset, non-blocking; everyone reads a neighbour's.
  amode = ior(MPI_MODE_CREATE, MPI_MODE_RDWR)
  call MPI_File_open(MPI_COMM_WORLD, fname, amode, MPI_INFO_NULL, fh)
  row = [(rank * 100 + i, i = 1, 4)] * 0.5d0
  offset = rank * 4 * 8
  call MPI_File_iwrite_at(fh, offset, row, 4, MPI_DOUBLE_PRECISION, req)
  call MPI_Wait(req, st)
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_get_size(fh, fsize)
  call check(fsize == n * 4 * 8, 'file size')
  back = 0
  call MPI_File_read_at_all(fh, int(right * 4 * 8, MPI_OFFSET_KIND), back, 4, MPI_DOUBLE_PRECISION, st)
  call check(all(back == [(right * 100 + i, i = 1, 4)] * 0.5d0), 'read_at_all')
  ! A view that starts at the left neighbour's row; a strided section read through it.
  call MPI_File_set_view(fh, int(left * 4 * 8, MPI_OFFSET_KIND), MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, &
                         'native', MPI_INFO_NULL)
  back = -1
  call MPI_File_read(fh, back(1:4:2), 2, MPI_DOUBLE_PRECISION, st)
  call check(back(1) == (left * 100 + 1) * 0.5d0 .and. back(3) == (left * 100 + 2) * 0.5d0 .and. back(2) == -1, &
             'read through a view into a section')
  call MPI_File_get_view(fh, offset, etype, ftype, datarep)
  call check(offset == left * 4 * 8 .and. etype == MPI_DOUBLE_PRECISION .and. trim(datarep) == 'native', &
             'file_get_view')
  call MPI_File_close(fh)
  call check(fh == MPI_FILE_NULL, 'file_close')
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call MPI_File_delete(fname, MPI_INFO_NULL)

  call finish('fortran08_onesided_io')

contains

  function local_of(r) result(v)
    integer, intent(in) :: r
    integer :: v(3)
    ! Rank r's local(1:3) after the put from its left neighbour.
    v = [(mod(r + n - 1, n) * 10 + i, i = 1, 5, 2)]
  end function

  include 'fortran08_check.inc'

end program
