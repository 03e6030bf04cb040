/* MPI_Dims_create sets the free dimensions "as close to each other as possible" (MPI-3.1 §7.5.2),
 * in non-increasing order. For every node count up to 400 in 2 and 3 dimensions, and some with a
 * fixed dimension, the result must multiply out, be non-increasing, and its largest and smallest
 * free dimensions must differ no more than those of the most even split found by trying every
 * non-increasing split (72 in 2 dimensions is 9 x 8, not 12 x 6). Rank 0 checks; the others idle. */
#include "conformance_check.h"

/* The least (largest - smallest) over every non-increasing split of n into k factors <= upper. */
static int least_spread(int n, int k, int upper, int largest) {
  if (k == 1) return n <= upper ? largest - n : 1 << 30;
  int best = 1 << 30;
  for (int d = upper < n ? upper : n; d >= 1; --d) {
    if (n % d) continue;
    int s = least_spread(n / d, k - 1, d, largest ? largest : d);
    if (s < best) best = s;
  }
  return best;
}

static void check(int n, int ndims, const int* fixed) {
  int dims[3], product = 1;
  for (int i = 0; i < ndims; ++i) dims[i] = fixed ? fixed[i] : 0;
  int rc = MPI_Dims_create(n, ndims, dims);
  CHECK(rc == MPI_SUCCESS, "MPI_Dims_create(%d, %d): code %d", n, ndims, rc);
  int free_n = n, nfree = 0, hi = 0, lo = 1 << 30, prev = 1 << 30;
  for (int i = 0; i < ndims; ++i) {
    product *= dims[i];
    if (fixed && fixed[i]) {
      CHECK(dims[i] == fixed[i], "MPI_Dims_create(%d): fixed dims[%d] %d changed to %d", n, i, fixed[i], dims[i]);
      free_n /= fixed[i];
      continue;
    }
    ++nfree;
    CHECK(dims[i] <= prev, "MPI_Dims_create(%d, %d): free dimensions not non-increasing", n, ndims);
    prev = dims[i];
    if (dims[i] > hi) hi = dims[i];
    if (dims[i] < lo) lo = dims[i];
  }
  CHECK(product == n, "MPI_Dims_create(%d, %d): product %d", n, ndims, product);
  if (nfree > 0) {
    int want = least_spread(free_n, nfree, free_n, 0);
    CHECK(hi - lo <= want, "MPI_Dims_create(%d, %d): %d ... %d differ by %d, an even split differs by %d", n,
          ndims, hi, lo, hi - lo, want);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int n = 1; n <= 400; ++n) {
      check(n, 2, NULL);
      check(n, 3, NULL);
    }
    int dims[2] = {0, 0};
    MPI_Dims_create(72, 2, dims);
    CHECK(dims[0] == 9 && dims[1] == 8, "MPI_Dims_create(72, 2): %d x %d, want 9 x 8", dims[0], dims[1]);
    const int fixed_first[3] = {2, 0, 0}, fixed_middle[3] = {0, 3, 0};
    for (int n = 6; n <= 360; n += 6) {
      check(n, 3, fixed_first);
      check(n, 3, fixed_middle);
    }
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
