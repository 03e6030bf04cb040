// NPB MG: V-cycle multigrid on a periodic 3-D grid, MPI version for tilempi.
//
// Specification: NPB 1 report (RNR-94-007), kernel MG, and the NPB 2/3
// reports: solve the discrete Poisson problem A u = v on an n^3 periodic
// grid, v = +1 at the ten points with the largest and -1 at the ten points
// with the smallest of the random numbers laid on the grid (NPB generator,
// seed 314159265, x fastest), 0 elsewhere. Each iteration applies one
// V-cycle (restriction P down to the 2^3 grid, smoother S there, then
// interpolation Q, residual and smoothing on the way up) and computes the
// residual r = v - A u. A, S, P and Q are the 27-point operators of the
// specification: A = (-8/3, 0, 1/6, 1/12), S = (-3/8, 1/32, -1/64, 0) for
// classes S, W, A and (-3/17, 1/33, -1/61, 0) for B; P weights 1/2, 1/4,
// 1/8, 1/16 and Q the trilinear interpolation. Grid sizes, iteration counts
// and the reference L2 norm of the final residual are from the "MG" section
// of npb/VERIFICATION.md in the project notes (relative tolerance 1e-8).
//
// Decomposition and communication: the ranks form a px x py x pz grid; each
// level is split in blocks while every block keeps at least 2 points per
// dimension. A halo exchange after every operator sends faces with
// MPI_Irecv/MPI_Send (x, then y with the x ghosts, then z with both, which
// fills edges and corners). Coarser levels are small: they are gathered
// once per cycle (MPI_Allgather) and computed redundantly on every rank.
// Norms and the choice of the +-1 points use MPI_Allreduce.
//
// Weak scaling (--weak): each rank keeps the class's n^3 points; the grid
// grows to (n px) x (n py) x (n pz). The reference norm does not apply.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

struct MgClass {
  char cls;
  int log_n;
  int nit;
  double rnm2;
};
// VERIFICATION.md, "MG".
const MgClass kClasses[] = {
    {'S', 5, 4, 0.5307707005734e-04},
    {'W', 7, 4, 0.6467329375339e-05},
    {'A', 8, 4, 0.2433365309069e-05},
    {'B', 8, 20, 0.1800564401355e-05},
};
constexpr double kEpsilon = 1.0e-8;

const char* kExtra =
    "Classes S, W, A, B. Ranks: a power of two, split over x, y, z in turn, with at\n"
    "least 2 grid points per rank and dimension (class S: up to 4096 ranks).\n"
    "--weak: every rank keeps the class's n^3 points (grid n*px x n*py x n*pz).\n";

int g_rank = 0, g_nprocs = 1;
int g_p[3] = {1, 1, 1};  // rank grid
int g_c[3] = {0, 0, 0};  // this rank's coordinates

int rank_of(int cx, int cy, int cz) { return (cz * g_p[1] + cy) * g_p[0] + cx; }

// One level of the grid hierarchy, local part with one ghost layer.
struct Level {
  long n[3];        // global points per dimension
  long m[3];        // local interior points per dimension
  long off[3];      // global index of the first local point
  bool distributed; // split over the ranks, else replicated on every rank
  long s1, s2;      // strides of the padded array
  std::vector<double> u, r;
  long size() const { return (m[0] + 2) * (m[1] + 2) * (m[2] + 2); }
  long at(long i, long j, long k) const { return (i + 1) + s1 * (j + 1) + s2 * (k + 1); }
  // neighbours along each axis (left, right)
  int nb[3][2];
};

std::vector<Level> g_lv;  // index = level number (1..lt); [0] unused
int g_lt = 0;

// ---------------------------------------------------------------------------
// Halo exchange.
// ---------------------------------------------------------------------------
std::vector<double> g_sbuf[2], g_rbuf[2];

void comm3(const Level& L, double* a) {
  for (int ax = 0; ax < 3; ++ax) {
    // Plane extents: for axis 0 the other axes over the interior; for axis 1,
    // axis 0 includes its ghosts; for axis 2, axes 0 and 1 do.
    long lo[3], hi[3];
    for (int d = 0; d < 3; ++d) {
      bool with_ghosts = d < ax;
      lo[d] = with_ghosts ? -1 : 0;
      hi[d] = with_ghosts ? L.m[d] : L.m[d] - 1;
    }
    const long mlast = L.m[ax] - 1;
    auto index = [&](long a0, long a1, long pos) -> long {
      // a0, a1: the two other axes in increasing order; pos on axis ax.
      long ijk[3];
      int o = 0;
      for (int d = 0; d < 3; ++d) {
        if (d == ax)
          ijk[d] = pos;
        else
          ijk[d] = o++ == 0 ? a0 : a1;
      }
      return L.at(ijk[0], ijk[1], ijk[2]);
    };
    int da = ax == 0 ? 1 : 0, db = ax == 2 ? 1 : 2;
    long na = hi[da] - lo[da] + 1, nbn = hi[db] - lo[db] + 1;
    long count = na * nbn;
    const bool remote = L.distributed && g_p[ax] > 1;
    if (!remote) {
      for (long b = lo[db]; b <= hi[db]; ++b)
        for (long q = lo[da]; q <= hi[da]; ++q) {
          a[index(q, b, -1)] = a[index(q, b, mlast)];
          a[index(q, b, mlast + 1)] = a[index(q, b, 0)];
        }
      continue;
    }
    for (int s = 0; s < 2; ++s) {
      if (long(g_sbuf[s].size()) < count) g_sbuf[s].resize(size_t(count));
      if (long(g_rbuf[s].size()) < count) g_rbuf[s].resize(size_t(count));
    }
    // sbuf[0]: our first plane, to the left neighbour's high ghost (tag 2ax+1);
    // sbuf[1]: our last plane, to the right neighbour's low ghost (tag 2ax).
    long t = 0;
    for (long b = lo[db]; b <= hi[db]; ++b)
      for (long q = lo[da]; q <= hi[da]; ++q, ++t) {
        g_sbuf[0][size_t(t)] = a[index(q, b, 0)];
        g_sbuf[1][size_t(t)] = a[index(q, b, mlast)];
      }
    MPI_Request req[2];
    MPI_Irecv(g_rbuf[0].data(), int(count), MPI_DOUBLE, L.nb[ax][0], 2 * ax, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(g_rbuf[1].data(), int(count), MPI_DOUBLE, L.nb[ax][1], 2 * ax + 1, MPI_COMM_WORLD, &req[1]);
    MPI_Send(g_sbuf[1].data(), int(count), MPI_DOUBLE, L.nb[ax][1], 2 * ax, MPI_COMM_WORLD);
    MPI_Send(g_sbuf[0].data(), int(count), MPI_DOUBLE, L.nb[ax][0], 2 * ax + 1, MPI_COMM_WORLD);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    t = 0;
    for (long b = lo[db]; b <= hi[db]; ++b)
      for (long q = lo[da]; q <= hi[da]; ++q, ++t) {
        a[index(q, b, -1)] = g_rbuf[0][size_t(t)];
        a[index(q, b, mlast + 1)] = g_rbuf[1][size_t(t)];
      }
  }
}

void zero(const Level& L, double* a) {
  const long n = L.size();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) a[i] = 0.0;
}

// ---------------------------------------------------------------------------
// Operators. In a 27-point stencil the 26 neighbours fall in three classes:
// 6 faces, 12 edges, 8 corners. Along an x line, s1[i] sums the 4 neighbours
// of (i,j,k) at distance 1 in the y-z plane and s2[i] the 4 diagonal ones;
// then faces = x(i-1) + x(i+1) + s1[i], edges = s2[i] + s1[i-1] + s1[i+1],
// corners = s2[i-1] + s2[i+1].
// ---------------------------------------------------------------------------
template <class F>
void stencil_lines(const Level& L, const double* x, F&& f) {
  const long m0 = L.m[0], m1 = L.m[1], m2 = L.m[2];
  const long s1 = L.s1, s2 = L.s2;
#pragma omp parallel
  {
    std::vector<double> b1(size_t(m0 + 2)), b2(size_t(m0 + 2));
#pragma omp for collapse(2) schedule(static)
    for (long k = 0; k < m2; ++k)
      for (long j = 0; j < m1; ++j) {
        const long c = L.at(-1, j, k);
        for (long i = 0; i < m0 + 2; ++i) {
          const long p = c + i;
          b1[size_t(i)] = x[p - s1] + x[p + s1] + x[p - s2] + x[p + s2];
          b2[size_t(i)] = x[p - s1 - s2] + x[p + s1 - s2] + x[p - s1 + s2] + x[p + s1 + s2];
        }
        for (long i = 1; i <= m0; ++i) {
          const long p = c + i;
          const double faces = x[p - 1] + x[p + 1] + b1[size_t(i)];
          const double edges = b2[size_t(i)] + b1[size_t(i - 1)] + b1[size_t(i + 1)];
          const double corners = b2[size_t(i - 1)] + b2[size_t(i + 1)];
          f(p, x[p], faces, edges, corners);
        }
      }
  }
}

double g_a[4], g_c4[4];  // A and S coefficients

// r = v - A u  (v may be r itself)
void resid(const Level& L, const double* u, const double* v, double* r) {
  const double a0 = g_a[0], a1 = g_a[1], a2 = g_a[2], a3 = g_a[3];
  stencil_lines(L, u, [&](long p, double uc, double faces, double edges, double corners) {
    r[p] = v[p] - a0 * uc - a1 * faces - a2 * edges - a3 * corners;
  });
  comm3(L, r);
}

// u = u + S r
void psinv(const Level& L, const double* r, double* u) {
  const double c0 = g_c4[0], c1 = g_c4[1], c2 = g_c4[2], c3 = g_c4[3];
  stencil_lines(L, r, [&](long p, double rc, double faces, double edges, double corners) {
    u[p] = u[p] + c0 * rc + c1 * faces + c2 * edges + c3 * corners;
  });
  comm3(L, u);
}

// Restriction of fine level F into coarse level C (coarse point c sits on
// fine point 2c+1). Local coarse block = half of the local fine block; when
// C is replicated the blocks of all ranks are gathered.
std::vector<double> g_block, g_gathered;

void rprj3(const Level& F, const double* rf, const Level& C, double* sc) {
  const long b0 = F.m[0] / 2, b1 = F.m[1] / 2, b2 = F.m[2] / 2;
  const bool gather = F.distributed && !C.distributed && g_nprocs > 1;
  const long bn = b0 * b1 * b2;
  if (gather && long(g_block.size()) < bn) g_block.resize(size_t(bn));
  const long fs1 = F.s1, fs2 = F.s2;
#pragma omp parallel for collapse(2) schedule(static)
  for (long k = 0; k < b2; ++k)
    for (long j = 0; j < b1; ++j)
      for (long i = 0; i < b0; ++i) {
        const long p = F.at(2 * i + 1, 2 * j + 1, 2 * k + 1);
        double s = 0.5 * rf[p];
        double faces = rf[p - 1] + rf[p + 1] + rf[p - fs1] + rf[p + fs1] + rf[p - fs2] + rf[p + fs2];
        double edges = rf[p - 1 - fs1] + rf[p + 1 - fs1] + rf[p - 1 + fs1] + rf[p + 1 + fs1] +
                       rf[p - 1 - fs2] + rf[p + 1 - fs2] + rf[p - 1 + fs2] + rf[p + 1 + fs2] +
                       rf[p - fs1 - fs2] + rf[p + fs1 - fs2] + rf[p - fs1 + fs2] + rf[p + fs1 + fs2];
        double corners = 0.0;
        for (int dz = -1; dz <= 1; dz += 2)
          for (int dy = -1; dy <= 1; dy += 2)
            for (int dx = -1; dx <= 1; dx += 2) corners += rf[p + dx + dy * fs1 + dz * fs2];
        s += 0.25 * faces + 0.125 * edges + 0.0625 * corners;
        if (gather)
          g_block[size_t((k * b1 + j) * b0 + i)] = s;
        else
          sc[C.at(i, j, k)] = s;
      }
  if (gather) {
    if (long(g_gathered.size()) < bn * g_nprocs) g_gathered.resize(size_t(bn * g_nprocs));
    MPI_Allgather(g_block.data(), int(bn), MPI_DOUBLE, g_gathered.data(), int(bn), MPI_DOUBLE, MPI_COMM_WORLD);
    for (int q = 0; q < g_nprocs; ++q) {
      const int cx = q % g_p[0], cy = (q / g_p[0]) % g_p[1], cz = q / (g_p[0] * g_p[1]);
      const double* blk = g_gathered.data() + long(q) * bn;
      for (long k = 0; k < b2; ++k)
        for (long j = 0; j < b1; ++j)
          for (long i = 0; i < b0; ++i)
            sc[C.at(cx * b0 + i, cy * b1 + j, cz * b2 + k)] = blk[(k * b1 + j) * b0 + i];
    }
  }
  comm3(C, sc);
}

// u_fine += Q u_coarse (trilinear interpolation).
void interp(const Level& C, const double* uc, const Level& F, double* uf) {
  // Per dimension and fine point: the coarse points (local indexes) and weight.
  long co[3];
  for (int d = 0; d < 3; ++d) co[d] = C.distributed ? C.off[d] : 0;
  std::vector<long> c0[3], c1[3];
  std::vector<char> two[3];
  for (int d = 0; d < 3; ++d) {
    c0[d].resize(size_t(F.m[d]));
    c1[d].resize(size_t(F.m[d]));
    two[d].resize(size_t(F.m[d]));
    for (long f = 0; f < F.m[d]; ++f) {
      long g = F.off[d] + f;
      if (g & 1) {
        c0[d][size_t(f)] = c1[d][size_t(f)] = (g - 1) / 2 - co[d];
        two[d][size_t(f)] = 0;
      } else {
        c0[d][size_t(f)] = g / 2 - 1 - co[d];
        c1[d][size_t(f)] = g / 2 - co[d];
        two[d][size_t(f)] = 1;
      }
    }
  }
#pragma omp parallel for collapse(2) schedule(static)
  for (long k = 0; k < F.m[2]; ++k)
    for (long j = 0; j < F.m[1]; ++j) {
      const long kk[2] = {c0[2][size_t(k)], c1[2][size_t(k)]};
      const long jj[2] = {c0[1][size_t(j)], c1[1][size_t(j)]};
      const int nk = two[2][size_t(k)] ? 2 : 1, nj = two[1][size_t(j)] ? 2 : 1;
      const double wkj = (nk == 2 ? 0.5 : 1.0) * (nj == 2 ? 0.5 : 1.0);
      for (long i = 0; i < F.m[0]; ++i) {
        const int ni = two[0][size_t(i)] ? 2 : 1;
        const long ii[2] = {c0[0][size_t(i)], c1[0][size_t(i)]};
        double s = 0.0;
        for (int a = 0; a < nk; ++a)
          for (int b = 0; b < nj; ++b)
            for (int c = 0; c < ni; ++c) s += uc[C.at(ii[c], jj[b], kk[a])];
        uf[F.at(i, j, k)] += s * wkj * (ni == 2 ? 0.5 : 1.0);
      }
    }
  comm3(F, uf);
}

// One V-cycle: approximate u for A u = v with residual r on the finest level.
void mg3P(double* u, const double* v, double* r) {
  for (int k = g_lt; k > 1; --k) rprj3(g_lv[size_t(k)], g_lv[size_t(k)].r.data(), g_lv[size_t(k - 1)], g_lv[size_t(k - 1)].r.data());
  Level& L1 = g_lv[1];
  zero(L1, L1.u.data());
  psinv(L1, L1.r.data(), L1.u.data());
  for (int k = 2; k < g_lt; ++k) {
    Level& C = g_lv[size_t(k - 1)];
    Level& F = g_lv[size_t(k)];
    zero(F, F.u.data());
    interp(C, C.u.data(), F, F.u.data());
    resid(F, F.u.data(), F.r.data(), F.r.data());
    psinv(F, F.r.data(), F.u.data());
  }
  Level& C = g_lv[size_t(g_lt - 1)];
  Level& F = g_lv[size_t(g_lt)];
  interp(C, C.u.data(), F, u);
  resid(F, u, v, r);
  psinv(F, r, u);
}

// L2 norm (sqrt of the mean square) and max norm of a over the whole grid.
void norm2u3(const Level& L, const double* a, double* rnm2, double* rnmu) {
  double s = 0.0, mx = 0.0;
#pragma omp parallel for collapse(2) reduction(+ : s) reduction(max : mx) schedule(static)
  for (long k = 0; k < L.m[2]; ++k)
    for (long j = 0; j < L.m[1]; ++j)
      for (long i = 0; i < L.m[0]; ++i) {
        double x = a[L.at(i, j, k)];
        s += x * x;
        mx = std::max(mx, std::fabs(x));
      }
  double gs = 0.0, gm = 0.0;
  MPI_Allreduce(&s, &gs, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mx, &gm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *rnm2 = std::sqrt(gs / (double(L.n[0]) * double(L.n[1]) * double(L.n[2])));
  *rnmu = gm;
}

// The right-hand side: +1 at the 10 largest, -1 at the 10 smallest random
// numbers of the grid (the number at global (i, j, k) is the (L+1)-th of the
// sequence, L = i + nx (j + ny k)).
void zran3(const Level& L, double* v) {
  constexpr int kM = 10;
  zero(L, v);
  std::vector<double> line(size_t(L.m[0]));
  std::vector<std::pair<double, long>> big, small;  // local candidates
  for (long k = 0; k < L.m[2]; ++k)
    for (long j = 0; j < L.m[1]; ++j) {
      long g0 = L.off[0] + L.n[0] * ((L.off[1] + j) + L.n[1] * (L.off[2] + k));
      uint64_t x = npb::skip46(npb::kSeedDefault, uint64_t(g0));
      npb::vranlc(L.m[0], x, npb::kA, line.data());
      for (long i = 0; i < L.m[0]; ++i) {
        double z = line[size_t(i)];
        long g = g0 + i;
        if (big.size() < kM || z > big.back().first) {
          big.emplace_back(z, g);
          std::sort(big.begin(), big.end(), [](auto& a, auto& b) { return a.first > b.first; });
          if (big.size() > kM) big.pop_back();
        }
        if (small.size() < kM || z < small.back().first) {
          small.emplace_back(z, g);
          std::sort(small.begin(), small.end(), [](auto& a, auto& b) { return a.first < b.first; });
          if (small.size() > kM) small.pop_back();
        }
      }
    }
  // Global choice, one point at a time: the best candidate over all ranks
  // (MPI_Allreduce max/min), then its global index from the rank that has it.
  auto pick = [&](std::vector<std::pair<double, long>>& cand, bool largest, std::vector<long>& out) {
    size_t next = 0;
    for (int t = 0; t < kM; ++t) {
      double mine = next < cand.size() ? cand[next].first : (largest ? -1.0 : 2.0), best = 0.0;
      MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE, largest ? MPI_MAX : MPI_MIN, MPI_COMM_WORLD);
      double idx = (next < cand.size() && mine == best) ? double(cand[next].second) : -1.0, gidx = -1.0;
      MPI_Allreduce(&idx, &gidx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (next < cand.size() && double(cand[next].second) == gidx) ++next;
      out.push_back(long(gidx));
    }
  };
  std::vector<long> plus, minus;
  pick(big, true, plus);
  pick(small, false, minus);
  auto put = [&](long g, double val) {
    long i = g % L.n[0], j = (g / L.n[0]) % L.n[1], k = g / (L.n[0] * L.n[1]);
    i -= L.off[0];
    j -= L.off[1];
    k -= L.off[2];
    if (i >= 0 && i < L.m[0] && j >= 0 && j < L.m[1] && k >= 0 && k < L.m[2]) v[L.at(i, j, k)] = val;
  };
  for (long g : minus) put(g, -1.0);
  for (long g : plus) put(g, 1.0);
  comm3(L, v);
}

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "MG", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  g_rank = st.rank;
  g_nprocs = st.nprocs;
  const MgClass* c = npb::find_class(kClasses, opt.cls);
  if (!c) return npb::unsupported_class("npb-mg", opt.cls);
  if (!npb::is_power_of_two(g_nprocs))
    return npb::usage_error("npb-mg: " + std::to_string(g_nprocs) + " ranks not allowed: need a power of two");
  for (int b = 0; b < npb::ilog2(g_nprocs); ++b) g_p[b % 3] *= 2;
  g_c[0] = g_rank % g_p[0];
  g_c[1] = (g_rank / g_p[0]) % g_p[1];
  g_c[2] = g_rank / (g_p[0] * g_p[1]);

  long n[3];
  for (int d = 0; d < 3; ++d) n[d] = (1L << c->log_n) * (opt.weak ? g_p[d] : 1);
  for (int d = 0; d < 3; ++d)
    if (n[d] / g_p[d] < 2)
      return npb::usage_error("npb-mg: " + std::to_string(g_nprocs) + " ranks not allowed for class " +
                              std::string(1, c->cls) + ": fewer than 2 points per rank and dimension");
  // Levels 1 (coarsest, smallest dimension 2) .. lt (finest).
  g_lt = npb::ilog2(std::min({n[0], n[1], n[2]}));
  g_lv.resize(size_t(g_lt + 1));
  for (int k = g_lt; k >= 1; --k) {
    Level& L = g_lv[size_t(k)];
    bool dist = true;
    for (int d = 0; d < 3; ++d) {
      L.n[d] = n[d] >> (g_lt - k);
      if (L.n[d] / g_p[d] < 2) dist = false;
    }
    if (k < g_lt && !g_lv[size_t(k + 1)].distributed) dist = false;
    L.distributed = dist;
    for (int d = 0; d < 3; ++d) {
      L.m[d] = dist ? L.n[d] / g_p[d] : L.n[d];
      L.off[d] = dist ? L.m[d] * g_c[d] : 0;
    }
    L.s1 = L.m[0] + 2;
    L.s2 = (L.m[0] + 2) * (L.m[1] + 2);
    for (int d = 0; d < 3; ++d) {
      int lc[3] = {g_c[0], g_c[1], g_c[2]}, rc[3] = {g_c[0], g_c[1], g_c[2]};
      lc[d] = (g_c[d] - 1 + g_p[d]) % g_p[d];
      rc[d] = (g_c[d] + 1) % g_p[d];
      L.nb[d][0] = rank_of(lc[0], lc[1], lc[2]);
      L.nb[d][1] = rank_of(rc[0], rc[1], rc[2]);
    }
    L.r.assign(size_t(L.size()), 0.0);
    L.u.assign(size_t(L.size()), 0.0);
  }
  if (!g_lv[size_t(g_lt)].distributed)
    return npb::usage_error("npb-mg: internal error: finest level not distributed");

  g_a[0] = -8.0 / 3.0;
  g_a[1] = 0.0;
  g_a[2] = 1.0 / 6.0;
  g_a[3] = 1.0 / 12.0;
  if (c->cls == 'B') {
    g_c4[0] = -3.0 / 17.0;
    g_c4[1] = 1.0 / 33.0;
    g_c4[2] = -1.0 / 61.0;
  } else {
    g_c4[0] = -3.0 / 8.0;
    g_c4[1] = 1.0 / 32.0;
    g_c4[2] = -1.0 / 64.0;
  }
  g_c4[3] = 0.0;

  if (g_rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - MG Benchmark\n\n");
    std::printf(" Size:  %ldx%ldx%ld  (class %c%s)\n", n[0], n[1], n[2], c->cls, opt.weak ? ", weak scaling" : "");
    std::printf(" Iterations:  %d\n", c->nit);
    std::printf(" Number of processes:  %d  (grid %dx%dx%d)\n\n", g_nprocs, g_p[0], g_p[1], g_p[2]);
  }

  Level& F = g_lv[size_t(g_lt)];
  std::vector<double> v(size_t(F.size()), 0.0);
  double* u = F.u.data();
  double* r = F.r.data();
  double rnm2 = 0.0, rnmu = 0.0;

  // One untimed iteration touches all data, then start over.
  zero(F, u);
  zran3(F, v.data());
  resid(F, u, v.data(), r);
  mg3P(u, v.data(), r);
  resid(F, u, v.data(), r);
  zero(F, u);
  zran3(F, v.data());

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  resid(F, u, v.data(), r);
  norm2u3(F, r, &rnm2, &rnmu);
  for (int it = 1; it <= c->nit; ++it) {
    if (g_rank == 0 && (it == 1 || it == c->nit || it % 5 == 0)) std::printf("  iter %3d\n", it);
    mg3P(u, v.data(), r);
    resid(F, u, v.data(), r);
  }
  norm2u3(F, r, &rnm2, &rnmu);
  double elapsed = MPI_Wtime() - t0, tmax = 0.0;
  MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  int code = npb::kExitOk;
  if (g_rank == 0) {
    npb::Verdict verdict;
    std::printf(" L2 norm of the final residual = %20.13e (max norm %20.13e)\n", rnm2, rnmu);
    if (opt.weak) {
      std::printf(" Weak scaling: the residual norm has no reference value\n");
      verdict = npb::Verdict::NotApplicable;
    } else {
      verdict = npb::compare_value("L2 norm", rnm2, c->rnm2, kEpsilon) ? npb::Verdict::Successful
                                                                       : npb::Verdict::Unsuccessful;
    }
    const double points = double(n[0]) * double(n[1]) * double(n[2]);
    npb::Report rep;
    rep.name = "MG";
    rep.cls = c->cls;
    rep.size = std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
    rep.iterations = c->nit;
    rep.seconds = tmax;
    rep.nprocs = g_nprocs;
    rep.threads = npb::threads_in_use();
    rep.mops_total = tmax > 0 ? 58.0 * c->nit * points / tmax / 1.0e6 : 0.0;
    rep.optype = "floating point";
    rep.verdict = verdict;
    rep.weak = opt.weak;
    npb::print_report(rep);
    code = npb::exit_code(verdict);
  }
  return npb::finish(code);
}
