// The counted core model end to end (docs/SIM.md, "Counted operations"): this program is built
// with the opcount plugin, runs each of the core model's reference kernels between two MPI calls,
// and checks that the simulator charged each exactly what the preset says an element costs
// (core_int_cycles, core_fp_cycles): the plugin's counts, the counter of each rank's image and the
// per-operation costs (hwmodel/core_model.h op_costs) agree.
//
//   reference_kernels INT_CYCLES FP_CYCLES CLOCK_HZ
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tilempi/hwmodel/reference_kernels.h"

namespace ref = tilempi::hwmodel::reference;

/// Work after a call to a function that only reads memory (GCC would find it pure): this
/// caller's own count after the call must not overwrite the callee's (the plugin turns off the
/// analyses that would let GCC keep the counter in a register across the call).
[[gnu::noinline]] double dot_then_more(const ref::Data& d) {
  const double s = ref::fp_kernel(d.val, d.col, d.x);
  return s * 1.5 + 2.0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s INT_CYCLES FP_CYCLES CLOCK_HZ\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const double want_int = std::atof(argv[1]), want_fp = std::atof(argv[2]), hz = std::atof(argv[3]);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ref::Data d;
  const double t0 = MPI_Wtime();
  const std::uint64_t buckets = ref::int_kernel(d.keys, d.buckets);
  const double t1 = MPI_Wtime();
  const double dot = ref::fp_kernel(d.val, d.col, d.x);
  const double t2 = MPI_Wtime();
  // Straight-line work in the same basic block as the two calls around it: its operations must be
  // charged between them, not before the first (the plugin adds a block's count in segments that
  // end at each call). Ten floating-point operations.
  volatile double seed = 1.0;
  double x = seed;
  const double s0 = MPI_Wtime();
  x = x * 1.1 + 2.0;
  x = x * 1.1 + 2.0;
  x = x * 1.1 + 2.0;
  x = x * 1.1 + 2.0;
  x = x * 1.1 + 2.0;
  const double s1 = MPI_Wtime();
  seed = x;
  const double fp_op = (want_fp - 15.0 * want_int / 15.08) / 2;  // core_model.h op_costs, roughly
  const double got_block = (s1 - s0) * hz;
  const double u0 = MPI_Wtime();
  const double dot2 = dot_then_more(d);
  const double u1 = MPI_Wtime();
  const double n = static_cast<double>(ref::kElements);
  const double got_caller = (u1 - u0) * hz / n;
  const double got_int = (t1 - t0) * hz / n, got_fp = (t2 - t1) * hz / n;
  std::printf("rank %d: integer kernel %.4f cycles per element (preset %g), floating-point kernel %.4f (preset %g)\n",
              rank, got_int, want_int, got_fp, want_fp);
  int bad = 0;
  // The MPI calls around each kernel and the rounding of a virtual time to a double: well under
  // 0.1 %.
  if (std::fabs(got_int - want_int) > 1e-3 * want_int || std::fabs(got_fp - want_fp) > 1e-3 * want_fp) bad = 1;
  if (buckets != static_cast<std::uint64_t>(ref::kElements) || !(dot > 0)) bad = 1;  // the kernels ran
  std::printf("rank %d: 10 floating-point operations between two calls: %.1f cycles (about %.1f expected)\n", rank,
              got_block, 10 * fp_op);
  if (got_block < 9 * fp_op || got_block > 11 * fp_op + 20) bad = 1;
  std::printf("rank %d: the floating-point kernel called from a function that works after it: %.4f cycles per element\n",
              rank, got_caller);
  if (std::fabs(got_caller - want_fp) > 1e-3 * want_fp || !(dot2 > dot)) bad = 1;
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
