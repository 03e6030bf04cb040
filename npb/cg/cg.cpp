// NPB CG: conjugate gradient estimate of the smallest eigenvalue of a sparse
// symmetric positive definite matrix, MPI version for tilempi.
//
// Specification: NPB 1 report (RNR-94-007), kernel CG, and the NPB 2/3
// reports: the matrix A = sum_i w_i v_i v_i^T + (rcond - shift) I is built
// from na random sparse vectors v_i (nonzer random entries each at random
// positions, plus 0.5 on the diagonal position i), weights w_i falling
// geometrically from 1 to rcond = 0.1; niter outer iterations of inverse power
// iteration, each solving A z = x with 25 CG steps, zeta = shift + 1/(x.z),
// x = z/|z|. Class parameters (na, nonzer, niter, shift) and the reference
// zeta are from the "CG" section of npb/VERIFICATION.md in the project notes
// (relative tolerance 1e-10).
//
// Decomposition and communication (as in the reference MPI version): the
// ranks form an nprows x npcols grid (npcols = nprows or 2 nprows); rank
// (pr, pc) owns the block of A with rows R_pr and columns C_pc and the
// C_pc segment of every vector. A matrix-vector product is a local block
// product, a sum over the process row by recursive exchange
// (MPI_Irecv/MPI_Send/MPI_Wait with log2(npcols) partners) and an exchange
// with the "transpose" rank; dot products are sums over the process row by
// the same point-to-point exchanges. No collective is used in the solver.
//
// Weak scaling (--weak): na is multiplied by the rank count, so every rank
// keeps about the class's number of nonzeros; zeta then has no reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

struct CgClass {
  char cls;
  long na;
  int nonzer, niter;
  double shift, zeta;
};
// VERIFICATION.md, "CG".
const CgClass kClasses[] = {
    {'S', 1400, 7, 15, 10.0, 8.5971775078648},
    {'W', 7000, 8, 15, 12.0, 10.362595087124},
    {'A', 14000, 11, 15, 20.0, 17.130235054029},
    {'B', 75000, 13, 75, 60.0, 22.712745482631},
};
constexpr double kRcond = 0.1;
constexpr double kEpsilon = 1.0e-10;
constexpr int kCgSteps = 25;

const char* kExtra =
    "Classes S, W, A, B. Ranks: a power of two (grid nprows x npcols, npcols = nprows\n"
    "or 2*nprows), at most na/2 columns per row of ranks.\n"
    "--weak: na is multiplied by the rank count (nonzeros per rank stay fixed).\n";

struct Grid {
  int rank = 0, nprocs = 1;
  int nprows = 1, npcols = 1, l2npcols = 0;
  int pr = 0, pc = 0;
  long na = 0;
  long rstart = 0, rend = 0;  // rows R_pr
  long cstart = 0, cend = 0;  // columns C_pc (and the vector segment)
  int row_partner[32];        // exchange partners of the row sum, by step
  int transpose = 0;          // the rank that holds what we need after the sum
  bool square = true;
};

long block_start(long n, int parts, int i) { return n * i / parts; }

struct Matrix {
  std::vector<int> rowstr;  // local rows + 1
  std::vector<int> col;     // local column (relative to cstart)
  std::vector<double> val;
};

// Builds this rank's block of A. Every rank walks the whole random sequence
// (the generator is sequential) and keeps the entries of its block.
Matrix make_matrix(const Grid& g, const CgClass& c) {
  const long n = g.na;
  uint64_t tran = npb::kSeedDefault;
  npb::randlc(tran, npb::kA);  // the first number is not used for the matrix
  long nn1 = 1;
  while (nn1 < n) nn1 *= 2;
  std::vector<char> mark(size_t(n), 0);
  std::vector<long> idx;
  std::vector<double> v;
  struct Entry {
    int row, col;
    double val;
  };
  std::vector<Entry> entries;
  const double ratio = std::pow(kRcond, 1.0 / double(n));
  double size = 1.0;
  for (long outer = 0; outer < n; ++outer) {
    // A sparse random vector: nonzer distinct positions in [0, n), each with a
    // random value (value drawn first, then the position, scaled to the power
    // of two nn1 >= n; positions >= n are rejected).
    idx.clear();
    v.clear();
    while (long(idx.size()) < c.nonzer) {
      double value = npb::randlc(tran, npb::kA);
      double where = npb::randlc(tran, npb::kA);
      long i = long(double(nn1) * where);
      if (i >= n || mark[size_t(i)]) continue;
      mark[size_t(i)] = 1;
      idx.push_back(i);
      v.push_back(value);
    }
    for (long i : idx) mark[size_t(i)] = 0;
    // The diagonal position gets 0.5 (replacing a random value there).
    bool found = false;
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] == outer) {
        v[k] = 0.5;
        found = true;
      }
    if (!found) {
      idx.push_back(outer);
      v.push_back(0.5);
    }
    // Add size * v v^T restricted to this rank's block.
    for (size_t a = 0; a < idx.size(); ++a) {
      long jc = idx[a];
      if (jc < g.cstart || jc >= g.cend) continue;
      double scale = size * v[a];
      for (size_t b = 0; b < idx.size(); ++b) {
        long ir = idx[b];
        if (ir < g.rstart || ir >= g.rend) continue;
        entries.push_back({int(ir - g.rstart), int(jc - g.cstart), v[b] * scale});
      }
    }
    size *= ratio;
  }
  // rcond - shift on the diagonal.
  for (long i = std::max(g.rstart, g.cstart); i < std::min(g.rend, g.cend); ++i)
    entries.push_back({int(i - g.rstart), int(i - g.cstart), kRcond - c.shift});

  // Compressed rows, duplicates summed.
  const long nrows = g.rend - g.rstart;
  std::vector<int> count(size_t(nrows + 1), 0);
  for (const Entry& e : entries) count[size_t(e.row + 1)]++;
  for (long r = 0; r < nrows; ++r) count[size_t(r + 1)] += count[size_t(r)];
  std::vector<Entry> by_row(entries.size());
  {
    std::vector<int> pos(count.begin(), count.end() - 1);
    for (const Entry& e : entries) by_row[size_t(pos[size_t(e.row)]++)] = e;
  }
  entries.clear();
  entries.shrink_to_fit();
  Matrix m;
  m.rowstr.assign(size_t(nrows + 1), 0);
  for (long r = 0; r < nrows; ++r) {
    auto first = by_row.begin() + count[size_t(r)], last = by_row.begin() + count[size_t(r + 1)];
    std::stable_sort(first, last, [](const Entry& x, const Entry& y) { return x.col < y.col; });
    for (auto it = first; it != last; ++it) {
      if (!m.col.empty() && long(m.col.size()) > m.rowstr[size_t(r)] && m.col.back() == it->col) {
        m.val.back() += it->val;
      } else {
        m.col.push_back(it->col);
        m.val.push_back(it->val);
      }
    }
    m.rowstr[size_t(r + 1)] = int(m.col.size());
  }
  return m;
}

// Sums n doubles over the process row; all row members end with the same sum.
void row_sum(const Grid& g, double* v, int n, double* tmp) {
  for (int s = 0; s < g.l2npcols; ++s) {
    MPI_Request req;
    MPI_Irecv(tmp, n, MPI_DOUBLE, g.row_partner[s], 100 + s, MPI_COMM_WORLD, &req);
    MPI_Send(v, n, MPI_DOUBLE, g.row_partner[s], 100 + s, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; ++i) v[i] += tmp[i];
  }
}

struct Solver {
  const Grid& g;
  const Matrix& a;
  long ncols;  // length of the vector segment
  long nrows;
  std::vector<double> w, tmp;

  Solver(const Grid& g_, const Matrix& a_) : g(g_), a(a_) {
    ncols = g.cend - g.cstart;
    nrows = g.rend - g.rstart;
    w.resize(size_t(nrows));
    tmp.resize(size_t(nrows));
  }

  // out (segment C_pc) = A * in (segment C_pc).
  void matvec(const double* in, double* out) {
    const int* rs = a.rowstr.data();
    const int* cl = a.col.data();
    const double* av = a.val.data();
    double* wp = w.data();
    const long nr = nrows;
#pragma omp parallel for schedule(static)
    for (long r = 0; r < nr; ++r) {
      double sum = 0.0;
      for (int k = rs[r]; k < rs[r + 1]; ++k) sum += av[k] * in[cl[k]];
      wp[r] = sum;
    }
    // Sum over the process row, then swap with the transpose rank.
    double* part = wp;
    long len = nrows;
    int step0 = 0;
    if (!g.square) {
      // R_pr is C_{2pr} followed by C_{2pr+1}: keep half (pc & 1), send the other.
      long half0 = block_start(g.na, g.npcols, 2 * g.pr + 1) - g.rstart;
      int h = g.pc & 1;
      long keep_off = h ? half0 : 0, keep_len = h ? nrows - half0 : half0;
      long give_off = h ? 0 : half0, give_len = h ? half0 : nrows - half0;
      MPI_Request req;
      MPI_Irecv(tmp.data(), int(keep_len), MPI_DOUBLE, g.row_partner[0], 100, MPI_COMM_WORLD, &req);
      MPI_Send(wp + give_off, int(give_len), MPI_DOUBLE, g.row_partner[0], 100, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (long i = 0; i < keep_len; ++i) wp[keep_off + i] += tmp[size_t(i)];
      part = wp + keep_off;
      len = keep_len;
      step0 = 1;
    }
    for (int s = step0; s < g.l2npcols; ++s) {
      MPI_Request req;
      MPI_Irecv(tmp.data(), int(len), MPI_DOUBLE, g.row_partner[s], 100 + s, MPI_COMM_WORLD, &req);
      MPI_Send(part, int(len), MPI_DOUBLE, g.row_partner[s], 100 + s, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (long i = 0; i < len; ++i) part[i] += tmp[size_t(i)];
    }
    if (g.transpose == g.rank) {
      std::copy(part, part + len, out);
    } else {
      MPI_Request req;
      MPI_Irecv(out, int(ncols), MPI_DOUBLE, g.transpose, 200, MPI_COMM_WORLD, &req);
      MPI_Send(part, int(len), MPI_DOUBLE, g.transpose, 200, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
  }

  double dot(const double* x, const double* y) {
    double s = 0.0;
    const long n = ncols;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    double t;
    row_sum(g, &s, 1, &t);
    return s;
  }

  // 25 CG steps on A z = x; returns |x - A z|.
  double conj_grad(const double* x, double* z, double* p, double* q, double* r) {
    const long n = ncols;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      q[i] = 0.0;
      z[i] = 0.0;
      r[i] = x[i];
      p[i] = x[i];
    }
    double rho = dot(r, r);
    for (int step = 0; step < kCgSteps; ++step) {
      matvec(p, q);
      double alpha = rho / dot(p, q);
      double rho0 = rho;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; ++i) {
        z[i] += alpha * p[i];
        r[i] -= alpha * q[i];
      }
      rho = dot(r, r);
      double beta = rho / rho0;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    }
    matvec(z, r);
    double s = 0.0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long i = 0; i < n; ++i) {
      double d = x[i] - r[i];
      s += d * d;
    }
    double t;
    row_sum(g, &s, 1, &t);
    return std::sqrt(s);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "CG", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  Grid g;
  g.rank = st.rank;
  g.nprocs = st.nprocs;
  const CgClass* c = npb::find_class(kClasses, opt.cls);
  if (!c) return npb::unsupported_class("npb-cg", opt.cls);
  if (!npb::is_power_of_two(g.nprocs))
    return npb::usage_error("npb-cg: " + std::to_string(g.nprocs) + " ranks not allowed: need a power of two");

  const int l2 = npb::ilog2(g.nprocs);
  g.npcols = 1 << ((l2 + 1) / 2);
  g.nprows = 1 << (l2 / 2);
  g.l2npcols = npb::ilog2(g.npcols);
  g.square = g.npcols == g.nprows;
  g.pr = g.rank / g.npcols;
  g.pc = g.rank % g.npcols;
  g.na = opt.weak ? c->na * g.nprocs : c->na;
  if (g.na / g.npcols < 2)
    return npb::usage_error("npb-cg: " + std::to_string(g.nprocs) + " ranks not allowed for class " +
                            std::string(1, c->cls) + ": too many columns of ranks");
  g.rstart = block_start(g.na, g.nprows, g.pr);
  g.rend = block_start(g.na, g.nprows, g.pr + 1);
  g.cstart = block_start(g.na, g.npcols, g.pc);
  g.cend = block_start(g.na, g.npcols, g.pc + 1);
  for (int s = 0; s < g.l2npcols; ++s) g.row_partner[s] = g.pr * g.npcols + (g.pc ^ (1 << s));
  if (g.square)
    g.transpose = g.pc * g.npcols + g.pr;
  else
    g.transpose = (g.pc / 2) * g.npcols + (2 * g.pr + (g.pc & 1));

  if (g.rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - CG Benchmark\n\n");
    std::printf(" Size:  %ld  (class %c%s)\n", g.na, c->cls, opt.weak ? ", weak scaling" : "");
    std::printf(" Iterations:  %d\n", c->niter);
    std::printf(" Number of processes:  %d  (grid %d x %d)\n\n", g.nprocs, g.nprows, g.npcols);
  }

  Matrix a = make_matrix(g, *c);
  Solver solver(g, a);
  const long n = solver.ncols;
  const size_t un = size_t(n);
  std::vector<double> x(un, 1.0), z(un), p(un), q(un), r(un);

  // One untimed outer iteration touches all data; then start over from x = 1.
  solver.conj_grad(x.data(), z.data(), p.data(), q.data(), r.data());
  std::fill(x.begin(), x.end(), 1.0);

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  double zeta = 0.0;
  for (int it = 1; it <= c->niter; ++it) {
    double rnorm = solver.conj_grad(x.data(), z.data(), p.data(), q.data(), r.data());
    double norms[2] = {0.0, 0.0}, tmp[2];
    for (long i = 0; i < n; ++i) {
      norms[0] += x[size_t(i)] * z[size_t(i)];
      norms[1] += z[size_t(i)] * z[size_t(i)];
    }
    row_sum(g, norms, 2, tmp);
    double inv = 1.0 / std::sqrt(norms[1]);
    zeta = c->shift + 1.0 / norms[0];
    if (g.rank == 0) {
      if (it == 1) std::printf("   iteration           ||r||                 zeta\n");
      std::printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    }
    for (long i = 0; i < n; ++i) x[size_t(i)] = inv * z[size_t(i)];
  }
  double elapsed = MPI_Wtime() - t0, tmax = 0.0;
  MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  int code = npb::kExitOk;
  if (g.rank == 0) {
    npb::Verdict v;
    if (opt.weak) {
      std::printf(" Weak scaling: zeta = %20.13e has no reference value\n", zeta);
      v = npb::Verdict::NotApplicable;
    } else {
      v = npb::compare_value("zeta", zeta, c->zeta, kEpsilon) ? npb::Verdict::Successful
                                                               : npb::Verdict::Unsuccessful;
    }
    const double nz = double(c->nonzer) * double(c->nonzer + 1);
    const double flops = 2.0 * c->niter * double(g.na) * (3.0 + nz + kCgSteps * (5.0 + nz) + 3.0);
    npb::Report rep;
    rep.name = "CG";
    rep.cls = c->cls;
    rep.size = std::to_string(g.na);
    rep.iterations = c->niter;
    rep.seconds = tmax;
    rep.nprocs = g.nprocs;
    rep.threads = npb::threads_in_use();
    rep.mops_total = tmax > 0 ? flops / tmax / 1.0e6 : 0.0;
    rep.optype = "floating point";
    rep.verdict = v;
    rep.weak = opt.weak;
    npb::print_report(rep);
    code = npb::exit_code(v);
  }
  return npb::finish(code);
}
