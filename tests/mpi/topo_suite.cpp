// Cartesian topologies and struct datatypes through the launcher.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int d2[2] = {0, 0};
  MPI_Dims_create(12, 2, d2);
  CHECK(d2[0] == 4 && d2[1] == 3);
  int d3[3] = {0, 3, 0};
  MPI_Dims_create(24, 3, d3);
  CHECK(d3[0] == 4 && d3[1] == 3 && d3[2] == 2);
  int d1[2] = {0, 0};
  MPI_Dims_create(7, 2, d1);
  CHECK(d1[0] == 7 && d1[1] == 1);

  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int status;
  MPI_Topo_test(grid, &status);
  CHECK_EQ(status, MPI_CART);
  int coords[2];
  MPI_Cart_coords(grid, rank, 2, coords);
  CHECK_EQ(coords[0], rank / dims[1]);
  CHECK_EQ(coords[1], rank % dims[1]);
  int back;
  MPI_Cart_rank(grid, coords, &back);
  CHECK_EQ(back, rank);
  // Periodic in dimension 0: the shift wraps; not in dimension 1: PROC_NULL at the edges.
  int src, dst;
  MPI_Cart_shift(grid, 0, 1, &src, &dst);
  CHECK_EQ(dst, ((coords[0] + 1) % dims[0]) * dims[1] + coords[1]);
  CHECK_EQ(src, ((coords[0] - 1 + dims[0]) % dims[0]) * dims[1] + coords[1]);
  MPI_Cart_shift(grid, 1, 1, &src, &dst);
  CHECK_EQ(dst, coords[1] + 1 < dims[1] ? rank + 1 : MPI_PROC_NULL);
  CHECK_EQ(src, coords[1] > 0 ? rank - 1 : MPI_PROC_NULL);
  // A halo exchange along dimension 1 with the shifted neighbours.
  int got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, grid, MPI_STATUS_IGNORE);
  CHECK_EQ(got, src == MPI_PROC_NULL ? -1 : rank - 1);
  // Rows: keep dimension 1.
  int remain[2] = {0, 1};
  MPI_Comm row;
  MPI_Cart_sub(grid, remain, &row);
  int rsize, rrank, rdims;
  MPI_Comm_size(row, &rsize);
  MPI_Comm_rank(row, &rrank);
  MPI_Cartdim_get(row, &rdims);
  CHECK_EQ(rsize, dims[1]);
  CHECK_EQ(rrank, coords[1]);
  CHECK_EQ(rdims, 1);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);

  // A struct of an int and a double, sent as a struct and received as bytes elsewhere.
  struct Item {
    int id;
    double value;
  };
  int lens[2] = {1, 1};
  MPI_Aint disps[2] = {offsetof(Item, id), offsetof(Item, value)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, item;
  MPI_Type_create_struct(2, lens, disps, types, &item);
  MPI_Type_commit(&item);
  int tsize;
  MPI_Type_size(item, &tsize);
  CHECK_EQ(tsize, static_cast<int>(sizeof(int) + sizeof(double)));
  MPI_Aint lb, extent;
  MPI_Type_get_extent(item, &lb, &extent);
  CHECK_EQ(extent, static_cast<MPI_Aint>(sizeof(Item)));
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  Item out[3], in[3];
  for (int i = 0; i < 3; ++i) out[i] = Item{rank * 10 + i, rank + 0.5 * i};
  MPI_Sendrecv(out, 3, item, right, 1, in, 3, item, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < 3; ++i) CHECK(in[i].id == left * 10 + i && in[i].value == left + 0.5 * i);
  MPI_Type_free(&item);
  if (rank == 0) std::printf("topo_suite: ok on %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
