// The tile core's speed: how long the application's own work between MPI calls would take on a
// tile, from the time it took on this host (`--compute model`).
//
// Both sides run the same two reference kernels. The host's time per element is measured at job
// start (a few milliseconds of CPU time, the fastest of several runs); the tile's is a parameter of
// the chip (core_int_cycles, core_fp_cycles at clock_hz), derived for each preset in
// hwmodel/src/config.cpp with its source or assumption. A program's compute time then scales by
//     tile time / host time = p * fp_ratio + (1 - p) * int_ratio,  p = core_fp_percent / 100,
// the share of its work assumed to be floating point: a per-program figure the user can set.
//
// The kernels are written so that the compiler cannot vectorize them (an indirect index, a carried
// dependency): most application loops are not perfectly vectorized either, and a vectorized
// reference would make every tile look many times slower than it is for ordinary code.
#pragma once

#include <string>

#include "tilempi/hwmodel/config.h"

namespace tilempi::hwmodel {

/// Seconds per element of each reference kernel on the host, as measured.
struct HostSpeed {
  double int_s = 0;  ///< integer kernel: a bucket count over keys (an IS-like loop)
  double fp_s = 0;   ///< floating-point kernel: a sparse dot product (a CG-like loop)
};

/// Runs the reference kernels on the calling thread (a few milliseconds of CPU time).
HostSpeed measure_host_speed();

/// The factor that turns host compute time into tile compute time for `chip`.
struct CoreRatio {
  double int_ratio = 0;  ///< tile / host time on the integer kernel
  double fp_ratio = 0;   ///< tile / host time on the floating-point kernel
  double ratio = 0;      ///< the mix of the two by core_fp_percent
};
CoreRatio core_ratio(const Config& chip, const HostSpeed& host);

/// A tile's cycles per operation, for programs that count their operations (built by the wrappers
/// with the opcount plugin, apps/opcount): the same preset parameters, read per operation. The
/// plugin counts the integer kernel as kIntKernelOps integer operations per element and the
/// floating-point kernel as kFpKernelIntOps integer and kFpKernelFpOps floating-point operations
/// (GCC 12, the same at -O1 to -O3 with or without -march=native: the plugin counts before
/// vectorization; the test sim.compute_counted.reference_kernels checks it), so a counted program made
/// of either kernel costs exactly core_int_cycles or core_fp_cycles per element, as the timed
/// model charges it.
struct OpCosts {
  double int_op = 0;  ///< cycles per integer operation (arithmetic, load, store, branch, call)
  double fp_op = 0;   ///< cycles per floating-point operation
};
inline constexpr double kIntKernelOps = 3952682.0 / 262144;  // 15.08: 15 per element, and the sum over the buckets
inline constexpr double kFpKernelIntOps = 3932297.0 / 262144;  // 15.00
inline constexpr double kFpKernelFpOps = 2;
OpCosts op_costs(const Config& chip);

/// One line for run summaries, e.g. "model: a tile takes 41.7x this host's time (int 9.1x, fp 72.3x)".
std::string describe(const CoreRatio& r);
/// e.g. "model: counted operations, 0.364 cycles per integer and 58.5 per floating-point operation".
std::string describe(const OpCosts& c);

}  // namespace tilempi::hwmodel
