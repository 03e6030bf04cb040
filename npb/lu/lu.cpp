// NPB LU: the SSOR pseudo-application, MPI version for tilempi.
//
// Specification: the NPB 1 report (RNR-94-007), section 3 "the pseudo-applications", and the
// NPB 2/3 reports. LU solves the steady three-dimensional compressible Navier-Stokes equations
// (five conserved variables: density, the three momenta, energy) on an nx x ny x nz grid of the
// unit cube, discretised with second-order central differences and fourth-order artificial
// dissipation, by a symmetric successive over-relaxation (SSOR) scheme on the implicit system
//   [D + omega L] D^-1 [D + omega U] du = omega (2 - omega) dt R(u).
// The exact solution is the specification's polynomial u_m(xi, eta, zeta) with the coefficient
// table C(m, 1..13); its values set the boundary, a transfinite interpolation of the boundary sets
// the interior, and the forcing term is the discrete operator applied to the exact solution, so
// the scheme converges to it. Constants of the specification: c1 = 1.4, c2 = 0.4, c3 = 0.1,
// c4 = 1.0, c5 = 1.4; dissipation 0.75 along xi and eta, 1.0 along zeta, fourth-order
// coefficient (the largest of them)/4; omega = 1.2.
// After the class's time steps the program reports the RMS norms of the residual (xcr) and of the
// error against the exact solution (xce), and the surface integral of the pressure over a box of
// the grid (xci). Grid sizes, steps, dt and these reference values are the "LU" sections of
// npb/VERIFICATION.md in the project notes (NPB 3.4.1 MPI distribution; relative tolerance 1e-8).
//
// Decomposition and communication (the reference MPI version's structure): the ranks form an
// xdim x ydim grid over the x-y plane; every rank holds full z columns. Before each right-hand
// side, u's two-point halo in x and y is exchanged (MPI_Irecv/MPI_Send/MPI_Wait). The SSOR
// sweeps are pipelined wavefronts: the lower triangular solve of plane k waits for the plane's
// last column from the west and last row from the north neighbour and then sends its own to the
// east and south; the upper solve runs the other way (MPI_Recv/MPI_Send, one message per
// neighbour and plane, so 2 x (nz - 2) small messages per sweep and rank). Norms and the surface
// integral are summed with MPI_Allreduce.
//
// Weak scaling (--weak): every rank keeps the class's n^3 points: the grid is
// (n xdim) x (n ydim) x n. The reference values then do not apply.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

struct LuClass {
  char cls;
  int n;       // grid points per dimension
  int itmax;   // time steps
  double dt;
  double xcr[5], xce[5], xci;
};
// VERIFICATION.md, "LU" (class parameters from "The pseudo-applications").
const LuClass kClasses[] = {
    {'S', 12, 50, 0.5,
     {1.6196343210976702e-02, 2.1976745164821318e-03, 1.5179927653399185e-03, 1.5029584435994323e-03,
      3.4264073155896461e-02},
     {6.4223319957960924e-04, 8.4144342047347926e-05, 5.8588269616485186e-05, 5.8474222595157350e-05,
      1.3103347914111294e-03},
     7.8418928865937083e+00},
    {'W', 33, 300, 1.5e-3,
     {0.1236511638192e+02, 0.1317228477799e+01, 0.2550120713095e+01, 0.2326187750252e+01,
      0.2826799444189e+02},
     {0.4867877144216e+00, 0.5064652880982e-01, 0.9281818101960e-01, 0.8570126542733e-01,
      0.1084277417792e+01},
     0.1161399311023e+02},
    {'A', 64, 250, 2.0,
     {7.7902107606689367e+02, 6.3402765259692870e+01, 1.9499249727292479e+02, 1.7845301160418537e+02,
      1.8384760349464247e+03},
     {2.9964085685471943e+01, 2.8194576365003349e+00, 7.3473412698774742e+00, 6.7139225687777051e+00,
      7.0715315688392578e+01},
     2.6030925604886277e+01},
    {'B', 102, 250, 2.0,
     {3.5532672969982736e+03, 2.6214750795310692e+02, 8.8333721850952190e+02, 7.7812774739425265e+02,
      7.3087969592545314e+03},
     {1.1401176380212709e+02, 8.1098963655421574e+00, 2.8480597317698308e+01, 2.5905394567832939e+01,
      2.6054907504857413e+02},
     4.7887162703308227e+01},
};
constexpr double kEpsilon = 1.0e-8;

const char* kExtra =
    "Classes S, W, A, B. Ranks: any count P = xdim * ydim (the most square split, xdim >= ydim)\n"
    "that leaves every rank at least 2 grid points along x and y (class S: up to 36 ranks,\n"
    "e.g. 1, 2, 4, 8, 16 or 36 = 6x6, not 32 = 8x4; W: up to 256; A: up to 1024).\n"
    "--weak: every rank keeps the class's n^3 points (grid n*xdim x n*ydim x n).\n";

// Constants of the specification.
constexpr double c1 = 1.4, c2 = 0.4, c3 = 0.1, c4 = 1.0, c5 = 1.4;
constexpr double kOmega = 1.2;
constexpr double r43 = 4.0 / 3.0, c34 = c3 * c4, c1345 = c1 * c3 * c4 * c5;
constexpr double kDiss[3] = {0.75, 0.75, 1.0};  // second-order dissipation along x, y, z (all 5 equations)
constexpr double kDssp = 0.25;                   // fourth-order: max(kDiss) / 4

// The exact solution's coefficients C(m, 1..13): u_m = C1 + C2 xi + C5 xi^2 + C8 xi^3 + C11 xi^4
// + C3 eta + C6 eta^2 + C9 eta^3 + C12 eta^4 + C4 zeta + C7 zeta^2 + C10 zeta^3 + C13 zeta^4.
constexpr double kCe[5][13] = {
    {2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3},
    {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5},
    {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4},
    {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3},
    {5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2},
};

using Block = std::array<double, 25>;  // 5x5, row-major: B[m * 5 + n] multiplies component n

// ---------------------------------------------------------------------------
// Grid, decomposition and local storage.
// ---------------------------------------------------------------------------
struct Grid {
  int rank = 0, nprocs = 1;
  int xdim = 1, ydim = 1, cx = 0, cy = 0;
  long n[3] = {0, 0, 0};    // global points
  long m[2] = {0, 0};       // owned points along x and y (z: all n[2])
  long off[2] = {0, 0};     // global index of the first owned point
  long lo[2] = {0, 0}, hi[2] = {0, 0};  // owned interior (local indices, inclusive)
  int west = -1, east = -1, north = -1, south = -1;  // neighbours (north: lower y)
  long sj = 0, sk = 0;      // strides (in points) of the local arrays
  double dt = 0.0;
  double t1[3], t2[3], t3[3];  // 1/h^2, 1/(2h), 1/h per axis
  // Local index of point (i, j, k): i, j from -2 to m+1 (two ghost layers), k from 0 to n[2]-1.
  long at(long i, long j, long k) const { return (i + 2) + sj * (j + 2) + sk * k; }
  long points() const { return sk * n[2]; }
};

Grid g;

// The field arrays hold 5 doubles per point.
struct Field {
  std::vector<double> v;
  double* p(long idx) { return v.data() + 5 * idx; }
  const double* p(long idx) const { return v.data() + 5 * idx; }
};

Field u, rsd, frct;
std::vector<Block> ja, jb, jc, jd;  // one k plane of blocks, indexed by (i, j) of the owned points

void exact(long gi, long gj, long gk, double* out) {
  const double xi = double(gi) / double(g.n[0] - 1);
  const double eta = double(gj) / double(g.n[1] - 1);
  const double zeta = double(gk) / double(g.n[2] - 1);
  for (int q = 0; q < 5; ++q) {
    const double* c = kCe[q];
    out[q] = c[0] + xi * (c[1] + xi * (c[4] + xi * (c[7] + xi * c[10]))) +
             eta * (c[2] + eta * (c[5] + eta * (c[8] + eta * c[11]))) +
             zeta * (c[3] + zeta * (c[6] + zeta * (c[9] + zeta * c[12])));
  }
}

// ---------------------------------------------------------------------------
// Halo exchange of u: two layers along x, then along y (the stencils never need corners).
// ---------------------------------------------------------------------------
std::vector<double> g_send, g_recv[2];

void exchange_halo(Field& f) {
  const long nz = g.n[2];
  for (int ax = 0; ax < 2; ++ax) {
    const int lower = ax == 0 ? g.west : g.north, upper = ax == 0 ? g.east : g.south;
    const long other = g.m[1 - ax];
    const long count = 5 * 2 * other * nz;
    // Copies layers [first, first+2) of axis ax between the field and buf.
    auto pack = [&](long first, double* buf, bool to_buf) {
      long t = 0;
      for (long k = 0; k < nz; ++k)
        for (long o = 0; o < other; ++o)
          for (long l = first; l < first + 2; ++l) {
            double* q = ax == 0 ? f.p(g.at(l, o, k)) : f.p(g.at(o, l, k));
            for (int c = 0; c < 5; ++c, ++t) {
              if (to_buf)
                buf[t] = q[c];
              else
                q[c] = buf[t];
            }
          }
    };
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    for (auto& b : g_recv)
      if (long(b.size()) < count) b.resize(size_t(count));
    if (long(g_send.size()) < count) g_send.resize(size_t(count));
    if (lower >= 0) MPI_Irecv(g_recv[0].data(), int(count), MPI_DOUBLE, lower, 10 + 2 * ax, MPI_COMM_WORLD, &req[0]);
    if (upper >= 0) MPI_Irecv(g_recv[1].data(), int(count), MPI_DOUBLE, upper, 11 + 2 * ax, MPI_COMM_WORLD, &req[1]);
    if (upper >= 0) {
      pack(g.m[ax] - 2, g_send.data(), true);
      MPI_Send(g_send.data(), int(count), MPI_DOUBLE, upper, 10 + 2 * ax, MPI_COMM_WORLD);
    }
    if (lower >= 0) {
      pack(0, g_send.data(), true);
      MPI_Send(g_send.data(), int(count), MPI_DOUBLE, lower, 11 + 2 * ax, MPI_COMM_WORLD);
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    if (lower >= 0) pack(-2, g_recv[0].data(), false);
    if (upper >= 0) pack(g.m[ax], g_recv[1].data(), false);
  }
}

// ---------------------------------------------------------------------------
// The spatial operator R(w) at the owned interior points, added to out:
// per axis, minus the central difference of the inviscid flux, the viscous flux difference,
// second-order and fourth-order dissipation.
// ---------------------------------------------------------------------------

// Inviscid flux along axis ax (component d = ax + 1 is the normal momentum).
inline void inviscid_flux(const double* w, int ax, double* f) {
  const int d = ax + 1;
  const double vel = w[d] / w[0];
  const double q = 0.5 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) / w[0];
  f[0] = w[d];
  for (int c = 1; c <= 3; ++c) f[c] = w[c] * vel;
  f[d] += c2 * (w[4] - q);
  f[4] = (c1 * w[4] - c2 * q) * vel;
}

// Viscous flux along axis ax between a point (w) and its lower neighbour (wm), without the
// common factor t3 * c3 * c4 applied by the caller.
inline void viscous_flux(const double* w, const double* wm, int ax, double t3, double* f) {
  const int d = ax + 1;
  const double ri = 1.0 / w[0], rim = 1.0 / wm[0];
  double vel[4], velm[4];
  for (int c = 1; c <= 4; ++c) {
    vel[c - 1] = w[c] * ri;
    velm[c - 1] = wm[c] * rim;
  }
  for (int c = 1; c <= 3; ++c) f[c] = (c == d ? r43 : 1.0) * t3 * (vel[c - 1] - velm[c - 1]);
  const double sq = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
  const double sqm = velm[0] * velm[0] + velm[1] * velm[1] + velm[2] * velm[2];
  f[4] = 0.5 * (1.0 - c1 * c5) * t3 * (sq - sqm) + (1.0 / 6.0) * t3 * (vel[d - 1] * vel[d - 1] - velm[d - 1] * velm[d - 1]) +
         c1 * c5 * t3 * (vel[3] - velm[3]);
}

void add_operator(const Field& w, Field& out) {
  const long nz = g.n[2];
  const long stride[3] = {1, g.sj, g.sk};
#pragma omp parallel for schedule(static)
  for (long k = 1; k < nz - 1; ++k) {
    for (long j = g.lo[1]; j <= g.hi[1]; ++j)
      for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
        const long P = g.at(i, j, k);
        const long gpos[3] = {g.off[0] + i, g.off[1] + j, k};
        double* o = out.v.data() + 5 * P;
        for (int ax = 0; ax < 3; ++ax) {
          const long s = stride[ax];
          const double* w0 = w.p(P);
          const double *wm1 = w.p(P - s), *wp1 = w.p(P + s);
          double fp[5], fm[5], vp[5], v0[5];
          inviscid_flux(wp1, ax, fp);
          inviscid_flux(wm1, ax, fm);
          viscous_flux(wp1, w0, ax, g.t3[ax], vp);
          viscous_flux(w0, wm1, ax, g.t3[ax], v0);
          const double t1 = g.t1[ax], t2 = g.t2[ax], t3 = g.t3[ax];
          for (int c = 0; c < 5; ++c) {
            o[c] += -t2 * (fp[c] - fm[c]) + kDiss[ax] * t1 * (wm1[c] - 2.0 * w0[c] + wp1[c]);
            if (c > 0) o[c] += t3 * c3 * c4 * (vp[c] - v0[c]);
          }
          // Fourth-order dissipation, one-sided next to the boundary.
          const long gp = gpos[ax], nn = g.n[ax];
          for (int c = 0; c < 5; ++c) {
            auto W = [&](long d) { return w.v[size_t(5 * (P + d * s) + c)]; };
            double dis;
            if (gp == 1)
              dis = 5.0 * W(0) - 4.0 * W(1) + W(2);
            else if (gp == 2)
              dis = -4.0 * W(-1) + 6.0 * W(0) - 4.0 * W(1) + W(2);
            else if (gp == nn - 3)
              dis = W(-2) - 4.0 * W(-1) + 6.0 * W(0) - 4.0 * W(1);
            else if (gp == nn - 2)
              dis = W(-2) - 4.0 * W(-1) + 5.0 * W(0);
            else
              dis = W(-2) - 4.0 * W(-1) + 6.0 * W(0) - 4.0 * W(1) + W(2);
            o[c] -= kDssp * dis;
          }
        }
      }
  }
}

// rsd = R(u) - frct at the owned interior points (needs u's halo).
void rhs() {
  exchange_halo(u);
  const long nz = g.n[2];
  for (long k = 1; k < nz - 1; ++k)
    for (long j = g.lo[1]; j <= g.hi[1]; ++j)
      for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
        const long P = g.at(i, j, k);
        for (int c = 0; c < 5; ++c) rsd.v[size_t(5 * P + c)] = -frct.v[size_t(5 * P + c)];
      }
  add_operator(u, rsd);
}

// RMS over the interior of the global grid of each component of f (owned points only).
void rms_norm(const Field& f, double* norm, bool minus_exact) {
  double sum[5] = {0, 0, 0, 0, 0}, tot[5];
  for (long k = 1; k < g.n[2] - 1; ++k)
    for (long j = g.lo[1]; j <= g.hi[1]; ++j)
      for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
        const double* q = f.p(g.at(i, j, k));
        double e[5] = {0, 0, 0, 0, 0};
        if (minus_exact) exact(g.off[0] + i, g.off[1] + j, k, e);
        for (int c = 0; c < 5; ++c) sum[c] += (q[c] - e[c]) * (q[c] - e[c]);
      }
  MPI_Allreduce(sum, tot, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double cells = double(g.n[0] - 2) * double(g.n[1] - 2) * double(g.n[2] - 2);
  for (int c = 0; c < 5; ++c) norm[c] = std::sqrt(tot[c] / cells);
}

// ---------------------------------------------------------------------------
// Jacobians of the implicit operator (the specification's block form).
// ---------------------------------------------------------------------------

// Jacobian of the inviscid flux along axis ax at state w.
void inviscid_jacobian(const double* w, int ax, Block& A) {
  const int d = ax + 1;
  const double r = 1.0 / w[0], r2 = r * r;
  const double sum2 = (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) * r2;
  A.fill(0.0);
  A[0 * 5 + d] = 1.0;
  for (int c = 1; c <= 3; ++c) {
    if (c == d) continue;
    A[c * 5 + 0] = -(w[c] * w[d]) * r2;
    A[c * 5 + c] = w[d] * r;
    A[c * 5 + d] = w[c] * r;
  }
  A[d * 5 + 0] = -(w[d] * r) * (w[d] * r) + 0.5 * c2 * sum2;
  for (int c = 1; c <= 3; ++c)
    if (c != d) A[d * 5 + c] = -c2 * w[c] * r;
  A[d * 5 + d] = (2.0 - c2) * w[d] * r;
  A[d * 5 + 4] = c2;
  A[4 * 5 + 0] = (c2 * sum2 - c1 * w[4] * r) * (w[d] * r);
  for (int c = 1; c <= 3; ++c)
    if (c != d) A[4 * 5 + c] = -c2 * (w[c] * w[d]) * r2;
  A[4 * 5 + d] = c1 * w[4] * r - 0.5 * c2 * (sum2 + 2.0 * w[d] * w[d] * r2);
  A[4 * 5 + 4] = c1 * w[d] * r;
}

// Jacobian of the (thin-layer form of the) viscous flux along axis ax at state w.
void viscous_jacobian(const double* w, int ax, Block& V) {
  const int d = ax + 1;
  const double r = 1.0 / w[0], r2 = r * r, r3 = r2 * r;
  V.fill(0.0);
  double e0 = -c1345 * r2 * w[4];
  for (int c = 1; c <= 3; ++c) {
    const double f = c == d ? r43 : 1.0;
    V[c * 5 + 0] = -f * c34 * r2 * w[c];
    V[c * 5 + c] = f * c34 * r;
    e0 -= (f * c34 - c1345) * r3 * w[c] * w[c];
    V[4 * 5 + c] = (f * c34 - c1345) * r2 * w[c];
  }
  V[4 * 5 + 0] = e0;
  V[4 * 5 + 4] = c1345 * r;
}

// The blocks of plane k: the diagonal D and the neighbour blocks along x, y, z, from below
// (upper = false: at i-1, j-1, k-1) or from above (upper = true: at i+1, j+1, k+1).
void jacobians(long k, bool upper) {
  const double dt = g.dt;
  const long stride[3] = {1, g.sj, g.sk};
  std::vector<Block>* nb[3] = {&jc, &jb, &ja};  // x, y, z neighbour blocks
  const long mxi = g.hi[0] - g.lo[0] + 1;
#pragma omp parallel for schedule(static)
  for (long j = g.lo[1]; j <= g.hi[1]; ++j)
    for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
      const size_t idx = size_t((j - g.lo[1]) * mxi + (i - g.lo[0]));
      const long P = g.at(i, j, k);
      Block V, A;
      Block& D = jd[idx];
      D.fill(0.0);
      for (int ax = 0; ax < 3; ++ax) {
        viscous_jacobian(u.p(P), ax, V);
        for (int e = 0; e < 25; ++e) D[size_t(e)] += dt * 2.0 * g.t1[ax] * V[size_t(e)];
        for (int c = 0; c < 5; ++c) D[size_t(c * 6)] += dt * 2.0 * g.t1[ax] * kDiss[ax];
      }
      for (int c = 0; c < 5; ++c) D[size_t(c * 6)] += 1.0;
      for (int ax = 0; ax < 3; ++ax) {
        const double* w = u.p(upper ? P + stride[ax] : P - stride[ax]);
        inviscid_jacobian(w, ax, A);
        viscous_jacobian(w, ax, V);
        const double sa = upper ? dt * g.t2[ax] : -dt * g.t2[ax];
        Block& B = (*nb[ax])[idx];
        for (int e = 0; e < 25; ++e) B[size_t(e)] = sa * A[size_t(e)] - dt * g.t1[ax] * V[size_t(e)];
        for (int c = 0; c < 5; ++c) B[size_t(c * 6)] -= dt * g.t1[ax] * kDiss[ax];
      }
    }
}

// x := D^-1 x (Gaussian elimination without pivoting: D is diagonally dominant).
inline void solve5(Block D, double* x) {
  for (int p = 0; p < 5; ++p) {
    const double inv = 1.0 / D[size_t(p * 6)];
    for (int r = p + 1; r < 5; ++r) {
      const double f = D[size_t(r * 5 + p)] * inv;
      for (int c = p + 1; c < 5; ++c) D[size_t(r * 5 + c)] -= f * D[size_t(p * 5 + c)];
      x[r] -= f * x[p];
    }
  }
  for (int p = 4; p >= 0; --p) {
    double s = x[p];
    for (int c = p + 1; c < 5; ++c) s -= D[size_t(p * 5 + c)] * x[c];
    x[p] = s / D[size_t(p * 6)];
  }
}

// y -= omega * B x
inline void sub_mul(const Block& B, const double* x, double* y) {
  for (int r = 0; r < 5; ++r) {
    double s = 0.0;
    for (int c = 0; c < 5; ++c) s += B[size_t(r * 5 + c)] * x[c];
    y[r] -= kOmega * s;
  }
}

// ---------------------------------------------------------------------------
// The wavefront exchanges of one plane: a column along x and a row along y of the owned
// interior, 5 values per point.
// ---------------------------------------------------------------------------
std::vector<double> g_col, g_row;

void plane_line(long k, bool column, long pos, bool to_buf) {
  std::vector<double>& buf = column ? g_col : g_row;
  const int ax = column ? 1 : 0;  // the axis the line runs along
  const long n = g.hi[ax] - g.lo[ax] + 1;
  if (long(buf.size()) < 5 * n) buf.resize(size_t(5 * n));
  for (long t = 0; t < n; ++t) {
    const long q = g.lo[ax] + t;
    double* p = column ? rsd.p(g.at(pos, q, k)) : rsd.p(g.at(q, pos, k));
    for (int c = 0; c < 5; ++c) {
      if (to_buf)
        buf[size_t(5 * t + c)] = p[c];
      else
        p[c] = buf[size_t(5 * t + c)];
    }
  }
}

void recv_line(long k, bool column, long pos, int from, int tag) {
  if (from < 0) return;
  const int ax = column ? 1 : 0;
  const long n = g.hi[ax] - g.lo[ax] + 1;
  std::vector<double>& buf = column ? g_col : g_row;
  if (long(buf.size()) < 5 * n) buf.resize(size_t(5 * n));
  MPI_Recv(buf.data(), int(5 * n), MPI_DOUBLE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  plane_line(k, column, pos, false);
}

void send_line(long k, bool column, long pos, int to, int tag) {
  if (to < 0) return;
  const int ax = column ? 1 : 0;
  const long n = g.hi[ax] - g.lo[ax] + 1;
  plane_line(k, column, pos, true);
  MPI_Send((column ? g_col : g_row).data(), int(5 * n), MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
}

// Lower triangular solve of plane k: v = D^-1 (v - omega (Lz v[k-1] + Ly v[j-1] + Lx v[i-1])).
void lower_plane(long k) {
  jacobians(k, false);
  const long mxi = g.hi[0] - g.lo[0] + 1;
  for (long j = g.lo[1]; j <= g.hi[1]; ++j)
    for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
      const size_t idx = size_t((j - g.lo[1]) * mxi + (i - g.lo[0]));
      const long P = g.at(i, j, k);
      sub_mul(ja[idx], rsd.p(P - g.sk), rsd.p(P));
    }
  recv_line(k, true, g.lo[0] - 1, g.west, 20);
  recv_line(k, false, g.lo[1] - 1, g.north, 21);
  for (long j = g.lo[1]; j <= g.hi[1]; ++j)
    for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
      const size_t idx = size_t((j - g.lo[1]) * mxi + (i - g.lo[0]));
      const long P = g.at(i, j, k);
      double* v = rsd.p(P);
      sub_mul(jb[idx], rsd.p(P - g.sj), v);
      sub_mul(jc[idx], rsd.p(P - 1), v);
      solve5(jd[idx], v);
    }
  send_line(k, true, g.hi[0], g.east, 20);
  send_line(k, false, g.hi[1], g.south, 21);
}

// Upper triangular solve of plane k: v -= D^-1 omega (Uz v[k+1] + Uy v[j+1] + Ux v[i+1]).
void upper_plane(long k) {
  jacobians(k, true);
  const long mxi = g.hi[0] - g.lo[0] + 1;
  std::vector<double> tv(size_t(5 * mxi * (g.hi[1] - g.lo[1] + 1)), 0.0);
  for (long j = g.lo[1]; j <= g.hi[1]; ++j)
    for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
      const size_t idx = size_t((j - g.lo[1]) * mxi + (i - g.lo[0]));
      sub_mul(ja[idx], rsd.p(g.at(i, j, k) + g.sk), &tv[5 * idx]);
    }
  recv_line(k, true, g.hi[0] + 1, g.east, 22);
  recv_line(k, false, g.hi[1] + 1, g.south, 23);
  for (long j = g.hi[1]; j >= g.lo[1]; --j)
    for (long i = g.hi[0]; i >= g.lo[0]; --i) {
      const size_t idx = size_t((j - g.lo[1]) * mxi + (i - g.lo[0]));
      const long P = g.at(i, j, k);
      double* t = &tv[5 * idx];
      sub_mul(jb[idx], rsd.p(P + g.sj), t);
      sub_mul(jc[idx], rsd.p(P + 1), t);
      solve5(jd[idx], t);
      double* v = rsd.p(P);
      // t holds -D^-1 omega U v (sub_mul subtracts); v + t is the update.
      for (int c = 0; c < 5; ++c) v[c] += t[c];
    }
  send_line(k, true, g.lo[0], g.west, 22);
  send_line(k, false, g.lo[1], g.north, 23);
}

// ---------------------------------------------------------------------------
// Initial state, forcing, SSOR and the surface integral.
// ---------------------------------------------------------------------------

// Boundary values from the exact solution, interior by transfinite interpolation of them.
void initial_state() {
  std::fill(u.v.begin(), u.v.end(), 0.0);
  const long nx = g.n[0], ny = g.n[1], nz = g.n[2];
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < g.m[1]; ++j)
      for (long i = 0; i < g.m[0]; ++i) {
        const long gi = g.off[0] + i, gj = g.off[1] + j;
        double* q = u.p(g.at(i, j, k));
        if (gi == 0 || gi == nx - 1 || gj == 0 || gj == ny - 1 || k == 0 || k == nz - 1) {
          exact(gi, gj, k, q);
          continue;
        }
        const double xi = double(gi) / double(nx - 1), eta = double(gj) / double(ny - 1),
                     zeta = double(k) / double(nz - 1);
        double e[6][5];
        exact(0, gj, k, e[0]);
        exact(nx - 1, gj, k, e[1]);
        exact(gi, 0, k, e[2]);
        exact(gi, ny - 1, k, e[3]);
        exact(gi, gj, 0, e[4]);
        exact(gi, gj, nz - 1, e[5]);
        for (int c = 0; c < 5; ++c) {
          const double px = (1.0 - xi) * e[0][c] + xi * e[1][c];
          const double py = (1.0 - eta) * e[2][c] + eta * e[3][c];
          const double pz = (1.0 - zeta) * e[4][c] + zeta * e[5][c];
          q[c] = px + py + pz - px * py - py * pz - pz * px + px * py * pz;
        }
      }
}

// frct = R(exact solution) at the interior: the exact solution is the discrete steady state.
void forcing() {
  Field ue;
  ue.v.assign(size_t(5 * g.points()), 1.0);  // ghosts outside the grid are never read
  for (long k = 0; k < g.n[2]; ++k)
    for (long j = -2; j < g.m[1] + 2; ++j)
      for (long i = -2; i < g.m[0] + 2; ++i) {
        const long gi = g.off[0] + i, gj = g.off[1] + j;
        if (gi < 0 || gi >= g.n[0] || gj < 0 || gj >= g.n[1]) continue;
        exact(gi, gj, k, ue.p(g.at(i, j, k)));
      }
  std::fill(frct.v.begin(), frct.v.end(), 0.0);
  add_operator(ue, frct);
}

// One SSOR run of `steps` time steps from the initial state; returns the residual norms.
void ssor(int steps, double* rsdnm, double* seconds) {
  std::fill(rsd.v.begin(), rsd.v.end(), 0.0);
  const double relax = 1.0 / (kOmega * (2.0 - kOmega));
  const long nz = g.n[2];
  rhs();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    if (g.rank == 0 && steps > 1 && (step == 1 || step == steps || step % 20 == 0))
      std::printf(" Time step %4d\n", step);
    for (long k = 1; k < nz - 1; ++k)
      for (long j = g.lo[1]; j <= g.hi[1]; ++j)
        for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
          double* v = rsd.p(g.at(i, j, k));
          for (int c = 0; c < 5; ++c) v[c] *= g.dt;
        }
    for (long k = 1; k < nz - 1; ++k) lower_plane(k);
    for (long k = nz - 2; k >= 1; --k) upper_plane(k);
    for (long k = 1; k < nz - 1; ++k)
      for (long j = g.lo[1]; j <= g.hi[1]; ++j)
        for (long i = g.lo[0]; i <= g.hi[0]; ++i) {
          const long P = g.at(i, j, k);
          double* q = u.p(P);
          const double* v = rsd.p(P);
          for (int c = 0; c < 5; ++c) q[c] += relax * v[c];
        }
    rhs();
  }
  rms_norm(rsd, rsdnm, false);
  const double elapsed = MPI_Wtime() - t0;
  MPI_Allreduce(&elapsed, seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

// The surface integral of phi = c2 (rho e - |rho v|^2 / (2 rho)) over the box
// [ib, ie] x [jb, je] x [kb, ke] of global indices (ib = 1, ie = nx-2, jb = 1, je = ny-3,
// kb = 2, ke = nz-2, 0-based): per face pair the trapezoidal sum of the specification, written
// as a weighted sum of the points, so each rank adds its own points and one MPI_Allreduce
// finishes it.
double surface_integral() {
  const long ib = 1, ie = g.n[0] - 2, jb = 1, je = g.n[1] - 3, kb = 2, ke = g.n[2] - 2;
  auto weight = [](long x, long b, long e) -> double {
    if (x < b || x > e) return 0.0;
    return double((x > b ? 1 : 0) + (x < e ? 1 : 0));
  };
  auto phi = [](const double* q) { return c2 * (q[4] - 0.5 * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) / q[0]); };
  double part[3] = {0, 0, 0}, tot[3];
  for (long k = 0; k < g.n[2]; ++k)
    for (long j = 0; j < g.m[1]; ++j)
      for (long i = 0; i < g.m[0]; ++i) {
        const long gi = g.off[0] + i, gj = g.off[1] + j;
        const double p = phi(u.p(g.at(i, j, k)));
        if (k == kb || k == ke) part[0] += weight(gi, ib, ie) * weight(gj, jb, je) * p;
        if (gj == jb || gj == je) part[1] += weight(gi, ib, ie) * weight(k, kb, ke) * p;
        if (gi == ib || gi == ie) part[2] += weight(gj, jb, je) * weight(k, kb, ke) * p;
      }
  MPI_Allreduce(part, tot, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double dxi = 1.0 / double(g.n[0] - 1), deta = 1.0 / double(g.n[1] - 1), dzeta = 1.0 / double(g.n[2] - 1);
  return 0.25 * (tot[0] * dxi * deta + tot[1] * dxi * dzeta + tot[2] * deta * dzeta);
}

// The most square split P = xdim * ydim with xdim >= ydim.
void split_ranks(int p, int* xdim, int* ydim) {
  int y = 1;
  for (int d = 1; long(d) * d <= p; ++d)
    if (p % d == 0) y = d;
  *ydim = y;
  *xdim = p / y;
}

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "LU", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  g.rank = st.rank;
  g.nprocs = st.nprocs;
  const LuClass* cl = npb::find_class(kClasses, opt.cls);
  if (!cl) return npb::unsupported_class("npb-lu", opt.cls);
  split_ranks(g.nprocs, &g.xdim, &g.ydim);
  g.cx = g.rank % g.xdim;
  g.cy = g.rank / g.xdim;
  g.n[0] = cl->n * (opt.weak ? g.xdim : 1);
  g.n[1] = cl->n * (opt.weak ? g.ydim : 1);
  g.n[2] = cl->n;
  if (g.n[0] / g.xdim < 2 || g.n[1] / g.ydim < 2)
    return npb::usage_error("npb-lu: " + std::to_string(g.nprocs) + " ranks not allowed for class " +
                            std::string(1, cl->cls) + ": the " + std::to_string(g.xdim) + "x" +
                            std::to_string(g.ydim) + " rank grid leaves fewer than 2 grid points per rank along x or y");
  const int dims[2] = {g.xdim, g.ydim}, coord[2] = {g.cx, g.cy};
  for (int ax = 0; ax < 2; ++ax) {
    const long base = g.n[ax] / dims[ax], extra = g.n[ax] % dims[ax];
    g.m[ax] = base + (coord[ax] < extra ? 1 : 0);
    g.off[ax] = coord[ax] * base + std::min<long>(coord[ax], extra);
    g.lo[ax] = std::max<long>(0, 1 - g.off[ax]);
    g.hi[ax] = std::min<long>(g.m[ax] - 1, g.n[ax] - 2 - g.off[ax]);
  }
  g.west = g.cx > 0 ? g.rank - 1 : -1;
  g.east = g.cx < g.xdim - 1 ? g.rank + 1 : -1;
  g.north = g.cy > 0 ? g.rank - g.xdim : -1;
  g.south = g.cy < g.ydim - 1 ? g.rank + g.xdim : -1;
  g.sj = g.m[0] + 4;
  g.sk = g.sj * (g.m[1] + 4);
  g.dt = cl->dt;
  for (int ax = 0; ax < 3; ++ax) {
    const double h = 1.0 / double(g.n[ax] - 1);
    g.t1[ax] = 1.0 / (h * h);
    g.t2[ax] = 1.0 / (2.0 * h);
    g.t3[ax] = 1.0 / h;
  }
  const size_t pts = size_t(g.points());
  u.v.assign(5 * pts, 0.0);
  rsd.v.assign(5 * pts, 0.0);
  frct.v.assign(5 * pts, 0.0);
  const size_t plane = size_t((g.hi[0] - g.lo[0] + 1) * (g.hi[1] - g.lo[1] + 1));
  ja.resize(plane);
  jb.resize(plane);
  jc.resize(plane);
  jd.resize(plane);

  if (g.rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - LU Benchmark\n\n");
    std::printf(" Size:  %ldx%ldx%ld  (class %c%s)\n", g.n[0], g.n[1], g.n[2], cl->cls, opt.weak ? ", weak scaling" : "");
    std::printf(" Iterations:  %d   dt: %g\n", cl->itmax, cl->dt);
    std::printf(" Number of processes:  %d  (grid %dx%d)\n\n", g.nprocs, g.xdim, g.ydim);
  }

  forcing();
  // One untimed step touches all data, then start over.
  double rsdnm[5], seconds = 0.0;
  initial_state();
  ssor(1, rsdnm, &seconds);
  initial_state();
  ssor(cl->itmax, rsdnm, &seconds);
  double errnm[5];
  rms_norm(u, errnm, true);
  const double frc = surface_integral();

  int code = npb::kExitOk;
  if (g.rank == 0) {
    npb::Verdict verdict;
    if (opt.weak) {
      std::printf("\n RMS norms of the residual: %.13e %.13e %.13e %.13e %.13e\n", rsdnm[0], rsdnm[1], rsdnm[2],
                  rsdnm[3], rsdnm[4]);
      std::printf(" RMS norms of the error:    %.13e %.13e %.13e %.13e %.13e\n", errnm[0], errnm[1], errnm[2],
                  errnm[3], errnm[4]);
      std::printf(" Surface integral:          %.13e\n", frc);
      std::printf(" Weak scaling: these have no reference values\n");
      bool finite = std::isfinite(frc);
      for (int c = 0; c < 5; ++c) finite = finite && std::isfinite(rsdnm[c]) && std::isfinite(errnm[c]);
      verdict = finite ? npb::Verdict::NotApplicable : npb::Verdict::Unsuccessful;
    } else {
      bool ok = true;
      std::printf("\n");
      for (int c = 0; c < 5; ++c) {
        const std::string l = "residual norm " + std::to_string(c + 1);
        ok = npb::compare_value(l.c_str(), rsdnm[c], cl->xcr[c], kEpsilon) && ok;
      }
      for (int c = 0; c < 5; ++c) {
        const std::string l = "error norm " + std::to_string(c + 1);
        ok = npb::compare_value(l.c_str(), errnm[c], cl->xce[c], kEpsilon) && ok;
      }
      ok = npb::compare_value("surface integral", frc, cl->xci, kEpsilon) && ok;
      verdict = ok ? npb::Verdict::Successful : npb::Verdict::Unsuccessful;
    }
    // The NPB reports' operation count of one LU time step for an n0^3-sized grid.
    const double nxyz = double(g.n[0]) * double(g.n[1]) * double(g.n[2]);
    const double nsum = double(g.n[0] + g.n[1] + g.n[2]) / 3.0;
    const double flops =
        double(cl->itmax) * (1984.77 * nxyz - 10923.3 * nsum * nsum + 27770.9 * nsum - 144010.0);
    npb::Report rep;
    rep.name = "LU";
    rep.cls = cl->cls;
    rep.size = std::to_string(g.n[0]) + "x" + std::to_string(g.n[1]) + "x" + std::to_string(g.n[2]);
    rep.iterations = cl->itmax;
    rep.seconds = seconds;
    rep.nprocs = g.nprocs;
    rep.threads = npb::threads_in_use();
    rep.mops_total = seconds > 0 ? flops / seconds / 1.0e6 : 0.0;
    rep.optype = "floating point";
    rep.verdict = verdict;
    rep.weak = opt.weak;
    npb::print_report(rep);
    code = npb::exit_code(verdict);
  }
  return npb::finish(code);
}
