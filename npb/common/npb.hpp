// Shared helpers of tilempi's NAS Parallel Benchmark kernels (npb/).
//
// Written for tilempi from the published NPB specifications (NPB 1: Bailey et
// al., RNR-94-007; NPB 2 and 3 reports). Class parameters and official
// verification values come from the NPB 3.4.1 MPI distribution as recorded in
// the project notes (npb/VERIFICATION.md of the shared docs); each kernel
// cites its table.
//
// Only the public MPI C API (mpi.h) is used, so the same sources build
// against tilempi and against any other MPI library.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace npb {

// ---------------------------------------------------------------------------
// Pseudo-random numbers (NPB 1 report, section 2.2 "pseudorandom number
// generator"): x_{k+1} = a * x_k mod 2^46 with a = 5^13, value x_k / 2^46.
// The state is kept as an exact integer; a*x mod 2^46 equals the low 46 bits
// of the 64-bit wrapped product because 2^46 divides 2^64.
// ---------------------------------------------------------------------------
constexpr uint64_t kA = 1220703125ULL;  // 5^13
constexpr uint64_t kSeedDefault = 314159265ULL;  // IS, CG, MG, FT
constexpr uint64_t kSeedEP = 271828183ULL;       // EP
constexpr uint64_t kMask46 = (uint64_t(1) << 46) - 1;
constexpr double kTwoM46 = 1.0 / 70368744177664.0;  // 2^-46

// Advances x by one step with multiplier a; returns the new value in (0,1).
inline double randlc(uint64_t& x, uint64_t a) {
  x = (a * x) & kMask46;
  return double(x) * kTwoM46;
}

// Fills y[0..n-1] with the next n values of the sequence.
inline void vranlc(int64_t n, uint64_t& x, uint64_t a, double* y) {
  uint64_t s = x;
  for (int64_t i = 0; i < n; ++i) {
    s = (a * s) & kMask46;
    y[i] = double(s) * kTwoM46;
  }
  x = s;
}

// a^n mod 2^46 (square and multiply): the multiplier that skips n steps.
inline uint64_t pow46(uint64_t a, uint64_t n) {
  uint64_t r = 1, b = a & kMask46;
  while (n) {
    if (n & 1) r = (r * b) & kMask46;
    b = (b * b) & kMask46;
    n >>= 1;
  }
  return r;
}

// The seed after skipping n values from seed s.
inline uint64_t skip46(uint64_t s, uint64_t n, uint64_t a = kA) { return (pow46(a, n) * s) & kMask46; }

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------
struct Options {
  char cls = 'S';
  bool weak = false;
  int threads = 1;
  bool help = false;
  std::string error;  // non-empty when parsing failed
};

// Parses -c/--class X, --weak, -t/--threads N, -h/--help.
Options parse_options(int argc, char** argv);

// Prints the usage of kernel `name` (rank 0 only) with the kernel-specific
// text `extra` (allowed classes, rank counts, what --weak means).
void print_usage(const char* prog, const char* name, const char* extra);

// MPI_Init, or MPI_Init_thread(MPI_THREAD_FUNNELED) when threads > 1; sets
// the OpenMP thread count. Only the master thread ever calls MPI.
void init(int* argc, char*** argv, const Options& o);

// Number of OpenMP threads in use (1 without OpenMP).
int threads_in_use();

// Inside a parallel region: this thread's number and the team size.
inline int thread_num() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
inline int team_size() {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

bool is_power_of_two(long v);
int ilog2(long v);  // floor(log2(v)), v > 0

// Exit codes shared by all kernels.
constexpr int kExitOk = 0;
constexpr int kExitVerifyFailed = 1;
constexpr int kExitUsage = 2;

// Rank 0 prints msg; everybody finalizes; returns kExitUsage for main to return.
int usage_error(const std::string& msg);

// What every kernel's main() begins with: the options, MPI_Init, the job's shape, --help and
// option errors. When `done`, MPI is finalized and main() returns `exit_code` at once.
struct Start {
  Options opt;
  int rank = 0, nprocs = 1;
  bool done = false;
  int exit_code = kExitOk;
};
Start start(int* argc, char*** argv, const char* name, const char* extra);

// The entry of a kernel's class table (a field `cls`) for class `cls`, or nullptr.
template <class Entry, std::size_t N>
const Entry* find_class(const Entry (&table)[N], char cls) {
  for (const Entry& e : table)
    if (e.cls == cls) return &e;
  return nullptr;
}

// usage_error() for a class the kernel has no table entry for.
int unsupported_class(const char* name, char cls);

// What every kernel's main() ends with: rank 0's exit code (from its verification) becomes
// every rank's, then MPI_Finalize. Returns the code for main to return.
int finish(int code);

// ---------------------------------------------------------------------------
// Report, printed by rank 0 in the style of the NPB reports.
// ---------------------------------------------------------------------------
enum class Verdict { Successful, Unsuccessful, NotApplicable };

struct Report {
  const char* name = "";     // "IS"
  char cls = 'S';
  std::string size;          // "65536" or "64x64x64"
  int iterations = 0;
  double seconds = 0.0;
  int nprocs = 1;
  int threads = 1;
  double mops_total = 0.0;
  const char* optype = "";   // "keys ranked", "floating point", ...
  Verdict verdict = Verdict::Unsuccessful;
  bool weak = false;
};

void print_report(const Report& r);

// Relative error and its printing for a compared value:
//   "<label>: computed = ..., reference = ..., error = ..." and returns ok.
bool compare_value(const char* label, double computed, double reference, double epsilon);

// Exit code for a verdict (NotApplicable counts as success).
inline int exit_code(Verdict v) { return v == Verdict::Unsuccessful ? kExitVerifyFailed : kExitOk; }

}  // namespace npb
