! use mpi_f08: point-to-point. Blocking send/recv with statuses and wildcards, non-blocking
! calls on ASYNCHRONOUS buffers (whole arrays and non-contiguous sections), wait/test in all
! forms, probes, persistent requests, the optional ierror, handle comparisons and the status
! conversions.

! The generalized request's callbacks (module procedures: an internal procedure passed as an
! argument would need a trampoline on an executable stack).
module fortran08_p2p_callbacks
  use mpi_f08
  implicit none
  integer :: greq_freed = 0
contains
  subroutine greq_query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    status%MPI_SOURCE = int(extra_state)
    status%MPI_TAG = 0
    status%MPI_ERROR = MPI_SUCCESS
    ierror = MPI_SUCCESS
  end subroutine

  subroutine greq_free(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    greq_freed = int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine greq_cancel(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS
    if (complete .and. extra_state < 0) ierror = MPI_ERR_OTHER
  end subroutine
end module

program fortran08_p2p
  use mpi_f08
  use fortran08_p2p_callbacks
  implicit none
  integer :: rank, nprocs, fails, i, n, left, right, ierr, idx, cnt
  integer :: fstat(MPI_STATUS_SIZE)
  logical :: flag
  real(8), asynchronous :: grid(8, 6), got(4, 3), ring(5)
  integer, asynchronous :: sbuf(4, 4), rbuf(4, 4)
  type(MPI_Status) :: st, st2, sts(4)
  type(MPI_Request) :: reqs(4), req
  type(MPI_Message) :: msg
  type(MPI_Comm) :: comm
  type(MPI_Datatype) :: vec

  fails = 0
  call MPI_Init(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Init ierror')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call check(comm /= MPI_COMM_WORLD .and. .not. (comm == MPI_COMM_NULL), 'handle operators')
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  ! Blocking ring: status fields, MPI_Get_count, wildcards.
  ring = rank
  call MPI_Sendrecv_replace(ring, 5, MPI_DOUBLE_PRECISION, right, 11, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, st)
  call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 11 .and. all(ring == left), 'sendrecv_replace status')
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, cnt)
  call check(cnt == 5, 'MPI_Get_count')

  ! A strided section sent blocking and received into a strided section non-blocking.
  do i = 1, 8
    grid(i, :) = 100 * rank + i + 10 * [(n, n = 1, 6)]
  end do
  got = -1
  call MPI_Irecv(got(1:4:2, :), 6, MPI_DOUBLE_PRECISION, left, 12, comm, req)
  call MPI_Send(grid(2:5:3, 1:6:2), 6, MPI_DOUBLE_PRECISION, right, 12, comm)
  call MPI_Wait(req, st)
  call check(st%MPI_SOURCE == left, 'irecv section status')
  do i = 1, 3
    call check(got(1, i) == 100 * left + 2 + 10 * (2 * i - 1) .and. got(3, i) == 100 * left + 5 + 10 * (2 * i - 1) &
               .and. got(2, i) == -1, 'section contents (blocking send, nonblocking receive)')
  end do
  ! The other way round: a non-blocking send of a section, a blocking receive into a section.
  got = -1
  call MPI_Isend(grid(1:8:2, 2), 4, MPI_DOUBLE_PRECISION, right, 13, comm, req)
  call MPI_Recv(got(:, 2), 4, MPI_DOUBLE_PRECISION, left, 13, comm, MPI_STATUS_IGNORE)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(all(got(:, 2) == [(100 * left + i + 20, i = 1, 8, 2)]) .and. all(got(:, 1) == -1), 'isend of a section')

  ! Waitall with statuses, waitany, testall on whole arrays.
  sbuf = reshape([(rank * 100 + i, i = 1, 16)], [4, 4])
  rbuf = 0
  do i = 1, 2
    call MPI_Irecv(rbuf(:, i), 4, MPI_INTEGER, left, 20 + i, comm, reqs(i))
    call MPI_Isend(sbuf(:, i), 4, MPI_INTEGER, right, 20 + i, comm, reqs(2 + i))
  end do
  call MPI_Waitall(4, reqs, sts)
  call check(all(reqs == MPI_REQUEST_NULL), 'waitall frees the requests')
  call check(sts(1)%MPI_TAG == 21 .and. sts(2)%MPI_TAG == 22 .and. sts(2)%MPI_SOURCE == left, 'waitall statuses')
  call check(all(rbuf(:, 1:2) == reshape([(left * 100 + i, i = 1, 8)], [4, 2])), 'waitall data')
  call MPI_Irecv(rbuf(:, 3), 4, MPI_INTEGER, left, 30, comm, reqs(1))
  call MPI_Isend(sbuf(:, 3), 4, MPI_INTEGER, right, 30, comm, reqs(2))
  idx = -1
  call MPI_Waitany(2, reqs, idx, st)
  call check(idx == 1 .or. idx == 2, 'waitany index is 1-based')
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, MPI_STATUSES_IGNORE)
  end do
  call check(all(rbuf(:, 3) == [(left * 100 + i, i = 9, 12)]), 'testall data')

  ! Probe, iprobe, mprobe/mrecv.
  call MPI_Send(sbuf(:, 4), 3, MPI_INTEGER, right, 40, comm)
  call MPI_Probe(left, 40, comm, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call check(cnt == 3, 'probe count')
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(MPI_ANY_SOURCE, 40, comm, flag, st2)
  end do
  call check(st2%MPI_SOURCE == left, 'iprobe status')
  call MPI_Mprobe(left, 40, comm, msg, st)
  call check(msg /= MPI_MESSAGE_NULL, 'mprobe message')
  rbuf(:, 4) = 0
  call MPI_Mrecv(rbuf(:, 4), 3, MPI_INTEGER, msg, st)
  call check(all(rbuf(1:3, 4) == sbuf(1:3, 4) - 100 * rank + 100 * left) .and. msg == MPI_MESSAGE_NULL, 'mrecv')

  ! Persistent requests.
  call MPI_Send_init(sbuf, 16, MPI_INTEGER, right, 50, comm, reqs(1))
  call MPI_Recv_init(rbuf, 16, MPI_INTEGER, left, 50, comm, reqs(2))
  do n = 1, 2
    rbuf = 0
    call MPI_Startall(2, reqs(1:2))
    call MPI_Waitall(2, reqs(1:2), MPI_STATUSES_IGNORE)
    call check(all(rbuf == sbuf - 100 * rank + 100 * left), 'persistent requests')
  end do
  call MPI_Request_free(reqs(1))
  call MPI_Request_free(reqs(2))

  ! MPI_PROC_NULL, the optional ierror under MPI_ERRORS_RETURN.
  call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_PROC_NULL, 1, comm, st)
  call check(st%MPI_SOURCE == MPI_PROC_NULL .and. st%MPI_TAG == MPI_ANY_TAG, 'recv from MPI_PROC_NULL')
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Send(sbuf, 1, MPI_INTEGER, nprocs + 5, 1, comm, ierr)
  call check(ierr /= MPI_SUCCESS, 'error returned in ierror')
  call MPI_Error_class(ierr, n)
  call check(n == MPI_ERR_RANK, 'error class MPI_ERR_RANK')

  ! A non-contiguous section a non-blocking call cannot describe (the datatype is not whole array
  ! elements): MPI_ERR_BUFFER, through MPI_COMM_WORLD's handler.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Type_vector(2, 1, 2, MPI_DOUBLE_PRECISION, vec)
  call MPI_Type_commit(vec)
  call MPI_Isend(grid(1:8:2, 1:6:2), 1, vec, right, 99, comm, req, ierr)
  call check(ierr == MPI_ERR_BUFFER, 'a section a non-blocking call cannot take: MPI_ERR_BUFFER')
  call MPI_Type_free(vec)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)

  ! A generalized request with Fortran 2008 callbacks.
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 7_MPI_ADDRESS_KIND, req)
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, st)
  call check(req == MPI_REQUEST_NULL .and. st%MPI_SOURCE == 7 .and. greq_freed == 7, 'generalized request')

  ! Status conversions between mpi_f08 and mpif.h forms.
  st%MPI_SOURCE = 3
  st%MPI_TAG = 4
  st%MPI_ERROR = 5
  call MPI_Status_f082f(st, fstat)
  call check(fstat(MPI_SOURCE) == 3 .and. fstat(MPI_TAG) == 4 .and. fstat(MPI_ERROR) == 5, 'MPI_Status_f082f')
  fstat(MPI_TAG) = 9
  call MPI_Status_f2f08(fstat, st2, ierr)
  call check(st2%MPI_TAG == 9 .and. st2%MPI_SOURCE == 3 .and. ierr == MPI_SUCCESS, 'MPI_Status_f2f08')

  call MPI_Comm_free(comm)
  call check(comm == MPI_COMM_NULL, 'comm_free')
  call finish('fortran08_p2p')

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'rank ', rank, ': failed: ', what
      fails = fails + 1
    end if
  end subroutine

  subroutine finish(name)
    character(len=*), intent(in) :: name
    integer :: total
    call MPI_Allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (total /= 0) then
      if (rank == 0) print '(2a,i0,a)', name, ': ', total, ' failed checks'
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    if (rank == 0) print '(2a,i0,a)', name, ': PASS on ', nprocs, ' ranks'
    call MPI_Finalize()
  end subroutine

end program
