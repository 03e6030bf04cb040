! From Fortran (`use mpi`): a generalized request with Fortran callbacks (EXTRA_STATE an
! INTEGER(KIND=MPI_ADDRESS_KIND), the code in IERROR), MPI_STATUS_SET_ELEMENTS and
! MPI_STATUS_SET_CANCELLED in query_fn, MPI_REQUEST_GET_STATUS, MPI_ISENDRECV(_REPLACE),
! MPI_ADD_ERROR_CLASS / CODE / STRING and MPI_DISPLACEMENT_CURRENT.
module grequest_callbacks
  implicit none
  integer, save :: queries = 0, frees = 0, cancels = 0
  integer(kind=8), save :: seen_extra = 0
contains
  subroutine query_fn(extra_state, status, ierr)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierr
    queries = queries + 1
    seen_extra = extra_state
    status(MPI_SOURCE) = 3
    status(MPI_TAG) = 8
    call mpi_status_set_elements(status, MPI_INTEGER, 4, ierr)
    call mpi_status_set_cancelled(status, .false., ierr)
    ierr = MPI_SUCCESS
  end subroutine query_fn
  subroutine free_fn(extra_state, ierr)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierr
    frees = frees + 1
    ierr = MPI_SUCCESS
  end subroutine free_fn
  subroutine cancel_fn(extra_state, complete, ierr)
    use mpi
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierr
    cancels = cancels + 1
    if (complete) cancels = cancels + 100
    ierr = MPI_SUCCESS
  end subroutine cancel_fn
end module grequest_callbacks

program grequest
  use mpi
  use grequest_callbacks
  implicit none
  integer :: ierr, rank, np, errs, total, req, count, to, from, cls, code, last, resultlen
  integer :: status(MPI_STATUS_SIZE)
  integer :: out(2), in(2), buf(3)
  integer(kind=MPI_ADDRESS_KIND) :: extra, attr
  integer(kind=MPI_OFFSET_KIND) :: current
  logical :: flag
  character(len=MPI_MAX_ERROR_STRING) :: text

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  to = mod(rank + 1, np)
  from = mod(rank + np - 1, np)

  extra = 123456789012_MPI_ADDRESS_KIND
  call mpi_grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  if (ierr /= MPI_SUCCESS) call fail('grequest_start')
  call mpi_request_get_status(req, flag, status, ierr)
  if (flag) call fail('get_status of a pending generalized request says complete')
  call mpi_cancel(req, ierr)
  if (cancels /= 1) call fail('cancel_fn before complete')
  call mpi_grequest_complete(req, ierr)
  call mpi_request_get_status(req, flag, status, ierr)
  if (.not. flag .or. queries /= 1 .or. frees /= 0) call fail('get_status after complete')
  call mpi_wait(req, status, ierr)
  call mpi_get_count(status, MPI_INTEGER, count, ierr)
  if (ierr /= MPI_SUCCESS .or. queries /= 2 .or. frees /= 1 .or. count /= 4 .or. status(MPI_SOURCE) /= 3 &
      .or. status(MPI_TAG) /= 8 .or. seen_extra /= extra .or. req /= MPI_REQUEST_NULL) call fail('wait')

  out = (/ rank, 2 * rank /)
  in = -1
  call mpi_isendrecv(out, 2, MPI_INTEGER, to, 1, in, 2, MPI_INTEGER, from, 1, MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, status, ierr)
  if (in(1) /= from .or. in(2) /= 2 * from .or. status(MPI_SOURCE) /= from) call fail('isendrecv')
  buf = rank
  call mpi_isendrecv_replace(buf, 3, MPI_INTEGER, to, 2, from, 2, MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, status, ierr)
  if (any(buf /= from)) call fail('isendrecv_replace')

  call mpi_add_error_class(cls, ierr)
  call mpi_add_error_code(cls, code, ierr)
  call mpi_add_error_string(code, 'a Fortran error   ', ierr)
  call mpi_error_string(code, text, resultlen, ierr)
  if (text /= 'a Fortran error' .or. resultlen /= 15) call fail('add_error_string')
  call mpi_error_class(code, last, ierr)
  if (last /= cls) call fail('error_class of an added code')
  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, attr, flag, ierr)
  if (.not. flag .or. attr < code) call fail('MPI_LASTUSEDCODE')

  current = MPI_DISPLACEMENT_CURRENT
  if (current >= 0) call fail('MPI_DISPLACEMENT_CURRENT')

  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_grequest.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program grequest
