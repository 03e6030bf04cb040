// Cartesian topologies: a communicator that also knows a grid shape (ranks in row-major order,
// as MPI specifies), and the queries and shifts codes such as the NAS benchmarks use. Graph and
// distributed-graph topologies: api_topo_graph.cpp; what all kinds share: api_topo_common.cpp.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "check.h"
#include "p2p.h"
#include "topo.h"

using namespace tilempi::mpi;

namespace {

Comm* cart(MPI_Comm h, const char* fn, int* rc) {
  Comm* c = check::comm(h, fn, rc);
  if (c && !c->cart) {
    *rc = raise(h, MPI_ERR_TOPOLOGY, fn, "the communicator has no Cartesian topology");
    return nullptr;
  }
  return c;
}

std::vector<int> coords_of(const Comm& c, int rank) {
  std::vector<int> coords(c.cart_dims.size());
  for (int d = static_cast<int>(c.cart_dims.size()) - 1; d >= 0; --d) {
    coords[d] = rank % c.cart_dims[d];
    rank /= c.cart_dims[d];
  }
  return coords;
}

// Rank of coords, wrapping periodic dimensions; -1 when off a non-periodic edge.
int rank_of(const Comm& c, std::vector<int> coords) {
  int rank = 0;
  for (std::size_t d = 0; d < c.cart_dims.size(); ++d) {
    int n = c.cart_dims[d];
    if (c.cart_periods[d])
      coords[d] = ((coords[d] % n) + n) % n;
    else if (coords[d] < 0 || coords[d] >= n)
      return -1;
    rank = rank * n + coords[d];
  }
  return rank;
}

}  // namespace

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Dims_create";
  if (nnodes < 1 || ndims < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "nnodes must be >= 1 and ndims >= 0");
  if (ndims > 0 && !dims) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "dims is NULL");
  int fixed = 1, free_dims = 0;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] < 0) return raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn, "dims[" + std::to_string(d) + "] is negative");
    if (dims[d] > 0)
      fixed *= dims[d];
    else
      ++free_dims;
  }
  if (nnodes % fixed != 0)
    return raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn, "the fixed dimensions do not divide " + std::to_string(nnodes));
  int rest = nnodes / fixed;
  if (free_dims == 0) {
    if (rest != 1) return raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn, "the dimensions do not multiply to nnodes");
    return MPI_SUCCESS;
  }
  // As close to each other as possible (MPI-3.1 §7.5.2): of the ways to write rest as a
  // non-increasing product of free_dims factors, the one whose largest and smallest factor differ
  // least; between equals, the one whose next largest is nearest the smallest, and so on (the
  // standard leaves ties open; this agrees with MPICH 4.0.2's choices in all but 2 of 3 770 cases
  // of its topo/dims5 list sampled). Spreading the prime factors greedily missed even the first
  // rule: 72 in 2 dimensions gave 12 x 6, not 9 x 8. The search runs over the divisors of rest.
  std::vector<int> divisors;
  for (int d = 1; d <= rest / d; ++d)
    if (rest % d == 0) {
      divisors.push_back(d);
      if (d != rest / d) divisors.push_back(rest / d);
    }
  std::sort(divisors.rbegin(), divisors.rend());
  std::vector<int> out, cur;
  auto reaches = [](long long d, int slots, long long left) {  // d^slots >= left
    long long p = 1;
    for (int i = 0; i < slots && p < left; ++i) p *= d;
    return p >= left;
  };
  auto better = [&] {  // (each factor - the smallest), compared from the largest factor on
    if (out.empty()) return true;
    for (std::size_t i = 0; i + 1 < cur.size(); ++i) {
      const int a = cur[i] - cur.back(), b = out[i] - out.back();
      if (a != b) return a < b;
    }
    return false;
  };
  auto search = [&](auto& self, int left, int slots, int upper) -> void {
    if (slots == 1) {
      if (left <= upper) {
        cur.push_back(left);
        if (better()) out = cur;
        cur.pop_back();
      }
      return;
    }
    for (int d : divisors) {  // largest first
      if (d > upper || left % d != 0) continue;
      if (!reaches(d, slots, left)) break;  // the rest would need a factor above d
      cur.push_back(d);
      self(self, left / d, slots - 1, d);
      cur.pop_back();
    }
  };
  search(search, rest, free_dims, rest);
  for (int d = 0, k = 0; d < ndims; ++d)
    if (dims[d] == 0) dims[d] = out[k++];
  return MPI_SUCCESS;
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Cart_create";
  int rc;
  Comm* c = check::intra(comm_old, fn, &rc);
  if (!c) return rc;
  // The other members derive a context from comm_old's count of constructors: a rank with a
  // wrong argument does too, so that the communicators they all make later still agree.
  auto wrong = [&](int cls, const std::string& why) {
    derive_context(*c);
    return raise(comm_old, cls, fn, why);
  };
  if (ndims < 0 || (ndims > 0 && (!dims || !periods)) || !comm_cart)
    return wrong(MPI_ERR_ARG, "bad ndims, dims, periods or comm_cart");
  long total = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) return wrong(MPI_ERR_DIMS, "dims[" + std::to_string(d) + "] must be positive");
    total *= dims[d];
  }
  if (total > c->size)
    return wrong(MPI_ERR_DIMS,
                 "the grid has " + std::to_string(total) + " cells but the communicator only " + std::to_string(c->size) + " ranks");
  // With reorder, the grid's ranks go where their neighbours are one hop away (topo.h); without,
  // rank k of the grid is rank k of comm_old.
  std::vector<int> dv(dims, dims + ndims), pv(periods, periods + ndims);
  for (int& p : pv) p = p ? 1 : 0;
  Placement placement;
  if (reorder && total > 1) {
    placement = place_topology(*c, topo_schedule::graph_of(topo_schedule::cartesian_neighborhood(dv, pv)), true, dv);
  } else {
    placement.order.resize(static_cast<std::size_t>(total));
    std::iota(placement.order.begin(), placement.order.end(), 0);
  }
  std::uint64_t context = derive_context(*c);
  *comm_cart = topology_comm(*c, placement.order, context);
  if (*comm_cart == MPI_COMM_NULL) return MPI_SUCCESS;
  Comm* n = comm_get(*comm_cart);
  if (reorder && total > 1) report_placement(*c, fn, placement, n->rank);
  n->cart = true;  // (with ndims 0: a zero-dimensional topology of one process, MPI-3.1 §7.5.1)
  n->cart_dims.assign(dims, dims + ndims);
  n->cart_periods.resize(ndims);
  for (int d = 0; d < ndims; ++d) n->cart_periods[d] = periods[d] ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Topo_test", &rc);
  if (!c) return rc;
  if (!status) return raise(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
  *status = topology_kind(*c);
  return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cartdim_get", &rc);
  if (!c) return rc;
  if (!ndims) return raise(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
  *ndims = static_cast<int>(c->cart_dims.size());
  return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cart_get", &rc);
  if (!c) return rc;
  int n = std::min<int>(maxdims, static_cast<int>(c->cart_dims.size()));
  std::vector<int> mine = coords_of(*c, c->rank);
  for (int d = 0; d < n; ++d) {
    if (dims) dims[d] = c->cart_dims[d];
    if (periods) periods[d] = c->cart_periods[d];
    if (coords) coords[d] = mine[d];
  }
  return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cart_coords", &rc);
  if (!c) return rc;
  if (rank < 0 || rank >= c->size)
    return raise(comm, MPI_ERR_RANK, "MPI_Cart_coords", "rank " + std::to_string(rank) + " is not in the communicator");
  if (maxdims < static_cast<int>(c->cart_dims.size()) || (!coords && !c->cart_dims.empty()))
    return raise(comm, MPI_ERR_ARG, "MPI_Cart_coords", "coords must hold every dimension");
  std::vector<int> v = coords_of(*c, rank);
  std::copy(v.begin(), v.end(), coords);
  return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cart_rank", &rc);
  if (!c) return rc;
  if (!rank || (!coords && !c->cart_dims.empty())) return raise(comm, MPI_ERR_ARG, "MPI_Cart_rank", "NULL argument");
  int r = rank_of(*c, std::vector<int>(coords, coords + c->cart_dims.size()));
  if (r < 0) return raise(comm, MPI_ERR_RANK, "MPI_Cart_rank", "coordinates are outside a non-periodic dimension");
  *rank = r;
  return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cart_shift", &rc);
  if (!c) return rc;
  if (direction < 0 || direction >= static_cast<int>(c->cart_dims.size()))
    return raise(comm, MPI_ERR_DIMS, "MPI_Cart_shift", "direction " + std::to_string(direction) + " is not a dimension");
  if (!rank_source || !rank_dest) return raise(comm, MPI_ERR_ARG, "MPI_Cart_shift", "NULL argument");
  std::vector<int> here = coords_of(*c, c->rank);
  std::vector<int> to = here, from = here;
  to[direction] += disp;
  from[direction] -= disp;
  int d = rank_of(*c, to), s = rank_of(*c, from);
  *rank_dest = d < 0 ? MPI_PROC_NULL : d;
  *rank_source = s < 0 ? MPI_PROC_NULL : s;
  return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = cart(comm, "MPI_Cart_sub", &rc);
  if (!c) return rc;
  if ((!remain_dims && !c->cart_dims.empty()) || !newcomm) {
    // Still take part in the split, as MPI_UNDEFINED, so that the others complete theirs.
    MPI_Comm none = MPI_COMM_NULL;
    MPI_Comm_split(comm, MPI_UNDEFINED, 0, newcomm ? newcomm : &none);
    return raise(comm, MPI_ERR_ARG, "MPI_Cart_sub", "NULL argument");
  }
  // Color: my coordinates in the dropped dimensions; key: in the kept ones (row-major).
  std::vector<int> here = coords_of(*c, c->rank);
  int color = 0, key = 0;
  std::vector<int> dims, periods;
  bool none_kept = true;
  for (std::size_t d = 0; d < here.size(); ++d) none_kept = none_kept && !remain_dims[d];
  if (none_kept) {
    // A zero-dimensional topology (MPI-3.1 §7.5.7), of one process. The standard leaves open
    // which: as in MPICH, it is rank 0's, and every other rank gets MPI_COMM_NULL.
    rc = MPI_Comm_split(comm, c->rank == 0 ? 0 : MPI_UNDEFINED, 0, newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) return rc;
    comm_get(*newcomm)->cart = true;
    return MPI_SUCCESS;
  }
  for (std::size_t d = 0; d < here.size(); ++d) {
    if (remain_dims[d]) {
      key = key * c->cart_dims[d] + here[d];
      dims.push_back(c->cart_dims[d]);
      periods.push_back(c->cart_periods[d]);
    } else {
      color = color * c->cart_dims[d] + here[d];
    }
  }
  rc = MPI_Comm_split(comm, color, key, newcomm);
  if (rc != MPI_SUCCESS) return rc;
  Comm* n = comm_get(*newcomm);
  n->cart = true;
  n->cart_dims = dims;
  n->cart_periods = periods;
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Dims_create)
TILEMPI_PMPI_ALIAS(Cart_create)
TILEMPI_PMPI_ALIAS(Topo_test)
TILEMPI_PMPI_ALIAS(Cartdim_get)
TILEMPI_PMPI_ALIAS(Cart_get)
TILEMPI_PMPI_ALIAS(Cart_coords)
TILEMPI_PMPI_ALIAS(Cart_rank)
TILEMPI_PMPI_ALIAS(Cart_shift)
TILEMPI_PMPI_ALIAS(Cart_sub)
