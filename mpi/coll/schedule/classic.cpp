// Schedules of the classic algorithms, whose partners depend on ranks only.
#include "schedule.h"

namespace tilempi::coll::schedule {

int pow2_ceil(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

Schedule pairwise(int n) {
  Schedule s;
  for (int k = 1; k < n; ++k) {
    Round r;
    for (int i = 0; i < n; ++i) r.push_back({i, pairwise_send_to(n, i, k)});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule xor_direct(int n) {
  Schedule s;
  const int p = pow2_ceil(n);
  for (int k = 1; k < p; ++k) {
    Round r;
    for (int i = 0; i < n; ++i)
      if ((i ^ k) < n) r.push_back({i, i ^ k});
    if (!r.empty()) s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule bruck(int n) {
  Schedule s;
  for (int d = 1; d < n; d <<= 1) {
    Round r;
    for (int i = 0; i < n; ++i) r.push_back({i, (i + d) % n});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule dissemination(int n) { return bruck(n); }

Schedule linear_turns(int n) {
  Schedule s;
  if (n < 2) return s;
  for (int t = 0; t < n; ++t) {
    Round r;
    for (int k = 1; k < n; ++k) r.push_back({t, (t + k) % n});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule scattered(int n) {
  Schedule s;
  if (n < 2) return s;
  Round r;
  for (int i = 0; i < n; ++i)
    for (int k = 1; k < n; ++k) r.push_back({i, (i + k) % n});
  s.rounds.push_back(std::move(r));
  return s;
}

Schedule binomial_bcast(int n, int root) {
  Schedule s;
  for (int mask = 1; mask < n; mask <<= 1) {
    Round r;
    for (int rel = 0; rel < mask && rel + mask < n; ++rel) r.push_back({(rel + root) % n, (rel + mask + root) % n});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule binomial_reduce(int n, int root) {
  Schedule b = binomial_bcast(n, root);
  Schedule s;
  for (auto it = b.rounds.rbegin(); it != b.rounds.rend(); ++it) {
    Round r;
    for (const Msg& m : *it) r.push_back({m.dst, m.src});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule linear_bcast(int n, int root) {
  Schedule s;
  if (n < 2) return s;
  Round r;
  for (int i = 0; i < n; ++i)
    if (i != root) r.push_back({root, i});
  s.rounds.push_back(std::move(r));
  return s;
}

Schedule linear_reduce(int n, int root) {
  Schedule s = linear_bcast(n, root);
  for (Round& r : s.rounds)
    for (Msg& m : r) std::swap(m.src, m.dst);
  return s;
}

Schedule recursive_doubling(int n) {
  Schedule s;
  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int rem = n - p;
  // Ranks below 2*rem pair up: the even one folds into the odd one, which takes part.
  auto real = [&](int v) { return v < rem ? 2 * v + 1 : v + rem; };
  if (rem > 0) {
    Round r;
    for (int i = 0; i < 2 * rem; i += 2) r.push_back({i, i + 1});
    s.rounds.push_back(std::move(r));
  }
  for (int mask = 1; mask < p; mask <<= 1) {
    Round r;
    for (int v = 0; v < p; ++v) r.push_back({real(v), real(v ^ mask)});
    s.rounds.push_back(std::move(r));
  }
  if (rem > 0) {
    Round r;
    for (int i = 0; i < 2 * rem; i += 2) r.push_back({i + 1, i});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

Schedule ring(int n, int rounds) {
  Schedule s;
  if (n < 2) return s;
  for (int k = 0; k < rounds; ++k) {
    Round r;
    for (int i = 0; i < n; ++i) r.push_back({i, (i + 1) % n});
    s.rounds.push_back(std::move(r));
  }
  return s;
}

}  // namespace tilempi::coll::schedule
