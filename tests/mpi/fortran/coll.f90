! Every collective from free-form Fortran through mpif.h, with MPI_IN_PLACE
! where MPI allows it, a user-defined reduction and MAXLOC on 2INTEGER pairs.
program coll
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, total, nerr
  common /errs/ nerr

  nerr = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call tsizes()
  call tbarrier_bcast(rank, np)
  call treduce(rank, np)
  call tgather_scatter(rank, np)
  call talltoall(rank, np)
  call tscan(rank, np)
  call tuserop(rank, np)
  call mpi_allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'coll.f90: PASS on ', np, ' ranks'
    else
      print '(a,i0,a)', 'coll.f90: FAIL, ', total, ' errors'
    end if
  end if
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
end program coll

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

! The Fortran datatypes have the sizes of gfortran's default kinds.
subroutine tsizes()
  implicit none
  include 'mpif.h'
  integer :: ierr, sz, i
  real :: r
  double precision :: d
  complex :: c
  double complex :: z
  logical :: l
  character :: ch
  integer :: types(7), sizes(7)
  i = 0
  types = [MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX, &
           MPI_LOGICAL, MPI_CHARACTER]
  sizes = [storage_size(i), storage_size(r), storage_size(d), storage_size(c), storage_size(z), &
           storage_size(l), storage_size(ch)] / 8
  do i = 1, 7
    call mpi_type_size(types(i), sz, ierr)
    call check(ierr == MPI_SUCCESS .and. sz == sizes(i), 'type_size of a Fortran datatype')
  end do
  call mpi_type_size(MPI_2INTEGER, sz, ierr)
  call check(sz == 2 * storage_size(i) / 8, 'type_size of MPI_2INTEGER')
  call mpi_type_size(MPI_2DOUBLE_PRECISION, sz, ierr)
  call check(sz == 2 * storage_size(d) / 8, 'type_size of MPI_2DOUBLE_PRECISION')
end subroutine tsizes

subroutine tbarrier_bcast(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, root, i, ibuf(100)
  double precision :: dbuf(5)
  complex :: cbuf(2)
  logical :: lbuf(3)
  character(len=8) :: text

  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'barrier')
  do root = 0, np - 1
    ibuf = -1
    if (rank == root) ibuf = [(root * 1000 + i, i = 1, 100)]
    call mpi_bcast(ibuf, 100, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all(ibuf == [(root * 1000 + i, i = 1, 100)]), 'bcast integer')
  end do
  dbuf = 0
  if (rank == np - 1) dbuf = [1.5d0, 2.5d0, 3.5d0, 4.5d0, 5.5d0]
  call mpi_bcast(dbuf, 5, MPI_DOUBLE_PRECISION, np - 1, MPI_COMM_WORLD, ierr)
  call check(all(dbuf == [1.5d0, 2.5d0, 3.5d0, 4.5d0, 5.5d0]), 'bcast double')
  cbuf = (0.0, 0.0)
  lbuf = .false.
  text = ' '
  if (rank == 0) then
    cbuf = [(1.0, -1.0), (2.0, 0.5)]
    lbuf = [.true., .false., .true.]
    text = 'tilempi'
  end if
  call mpi_bcast(cbuf, 2, MPI_COMPLEX, 0, MPI_COMM_WORLD, ierr)
  call mpi_bcast(lbuf, 3, MPI_LOGICAL, 0, MPI_COMM_WORLD, ierr)
  call mpi_bcast(text, 8, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call check(cbuf(2) == (2.0, 0.5), 'bcast complex')
  call check(lbuf(1) .and. .not. lbuf(2) .and. lbuf(3), 'bcast logical')
  call check(text == 'tilempi', 'bcast character')
end subroutine tbarrier_bcast

subroutine treduce(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer :: ierr, root, isend(3), irecv(3), pair(2, 2), pres(2, 2), best, bestrank
  double precision :: dsend(4), drecv(4), expect(4)
  double complex :: zs, zr
  logical :: ls, lr

  isend = [rank, 1, -rank]
  do root = 0, np - 1
    irecv = -7
    call mpi_reduce(isend, irecv, 3, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      call check(all(irecv == [np * (np - 1) / 2, np, -np * (np - 1) / 2]), 'reduce sum')
    else
      call check(all(irecv == -7), 'reduce leaves non-root recvbuf alone')
    end if
  end do
  ! Reduce in place at the root.
  irecv = isend
  if (rank == 0) then
    call mpi_reduce(MPI_IN_PLACE, irecv, 3, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    call check(all(irecv == [np - 1, 1, 0]), 'reduce in place max')
  else
    call mpi_reduce(irecv, irecv, 3, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  end if
  dsend = [dble(rank), 0.5d0, dble(rank + 1), -1d0]
  expect = [dble(np * (np - 1) / 2), 0.5d0 * np, 0d0, -dble(np)]
  call mpi_allreduce(dsend, drecv, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(all(abs(drecv([1, 2, 4]) - expect([1, 2, 4])) < 1d-12), 'allreduce double sum')
  drecv = dsend
  call mpi_allreduce(MPI_IN_PLACE, drecv, 4, MPI_DOUBLE_PRECISION, MPI_MIN, MPI_COMM_WORLD, ierr)
  call check(drecv(1) == 0d0 .and. drecv(3) == 1d0, 'allreduce in place min')
  zs = dcmplx(dble(rank), 1d0)
  call mpi_allreduce(zs, zr, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(abs(zr - dcmplx(dble(np * (np - 1) / 2), dble(np))) < 1d-12, 'allreduce double complex')
  ls = rank == 0
  call mpi_allreduce(ls, lr, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(lr, 'allreduce lor')
  call mpi_allreduce(ls, lr, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(lr .eqv. (np == 1), 'allreduce land')
  ! MAXLOC / MINLOC on (value, index) pairs of INTEGERs.
  pair(:, 1) = [mod(rank * 7, np), rank]
  pair(:, 2) = [-rank, rank]
  call mpi_allreduce(pair, pres, 2, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  ! Ties go to the lowest rank.
  best = -1
  bestrank = -1
  do root = 0, np - 1
    if (mod(root * 7, np) > best) then
      best = mod(root * 7, np)
      bestrank = root
    end if
  end do
  call check(pres(1, 1) == best .and. pres(2, 1) == bestrank, 'maxloc')
  call check(pres(1, 2) == 0 .and. pres(2, 2) == 0, 'maxloc index')
  call mpi_allreduce(pair, pres, 2, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(pres(1, 1) == 0 .and. pres(2, 1) == 0, 'minloc first')
  call check(pres(1, 2) == -(np - 1) .and. pres(2, 2) == np - 1, 'minloc second')
end subroutine treduce

subroutine tgather_scatter(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer, parameter :: maxp = 128
  integer :: ierr, root, i, j, mine(2), all2(2 * maxp), counts(maxp), displs(maxp)
  integer :: vbuf(maxp * (maxp + 1) / 2 + maxp), vmine(maxp), n

  mine = [rank, rank * rank]
  root = np / 2
  ! gather
  all2 = -1
  call mpi_gather(mine, 2, MPI_INTEGER, all2, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  if (rank == root) then
    call check(all([(all2(2 * i + 1) == i .and. all2(2 * i + 2) == i * i, i = 0, np - 1)]), 'gather')
  end if
  ! gather in place at the root
  if (rank == root) then
    all2 = -1
    all2(2 * root + 1 : 2 * root + 2) = mine
    call mpi_gather(MPI_IN_PLACE, 2, MPI_INTEGER, all2, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all([(all2(2 * i + 1) == i .and. all2(2 * i + 2) == i * i, i = 0, np - 1)]), 'gather in place')
  else
    call mpi_gather(mine, 2, MPI_INTEGER, all2, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  end if
  ! allgather, then in place
  all2 = -1
  call mpi_allgather(mine, 2, MPI_INTEGER, all2, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all([(all2(2 * i + 1) == i .and. all2(2 * i + 2) == i * i, i = 0, np - 1)]), 'allgather')
  all2 = -1
  all2(2 * rank + 1 : 2 * rank + 2) = mine
  call mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all2, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all([(all2(2 * i + 1) == i .and. all2(2 * i + 2) == i * i, i = 0, np - 1)]), 'allgather in place')
  ! scatter
  mine = -1
  if (rank == root) all2(1 : 2 * np) = [(100 + i, i = 1, 2 * np)]
  call mpi_scatter(all2, 2, MPI_INTEGER, mine, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call check(all(mine == [101 + 2 * rank, 102 + 2 * rank]), 'scatter')
  if (rank == root) then
    call mpi_scatter(all2, 2, MPI_INTEGER, MPI_IN_PLACE, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all2(2 * root + 1) == 101 + 2 * root, 'scatter in place keeps root data')
  else
    call mpi_scatter(all2, 2, MPI_INTEGER, mine, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all(mine == [101 + 2 * rank, 102 + 2 * rank]), 'scatter in place, non-root')
  end if
  ! Variable counts: rank i owns i+1 values, all equal to i, stored with a gap of one.
  do i = 1, np
    counts(i) = i
    displs(i) = (i - 1) * i / 2 + (i - 1)
  end do
  n = rank + 1
  vmine(1:n) = rank
  vbuf = -1
  call mpi_gatherv(vmine, n, MPI_INTEGER, vbuf, counts, displs, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  if (rank == root) then
    do i = 1, np
      call check(all(vbuf(displs(i) + 1 : displs(i) + counts(i)) == i - 1), 'gatherv data')
      if (i < np) call check(vbuf(displs(i) + counts(i) + 1) == -1, 'gatherv gap')
    end do
  end if
  vbuf = -1
  call mpi_allgatherv(vmine, n, MPI_INTEGER, vbuf, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, np
    call check(all(vbuf(displs(i) + 1 : displs(i) + counts(i)) == i - 1), 'allgatherv data')
  end do
  vbuf = -1
  vbuf(displs(rank + 1) + 1 : displs(rank + 1) + n) = rank
  call mpi_allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, vbuf, counts, displs, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  do i = 1, np
    call check(all(vbuf(displs(i) + 1 : displs(i) + counts(i)) == i - 1), 'allgatherv in place')
  end do
  ! scatterv back from the root's gathered layout
  if (rank == root) then
    do i = 1, np
      vbuf(displs(i) + 1 : displs(i) + counts(i)) = [(10 * i + j, j = 1, counts(i))]
    end do
  end if
  vmine = -1
  call mpi_scatterv(vbuf, counts, displs, MPI_INTEGER, vmine, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call check(all(vmine(1:n) == [(10 * (rank + 1) + j, j = 1, n)]), 'scatterv')
  call check(vmine(n + 1) == -1, 'scatterv wrote past count')
end subroutine tgather_scatter

subroutine talltoall(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer, parameter :: maxp = 128
  integer :: ierr, i, j, sbuf(3 * maxp), rbuf(3 * maxp)
  integer :: scounts(maxp), sdispls(maxp), rcounts(maxp), rdispls(maxp)
  integer :: vs(maxp * maxp), vr(maxp * maxp), off

  do i = 0, np - 1
    sbuf(3 * i + 1 : 3 * i + 3) = [rank, i, 7]
  end do
  rbuf = -1
  call mpi_alltoall(sbuf, 3, MPI_INTEGER, rbuf, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 0, np - 1
    call check(all(rbuf(3 * i + 1 : 3 * i + 3) == [i, rank, 7]), 'alltoall')
  end do
  ! alltoallv: rank r sends j+1 copies of 100*r+j to rank j.
  off = 0
  do j = 0, np - 1
    scounts(j + 1) = j + 1
    sdispls(j + 1) = off
    vs(off + 1 : off + j + 1) = 100 * rank + j
    off = off + j + 1
  end do
  off = 0
  do i = 0, np - 1
    rcounts(i + 1) = rank + 1
    rdispls(i + 1) = off
    off = off + rank + 1 + 1   ! leave a gap after each block
  end do
  vr = -1
  call mpi_alltoallv(vs, scounts, sdispls, MPI_INTEGER, vr, rcounts, rdispls, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do i = 0, np - 1
    call check(all(vr(rdispls(i + 1) + 1 : rdispls(i + 1) + rank + 1) == 100 * i + rank), 'alltoallv data')
    call check(vr(rdispls(i + 1) + rank + 2) == -1, 'alltoallv gap')
  end do
end subroutine talltoall

subroutine tscan(rank, np)
  implicit none
  include 'mpif.h'
  integer, parameter :: maxp = 128
  integer, intent(in) :: rank, np
  integer :: ierr, s(2), r(2), counts(maxp), i, blk(maxp * 2), red(2)

  s = [rank + 1, 1]
  call mpi_scan(s, r, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(r(1) == (rank + 1) * (rank + 2) / 2 .and. r(2) == rank + 1, 'scan')
  r = s
  call mpi_scan(MPI_IN_PLACE, r, 2, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, ierr)
  call check(r(2) == 1, 'scan in place')
  r = -5
  call mpi_exscan(s, r, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call check(r(1) == rank * (rank + 1) / 2 .and. r(2) == rank, 'exscan')
  r = s
  call mpi_exscan(MPI_IN_PLACE, r, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call check(r(1) == rank * (rank + 1) / 2, 'exscan in place')
  ! reduce_scatter: block i of the sum (two values per rank) goes to rank i.
  do i = 1, np
    counts(i) = 2
    blk(2 * i - 1 : 2 * i) = [i, rank]
  end do
  red = -1
  call mpi_reduce_scatter(blk, red, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(red(1) == np * (rank + 1) .and. red(2) == np * (np - 1) / 2, 'reduce_scatter')
  call mpi_reduce_scatter(MPI_IN_PLACE, blk, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(blk(1) == np * (rank + 1) .and. blk(2) == np * (np - 1) / 2, 'reduce_scatter in place')
  do i = 1, np
    blk(2 * i - 1 : 2 * i) = [i, rank]
  end do
  red = -1
  call mpi_reduce_scatter_block(blk, red, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(red(1) == rank + 1 .and. red(2) == np - 1, 'reduce_scatter_block')
end subroutine tscan

! A user reduction written in Fortran. Each element is an affine map
! x -> m*x + c held as an INTEGER pair (m, c); inoutvec becomes "apply invec,
! then inoutvec". Composition is associative but not commutative, so the result
! shows that the library combines the ranks' values in rank order.
subroutine compose(invec, inoutvec, n, datatype)
  implicit none
  integer, intent(in) :: n, datatype
  integer, intent(in) :: invec(2, n)
  integer, intent(inout) :: inoutvec(2, n)
  integer :: i
  ! Affine maps modulo a prime below 2**15: products stay in a default INTEGER for any rank count.
  integer, parameter :: p = 32749
  if (datatype < 0) return
  do i = 1, n
    inoutvec(2, i) = mod(inoutvec(1, i) * invec(2, i) + inoutvec(2, i), p)
    inoutvec(1, i) = mod(inoutvec(1, i) * invec(1, i), p)
  end do
end subroutine compose

subroutine absmax(invec, inoutvec, n, datatype)
  implicit none
  integer, intent(in) :: n, datatype
  integer, intent(in) :: invec(n)
  integer, intent(inout) :: inoutvec(n)
  if (datatype < 0) return
  inoutvec = max(abs(invec), abs(inoutvec))
end subroutine absmax

subroutine tuserop(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  external :: compose, absmax
  integer :: ierr, op, op2, i, iv(2), ir(2), fmap(2), red(2), expect(2), prefix(2)
  logical :: commute

  call mpi_op_create(absmax, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'op_create')
  call mpi_op_commutative(op, commute, ierr)
  call check(commute, 'op_commutative true')
  iv = [-rank, rank + 1]
  call mpi_allreduce(iv, ir, 2, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(ir(1) == np - 1 .and. ir(2) == np, 'user op allreduce')
  call mpi_op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'op_free')
  ! Non-commutative: rank i holds x -> (i+2)*x + i (mod 32749); the result must be the
  ! composition in rank order, applied to every prefix by scan as well.
  call mpi_op_create(compose, .false., op2, ierr)
  call mpi_op_commutative(op2, commute, ierr)
  call check(.not. commute, 'op_commutative false')
  fmap = [rank + 2, rank]
  red = [0, 0]
  call mpi_reduce(fmap, red, 1, MPI_2INTEGER, op2, 0, MPI_COMM_WORLD, ierr)
  expect = [1, 0]
  do i = 0, np - 1
    expect = [mod((i + 2) * expect(1), 32749), mod((i + 2) * expect(2) + i, 32749)]
    if (i == rank) prefix = expect
  end do
  if (rank == 0) call check(all(red == expect), 'non-commutative user op in rank order')
  call mpi_allreduce(fmap, red, 1, MPI_2INTEGER, op2, MPI_COMM_WORLD, ierr)
  call check(all(red == expect), 'non-commutative user op allreduce')
  call mpi_scan(fmap, red, 1, MPI_2INTEGER, op2, MPI_COMM_WORLD, ierr)
  call check(all(red == prefix), 'non-commutative user op scan')
  call mpi_op_free(op2, ierr)
end subroutine tuserop
