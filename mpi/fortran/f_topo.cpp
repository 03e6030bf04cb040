// Fortran bindings: process topologies (Cartesian, graph, distributed graph), the neighbourhood
// collectives, and the struct / hindexed datatype constructors.
// LOGICAL arrays (periods, remain_dims) are gfortran's 4-byte logicals: 1 for .TRUE., 0 for .FALSE.
#include <vector>

#include "fortran_support.h"

using namespace tilempi::fortran;

namespace {
std::vector<int> logicals(const MPI_Fint* f, int n) {
  std::vector<int> v(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) v[i] = from_logical(&f[i]);
  return v;
}
}  // namespace

extern "C" {

void mpi_dims_create_(const MPI_Fint* nnodes, const MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* ierr) {
  *ierr = MPI_Dims_create(*nnodes, *ndims, dims);
}

void mpi_cart_create_(const MPI_Fint* comm_old, const MPI_Fint* ndims, const MPI_Fint* dims, const MPI_Fint* periods,
                      const MPI_Fint* reorder, MPI_Fint* comm_cart, MPI_Fint* ierr) {
  std::vector<int> p = logicals(periods, *ndims);
  *ierr = MPI_Cart_create(*comm_old, *ndims, dims, p.data(), from_logical(reorder), comm_cart);
}

void mpi_cart_coords_(const MPI_Fint* comm, const MPI_Fint* rank, const MPI_Fint* maxdims, MPI_Fint* coords,
                      MPI_Fint* ierr) {
  *ierr = MPI_Cart_coords(*comm, *rank, *maxdims, coords);
}

void mpi_cart_rank_(const MPI_Fint* comm, const MPI_Fint* coords, MPI_Fint* rank, MPI_Fint* ierr) {
  *ierr = MPI_Cart_rank(*comm, coords, rank);
}

void mpi_cart_shift_(const MPI_Fint* comm, const MPI_Fint* direction, const MPI_Fint* disp, MPI_Fint* source,
                     MPI_Fint* dest, MPI_Fint* ierr) {
  *ierr = MPI_Cart_shift(*comm, *direction, *disp, source, dest);
}

void mpi_cart_get_(const MPI_Fint* comm, const MPI_Fint* maxdims, MPI_Fint* dims, MPI_Fint* periods, MPI_Fint* coords,
                   MPI_Fint* ierr) {
  std::vector<int> p(*maxdims > 0 ? *maxdims : 0);
  *ierr = MPI_Cart_get(*comm, *maxdims, dims, p.data(), coords);
  for (int i = 0; i < *maxdims; ++i) periods[i] = logical(p[i]);
}

void mpi_cartdim_get_(const MPI_Fint* comm, MPI_Fint* ndims, MPI_Fint* ierr) { *ierr = MPI_Cartdim_get(*comm, ndims); }

void mpi_cart_sub_(const MPI_Fint* comm, const MPI_Fint* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr) {
  int n = 0;
  *ierr = MPI_Cartdim_get(*comm, &n);
  if (*ierr != MPI_SUCCESS) return;
  std::vector<int> r = logicals(remain_dims, n);
  *ierr = MPI_Cart_sub(*comm, r.data(), newcomm);
}

void mpi_topo_test_(const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) { *ierr = MPI_Topo_test(*comm, status); }

void mpi_cart_map_(const MPI_Fint* comm, const MPI_Fint* ndims, const MPI_Fint* dims, const MPI_Fint* periods,
                   MPI_Fint* newrank, MPI_Fint* ierr) {
  std::vector<int> p = logicals(periods, *ndims);
  *ierr = MPI_Cart_map(*comm, *ndims, dims, p.data(), newrank);
}

void mpi_graph_create_(const MPI_Fint* comm_old, const MPI_Fint* nnodes, const MPI_Fint* index, const MPI_Fint* edges,
                       const MPI_Fint* reorder, MPI_Fint* comm_graph, MPI_Fint* ierr) {
  *ierr = MPI_Graph_create(*comm_old, *nnodes, index, edges, from_logical(reorder), comm_graph);
}

void mpi_graphdims_get_(const MPI_Fint* comm, MPI_Fint* nnodes, MPI_Fint* nedges, MPI_Fint* ierr) {
  *ierr = MPI_Graphdims_get(*comm, nnodes, nedges);
}

void mpi_graph_get_(const MPI_Fint* comm, const MPI_Fint* maxindex, const MPI_Fint* maxedges, MPI_Fint* index,
                    MPI_Fint* edges, MPI_Fint* ierr) {
  *ierr = MPI_Graph_get(*comm, *maxindex, *maxedges, index, edges);
}

void mpi_graph_neighbors_count_(const MPI_Fint* comm, const MPI_Fint* rank, MPI_Fint* nneighbors, MPI_Fint* ierr) {
  *ierr = MPI_Graph_neighbors_count(*comm, *rank, nneighbors);
}

void mpi_graph_neighbors_(const MPI_Fint* comm, const MPI_Fint* rank, const MPI_Fint* maxneighbors, MPI_Fint* neighbors,
                          MPI_Fint* ierr) {
  *ierr = MPI_Graph_neighbors(*comm, *rank, *maxneighbors, neighbors);
}

void mpi_graph_map_(const MPI_Fint* comm, const MPI_Fint* nnodes, const MPI_Fint* index, const MPI_Fint* edges,
                    MPI_Fint* newrank, MPI_Fint* ierr) {
  *ierr = MPI_Graph_map(*comm, *nnodes, index, edges, newrank);
}

void mpi_dist_graph_create_adjacent_(const MPI_Fint* comm_old, const MPI_Fint* indegree, const MPI_Fint* sources,
                                     const MPI_Fint* sourceweights, const MPI_Fint* outdegree,
                                     const MPI_Fint* destinations, const MPI_Fint* destweights, const MPI_Fint* info,
                                     const MPI_Fint* reorder, MPI_Fint* comm_dist_graph, MPI_Fint* ierr) {
  *ierr = MPI_Dist_graph_create_adjacent(*comm_old, *indegree, sources, weights(sourceweights), *outdegree, destinations,
                                         weights(destweights), *info, from_logical(reorder), comm_dist_graph);
}

void mpi_dist_graph_create_(const MPI_Fint* comm_old, const MPI_Fint* n, const MPI_Fint* sources, const MPI_Fint* degrees,
                            const MPI_Fint* destinations, const MPI_Fint* w, const MPI_Fint* info,
                            const MPI_Fint* reorder, MPI_Fint* comm_dist_graph, MPI_Fint* ierr) {
  *ierr = MPI_Dist_graph_create(*comm_old, *n, sources, degrees, destinations, weights(w), *info, from_logical(reorder),
                                comm_dist_graph);
}

void mpi_dist_graph_neighbors_count_(const MPI_Fint* comm, MPI_Fint* indegree, MPI_Fint* outdegree, MPI_Fint* weighted,
                                     MPI_Fint* ierr) {
  int w = 0;
  *ierr = MPI_Dist_graph_neighbors_count(*comm, indegree, outdegree, &w);
  if (*ierr == MPI_SUCCESS) *weighted = logical(w);
}

void mpi_dist_graph_neighbors_(const MPI_Fint* comm, const MPI_Fint* maxindegree, MPI_Fint* sources,
                               MPI_Fint* sourceweights, const MPI_Fint* maxoutdegree, MPI_Fint* destinations,
                               MPI_Fint* destweights, MPI_Fint* ierr) {
  *ierr = MPI_Dist_graph_neighbors(*comm, *maxindegree, sources, weights(sourceweights), *maxoutdegree, destinations,
                                   weights(destweights));
}

void mpi_neighbor_allgather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                             const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Neighbor_allgather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_ineighbor_allgather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                              const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm,
                              MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ineighbor_allgather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm,
                                  request);
}

void mpi_neighbor_allgatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                              const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype,
                              const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Neighbor_allgatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs, *recvtype,
                                  *comm);
}

void mpi_ineighbor_allgatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                               const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype,
                               const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ineighbor_allgatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs,
                                   *recvtype, *comm, request);
}

void mpi_neighbor_alltoall_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                            const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Neighbor_alltoall(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_ineighbor_alltoall_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                             const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm,
                             MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ineighbor_alltoall(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm,
                                 request);
}

void mpi_neighbor_alltoallv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                             const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts,
                             const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Neighbor_alltoallv(buffer(sendbuf), sendcounts, sdispls, *sendtype, buffer(recvbuf), recvcounts, rdispls,
                                 *recvtype, *comm);
}

void mpi_ineighbor_alltoallv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                              const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts,
                              const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm,
                              MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ineighbor_alltoallv(buffer(sendbuf), sendcounts, sdispls, *sendtype, buffer(recvbuf), recvcounts, rdispls,
                                  *recvtype, *comm, request);
}

void mpi_neighbor_alltoallw_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Aint* sdispls,
                             const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts,
                             const MPI_Aint* rdispls, const MPI_Fint* recvtypes, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Neighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, sendtypes, buffer(recvbuf), recvcounts, rdispls,
                                 recvtypes, *comm);
}

void mpi_ineighbor_alltoallw_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Aint* sdispls,
                              const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts,
                              const MPI_Aint* rdispls, const MPI_Fint* recvtypes, const MPI_Fint* comm,
                              MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ineighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, sendtypes, buffer(recvbuf), recvcounts, rdispls,
                                  recvtypes, *comm, request);
}

void mpi_type_create_hindexed_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Aint* displacements,
                               const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_hindexed(*count, blocklengths, displacements, *oldtype, newtype);
}

void mpi_type_create_struct_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Aint* displacements,
                             const MPI_Fint* types, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_struct(*count, blocklengths, displacements, types, newtype);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(dims_create)
TILEMPI_PMPI_F_ALIAS(cart_create)
TILEMPI_PMPI_F_ALIAS(cart_coords)
TILEMPI_PMPI_F_ALIAS(cart_rank)
TILEMPI_PMPI_F_ALIAS(cart_shift)
TILEMPI_PMPI_F_ALIAS(cart_get)
TILEMPI_PMPI_F_ALIAS(cartdim_get)
TILEMPI_PMPI_F_ALIAS(cart_sub)
TILEMPI_PMPI_F_ALIAS(topo_test)
TILEMPI_PMPI_F_ALIAS(cart_map)
TILEMPI_PMPI_F_ALIAS(graph_create)
TILEMPI_PMPI_F_ALIAS(graphdims_get)
TILEMPI_PMPI_F_ALIAS(graph_get)
TILEMPI_PMPI_F_ALIAS(graph_neighbors_count)
TILEMPI_PMPI_F_ALIAS(graph_neighbors)
TILEMPI_PMPI_F_ALIAS(graph_map)
TILEMPI_PMPI_F_ALIAS(dist_graph_create_adjacent)
TILEMPI_PMPI_F_ALIAS(dist_graph_create)
TILEMPI_PMPI_F_ALIAS(dist_graph_neighbors_count)
TILEMPI_PMPI_F_ALIAS(dist_graph_neighbors)
TILEMPI_PMPI_F_ALIAS(neighbor_allgather)
TILEMPI_PMPI_F_ALIAS(ineighbor_allgather)
TILEMPI_PMPI_F_ALIAS(neighbor_allgatherv)
TILEMPI_PMPI_F_ALIAS(ineighbor_allgatherv)
TILEMPI_PMPI_F_ALIAS(neighbor_alltoall)
TILEMPI_PMPI_F_ALIAS(ineighbor_alltoall)
TILEMPI_PMPI_F_ALIAS(neighbor_alltoallv)
TILEMPI_PMPI_F_ALIAS(ineighbor_alltoallv)
TILEMPI_PMPI_F_ALIAS(neighbor_alltoallw)
TILEMPI_PMPI_F_ALIAS(ineighbor_alltoallw)
TILEMPI_PMPI_F_ALIAS(type_create_hindexed)
TILEMPI_PMPI_F_ALIAS(type_create_struct)
