! Process topologies from Fortran 2008 (`use mpi_f08`): a distributed ring with MPI_UNWEIGHTED
! (the sentinel must reach the library as unweighted) and with weights, the neighbourhood
! collectives on a periodic Cartesian ring (the blocks of the lower and upper neighbour), and
! MPI_Topo_test of each kind.
program topology_f08
  use mpi_f08
  implicit none
  integer :: rank, np, fails, total, me, status, indeg, outdeg, lo, hi
  integer :: src(1), dst(1), w(1), sw(1), dw(1), sb(2), rb(2)
  logical :: weighted
  type(MPI_Comm) :: dg, cart
  type(MPI_Request) :: req

  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)

  src(1) = modulo(rank - 1, np)
  dst(1) = modulo(rank + 1, np)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .false., dg)
  call MPI_Dist_graph_neighbors_count(dg, indeg, outdeg, weighted)
  if (indeg /= 1 .or. outdeg /= 1 .or. weighted) call fail('unweighted ring: counts or weighted flag')
  call MPI_Topo_test(dg, status)
  if (status /= MPI_DIST_GRAPH) call fail('MPI_Topo_test is not MPI_DIST_GRAPH')
  call MPI_Comm_free(dg)
  w(1) = 5
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, w, 1, dst, w, MPI_INFO_NULL, .true., dg)
  call MPI_Dist_graph_neighbors_count(dg, indeg, outdeg, weighted)
  if (.not. weighted) call fail('weighted ring: weighted flag')
  call MPI_Dist_graph_neighbors(dg, 1, src, sw, 1, dst, dw)
  if (sw(1) /= 5 .or. dw(1) /= 5) call fail('weighted ring: weights')
  call MPI_Comm_free(dg)

  call MPI_Cart_create(MPI_COMM_WORLD, 1, [np], [.true.], .false., cart)
  call MPI_Comm_rank(cart, me)
  call MPI_Cart_shift(cart, 0, 1, lo, hi)
  sb = [100 * me + 1, 100 * me + 2]
  call MPI_Neighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, cart)
  if (rb(1) /= 100 * lo + 2 .or. rb(2) /= 100 * hi + 1) call fail('MPI_Neighbor_alltoall on the ring')
  call MPI_Ineighbor_allgather(me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, cart, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (rb(1) /= lo .or. rb(2) /= hi) call fail('MPI_Ineighbor_allgather on the ring')
  call MPI_Topo_test(cart, status)
  if (status /= MPI_CART) call fail('MPI_Topo_test is not MPI_CART')
  call MPI_Comm_free(cart)

  call MPI_Allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'topology_f08.f90: ', np, ' ranks: ok'
  call MPI_Finalize()
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    fails = fails + 1
  end subroutine fail
end program topology_f08
