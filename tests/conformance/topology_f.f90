! Process topologies from Fortran (`use mpi`): graph and distributed-graph constructors and
! queries (MPI_UNWEIGHTED, weights, the WEIGHTED logical), MPI_CART_MAP, MPI_GRAPH_MAP,
! MPI_TOPO_TEST, the neighbourhood collectives (blocking and MPI_INEIGHBOR_), and error classes.
program topology_f
  use mpi
  implicit none
  integer :: ierr, rank, np, errs, total, cls, g, dg, cart, status, me, k, req, newrank
  integer :: nnodes, nedges, count, indeg, outdeg
  integer :: index(64), edges(128), nb(8), src(2), dst(2), sw(2), dw(2), sb(2), rb(2)
  integer :: dims(1), sc(2), sd(2), rc(2), rd(2), types(2)
  integer(kind=MPI_ADDRESS_KIND) :: sbytes(2), rbytes(2)
  logical :: periods(1), weighted

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  ! A ring graph: node v's neighbours are v-1 and v+1.
  do k = 0, np - 1
    edges(2 * k + 1) = mod(k + np - 1, np)
    edges(2 * k + 2) = mod(k + 1, np)
    index(k + 1) = 2 * k + 2
  end do
  call mpi_graph_create(MPI_COMM_WORLD, np, index, edges, .true., g, ierr)
  if (ierr /= MPI_SUCCESS) call fail('mpi_graph_create failed')
  call mpi_topo_test(g, status, ierr)
  if (status /= MPI_GRAPH) call fail('mpi_topo_test is not MPI_GRAPH')
  call mpi_graphdims_get(g, nnodes, nedges, ierr)
  if (nnodes /= np .or. nedges /= 2 * np) call fail('mpi_graphdims_get')
  call mpi_comm_rank(g, me, ierr)
  call mpi_graph_neighbors_count(g, me, count, ierr)
  call mpi_graph_neighbors(g, me, 8, nb, ierr)
  if (count /= 2 .or. nb(1) /= mod(me + np - 1, np) .or. nb(2) /= mod(me + 1, np)) call fail('mpi_graph_neighbors')
  call mpi_graph_get(g, np, 2 * np, index, edges, ierr)
  if (index(np) /= 2 * np) call fail('mpi_graph_get')
  ! The ring's exchange: block 1 comes from the lower neighbour, block 2 from the upper.
  sb = (/ 100 * me + 1, 100 * me + 2 /)
  call mpi_neighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, g, ierr)
  if (rb(1) /= 100 * nb(1) + 2 .or. rb(2) /= 100 * nb(2) + 1) call fail('mpi_neighbor_alltoall on the ring')
  call mpi_ineighbor_allgather(me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, g, req, ierr)
  call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  if (rb(1) /= nb(1) .or. rb(2) /= nb(2)) call fail('mpi_ineighbor_allgather on the ring')
  sc = 1
  rc = 1
  sd = (/ 0, 1 /)
  rd = (/ 1, 0 /)
  call mpi_neighbor_alltoallv(sb, sc, sd, MPI_INTEGER, rb, rc, rd, MPI_INTEGER, g, ierr)
  if (rb(2) /= 100 * nb(1) + 2 .or. rb(1) /= 100 * nb(2) + 1) call fail('mpi_neighbor_alltoallv on the ring')
  types = MPI_INTEGER
  sbytes = (/ 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND /)
  rbytes = (/ 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND /)
  rb = -1
  call mpi_neighbor_alltoallw(sb, sc, sbytes, types, rb, rc, rbytes, types, g, ierr)
  if (rb(1) /= 100 * nb(1) + 2 .or. rb(2) /= 100 * nb(2) + 1) call fail('mpi_neighbor_alltoallw on the ring')
  call mpi_neighbor_allgatherv(me, 1, MPI_INTEGER, rb, rc, rd, MPI_INTEGER, g, ierr)
  if (rb(2) /= nb(1) .or. rb(1) /= nb(2)) call fail('mpi_neighbor_allgatherv on the ring')
  call mpi_graph_map(MPI_COMM_WORLD, np, index, edges, newrank, ierr)
  if (newrank /= me) call fail('mpi_graph_map differs from mpi_graph_create with reorder')
  call mpi_comm_free(g, ierr)

  ! A distributed ring, weighted and not.
  src = (/ mod(rank + np - 1, np), mod(rank + np - 1, np) /)
  dst = (/ mod(rank + 1, np), mod(rank + 1, np) /)
  call mpi_dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .false., dg, ierr)
  if (ierr /= MPI_SUCCESS) call fail('mpi_dist_graph_create_adjacent (unweighted) failed')
  call mpi_dist_graph_neighbors_count(dg, indeg, outdeg, weighted, ierr)
  if (indeg /= 1 .or. outdeg /= 1 .or. weighted) call fail('mpi_dist_graph_neighbors_count (unweighted)')
  call mpi_topo_test(dg, status, ierr)
  if (status /= MPI_DIST_GRAPH) call fail('mpi_topo_test is not MPI_DIST_GRAPH')
  call mpi_comm_free(dg, ierr)
  sw = (/ 7, 7 /)
  dw = (/ 9, 9 /)
  call mpi_dist_graph_create(MPI_COMM_WORLD, 1, (/ rank /), (/ 1 /), dst, dw, MPI_INFO_NULL, .true., dg, ierr)
  if (ierr /= MPI_SUCCESS) call fail('mpi_dist_graph_create failed')
  call mpi_dist_graph_neighbors_count(dg, indeg, outdeg, weighted, ierr)
  if (indeg /= 1 .or. outdeg /= 1 .or. .not. weighted) call fail('mpi_dist_graph_neighbors_count (weighted)')
  call mpi_comm_rank(dg, me, ierr)
  sw = -1
  dw = -1
  call mpi_dist_graph_neighbors(dg, 1, src, sw, 1, dst, dw, ierr)
  if (src(1) /= mod(me + np - 1, np) .or. dst(1) /= mod(me + 1, np) .or. sw(1) /= 9 .or. dw(1) /= 9) &
    call fail('mpi_dist_graph_neighbors (weighted)')
  call mpi_comm_free(dg, ierr)

  ! MPI_CART_MAP: a 1-D grid of every rank.
  dims(1) = np
  periods(1) = .true.
  call mpi_cart_map(MPI_COMM_WORLD, 1, dims, periods, newrank, ierr)
  if (ierr /= MPI_SUCCESS .or. newrank < 0 .or. newrank >= np) call fail('mpi_cart_map')

  ! Errors.
  call mpi_graphdims_get(MPI_COMM_WORLD, nnodes, nedges, ierr)
  call mpi_error_class(ierr, cls, k)
  if (cls /= MPI_ERR_TOPOLOGY) call fail('mpi_graphdims_get without a topology is not MPI_ERR_TOPOLOGY')
  call mpi_neighbor_allgather(me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call mpi_error_class(ierr, cls, k)
  if (cls /= MPI_ERR_TOPOLOGY) call fail('mpi_neighbor_allgather without a topology is not MPI_ERR_TOPOLOGY')
  call mpi_cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call mpi_comm_set_errhandler(cart, MPI_ERRORS_RETURN, ierr)
  call mpi_graph_neighbors_count(cart, 0, count, ierr)
  call mpi_error_class(ierr, cls, k)
  if (cls /= MPI_ERR_TOPOLOGY) call fail('mpi_graph_neighbors_count on a Cartesian communicator')
  call mpi_comm_free(cart, ierr)

  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'topology_f.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program topology_f
