! Conformance through the Fortran bindings: bad arguments of issue 18's functions return their
! MPI error class in ierror under MPI_ERRORS_RETURN (the C suites check the same calls in C,
! tests/mpi/conformance_*.cpp), and the library works afterwards. Every rank makes the same
! bad calls. Prints "conformance.f90: N ranks: ok" when every class was right.
program conformance
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, wrong, total, i
  integer :: buf(8), out(8), req, key, grp, newgrp, info, ranks(2), pos, msg, sum
  integer :: status(MPI_STATUS_SIZE), newtype, eh, nbytes
  integer :: reqs(2), sreqs(2), statuses(MPI_STATUS_SIZE, 2), fine(2), small(1)
  character(len=64) :: packed

  wrong = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  buf = rank

  ! point-to-point, persistent, buffered, matched probe
  call mpi_send(buf, 1, MPI_INTEGER, np, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_RANK, 'mpi_send bad rank')
  call mpi_send(buf, 1, MPI_INTEGER, 0, -3, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_TAG, 'mpi_send bad tag')
  call mpi_isend(buf, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, req, ierr)
  call expect(ierr, MPI_ERR_COUNT, 'mpi_isend negative count')
  call mpi_recv(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, status, ierr)
  call expect(ierr, MPI_ERR_TYPE, 'mpi_recv null type')
  call mpi_send_init(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, req, ierr)
  call expect(ierr, MPI_ERR_COMM, 'mpi_send_init null comm')
  req = MPI_REQUEST_NULL
  call mpi_start(req, ierr)
  call expect(ierr, MPI_ERR_REQUEST, 'mpi_start null request')
  call mpi_bsend(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_BUFFER, 'mpi_bsend nothing attached')
  call mpi_rsend(buf, 1, MPI_INTEGER, -4, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_RANK, 'mpi_rsend bad rank')
  call mpi_improbe(0, -9, MPI_COMM_WORLD, i, msg, status, ierr)
  call expect(ierr, MPI_ERR_TAG, 'mpi_improbe bad tag')
  msg = MPI_MESSAGE_NULL
  call mpi_mrecv(buf, 1, MPI_INTEGER, msg, status, ierr)
  call expect(ierr, MPI_ERR_REQUEST, 'mpi_mrecv null message')

  ! non-blocking collectives
  call mpi_ibcast(buf, 1, MPI_INTEGER, np, MPI_COMM_WORLD, req, ierr)
  call expect(ierr, MPI_ERR_ROOT, 'mpi_ibcast bad root')
  call mpi_iallreduce(buf, out, 1, MPI_INTEGER, MPI_OP_NULL, MPI_COMM_WORLD, req, ierr)
  call expect(ierr, MPI_ERR_OP, 'mpi_iallreduce null op')
  call mpi_igather(buf, -1, MPI_INTEGER, out, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  call expect(ierr, MPI_ERR_COUNT, 'mpi_igather negative count')
  call mpi_ibarrier(MPI_COMM_NULL, req, ierr)
  call expect(ierr, MPI_ERR_COMM, 'mpi_ibarrier null comm')

  ! info, attributes, error handlers
  call mpi_info_set(MPI_INFO_NULL, 'a', 'b', ierr)
  call expect(ierr, MPI_ERR_INFO, 'mpi_info_set null info')
  call mpi_info_create(info, ierr)
  call mpi_info_get_nthkey(info, 3, packed, ierr)
  call expect(ierr, MPI_ERR_ARG, 'mpi_info_get_nthkey past the end')
  call mpi_info_free(info, ierr)
  key = 31337
  call mpi_comm_free_keyval(key, ierr)
  call expect(ierr, MPI_ERR_KEYVAL, 'mpi_comm_free_keyval bad key')
  call mpi_comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN, ierr)
  call expect(ierr, MPI_ERR_COMM, 'mpi_comm_set_errhandler null comm')
  call mpi_comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
  call expect(ierr, MPI_SUCCESS, 'mpi_comm_get_errhandler')
  if (eh /= MPI_ERRORS_RETURN) call expect(MPI_ERR_OTHER, MPI_SUCCESS, 'the handler is MPI_ERRORS_RETURN')
  call mpi_errhandler_free(eh, ierr)

  ! datatypes and packing
  call mpi_type_contiguous(-1, MPI_INTEGER, newtype, ierr)
  call expect(ierr, MPI_ERR_COUNT, 'mpi_type_contiguous negative count')
  call mpi_type_dup(MPI_DATATYPE_NULL, newtype, ierr)
  call expect(ierr, MPI_ERR_TYPE, 'mpi_type_dup null type')
  pos = 0
  call mpi_pack(buf, 8, MPI_INTEGER, packed, 16, pos, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_TRUNCATE, 'mpi_pack no room')
  call mpi_pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, nbytes, ierr)
  call expect(ierr, MPI_ERR_TYPE, 'mpi_pack_size null type')

  ! groups and communicators
  call mpi_comm_group(MPI_COMM_WORLD, grp, ierr)
  ranks(1) = np
  call mpi_group_incl(grp, 1, ranks, newgrp, ierr)
  call expect(ierr, MPI_ERR_RANK, 'mpi_group_incl bad rank')
  call mpi_group_union(MPI_GROUP_NULL, grp, newgrp, ierr)
  call expect(ierr, MPI_ERR_GROUP, 'mpi_group_union null group')
  call mpi_group_free(grp, ierr)
  call mpi_comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, i, ierr)
  call expect(ierr, MPI_ERR_COMM, 'mpi_comm_compare null comm')

  ! one truncated receive among two: MPI_ERR_IN_STATUS, each status with its own class
  call mpi_isend(buf, 2, MPI_INTEGER, mod(rank + 1, np), 40, MPI_COMM_WORLD, sreqs(1), ierr)
  call mpi_isend(buf, 2, MPI_INTEGER, mod(rank + 1, np), 41, MPI_COMM_WORLD, sreqs(2), ierr)
  call mpi_irecv(fine, 2, MPI_INTEGER, mod(rank + np - 1, np), 40, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_irecv(small, 1, MPI_INTEGER, mod(rank + np - 1, np), 41, MPI_COMM_WORLD, reqs(2), ierr)
  statuses(MPI_ERROR, :) = -1
  call mpi_waitall(2, reqs, statuses, ierr)
  call expect(ierr, MPI_ERR_IN_STATUS, 'mpi_waitall one truncated')
  call expect(statuses(MPI_ERROR, 1), MPI_SUCCESS, 'mpi_waitall good status')
  call expect(statuses(MPI_ERROR, 2), MPI_ERR_TRUNCATE, 'mpi_waitall truncated status')
  if (fine(1) /= mod(rank + np - 1, np)) call expect(MPI_ERR_OTHER, MPI_SUCCESS, 'waitall data')
  call mpi_waitall(2, sreqs, MPI_STATUSES_IGNORE, ierr)

  ! the profiling names check their arguments too
  call pmpi_send(buf, 1, MPI_INTEGER, np, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_RANK, 'pmpi_send bad rank')

  ! still usable: a ring exchange and a sum
  call mpi_sendrecv(rank, 1, MPI_INTEGER, mod(rank + 1, np), 5, out, 1, MPI_INTEGER, &
                    mod(rank + np - 1, np), 5, MPI_COMM_WORLD, status, ierr)
  call expect(ierr, MPI_SUCCESS, 'mpi_sendrecv after the errors')
  if (out(1) /= mod(rank + np - 1, np)) call expect(MPI_ERR_OTHER, MPI_SUCCESS, 'ring data')
  call mpi_allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (sum /= np * (np - 1) / 2) call expect(MPI_ERR_OTHER, MPI_SUCCESS, 'allreduce data')

  call mpi_allreduce(wrong, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'conformance.f90: ', np, ' ranks: ok'
  if (rank == 0 .and. total /= 0) print '(a,i0)', 'conformance.f90: wrong classes: ', total
  call mpi_finalize(ierr)

contains

  subroutine expect(code, want, what)
    integer, intent(in) :: code, want
    character(len=*), intent(in) :: what
    integer :: cls, e
    cls = code
    if (code /= MPI_SUCCESS) call mpi_error_class(code, cls, e)
    if (cls /= want) then
      print '(a,i0,a,a,a,i0,a,i0)', 'rank ', rank, ': ', what, ': class ', cls, ', expected ', want
      wrong = wrong + 1
    end if
  end subroutine expect

end program conformance
