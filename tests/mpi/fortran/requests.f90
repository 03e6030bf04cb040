! Persistent requests, buffered sends, the matched probe, info objects, MPI_ALLOC_MEM and
! MPI_PCONTROL from Fortran, with error classes under MPI_ERRORS_RETURN.
program requests
  use iso_c_binding
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, total, nerr
  common /errs/ nerr

  nerr = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call mpi_pcontrol(1, ierr)
  call check(ierr == MPI_SUCCESS, 'pcontrol')
  call tpersistent(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tbuffered(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tmprobe(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tinfo(np)
  call mpi_allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'requests.f90: PASS on ', np, ' ranks'
    else
      print '(a,i0,a)', 'requests.f90: FAIL, ', total, ' errors'
    end if
  end if
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
end program requests

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

subroutine tpersistent(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, right, left, round, i, reqs(2), stats(MPI_STATUS_SIZE, 2), req
  integer :: sbuf(5), rbuf(5)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  call mpi_recv_init(rbuf, 5, MPI_INTEGER, left, 4, MPI_COMM_WORLD, reqs(1), ierr)
  call check(ierr == MPI_SUCCESS, 'recv_init')
  call mpi_send_init(sbuf, 5, MPI_INTEGER, right, 4, MPI_COMM_WORLD, reqs(2), ierr)
  call check(ierr == MPI_SUCCESS, 'send_init')
  do round = 1, 3
    do i = 1, 5
      sbuf(i) = rank * 100 + round * 10 + i
    end do
    rbuf = -1
    call mpi_startall(2, reqs, ierr)
    call check(ierr == MPI_SUCCESS, 'startall')
    call mpi_waitall(2, reqs, stats, ierr)
    call check(reqs(1) /= MPI_REQUEST_NULL, 'persistent request kept')
    call check(stats(MPI_SOURCE, 1) == left, 'persistent status source')
    do i = 1, 5
      call check(rbuf(i) == left * 100 + round * 10 + i, 'persistent data')
    end do
  end do
  call mpi_start(reqs(1), ierr)
  call mpi_start(reqs(1), ierr)
  call check(ierr == MPI_ERR_REQUEST, 'start of an active request')
  call mpi_start(reqs(2), ierr)
  call mpi_waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call mpi_request_free(reqs(1), ierr)
  call mpi_request_free(reqs(2), ierr)
  call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'request_free')
  call mpi_ssend_init(sbuf, 1, MPI_INTEGER, np, 0, MPI_COMM_WORLD, req, ierr)
  call check(ierr == MPI_ERR_RANK, 'ssend_init bad rank')
  call mpi_rsend_init(sbuf, -1, MPI_INTEGER, right, 0, MPI_COMM_WORLD, req, ierr)
  call check(ierr == MPI_ERR_COUNT, 'rsend_init bad count')
  req = MPI_REQUEST_NULL
  call mpi_start(req, ierr)
  call check(ierr == MPI_ERR_REQUEST, 'start of MPI_REQUEST_NULL')
end subroutine tpersistent

subroutine tbuffered(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, right, left, size, req, i
  double precision :: space(200), dummy(1)
  double precision :: sbuf(20), rbuf(20)
  logical :: flag
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  call mpi_bsend(sbuf, 20, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_ERR_BUFFER, 'bsend with nothing attached')
  call mpi_buffer_attach(space, 1600, ierr)
  call check(ierr == MPI_SUCCESS, 'buffer_attach')
  call mpi_buffer_attach(space, 1600, ierr)
  call check(ierr == MPI_ERR_BUFFER, 'second buffer_attach')
  do i = 1, 20
    sbuf(i) = rank + i * 0.25d0
  end do
  call mpi_bsend(sbuf, 20, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'bsend')
  call mpi_ibsend(sbuf, 20, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, req, ierr)
  call mpi_test(req, flag, MPI_STATUS_IGNORE, ierr)
  call check(flag, 'ibsend completes at once')
  sbuf = 0
  call mpi_bsend(sbuf, 400, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_ERR_BUFFER, 'bsend larger than the buffer')
  call mpi_recv(rbuf, 20, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(rbuf(20) == left + 5d0, 'bsend data')
  rbuf = 0
  call mpi_recv(rbuf, 20, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(rbuf(4) == left + 1d0, 'ibsend data')
  call mpi_buffer_detach(dummy, size, ierr)
  call check(ierr == MPI_SUCCESS .and. size == 1600, 'buffer_detach')
  call check(MPI_BSEND_OVERHEAD > 0, 'MPI_BSEND_OVERHEAD')
end subroutine tbuffered

subroutine tmprobe(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, msg, status(MPI_STATUS_SIZE), n, req, k
  integer :: buf(100)
  logical :: flag
  call mpi_mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, msg, status, ierr)
  call check(msg == MPI_MESSAGE_NO_PROC, 'mprobe of MPI_PROC_NULL')
  call mpi_mrecv(buf, 1, MPI_INTEGER, msg, status, ierr)
  call check(msg == MPI_MESSAGE_NULL .and. status(MPI_SOURCE) == MPI_PROC_NULL, 'mrecv of no_proc')
  msg = MPI_MESSAGE_NULL
  call mpi_mrecv(buf, 1, MPI_INTEGER, msg, status, ierr)
  call check(ierr == MPI_ERR_REQUEST, 'mrecv of MPI_MESSAGE_NULL')
  call mpi_improbe(np, 0, MPI_COMM_WORLD, flag, msg, status, ierr)
  call check(ierr == MPI_ERR_RANK, 'improbe bad rank')
  if (rank /= 0) then
    buf(1:rank) = rank
    call mpi_send(buf, rank, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierr)
  else
    do k = 1, np - 1
      flag = .false.
      do while (.not. flag)
        call mpi_improbe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, flag, msg, status, ierr)
      end do
      call mpi_get_count(status, MPI_INTEGER, n, ierr)
      call check(n == status(MPI_SOURCE), 'improbe count')
      buf = -1
      if (mod(k, 2) == 0) then
        call mpi_mrecv(buf, n, MPI_INTEGER, msg, status, ierr)
      else
        call mpi_imrecv(buf, n, MPI_INTEGER, msg, req, ierr)
        call mpi_wait(req, status, ierr)
      end if
      call check(msg == MPI_MESSAGE_NULL, 'message consumed')
      call check(buf(n) == n .and. buf(n + 1) == -1, 'mrecv data')
    end do
  end if
end subroutine tmprobe

subroutine tinfo(np)
  use iso_c_binding
  implicit none
  include 'mpif.h'
  integer, intent(in) :: np
  integer :: ierr, info, dup, nkeys, vlen, maxprocs
  logical :: flag
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=40) :: value
  integer(kind=MPI_ADDRESS_KIND) :: size, baseptr
  type(c_ptr) :: cp
  double precision, pointer :: mem(:)

  call mpi_info_create(info, ierr)
  call mpi_info_set(info, 'color', 'blue  ', ierr)
  call mpi_info_set(info, 'shape', 'round', ierr)
  call mpi_info_get_nkeys(info, nkeys, ierr)
  call check(nkeys == 2, 'info nkeys')
  call mpi_info_get_nthkey(info, 1, key, ierr)
  call check(key == 'shape', 'info nthkey')
  call mpi_info_get(info, 'color', 40, value, flag, ierr)
  call check(flag .and. value == 'blue', 'info get')
  call mpi_info_get_valuelen(info, 'color', vlen, flag, ierr)
  call check(flag .and. vlen == 4, 'info valuelen')
  call mpi_info_dup(info, dup, ierr)
  call mpi_info_delete(info, 'color', ierr)
  call mpi_info_get(info, 'color', 40, value, flag, ierr)
  call check(.not. flag, 'info deleted key')
  call mpi_info_delete(info, 'color', ierr)
  call check(ierr == MPI_ERR_INFO_NOKEY, 'info delete of a missing key')
  call mpi_info_get_nkeys(dup, nkeys, ierr)
  call check(nkeys == 2, 'info dup')
  call mpi_info_free(info, ierr)
  call mpi_info_free(dup, ierr)
  call check(info == MPI_INFO_NULL .and. dup == MPI_INFO_NULL, 'info free')
  call mpi_info_get_nkeys(info, nkeys, ierr)
  call check(ierr == MPI_ERR_INFO, 'MPI_INFO_NULL')
  call mpi_info_get(MPI_INFO_ENV, 'maxprocs', 40, value, flag, ierr)
  read (value, *) maxprocs
  call check(flag .and. maxprocs == np, 'MPI_INFO_ENV maxprocs')

  size = 8 * 100
  call mpi_alloc_mem(size, MPI_INFO_NULL, baseptr, ierr)
  call check(ierr == MPI_SUCCESS .and. baseptr /= 0, 'alloc_mem')
  cp = transfer(baseptr, cp)
  call c_f_pointer(cp, mem, [100])
  mem = 2d0
  call check(sum(mem) == 200d0, 'alloc_mem memory')
  call mpi_free_mem(mem, ierr)
  call check(ierr == MPI_SUCCESS, 'free_mem')
  size = -1
  call mpi_alloc_mem(size, MPI_INFO_NULL, baseptr, ierr)
  call check(ierr == MPI_ERR_ARG, 'alloc_mem negative size')
end subroutine tinfo
