// NPB IS: integer sort (bucket sort of random keys), MPI version for tilempi.
//
// Specification: NPB 1 report (RNR-94-007), kernel IS, and the NPB 2/3
// reports. Class parameters and the partial-verification table (test key
// indexes, expected ranks and their per-class shift with the iteration) are
// from the "IS" section of npb/VERIFICATION.md in the project notes.
//
// Communication per iteration, as in the reference MPI version:
//   MPI_Allreduce of the global bucket sizes (plus the partial-verification
//   test keys), MPI_Alltoall of the send counts, MPI_Alltoallv of the keys;
//   MPI_Reduce of the verification counters and times at the end, and one
//   MPI_Irecv/MPI_Send per neighbour pair for the final sort-order check.
//
// Strong scaling (default): the official class; TOTAL keys over all ranks.
// Weak scaling (--weak): every rank ranks the class's TOTAL keys, so the job
// ranks TOTAL * nprocs keys (same max key and bucket count). The official
// test ranks do not apply; the full sort-order check still runs.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/npb.hpp"

namespace {

constexpr int kIterations = 10;
constexpr int kTests = 5;

struct IsClass {
  char cls;
  int log_total_keys, log_max_key, log_buckets;
  int test_index[kTests];
  int test_rank[kTests];
};

// VERIFICATION.md, "IS": total keys, max key, buckets, test indexes and ranks.
const IsClass kClasses[] = {
    {'S', 16, 11, 9, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {'W', 20, 16, 10, {357773, 934767, 875723, 898999, 404505}, {1249, 11698, 1039987, 1043896, 1048018}},
    {'A', 23, 19, 10, {2112377, 662041, 5336171, 3642833, 4250760}, {104, 17523, 123928, 8288932, 8388264}},
    {'B', 25, 21, 10, {41869, 812306, 5102857, 18232239, 26860214}, {33422937, 10244, 59149, 33135281, 99}},
};

// Expected rank of test key i in iteration it (VERIFICATION.md: the listed
// rank shifted by the iteration, differently per class; i counts from 0).
long expected_rank(const IsClass& c, int i, int it) {
  long r = c.test_rank[i];
  switch (c.cls) {
    case 'S': return i <= 2 ? r + it : r - it;
    case 'W': return i < 2 ? r + (it - 2) : r - it;
    case 'A': return i <= 2 ? r + (it - 1) : r - (it - 1);
    case 'B': return (i == 1 || i == 2 || i == 4) ? r + it : r - it;
  }
  return -1;
}

const char* kExtra =
    "Classes S, W, A, B. Ranks: a power of two, at most the number of buckets\n"
    "(512 for class S, 1024 otherwise).\n"
    "--weak: every rank ranks the class's total key count (job total = class keys x ranks).\n";

struct State {
  const IsClass* c = nullptr;
  int rank = 0, nprocs = 1;
  long total_keys = 0;  // over all ranks
  int local_keys = 0;
  int max_key = 0, nbuckets = 0, shift = 0;
  bool weak = false;
  std::vector<int> keys;          // this rank's keys (global indexes rank*local_keys ...)
  std::vector<int> bucket_sorted; // keys grouped by bucket, for the exchange
  std::vector<int> recv_keys;     // keys of this rank's key range after the exchange
  std::vector<int> key_count;     // cumulative counts over the key range
  std::vector<int> bucket_local;  // local bucket sizes (+ test-key slots)
  std::vector<int> bucket_total;  // global bucket sizes (+ test keys)
  std::vector<int> bucket_ptr;
  std::vector<int> send_count, send_displ, recv_count, recv_displ;
  int min_key = 0, max_key_mine = -1;  // this rank's key range [min_key, max_key_mine]
  long lesser_keys = 0;                 // keys below min_key over all ranks
  int received = 0;
  int passed = 0;
};

// Keys: each is MAX_KEY/4 times the sum of four consecutive random numbers
// (NPB 1, IS); rank r generates the keys of global indexes
// [r*local_keys, (r+1)*local_keys), i.e. skips 4*r*local_keys numbers.
void generate_keys(State& s) {
  const double k = double(s.max_key / 4);
  const uint64_t start = npb::skip46(npb::kSeedDefault, 4ULL * uint64_t(s.rank) * uint64_t(s.local_keys));
  const int n = s.local_keys;
#pragma omp parallel
  {
    int nt = npb::team_size(), t = npb::thread_num();
    int lo = int(long(n) * t / nt), hi = int(long(n) * (t + 1) / nt);
    uint64_t x = npb::skip46(start, 4ULL * uint64_t(lo));
    for (int i = lo; i < hi; ++i) {
      double v = npb::randlc(x, npb::kA);
      v += npb::randlc(x, npb::kA);
      v += npb::randlc(x, npb::kA);
      v += npb::randlc(x, npb::kA);
      s.keys[i] = int(k * v);
    }
  }
}

void rank_keys(State& s, int iteration, bool check) {
  const int nb = s.nbuckets;
  // The keys at global indexes `iteration` and `iteration + 10` are set to
  // iteration and max_key - iteration before ranking (VERIFICATION.md).
  if (s.rank == 0) {
    s.keys[iteration] = iteration;
    s.keys[iteration + kIterations] = s.max_key - iteration;
  }
  // Local bucket sizes; the test-key slots carry the keys at the test
  // indexes from their owners (others contribute 0), so the same Allreduce
  // tells every rank the values to verify.
  std::fill(s.bucket_local.begin(), s.bucket_local.end(), 0);
  for (int i = 0; i < s.local_keys; ++i) s.bucket_local[s.keys[i] >> s.shift]++;
  for (int t = 0; t < kTests; ++t) {
    long idx = s.c->test_index[t];
    if (!s.weak && idx / s.local_keys == s.rank) s.bucket_local[nb + t] = s.keys[idx % s.local_keys];
  }
  // Group the keys by bucket.
  s.bucket_ptr[0] = 0;
  for (int b = 1; b < nb; ++b) s.bucket_ptr[b] = s.bucket_ptr[b - 1] + s.bucket_local[b - 1];
  for (int i = 0; i < s.local_keys; ++i) {
    int key = s.keys[i];
    s.bucket_sorted[s.bucket_ptr[key >> s.shift]++] = key;
  }
  MPI_Allreduce(s.bucket_local.data(), s.bucket_total.data(), nb + kTests, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  // Give every rank a contiguous range of buckets holding about
  // total/nprocs keys; every rank gets at least one bucket.
  std::vector<int> first_bucket(s.nprocs + 1, nb);
  {
    int p = 0;
    long cum = 0;
    first_bucket[0] = 0;
    for (int b = 0; b < nb; ++b) {
      cum += s.bucket_total[b];
      bool left_must_advance = (nb - 1 - b) <= (s.nprocs - 1 - p);
      if (p < s.nprocs - 1 && (cum * s.nprocs >= long(p + 1) * s.total_keys || left_must_advance)) {
        first_bucket[++p] = b + 1;
      }
    }
  }
  // Send counts per destination: keys of the destination's buckets.
  for (int d = 0; d < s.nprocs; ++d) {
    int cnt = 0;
    for (int b = first_bucket[d]; b < first_bucket[d + 1]; ++b) cnt += s.bucket_local[b];
    s.send_count[d] = cnt;
  }
  s.send_displ[0] = 0;
  for (int d = 1; d < s.nprocs; ++d) s.send_displ[d] = s.send_displ[d - 1] + s.send_count[d - 1];

  MPI_Alltoall(s.send_count.data(), 1, MPI_INT, s.recv_count.data(), 1, MPI_INT, MPI_COMM_WORLD);
  s.recv_displ[0] = 0;
  for (int d = 1; d < s.nprocs; ++d) s.recv_displ[d] = s.recv_displ[d - 1] + s.recv_count[d - 1];
  s.received = s.recv_displ[s.nprocs - 1] + s.recv_count[s.nprocs - 1];
  if (int(s.recv_keys.size()) < s.received) s.recv_keys.resize(size_t(s.received));
  MPI_Alltoallv(s.bucket_sorted.data(), s.send_count.data(), s.send_displ.data(), MPI_INT, s.recv_keys.data(),
                s.recv_count.data(), s.recv_displ.data(), MPI_INT, MPI_COMM_WORLD);

  // Rank the received keys: cumulative counts over this rank's key range.
  s.min_key = first_bucket[s.rank] << s.shift;
  s.max_key_mine = (first_bucket[s.rank + 1] << s.shift) - 1;
  s.lesser_keys = 0;
  for (int b = 0; b < first_bucket[s.rank]; ++b) s.lesser_keys += s.bucket_total[b];
  const int range = s.max_key_mine - s.min_key + 1;
  if (int(s.key_count.size()) < range) s.key_count.resize(size_t(range));
  std::fill(s.key_count.begin(), s.key_count.begin() + range, 0);
  for (int i = 0; i < s.received; ++i) s.key_count[s.recv_keys[i] - s.min_key]++;
  for (int k = 1; k < range; ++k) s.key_count[k] += s.key_count[k - 1];

  // Partial verification: the rank of a test key is the number of keys
  // smaller than it over the whole job.
  if (check && !s.weak) {
    for (int t = 0; t < kTests; ++t) {
      int k = s.bucket_total[nb + t];
      if (k < s.min_key || k > s.max_key_mine) continue;
      long r = s.lesser_keys + (k > s.min_key ? s.key_count[k - 1 - s.min_key] : 0);
      long want = expected_rank(*s.c, t, iteration);
      if (r == want) {
        s.passed++;
      } else {
        std::printf(" Failed partial verification: iteration %d, test key %d: rank %ld, expected %ld\n",
                    iteration, t, r, want);
      }
    }
  }
}

// Full verification: sort this rank's keys with the counts of the last
// ranking, check the order locally and across neighbouring ranks.
int full_verify(State& s) {
  const int range = s.max_key_mine - s.min_key + 1;
  std::vector<int> sorted(size_t(std::max(s.received, 1)));
  std::vector<int> cnt(s.key_count.begin(), s.key_count.begin() + range);
  for (int i = s.received - 1; i >= 0; --i) {
    int k = s.recv_keys[i];
    sorted[size_t(--cnt[k - s.min_key])] = k;
  }
  int errors = 0;
#pragma omp parallel for reduction(+ : errors)
  for (int i = 1; i < s.received; ++i)
    if (sorted[size_t(i - 1)] > sorted[size_t(i)]) errors++;
  // The largest key of the left neighbour must not exceed our smallest one.
  // A rank without keys forwards what it received.
  int left_max = INT_MIN;
  MPI_Request req;
  const bool has_left = s.rank > 0, has_right = s.rank < s.nprocs - 1;
  if (has_left) MPI_Irecv(&left_max, 1, MPI_INT, s.rank - 1, 1000, MPI_COMM_WORLD, &req);
  if (s.received > 0) {
    if (has_right) MPI_Send(&sorted[size_t(s.received - 1)], 1, MPI_INT, s.rank + 1, 1000, MPI_COMM_WORLD);
    if (has_left) MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (has_left && left_max != INT_MIN && left_max > sorted[0]) errors++;
  } else {
    if (has_left) MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (has_right) MPI_Send(&left_max, 1, MPI_INT, s.rank + 1, 1000, MPI_COMM_WORLD);
  }
  // Every key must have arrived (the total fits an int: checked at start).
  int mine = s.received, all = 0;
  MPI_Reduce(&mine, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  int all_errors = 0;
  MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s.rank == 0) {
    if (all != s.total_keys) {
      std::printf(" Full verification: %d keys after the exchange, expected %ld\n", all, s.total_keys);
      return 0;
    }
    if (all_errors) std::printf(" Full verification: %d keys out of order\n", all_errors);
    return all_errors == 0 ? 1 : 0;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const npb::Start st = npb::start(&argc, &argv, "IS", kExtra);
  if (st.done) return st.exit_code;
  const npb::Options& opt = st.opt;
  State s;
  s.rank = st.rank;
  s.nprocs = st.nprocs;
  s.c = npb::find_class(kClasses, opt.cls);
  if (!s.c) return npb::unsupported_class("npb-is", opt.cls);
  s.weak = opt.weak;
  s.nbuckets = 1 << s.c->log_buckets;
  s.max_key = 1 << s.c->log_max_key;
  s.shift = s.c->log_max_key - s.c->log_buckets;
  if (!npb::is_power_of_two(s.nprocs) || s.nprocs > s.nbuckets)
    return npb::usage_error("npb-is: " + std::to_string(s.nprocs) + " ranks not allowed for class " +
                            std::string(1, s.c->cls) + ": need a power of two <= " + std::to_string(s.nbuckets));
  long class_keys = 1L << s.c->log_total_keys;
  s.total_keys = s.weak ? class_keys * s.nprocs : class_keys;
  if (s.total_keys > INT_MAX)
    return npb::usage_error("npb-is: " + std::to_string(s.total_keys) + " keys exceed the int key counts");
  s.local_keys = int(s.total_keys / s.nprocs);

  if (s.rank == 0) {
    std::printf("\n\n NAS Parallel Benchmarks (tilempi npb) - IS Benchmark\n\n");
    std::printf(" Size:  %ld  (class %c%s)\n", s.total_keys, s.c->cls, s.weak ? ", weak scaling" : "");
    std::printf(" Iterations:  %d\n", kIterations);
    std::printf(" Number of processes:  %d\n\n", s.nprocs);
  }

  s.keys.resize(size_t(s.local_keys));
  s.bucket_sorted.resize(size_t(s.local_keys));
  s.recv_keys.resize(size_t(s.local_keys));
  s.bucket_local.resize(size_t(s.nbuckets + kTests));
  s.bucket_total.resize(size_t(s.nbuckets + kTests));
  s.bucket_ptr.resize(size_t(s.nbuckets));
  s.send_count.resize(size_t(s.nprocs));
  s.send_displ.resize(size_t(s.nprocs));
  s.recv_count.resize(size_t(s.nprocs));
  s.recv_displ.resize(size_t(s.nprocs));

  generate_keys(s);
  rank_keys(s, 1, false);  // one untimed iteration touches all data

  s.passed = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 1; it <= kIterations; ++it) {
    if (s.rank == 0 && s.c->cls != 'S') std::printf("        %d\n", it);
    rank_keys(s, it, true);
  }
  double elapsed = MPI_Wtime() - t0, tmax = 0.0;
  MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  int sorted_ok = full_verify(s);
  int passed_all = 0;
  MPI_Reduce(&s.passed, &passed_all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);

  int code = npb::kExitOk;
  if (s.rank == 0) {
    npb::Verdict v;
    if (s.weak) {
      std::printf(" Sort order check (weak scaling): %s\n", sorted_ok ? "passed" : "FAILED");
      v = sorted_ok ? npb::Verdict::NotApplicable : npb::Verdict::Unsuccessful;
    } else {
      int want = kTests * kIterations + 1;
      int got = passed_all + sorted_ok;
      std::printf(" Partial verification: %d of %d test key ranks correct; full verification (sort order) %s\n",
                  passed_all, kTests * kIterations, sorted_ok ? "passed" : "FAILED");
      std::printf(" Verification checks: computed = %d  reference = %d  error = %d\n", got, want, want - got);
      v = got == want ? npb::Verdict::Successful : npb::Verdict::Unsuccessful;
    }
    npb::Report r;
    r.name = "IS";
    r.cls = s.c->cls;
    r.size = std::to_string(s.total_keys);
    r.iterations = kIterations;
    r.seconds = tmax;
    r.nprocs = s.nprocs;
    r.threads = npb::threads_in_use();
    r.mops_total = tmax > 0 ? double(kIterations) * double(s.total_keys) / tmax / 1.0e6 : 0.0;
    r.optype = "keys ranked";
    r.verdict = v;
    r.weak = s.weak;
    npb::print_report(r);
    code = npb::exit_code(v);
  }
  return npb::finish(code);
}
