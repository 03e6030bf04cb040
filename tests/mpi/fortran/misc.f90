! The routines the other Fortran tests leave out: MPI_INIT_THREAD and thread
! queries, send modes, test/testany/testsome, cancel, request_free,
! sendrecv_replace, groups and comm_create, derived datatypes, addresses,
! reduce_local, legacy error handler names and a user-defined error path.
program misc
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, provided, total, nerr
  logical :: flag
  common /errs/ nerr

  nerr = 0
  call mpi_initialized(flag, ierr)
  call check(.not. flag, 'initialized before init')
  call mpi_init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call check(ierr == MPI_SUCCESS, 'init_thread')
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call tthreads(provided)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tmodes(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call ttests(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tgroups(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call ttypes(rank, np)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call terrhandlers(rank)
  call mpi_allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'misc.f90: PASS on ', np, ' ranks'
    else
      print '(a,i0,a)', 'misc.f90: FAIL, ', total, ' errors'
    end if
  end if
  call mpi_finalize(ierr)
  call mpi_finalized(flag, ierr)
  if (.not. flag) then
    print '(a)', 'check failed: finalized after finalize'
    total = total + 1
  end if
  if (total /= 0) stop 1
end program misc

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

subroutine tthreads(provided)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: provided
  integer :: ierr, q, rl
  logical :: flag
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version

  call check(provided >= MPI_THREAD_SINGLE .and. provided <= MPI_THREAD_MULTIPLE, 'provided level')
  call mpi_query_thread(q, ierr)
  call check(q == provided, 'query_thread')
  call mpi_is_thread_main(flag, ierr)
  call check(flag, 'is_thread_main')
  call mpi_get_library_version(version, rl, ierr)
  call check(ierr == MPI_SUCCESS .and. rl > 0 .and. rl == len_trim(version), 'get_library_version')
  call check(index(version, 'tilempi') > 0, 'library version names tilempi')
end subroutine tthreads

! Synchronous, ready and buffered-by-the-library sends between neighbours.
subroutine tmodes(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, right, left, req, req2, rbuf(4), sbuf(4), status(MPI_STATUS_SIZE), n
  logical :: flag

  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  sbuf = [rank, rank, rank, rank]
  ! Ready send: the receive is posted before anyone sends.
  call mpi_irecv(rbuf, 4, MPI_INTEGER, left, 11, MPI_COMM_WORLD, req, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_rsend(sbuf, 4, MPI_INTEGER, right, 11, MPI_COMM_WORLD, ierr)
  call mpi_wait(req, status, ierr)
  call check(all(rbuf == left) .and. status(MPI_SOURCE) == left, 'rsend')
  call mpi_irecv(rbuf, 4, MPI_INTEGER, left, 12, MPI_COMM_WORLD, req, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_irsend(sbuf, 2, MPI_INTEGER, right, 12, MPI_COMM_WORLD, req2, ierr)
  call mpi_wait(req2, MPI_STATUS_IGNORE, ierr)
  call mpi_wait(req, status, ierr)
  call mpi_get_count(status, MPI_INTEGER, n, ierr)
  call check(n == 2, 'irsend count')
  ! Issend completes only once matched; test until it does.
  call mpi_issend(sbuf, 3, MPI_INTEGER, right, 13, MPI_COMM_WORLD, req, ierr)
  call mpi_recv(rbuf, 4, MPI_INTEGER, left, 13, MPI_COMM_WORLD, status, ierr)
  flag = .false.
  do while (.not. flag)
    call mpi_test(req, flag, status, ierr)
  end do
  call check(req == MPI_REQUEST_NULL, 'issend test frees request')
  ! Sendrecv_replace around the ring.
  rbuf = [rank, 2 * rank, 3 * rank, 4 * rank]
  call mpi_sendrecv_replace(rbuf, 4, MPI_INTEGER, right, 14, left, 14, MPI_COMM_WORLD, status, ierr)
  call check(all(rbuf == [left, 2 * left, 3 * left, 4 * left]), 'sendrecv_replace data')
  call check(status(MPI_SOURCE) == left .and. status(MPI_TAG) == 14, 'sendrecv_replace status')
  ! A send whose request is freed still arrives.
  call mpi_isend(sbuf, 1, MPI_INTEGER, right, 15, MPI_COMM_WORLD, req, ierr)
  call mpi_request_free(req, ierr)
  call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'request_free')
  call mpi_recv(rbuf, 1, MPI_INTEGER, left, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(rbuf(1) == left, 'freed send delivered')
  ! A receive nobody matches can be cancelled.
  call mpi_irecv(rbuf, 1, MPI_INTEGER, left, 999, MPI_COMM_WORLD, req, ierr)
  call mpi_cancel(req, ierr)
  call mpi_wait(req, status, ierr)
  call mpi_test_cancelled(status, flag, ierr)
  call check(flag, 'test_cancelled')
end subroutine tmodes

subroutine ttests(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer, parameter :: maxp = 64
  integer :: ierr, i, idx, outc, done, reqs(maxp), rb(maxp), ind(maxp), stats(MPI_STATUS_SIZE, maxp)
  integer :: status(MPI_STATUS_SIZE)
  logical :: flag

  ! Nothing posted yet: testany on null requests reports flag true, index undefined.
  reqs(1:np) = MPI_REQUEST_NULL
  call mpi_testany(np, reqs, idx, flag, status, ierr)
  call check(flag .and. idx == MPI_UNDEFINED, 'testany on null requests')
  do i = 1, np
    call mpi_irecv(rb(i), 1, MPI_INTEGER, i - 1, 21, MPI_COMM_WORLD, reqs(i), ierr)
  end do
  do i = 1, np
    call mpi_send(rank, 1, MPI_INTEGER, i - 1, 21, MPI_COMM_WORLD, ierr)
  end do
  done = 0
  do while (done < np)
    call mpi_testany(np, reqs, idx, flag, status, ierr)
    if (flag .and. idx /= MPI_UNDEFINED) then
      call check(idx >= 1 .and. idx <= np, 'testany index')
      call check(status(MPI_SOURCE) == idx - 1 .and. rb(idx) == idx - 1, 'testany status')
      done = done + 1
    end if
  end do
  do i = 1, np
    call mpi_irecv(rb(i), 1, MPI_INTEGER, i - 1, 22, MPI_COMM_WORLD, reqs(i), ierr)
  end do
  do i = 1, np
    call mpi_send(rank + 100, 1, MPI_INTEGER, i - 1, 22, MPI_COMM_WORLD, ierr)
  end do
  done = 0
  do while (done < np)
    call mpi_testsome(np, reqs, outc, ind, stats, ierr)
    call check(outc /= MPI_UNDEFINED, 'testsome outcount')
    if (outc == MPI_UNDEFINED) exit
    do i = 1, outc
      call check(ind(i) >= 1 .and. ind(i) <= np, 'testsome index')
      call check(stats(MPI_SOURCE, i) == ind(i) - 1, 'testsome status')
      call check(rb(ind(i)) == ind(i) + 99, 'testsome data')
    end do
    done = done + outc
  end do
  call mpi_testall(np, reqs, flag, stats, ierr)
  call check(flag, 'testall on completed requests')
end subroutine ttests

subroutine tgroups(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer, parameter :: maxp = 64
  integer :: ierr, world, evens, odds, neven, i, ranks(maxp), out(maxp), res, grank, comm, sz, r
  logical :: flag

  call mpi_comm_group(MPI_COMM_WORLD, world, ierr)
  neven = (np + 1) / 2
  ranks(1:neven) = [(2 * i, i = 0, neven - 1)]
  call mpi_group_incl(world, neven, ranks, evens, ierr)
  call mpi_group_excl(world, neven, ranks, odds, ierr)
  call mpi_group_size(evens, sz, ierr)
  call check(sz == neven, 'group_incl size')
  call mpi_group_size(odds, sz, ierr)
  call check(sz == np - neven, 'group_excl size')
  call mpi_group_rank(evens, grank, ierr)
  if (mod(rank, 2) == 0) then
    call check(grank == rank / 2, 'group_rank member')
  else
    call check(grank == MPI_UNDEFINED, 'group_rank non-member')
  end if
  call mpi_group_translate_ranks(evens, neven, [(i, i = 0, neven - 1)], world, out, ierr)
  call check(all(out(1:neven) == ranks(1:neven)), 'group_translate_ranks')
  call mpi_group_compare(world, world, res, ierr)
  call check(res == MPI_IDENT, 'group_compare ident')
  if (np > 1) then
    call mpi_group_compare(world, evens, res, ierr)
    call check(res == MPI_UNEQUAL, 'group_compare unequal')
  end if
  call mpi_comm_create(MPI_COMM_WORLD, evens, comm, ierr)
  if (mod(rank, 2) == 0) then
    call mpi_comm_rank(comm, r, ierr)
    call mpi_comm_size(comm, sz, ierr)
    call check(r == rank / 2 .and. sz == neven, 'comm_create member')
    call mpi_comm_test_inter(comm, flag, ierr)
    call check(.not. flag, 'comm_test_inter')
    call mpi_comm_free(comm, ierr)
  else
    call check(comm == MPI_COMM_NULL, 'comm_create non-member')
  end if
  call mpi_group_free(evens, ierr)
  call mpi_group_free(odds, ierr)
  call mpi_group_free(world, ierr)
  call check(world == MPI_GROUP_NULL, 'group_free')
end subroutine tgroups

subroutine ttypes(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, t3, tv, ti, tb, th, tr, td, sz, i, a(20), b(20), blens(2), disps(2), status(MPI_STATUS_SIZE)
  integer :: n
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent, addr1, addr2, stride
  double precision :: d(4), e(4)
  logical :: commute

  if (np < 0) return
  call mpi_type_contiguous(3, MPI_INTEGER, t3, ierr)
  call mpi_type_commit(t3, ierr)
  call mpi_type_size(t3, sz, ierr)
  call check(sz == 12, 'type_contiguous size')
  ! Every other integer of a(1:10), sent to self and received contiguous.
  call mpi_type_vector(5, 1, 2, MPI_INTEGER, tv, ierr)
  call mpi_type_commit(tv, ierr)
  a = [(i + 100 * rank, i = 1, 20)]
  b = -1
  call mpi_sendrecv(a, 1, tv, rank, 31, b, 5, MPI_INTEGER, rank, 31, MPI_COMM_WORLD, status, ierr)
  call check(all(b(1:5) == [(2 * i - 1 + 100 * rank, i = 1, 5)]) .and. b(6) == -1, 'type_vector')
  call mpi_get_elements(status, MPI_INTEGER, n, ierr)
  call check(n == 5, 'get_elements of a vector message')
  ! Indexed: blocks of 2 at 0 and 1 at 4.
  blens = [2, 1]
  disps = [0, 4]
  call mpi_type_indexed(2, blens, disps, MPI_INTEGER, ti, ierr)
  call mpi_type_commit(ti, ierr)
  b = -1
  call mpi_sendrecv(a, 1, ti, rank, 32, b, 3, MPI_INTEGER, rank, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(b(1:3) == [a(1), a(2), a(5)]), 'type_indexed')
  call mpi_type_create_indexed_block(2, 2, [1, 6], MPI_INTEGER, tb, ierr)
  call mpi_type_commit(tb, ierr)
  b = -1
  call mpi_sendrecv(a, 1, tb, rank, 33, b, 4, MPI_INTEGER, rank, 33, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(b(1:4) == [a(2), a(3), a(7), a(8)]), 'type_create_indexed_block')
  ! Hvector with a byte stride of three integers.
  stride = 12
  call mpi_type_create_hvector(3, 1, stride, MPI_INTEGER, th, ierr)
  call mpi_type_commit(th, ierr)
  b = -1
  call mpi_sendrecv(a, 1, th, rank, 34, b, 3, MPI_INTEGER, rank, 34, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(b(1:3) == [a(1), a(4), a(7)]), 'type_create_hvector')
  ! Resized to an extent of four integers: two of them pick a(1) and a(5).
  lb = 0
  extent = 16
  call mpi_type_create_resized(MPI_INTEGER, lb, extent, tr, ierr)
  call mpi_type_commit(tr, ierr)
  call mpi_type_get_extent(tr, lb, extent, ierr)
  call check(lb == 0 .and. extent == 16, 'type_get_extent of resized')
  call mpi_type_get_true_extent(tr, lb, extent, ierr)
  call check(lb == 0 .and. extent == 4, 'type_get_true_extent of resized')
  b = -1
  call mpi_sendrecv(a, 2, tr, rank, 35, b, 2, MPI_INTEGER, rank, 35, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(b(1) == a(1) .and. b(2) == a(5), 'type_create_resized')
  call mpi_type_dup(t3, td, ierr)
  call mpi_type_size(td, sz, ierr)
  call check(sz == 12, 'type_dup')
  call mpi_type_get_extent(MPI_DOUBLE_PRECISION, lb, extent, ierr)
  call check(extent == 8, 'extent of double precision')
  call mpi_type_free(t3, ierr)
  call mpi_type_free(tv, ierr)
  call mpi_type_free(ti, ierr)
  call mpi_type_free(tb, ierr)
  call mpi_type_free(th, ierr)
  call mpi_type_free(tr, ierr)
  call mpi_type_free(td, ierr)
  call check(td == MPI_DATATYPE_NULL, 'type_free')
  ! Addresses: consecutive doubles are 8 bytes apart; MPI_BOTTOM is address 0.
  call mpi_get_address(d(1), addr1, ierr)
  call mpi_get_address(d(2), addr2, ierr)
  call check(addr2 - addr1 == 8, 'get_address')
  call mpi_get_address(MPI_BOTTOM, addr1, ierr)
  call check(addr1 == 0, 'address of MPI_BOTTOM')
  ! Reduce_local and predefined op queries.
  d = [1d0, 2d0, 3d0, 4d0]
  e = [10d0, 20d0, 30d0, 40d0]
  call mpi_reduce_local(d, e, 4, MPI_DOUBLE_PRECISION, MPI_SUM, ierr)
  call check(all(e == [11d0, 22d0, 33d0, 44d0]), 'reduce_local')
  call mpi_op_commutative(MPI_SUM, commute, ierr)
  call check(commute, 'MPI_SUM commutes')
end subroutine ttypes

subroutine terrhandlers(rank)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank
  integer :: ierr, dup, eh, ie, buf(1)

  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_errhandler_set(dup, MPI_ERRORS_RETURN, ierr)
  call mpi_errhandler_get(dup, eh, ierr)
  call check(eh == MPI_ERRORS_RETURN, 'errhandler_get')
  call mpi_errhandler_free(eh, ierr)
  call check(eh == MPI_ERRHANDLER_NULL, 'errhandler_free')
  ! The handler is the duplicate's only: world stays fatal.
  call mpi_comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
  call check(eh == MPI_ERRORS_ARE_FATAL, 'world keeps its handler')
  buf(1) = rank
  call mpi_bcast(buf, 1, MPI_INTEGER, -7, dup, ie)
  call check(ie == MPI_ERR_ROOT, 'bcast bad root returns MPI_ERR_ROOT')
  call mpi_recv(buf, 1, MPI_INTEGER, 0, -3, dup, MPI_STATUS_IGNORE, ie)
  call check(ie == MPI_ERR_TAG, 'recv bad tag returns MPI_ERR_TAG')
  call mpi_comm_free(dup, ierr)
end subroutine terrhandlers
