// NPB EP: embarrassingly parallel Gaussian deviates, MPI version for tilempi.
//
// Specification: NPB 1 report (RNR-94-007), kernel EP: generate 2^(M+1)
// uniform numbers with the NPB generator (seed 271828183), take them in pairs
// (x, y) = (2u-1, 2v-1), keep pairs with t = x^2 + y^2 <= 1, form the
// Gaussian deviates X = x sqrt(-2 ln t / t), Y = y sqrt(-2 ln t / t), sum
// them (sx, sy) and count them in square annuli l <= max(|X|,|Y|) < l+1.
// Class sizes M and the official sums are from the "EP" section of
// npb/VERIFICATION.md in the project notes (relative tolerance 1e-8).
//
// The numbers are produced in batches of 2^17 (2^16 pairs); rank r takes a
// contiguous range of batches and jumps to each batch's seed, so any rank
// count computes the same sums. Communication: one MPI_Barrier before the
// timer, and MPI_Allreduce of sx, sy, the annulus counts and the time.
//
// Weak scaling (--weak): every rank generates the class's 2^(M+1) numbers
// (M grows by log2(ranks)); the official sums then do not apply.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

constexpr int kMK = 16;            // log2 of the pairs per batch
constexpr long kNK = 1L << kMK;    // pairs per batch
constexpr int kNQ = 10;            // annuli counted

struct EpClass {
  char cls;
  int m;
  double sx, sy;
};
// VERIFICATION.md, "EP": M and the reference sums.
const EpClass kClasses[] = {
    {'S', 24, -3.247834652034740e+3, -6.958407078382297e+3},
    {'W', 25, -2.863319731645753e+3, -6.320053679109499e+3},
    {'A', 28, -4.295875165629892e+3, -1.580732573678431e+4},
    {'B', 30, 4.033815542441498e+4, -2.660669192809235e+4},
};
constexpr double kEpsilon = 1.0e-8;

const char* kExtra =
    "Classes S, W, A, B. Ranks: any count (the batches are split as evenly as possible).\n"
    "--weak: every rank generates the class's 2^(M+1) numbers (job total x ranks).\n";

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "EP", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  int rank = 0, nprocs = 1;
  rank = st.rank;
  nprocs = st.nprocs;
  const EpClass* c = npb::find_class(kClasses, opt.cls);
  if (!c) return npb::unsupported_class("npb-ep", opt.cls);

  // Batches: 2^(M-MK) over the whole job; in weak mode each rank has the
  // class's count, so the job has nprocs times as many.
  const long class_batches = 1L << (c->m - kMK);
  const long batches = opt.weak ? class_batches * nprocs : class_batches;
  const double total_numbers = double(batches) * 2.0 * double(kNK);  // 2^(M+1) in strong mode
  const long per = batches / nprocs, extra = batches % nprocs;
  const long first = rank * per + (rank < extra ? rank : extra);
  const long count = per + (rank < extra ? 1 : 0);

  if (rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - EP Benchmark\n\n");
    std::printf(" Number of random numbers generated: %.0f  (class %c%s)\n", total_numbers, c->cls,
                opt.weak ? ", weak scaling" : "");
    std::printf(" Number of processes:  %d\n\n", nprocs);
  }

  // Multiplier that jumps one batch (2*NK numbers).
  const uint64_t batch_jump = npb::pow46(npb::kA, 2ULL * uint64_t(kNK));

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  double sx = 0.0, sy = 0.0;
  double q[kNQ] = {0};
#pragma omp parallel
  {
    std::vector<double> x(size_t(2 * kNK));
    double lsx = 0.0, lsy = 0.0, lq[kNQ] = {0};
#pragma omp for schedule(static)
    for (long b = first; b < first + count; ++b) {
      uint64_t seed = (npb::pow46(batch_jump, uint64_t(b)) * npb::kSeedEP) & npb::kMask46;
      npb::vranlc(2 * kNK, seed, npb::kA, x.data());
      for (long i = 0; i < kNK; ++i) {
        double x1 = 2.0 * x[size_t(2 * i)] - 1.0;
        double x2 = 2.0 * x[size_t(2 * i + 1)] - 1.0;
        double t = x1 * x1 + x2 * x2;
        if (t <= 1.0) {
          double f = std::sqrt(-2.0 * std::log(t) / t);
          double gx = x1 * f, gy = x2 * f;
          int l = int(std::fmax(std::fabs(gx), std::fabs(gy)));
          if (l < kNQ) lq[l] += 1.0;
          lsx += gx;
          lsy += gy;
        }
      }
    }
#pragma omp critical
    {
      sx += lsx;
      sy += lsy;
      for (int l = 0; l < kNQ; ++l) q[l] += lq[l];
    }
  }

  double gsx = 0.0, gsy = 0.0, gq[kNQ];
  MPI_Allreduce(&sx, &gsx, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&sy, &gsy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(q, gq, kNQ, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double elapsed = MPI_Wtime() - t0, tmax = 0.0;
  MPI_Allreduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  int code = npb::kExitOk;
  if (rank == 0) {
    double gc = 0.0;
    for (int l = 0; l < kNQ; ++l) gc += gq[l];
    std::printf(" EP Benchmark Results:\n\n");
    std::printf(" CPU Time = %10.4f\n", tmax);
    std::printf(" N = 2^%d\n", c->m + (opt.weak ? npb::ilog2(nprocs) : 0));
    std::printf(" No. Gaussian Pairs = %15.0f\n", gc);
    std::printf(" Sums = %25.15e %25.15e\n", gsx, gsy);
    std::printf(" Counts:\n");
    for (int l = 0; l < kNQ; ++l) std::printf("%3d%15.0f\n", l, gq[l]);
    npb::Verdict v;
    if (opt.weak) {
      v = npb::Verdict::NotApplicable;
      std::printf(" Weak scaling: the official sums do not apply\n");
    } else {
      bool ok = npb::compare_value("sx", gsx, c->sx, kEpsilon);
      ok = npb::compare_value("sy", gsy, c->sy, kEpsilon) && ok;
      v = ok ? npb::Verdict::Successful : npb::Verdict::Unsuccessful;
    }
    npb::Report r;
    r.name = "EP";
    r.cls = c->cls;
    r.size = std::to_string(long(total_numbers));
    r.iterations = 0;
    r.seconds = tmax;
    r.nprocs = nprocs;
    r.threads = npb::threads_in_use();
    r.mops_total = tmax > 0 ? total_numbers / tmax / 1.0e6 : 0.0;
    r.optype = "Random numbers generated";
    r.verdict = v;
    r.weak = opt.weak;
    npb::print_report(r);
    code = npb::exit_code(v);
  }
  return npb::finish(code);
}
