! use mpi_f08: every collective, blocking and non-blocking, with MPI_IN_PLACE, a user-defined
! operation written against the Fortran 2008 interface (TYPE(C_PTR) vectors) and a reduction
! into a non-contiguous section.
module fortran08_coll_ops
  use, intrinsic :: iso_c_binding
  use mpi_f08
  implicit none
contains
  ! Associative but not commutative: odd elements keep the left operand, even ones the right
  ! (so a reduction over ranks gives rank 0's and rank n-1's values: the order shows).
  subroutine ordered_sub(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b(1:len:2) = a(1:len:2)
  end subroutine
end module

program fortran08_coll
  use mpi_f08
  use fortran08_coll_ops
  implicit none
  integer :: rank, n, fails, i, root, expect, t1, t2, t3, t4, t5, t6, t7
  integer, allocatable :: sbuf(:), rbuf(:), counts(:), displs(:), big(:)
  integer, allocatable, asynchronous :: abuf(:), arbuf(:)
  type(MPI_Datatype), allocatable :: types(:)
  integer :: v(3)
  integer, asynchronous :: grid(4, 3)
  integer, asynchronous :: grid2(4, 3)
  integer, allocatable, asynchronous :: wide(:, :)
  type(MPI_Op) :: op
  type(MPI_Request) :: reqs(14)
  logical :: commute

  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  allocate(sbuf(n), rbuf(n), counts(n), displs(n), big(n * n), types(n))
  root = n - 1

  call MPI_Barrier(MPI_COMM_WORLD)
  v = [rank, 2, 3]
  if (rank /= root) v = -1
  call MPI_Bcast(v, 3, MPI_INTEGER, root, MPI_COMM_WORLD)
  call check(all(v == [root, 2, 3]), 'bcast')

  call MPI_Reduce(rank + 1, expect, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) call check(expect == n * (n + 1) / 2, 'reduce')
  v = rank
  call MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  call check(all(v == n - 1), 'allreduce in place')
  ! A reduction into a row of a 2-D array (a non-contiguous section).
  grid = 0
  call MPI_Allreduce([1, rank, 2], grid(2, :), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(grid(2, :) == [n, n * (n - 1) / 2, 2 * n]) .and. all(grid(1, :) == 0), 'allreduce into a section')

  sbuf = [(rank * 100 + i, i = 1, n)]
  call MPI_Gather(rank, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
  if (rank == root) call check(all(rbuf == [(i, i = 0, n - 1)]), 'gather')
  call MPI_Scatter(sbuf, 1, MPI_INTEGER, i, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
  call check(i == root * 100 + rank + 1, 'scatter')
  call MPI_Allgather(rank * 2, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(rbuf == [(2 * i, i = 0, n - 1)]), 'allgather')
  call MPI_Alltoall(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(rbuf == [(i * 100 + rank + 1, i = 0, n - 1)]), 'alltoall')

  ! The v-variants: rank i contributes i+1 elements.
  counts = [(i + 1, i = 0, n - 1)]
  displs = [(i * (i + 1) / 2, i = 0, n - 1)]
  big = -1
  call MPI_Gatherv([(rank, i = 0, rank)], rank + 1, MPI_INTEGER, big, counts, displs, MPI_INTEGER, root, MPI_COMM_WORLD)
  if (rank == root) call check(all([(big(displs(i) + 1), i = 1, n)] == [(i, i = 0, n - 1)]), 'gatherv')
  call MPI_Allgatherv([(rank, i = 0, rank)], rank + 1, MPI_INTEGER, big, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all([(big(displs(i) + i), i = 1, n)] == [(i, i = 0, n - 1)]), 'allgatherv')
  if (rank == root) big = [(i, i = 1, n * n)]
  rbuf = -1
  call MPI_Scatterv(big, counts, displs, MPI_INTEGER, rbuf, rank + 1, MPI_INTEGER, root, MPI_COMM_WORLD)
  call check(rbuf(1) == displs(rank + 1) + 1 .and. rbuf(rank + 1) == displs(rank + 1) + rank + 1, 'scatterv')
  counts = 1
  displs = [(i, i = 0, n - 1)]
  call MPI_Alltoallv(sbuf, counts, displs, MPI_INTEGER, rbuf, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(rbuf == [(i * 100 + rank + 1, i = 0, n - 1)]), 'alltoallv')
  types = MPI_INTEGER
  displs = [(4 * i, i = 0, n - 1)]
  call MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_WORLD)
  call check(all(rbuf == [(i * 100 + rank + 1, i = 0, n - 1)]), 'alltoallw')

  counts = 1
  sbuf = [(rank + i, i = 1, n)]
  call MPI_Reduce_scatter(sbuf, i, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(i == n * (n - 1) / 2 + n * (rank + 1), 'reduce_scatter')
  call MPI_Reduce_scatter_block(sbuf, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(i == n * (n - 1) / 2 + n * (rank + 1), 'reduce_scatter_block')
  call MPI_Scan(rank, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(i == rank * (rank + 1) / 2, 'scan')
  i = -7
  call MPI_Exscan(rank, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank > 0) call check(i == rank * (rank - 1) / 2, 'exscan')

  ! A user operation through the Fortran 2008 interface; the order of operands is rank order.
  call MPI_Op_create(ordered_sub, .false., op)
  call MPI_Op_commutative(op, commute)
  call check(.not. commute, 'op_commutative')
  call MPI_Allreduce([rank, rank, rank], v, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(all(v == [0, n - 1, 0]), 'user operation')
  v = [1, 2, 3]
  grid(1, :) = [10, 20, 30]
  call MPI_Reduce_local(v, grid(1, :), 3, MPI_INTEGER, op)
  call check(all(grid(1, :) == [1, 20, 3]), 'reduce_local into a section')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'op_free')

  ! The non-blocking collectives, all in flight at once on ASYNCHRONOUS buffers.
  allocate(abuf(16 * n), arbuf(16 * n + 8))
  ! Scalar results after the blocks.
  t1 = 15 * n + 1; t2 = t1 + 1; t3 = t1 + 2; t4 = t1 + 3; t5 = t1 + 4; t6 = t1 + 5; t7 = t1 + 6
  abuf = rank
  arbuf = -1
  counts = 1
  displs = [(i, i = 0, n - 1)]
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(1))
  call MPI_Ibcast(abuf(1:1), 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2))
  call MPI_Iallreduce(abuf(2:2), arbuf(t1:t1), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(3))
  call MPI_Ireduce(abuf(3:3), arbuf(t2:t2), 1, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, reqs(4))
  call MPI_Igather(abuf(4:4), 1, MPI_INTEGER, arbuf(n + 1:2 * n), 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(5))
  call MPI_Iallgather(abuf(5:5), 1, MPI_INTEGER, arbuf(2 * n + 1:3 * n), 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(6))
  call MPI_Ialltoall(abuf(6 * n + 1:7 * n), 1, MPI_INTEGER, arbuf(3 * n + 1:4 * n), 1, MPI_INTEGER, &
                     MPI_COMM_WORLD, reqs(7))
  call MPI_Iscan(abuf(6:6), arbuf(t3:t3), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(8))
  call MPI_Iexscan(abuf(7:7), arbuf(t4:t4), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(9))
  call MPI_Ireduce_scatter_block(abuf(7 * n + 1:8 * n), arbuf(t5:t5), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(10))
  call MPI_Iscatter(abuf(8 * n + 1:9 * n), 1, MPI_INTEGER, arbuf(t6:t6), 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(11))
  call MPI_Iallgatherv(abuf(8:8), 1, MPI_INTEGER, arbuf(4 * n + 1:5 * n), counts, displs, MPI_INTEGER, &
                       MPI_COMM_WORLD, reqs(12))
  call MPI_Ialltoallv(abuf(9 * n + 1:10 * n), counts, displs, MPI_INTEGER, arbuf(5 * n + 1:6 * n), counts, displs, &
                      MPI_INTEGER, MPI_COMM_WORLD, reqs(13))
  call MPI_Ireduce_scatter(abuf(10 * n + 1:11 * n), arbuf(t7:t7), counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(14))
  call MPI_Waitall(14, reqs, MPI_STATUSES_IGNORE)
  call check(abuf(1) == 0, 'ibcast')
  call check(arbuf(t1) == n * (n - 1) / 2, 'iallreduce')
  if (rank == root) call check(arbuf(t2) == n - 1, 'ireduce')
  if (rank == 0) call check(all(arbuf(n + 1:2 * n) == [(i, i = 0, n - 1)]), 'igather')
  call check(all(arbuf(2 * n + 1:3 * n) == [(i, i = 0, n - 1)]), 'iallgather')
  call check(all(arbuf(3 * n + 1:4 * n) == [(i, i = 0, n - 1)]), 'ialltoall')
  call check(arbuf(t3) == rank * (rank + 1) / 2, 'iscan')
  if (rank > 0) call check(arbuf(t4) == rank * (rank - 1) / 2, 'iexscan')
  call check(arbuf(t5) == n * (n - 1) / 2, 'ireduce_scatter_block')
  call check(arbuf(t6) == 0, 'iscatter')
  call check(all(arbuf(4 * n + 1:5 * n) == [(i, i = 0, n - 1)]), 'iallgatherv')
  call check(all(arbuf(5 * n + 1:6 * n) == [(i, i = 0, n - 1)]), 'ialltoallv')
  call check(arbuf(t7) == n * (n - 1) / 2, 'ireduce_scatter')

  ! Non-blocking collectives on strided sections: described by a datatype in place.
  allocate(wide(3, n))
  wide = -1
  call MPI_Iallgather(rank * 3, 1, MPI_INTEGER, wide(2, :), 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(all(wide(2, :) == [(3 * i, i = 0, n - 1)]) .and. all(wide(1, :) == -1) .and. all(wide(3, :) == -1), &
             'iallgather into a section')
  ! A non-blocking reduction in place into a row, and one between rows of two alike arrays.
  grid = -1
  grid(3, :) = [rank, 1, 2]
  call MPI_Iallreduce(MPI_IN_PLACE, grid(3, :), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(all(grid(3, :) == [n * (n - 1) / 2, n, 2 * n]) .and. all(grid(4, :) == -1), 'iallreduce in place into a row')
  grid2 = 0
  grid2(2, :) = [1, rank, 3]
  call MPI_Iallreduce(grid2(2, :), grid(1, :), 3, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(all(grid(1, :) == [1, n - 1, 3]) .and. all(grid(2, :) == -1), 'iallreduce between rows')
  grid = -1
  if (rank == 0) grid(1, :) = [7, 8, 9]
  call MPI_Ibcast(grid(1, :), 3, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(all(grid(1, :) == [7, 8, 9]) .and. all(grid(2:4, :) == -1), 'ibcast of a section')

  deallocate(sbuf, rbuf, counts, displs, big, types, abuf, arbuf, wide)
  call finish('fortran08_coll')

contains

  include 'fortran08_check.inc'

end program
