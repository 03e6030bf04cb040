// NPB FT: 3-D FFT solution of a diffusion PDE, MPI version for tilempi.
//
// Specification: NPB 1 report (RNR-94-007), kernel FT, and the NPB 2/3
// reports: u0(x,y,z) holds complex random numbers (NPB generator, seed
// 314159265; real then imaginary part, x fastest, then y, then z); U = FFT(u0)
// in 3-D; for t = 1..niter, u_t = IFFT(U * exp(-4 alpha pi^2 |kbar|^2 t)) with
// alpha = 1e-6 and kbar the signed wave numbers, and the checksum
// sum_{j=1..1024} u_t(j mod nx, 3j mod ny, 5j mod nz) / (nx ny nz). The
// inverse transform is not normalised (the checksum divides by the grid
// size). Grids, iteration counts and the reference checksums per iteration
// are from the "FT" section of npb/VERIFICATION.md in the project notes
// (relative tolerance 1e-12). Class B runs, but the table has no checksums
// for it, so its verification is reported as not available.
//
// Decomposition and communication: slabs of z planes; the x and y transforms
// are local, a global transpose with MPI_Alltoall gives every rank all of z
// for a slab of y, the z transform is local there, and the inverse goes back
// the same way (two MPI_Alltoall per iteration, one for the forward
// transform). The checksum is summed with MPI_Reduce.
//
// Weak scaling (--weak): each rank keeps the class's grid points; the grid
// doubles along z, y, x in turn with the rank count. No reference then.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

struct cplx {
  double re, im;
};

struct FtClass {
  char cls;
  int nx, ny, nz, niter;
  bool has_ref;
  double ref[6][2];
};
// VERIFICATION.md, "FT": grids, iterations and checksums (real, imaginary).
const FtClass kClasses[] = {
    {'S', 64, 64, 64, 6, true,
     {{5.546087004964e+02, 4.845363331978e+02},
      {5.546385409189e+02, 4.865304269511e+02},
      {5.546148406171e+02, 4.883910722336e+02},
      {5.545423607415e+02, 4.901273169046e+02},
      {5.544255039624e+02, 4.917475857993e+02},
      {5.542683411902e+02, 4.932597244941e+02}}},
    {'W', 128, 128, 32, 6, true,
     {{5.673612178944e+02, 5.293246849175e+02},
      {5.631436885271e+02, 5.282149986629e+02},
      {5.594024089970e+02, 5.270996558037e+02},
      {5.560698047020e+02, 5.260027904925e+02},
      {5.530898991250e+02, 5.249400845633e+02},
      {5.504159734538e+02, 5.239212247086e+02}}},
    {'A', 256, 256, 128, 6, true,
     {{5.046735008193e+02, 5.114047905510e+02},
      {5.059412319734e+02, 5.098809666433e+02},
      {5.069376896287e+02, 5.098144042213e+02},
      {5.077892868474e+02, 5.101336130759e+02},
      {5.085233095391e+02, 5.104914655194e+02},
      {5.091487099959e+02, 5.107917842803e+02}}},
    {'B', 512, 256, 256, 20, false, {}},
};
constexpr double kEpsilon = 1.0e-12;
constexpr double kAlpha = 1.0e-6;
constexpr double kPi = 3.141592653589793238462643383279502884;

const char* kExtra =
    "Classes S, W, A (verified) and B (runs; no reference checksums in the table).\n"
    "Ranks: a power of two, at most ny and nz (class S: 64, W: 32, A: 128, B: 256).\n"
    "--weak: every rank keeps the class's grid points (grid doubles along z, y, x).\n";

// Radix-2 in-place FFT of length n (a power of two), unnormalised; sign -1
// forward, +1 inverse.
struct Fft1 {
  int n = 1;
  std::vector<cplx> w;   // exp(-2 pi i k / n), k < n/2
  std::vector<int> rev;  // bit reversal
  explicit Fft1(int n_ = 1) : n(n_) {
    w.resize(size_t(std::max(1, n / 2)));
    for (int k = 0; k < n / 2; ++k) {
      double ang = -2.0 * kPi * double(k) / double(n);
      w[size_t(k)] = {std::cos(ang), std::sin(ang)};
    }
    rev.resize(size_t(n));
    int lg = npb::ilog2(n);
    for (int i = 0; i < n; ++i) {
      int r = 0;
      for (int b = 0; b < lg; ++b)
        if (i & (1 << b)) r |= 1 << (lg - 1 - b);
      rev[size_t(i)] = r;
    }
  }
  void run(cplx* a, bool inverse) const {
    for (int i = 0; i < n; ++i) {
      int r = rev[size_t(i)];
      if (r > i) std::swap(a[i], a[r]);
    }
    const double s = inverse ? -1.0 : 1.0;  // conjugate the roots for the inverse
    for (int len = 2; len <= n; len <<= 1) {
      const int half = len >> 1, step = n / len;
      for (int i = 0; i < n; i += len)
        for (int j = 0; j < half; ++j) {
          const cplx wj = w[size_t(j * step)];
          const double wr = wj.re, wi = s * wj.im;
          cplx& x = a[i + j];
          cplx& y = a[i + j + half];
          const double tr = y.re * wr - y.im * wi, ti = y.re * wi + y.im * wr;
          y.re = x.re - tr;
          y.im = x.im - ti;
          x.re += tr;
          x.im += ti;
        }
    }
  }
};

struct Ft {
  int rank = 0, nprocs = 1;
  long nx = 0, ny = 0, nz = 0;
  long nzl = 0, nyl = 0;  // local z planes (slab layout), local y rows (transposed layout)
  Fft1 fx, fy, fz;
  std::vector<cplx> slab;    // [zl][y][x]
  std::vector<cplx> trans;   // [yl][x][z]: the transform, evolved in place
  std::vector<cplx> work;    // [yl][x][z]: scratch for the inverse
  std::vector<cplx> sbuf, rbuf;
  std::vector<double> twiddle;  // [yl][x][z]

  void init_conditions() {
    // The number pair of point L = x + nx (y + ny z) is the (2L+1)-th and
    // (2L+2)-th of the sequence; each local plane starts with a jump.
    const long z0 = nzl * rank;
#pragma omp parallel for schedule(static)
    for (long zl = 0; zl < nzl; ++zl) {
      uint64_t x = npb::skip46(npb::kSeedDefault, uint64_t(2 * nx * ny * (z0 + zl)));
      npb::vranlc(2 * nx * ny, x, npb::kA, reinterpret_cast<double*>(&slab[size_t(zl * nx * ny)]));
    }
  }

  void fft_xy(bool inverse) {
    // x lines are contiguous; y lines are gathered a block of columns at a time.
    constexpr long kBlock = 16;
#pragma omp parallel
    {
      std::vector<cplx> buf(size_t(kBlock * ny));
#pragma omp for schedule(static)
      for (long zl = 0; zl < nzl; ++zl) {
        cplx* plane = &slab[size_t(zl * nx * ny)];
        if (!inverse)
          for (long y = 0; y < ny; ++y) fx.run(plane + y * nx, inverse);
        for (long x0 = 0; x0 < nx; x0 += kBlock) {
          const long nb = std::min(kBlock, nx - x0);
          for (long y = 0; y < ny; ++y)
            for (long b = 0; b < nb; ++b) buf[size_t(b * ny + y)] = plane[y * nx + x0 + b];
          for (long b = 0; b < nb; ++b) fy.run(&buf[size_t(b * ny)], inverse);
          for (long y = 0; y < ny; ++y)
            for (long b = 0; b < nb; ++b) plane[y * nx + x0 + b] = buf[size_t(b * ny + y)];
        }
        if (inverse)
          for (long y = 0; y < ny; ++y) fx.run(plane + y * nx, inverse);
      }
    }
  }

  void fft_z(std::vector<cplx>& t, bool inverse) {
    const long lines = nyl * nx;
#pragma omp parallel for schedule(static)
    for (long l = 0; l < lines; ++l) fz.run(&t[size_t(l * nz)], inverse);
  }

  // slab [zl][y][x] -> t [yl][x][z]
  void transpose_forward(std::vector<cplx>& t) {
    const long chunk = nzl * nyl * nx;  // per rank pair
    for (int q = 0; q < nprocs; ++q)
      for (long zl = 0; zl < nzl; ++zl)
        std::memcpy(&sbuf[size_t(q * chunk + zl * nyl * nx)], &slab[size_t((zl * ny + q * nyl) * nx)],
                    sizeof(cplx) * size_t(nyl * nx));
    MPI_Alltoall(sbuf.data(), int(2 * chunk), MPI_DOUBLE, rbuf.data(), int(2 * chunk), MPI_DOUBLE, MPI_COMM_WORLD);
#pragma omp parallel for schedule(static)
    for (long yl = 0; yl < nyl; ++yl)
      for (int p = 0; p < nprocs; ++p)
        for (long zl = 0; zl < nzl; ++zl) {
          const cplx* src = &rbuf[size_t(p * chunk + (zl * nyl + yl) * nx)];
          cplx* dst = &t[size_t(yl * nx * nz + p * nzl + zl)];
          for (long x = 0; x < nx; ++x) dst[x * nz] = src[x];
        }
  }

  // t [yl][x][z] -> slab [zl][y][x]
  void transpose_back(const std::vector<cplx>& t) {
    const long chunk = nzl * nyl * nx;
#pragma omp parallel for schedule(static)
    for (int q = 0; q < nprocs; ++q)
      for (long zl = 0; zl < nzl; ++zl)
        for (long yl = 0; yl < nyl; ++yl) {
          cplx* dst = &sbuf[size_t(q * chunk + (zl * nyl + yl) * nx)];
          const cplx* src = &t[size_t(yl * nx * nz + q * nzl + zl)];
          for (long x = 0; x < nx; ++x) dst[x] = src[x * nz];
        }
    MPI_Alltoall(sbuf.data(), int(2 * chunk), MPI_DOUBLE, rbuf.data(), int(2 * chunk), MPI_DOUBLE, MPI_COMM_WORLD);
    for (int p = 0; p < nprocs; ++p)
      for (long zl = 0; zl < nzl; ++zl)
        std::memcpy(&slab[size_t((zl * ny + p * nyl) * nx)], &rbuf[size_t(p * chunk + zl * nyl * nx)],
                    sizeof(cplx) * size_t(nyl * nx));
  }

  // exp(-4 alpha pi^2 |kbar|^2) in the transposed layout.
  void init_twiddle() {
    const double ap = -4.0 * kAlpha * kPi * kPi;
    auto kbar = [](long i, long n) { return ((i + n / 2) % n) - n / 2; };
    const long y0 = nyl * rank;
#pragma omp parallel for schedule(static)
    for (long yl = 0; yl < nyl; ++yl) {
      const long ky = kbar(y0 + yl, ny);
      for (long x = 0; x < nx; ++x) {
        const long kx = kbar(x, nx);
        for (long z = 0; z < nz; ++z) {
          const long kz = kbar(z, nz);
          twiddle[size_t((yl * nx + x) * nz + z)] = std::exp(ap * double(kx * kx + ky * ky + kz * kz));
        }
      }
    }
  }

  void forward() {
    fft_xy(false);
    transpose_forward(trans);
    fft_z(trans, false);
  }

  void evolve() {
    const long n = nyl * nx * nz;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      trans[size_t(i)].re *= twiddle[size_t(i)];
      trans[size_t(i)].im *= twiddle[size_t(i)];
    }
  }

  void inverse() {
    work = trans;
    fft_z(work, true);
    transpose_back(work);
    fft_xy(true);
  }

  cplx checksum() {
    cplx s = {0.0, 0.0};
    const long z0 = nzl * rank;
    for (long j = 1; j <= 1024; ++j) {
      long q = j % nx, r = (3 * j) % ny, z = (5 * j) % nz;
      if (z >= z0 && z < z0 + nzl) {
        const cplx& v = slab[size_t(((z - z0) * ny + r) * nx + q)];
        s.re += v.re;
        s.im += v.im;
      }
    }
    const double total = double(nx) * double(ny) * double(nz);
    s.re /= total;
    s.im /= total;
    cplx all = {0.0, 0.0};
    MPI_Reduce(&s, &all, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return all;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "FT", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  Ft ft;
  ft.rank = st.rank;
  ft.nprocs = st.nprocs;
  const FtClass* c = npb::find_class(kClasses, opt.cls);
  if (!c) return npb::unsupported_class("npb-ft", opt.cls);
  if (!npb::is_power_of_two(ft.nprocs))
    return npb::usage_error("npb-ft: " + std::to_string(ft.nprocs) + " ranks not allowed: need a power of two");
  ft.nx = c->nx;
  ft.ny = c->ny;
  ft.nz = c->nz;
  if (opt.weak) {
    long* dims[3] = {&ft.nz, &ft.ny, &ft.nx};
    for (int b = 0; b < npb::ilog2(ft.nprocs); ++b) *dims[b % 3] *= 2;
  }
  if (ft.nprocs > ft.nz || ft.nprocs > ft.ny)
    return npb::usage_error("npb-ft: " + std::to_string(ft.nprocs) + " ranks not allowed for class " +
                            std::string(1, c->cls) + ": at most min(ny, nz) = " +
                            std::to_string(std::min(ft.ny, ft.nz)) + " (z slabs)");
  ft.nzl = ft.nz / ft.nprocs;
  ft.nyl = ft.ny / ft.nprocs;
  ft.fx = Fft1(int(ft.nx));
  ft.fy = Fft1(int(ft.ny));
  ft.fz = Fft1(int(ft.nz));
  const long local = ft.nx * ft.ny * ft.nzl;
  ft.slab.resize(size_t(local));
  ft.trans.resize(size_t(local));
  ft.sbuf.resize(size_t(local));
  ft.rbuf.resize(size_t(local));
  ft.twiddle.resize(size_t(local));

  if (ft.rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - FT Benchmark\n\n");
    std::printf(" Size:  %ldx%ldx%ld  (class %c%s)\n", ft.nx, ft.ny, ft.nz, c->cls, opt.weak ? ", weak scaling" : "");
    std::printf(" Iterations:  %d\n", c->niter);
    std::printf(" Number of processes:  %d  (z slabs)\n\n", ft.nprocs);
  }

  // Untimed pass that touches all data, then the timed run from scratch.
  ft.init_conditions();
  ft.init_twiddle();
  ft.forward();

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  ft.init_conditions();
  ft.init_twiddle();
  ft.forward();
  std::vector<cplx> sums;
  for (int it = 1; it <= c->niter; ++it) {
    ft.evolve();
    ft.inverse();
    cplx s = ft.checksum();
    sums.push_back(s);
    if (ft.rank == 0) std::printf(" T = %5d     Checksum = %22.12e %22.12e\n", it, s.re, s.im);
  }
  double elapsed = MPI_Wtime() - t0, tmax = 0.0;
  MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  int code = npb::kExitOk;
  if (ft.rank == 0) {
    npb::Verdict v;
    if (opt.weak) {
      std::printf(" Weak scaling: the checksums have no reference values\n");
      v = npb::Verdict::NotApplicable;
    } else if (!c->has_ref) {
      std::printf(" Class %c: no reference checksums in the verification table\n", c->cls);
      v = npb::Verdict::NotApplicable;
    } else {
      bool ok = true;
      for (int it = 0; it < c->niter; ++it) {
        const double rr = c->ref[it][0], ri = c->ref[it][1];
        const double dr = sums[size_t(it)].re - rr, di = sums[size_t(it)].im - ri;
        const double err = std::sqrt(dr * dr + di * di) / std::sqrt(rr * rr + ri * ri);
        const bool good = err <= kEpsilon;
        ok = ok && good;
        std::printf(" checksum %d: computed = (%20.12e, %20.12e)  reference = (%20.12e, %20.12e)  error = %10.3e %s\n",
                    it + 1, sums[size_t(it)].re, sums[size_t(it)].im, rr, ri, err, good ? "" : "(> tolerance)");
      }
      v = ok ? npb::Verdict::Successful : npb::Verdict::Unsuccessful;
    }
    const double ntotal = double(ft.nx) * double(ft.ny) * double(ft.nz);
    const double mflop = 1.0e-6 * ntotal *
                         (14.8157 + 7.19641 * std::log(ntotal) + (5.23518 + 7.21113 * std::log(ntotal)) * c->niter);
    npb::Report rep;
    rep.name = "FT";
    rep.cls = c->cls;
    rep.size = std::to_string(ft.nx) + "x" + std::to_string(ft.ny) + "x" + std::to_string(ft.nz);
    rep.iterations = c->niter;
    rep.seconds = tmax;
    rep.nprocs = ft.nprocs;
    rep.threads = npb::threads_in_use();
    rep.mops_total = tmax > 0 ? mflop / tmax : 0.0;
    rep.optype = "floating point";
    rep.verdict = v;
    rep.weak = opt.weak;
    npb::print_report(rep);
    code = npb::exit_code(v);
  }
  return npb::finish(code);
}
