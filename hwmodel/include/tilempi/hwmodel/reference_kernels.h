// The core model's two reference kernels (core_model.h): the host runs them to measure its speed,
// and a counted program made of them (tests/transport/sim/reference_kernels.cpp) checks that the counted
// model charges each exactly what the preset says an element costs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilempi::hwmodel::reference {

// Sizes: the working sets (64 KiB of keys, 16 KiB of buckets; 48 KiB of matrix and 32 KiB of
// vector) fit the L2 cache of a tile and of a host core, so both kernels measure the core.
inline constexpr std::size_t kKeys = 1 << 14;
inline constexpr std::size_t kBuckets = 1 << 12;
inline constexpr std::size_t kNonzeros = 1 << 12;
inline constexpr std::size_t kVector = 1 << 12;
inline constexpr int kPasses = 16;  // elements per run: 2^18 of each kernel

/// Integer kernel: count keys into buckets (the core of a bucket sort, as in NPB IS). Per element:
/// a load, a shift, a mask and a load-increment-store to a data-dependent address, which no
/// compiler vectorizes (two keys may hit one bucket).
[[gnu::noinline]] inline std::uint64_t int_kernel(const std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& buckets) {
  for (int pass = 0; pass < kPasses; ++pass)
    for (std::size_t i = 0; i < kKeys; ++i) ++buckets[(keys[i] >> 7) & (kBuckets - 1)];
  std::uint64_t sum = 0;
  for (std::uint32_t b : buckets) sum += b;
  return sum;
}

/// Floating-point kernel: a sparse dot product, sum += val[k] * x[col[k]]: per element a double
/// multiply and add, two loads and an indirect load. The sum carries from element to element.
[[gnu::noinline]] inline double fp_kernel(const std::vector<double>& val, const std::vector<std::uint32_t>& col,
                                   const std::vector<double>& x) {
  double sum = 0;
  for (int pass = 0; pass < kPasses * static_cast<int>(kKeys / kNonzeros); ++pass)
    for (std::size_t k = 0; k < kNonzeros; ++k) sum += val[k] * x[col[k]];
  return sum;
}

/// The kernels' data, the same on every machine.
struct Data {
  std::vector<std::uint32_t> keys, buckets, col;
  std::vector<double> val, x;
  Data() : keys(kKeys), buckets(kBuckets), col(kNonzeros), val(kNonzeros), x(kVector) {
    std::uint32_t s = 12345;
    auto next = [&s] { return s = s * 1664525u + 1013904223u; };
    for (auto& k : keys) k = next();
    for (std::size_t i = 0; i < kNonzeros; ++i) {
      col[i] = next() % kVector;
      val[i] = 1.0 + static_cast<double>(next() % 1000) * 1e-3;
    }
    for (auto& v : x) v = static_cast<double>(next() % 1000) * 1e-3;
  }
};

/// Elements per run of each kernel.
inline constexpr std::size_t kElements = kKeys * kPasses;

}  // namespace tilempi::hwmodel::reference
