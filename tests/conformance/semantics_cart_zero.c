/* Zero-dimensional Cartesian topologies (MPI-3.1 §7.5.1, §7.5.7): MPI_Cart_create with ndims 0
 * makes a communicator of one process (rank 0) with a topology of 0 dimensions, MPI_COMM_NULL
 * elsewhere; MPI_Cart_sub keeping no dimension gives such a communicator too, to one process
 * only (MPICH: rank 0 of the grid), MPI_COMM_NULL to the others. */
#include <mpi.h>
#include <stdio.h>

#include "conformance_check.h"

/* The checks of a zero-dimensional Cartesian communicator. */
static void check_zero_dims(MPI_Comm c, const char* what) {
  int status = -1, ndims = -1, csize = -1, r = -1;
  MPI_Topo_test(c, &status);
  CHECK(status == MPI_CART, "%s: MPI_Topo_test gave %d, expected MPI_CART", what, status);
  int rc = MPI_Cartdim_get(c, &ndims);
  CHECK(rc == MPI_SUCCESS && ndims == 0, "%s: MPI_Cartdim_get gave %d (rc %d), expected 0", what, ndims, rc);
  MPI_Comm_size(c, &csize);
  CHECK(csize == 1, "%s: size %d, expected 1", what, csize);
  int dummy = -1;
  rc = MPI_Cart_get(c, 0, &dummy, &dummy, &dummy);
  CHECK(rc == MPI_SUCCESS, "%s: MPI_Cart_get returned %d", what, rc);
  rc = MPI_Cart_rank(c, &dummy, &r);
  CHECK(rc == MPI_SUCCESS && r == 0, "%s: MPI_Cart_rank gave %d (rc %d), expected 0", what, r, rc);
  MPI_Comm dup;
  MPI_Comm_dup(c, &dup);
  status = -1;
  MPI_Topo_test(dup, &status);
  CHECK(status == MPI_CART, "%s: a duplicate lost the topology (MPI_Topo_test %d)", what, status);
  MPI_Comm_free(&dup);
}

static int count_non_null(MPI_Comm c) {
  int mine = c != MPI_COMM_NULL, n = 0;
  MPI_Allreduce(&mine, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Comm zero = MPI_COMM_NULL;
  int rc = MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero);
  CHECK(rc == MPI_SUCCESS, "MPI_Cart_create with ndims 0 returned %d", rc);
  CHECK((zero != MPI_COMM_NULL) == (rank == 0), "MPI_Cart_create with ndims 0: %s at rank %d",
        zero == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator", rank);
  if (zero != MPI_COMM_NULL) {
    check_zero_dims(zero, "MPI_Cart_create(ndims 0)");
    /* Its own sub-grid keeping nothing: zero-dimensional again. */
    MPI_Comm sub = MPI_COMM_NULL;
    int none = 0;
    rc = MPI_Cart_sub(zero, &none, &sub);
    CHECK(rc == MPI_SUCCESS && sub != MPI_COMM_NULL, "MPI_Cart_sub of a 0-dim grid: rc %d", rc);
    if (sub != MPI_COMM_NULL) {
      check_zero_dims(sub, "MPI_Cart_sub of a 0-dim grid");
      MPI_Comm_free(&sub);
    }
    MPI_Comm_free(&zero);
  }

  /* A 2-D grid of every rank; a sub-grid keeping no dimension. */
  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int grid_rank = -1;
  MPI_Comm_rank(grid, &grid_rank);
  int remain[2] = {0, 0};
  MPI_Comm point = MPI_COMM_NULL;
  rc = MPI_Cart_sub(grid, remain, &point);
  CHECK(rc == MPI_SUCCESS, "MPI_Cart_sub keeping no dimension returned %d", rc);
  CHECK((point != MPI_COMM_NULL) == (grid_rank == 0), "MPI_Cart_sub keeping no dimension: %s at grid rank %d",
        point == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator", grid_rank);
  const int n = count_non_null(point);
  CHECK(n == 1, "MPI_Cart_sub keeping no dimension gave %d communicators, expected 1", n);
  if (point != MPI_COMM_NULL) {
    check_zero_dims(point, "MPI_Cart_sub keeping no dimension");
    MPI_Comm_free(&point);
  }
  /* Keeping one dimension still works as before. */
  int keep_first[2] = {1, 0};
  MPI_Comm column;
  MPI_Cart_sub(grid, keep_first, &column);
  int ndims = -1, csize = -1;
  MPI_Cartdim_get(column, &ndims);
  MPI_Comm_size(column, &csize);
  CHECK(ndims == 1 && csize == dims[0], "MPI_Cart_sub keeping dimension 0: %d dims, size %d (expected 1, %d)", ndims,
        csize, dims[0]);
  MPI_Comm_free(&column);
  MPI_Comm_free(&grid);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("zero-dimensional Cartesian topologies: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
