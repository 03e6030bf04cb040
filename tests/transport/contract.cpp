// The transport contract (transport.h), checked through the interface alone, so that the same
// program runs on every backend, every process model and every rank placement the launcher
// offers: tilempirun -n N --transport T [...] transport_contract [--expect-coords X,Y/X,Y/...]
//
// Checks, in order (each rank exits non-zero naming the first broken promise):
//   topology  every rank has a coordinate inside width x height, no two share one, hops() is a
//             metric (zero to itself, symmetric); with --expect-coords, rank r sits at the r-th pair
//   order     every rank sends every rank (itself included) messages of many sizes, across the
//             eager limit the backend declares; arrivals from one source come in send order, with
//             their envelope, size and content
//   truncate  a fetch of fewer bytes than the arrival takes the prefix and consumes the arrival:
//             the next message from the same source arrives whole
//   sync      a synchronous send is not done before its receiver has fetched it
//   time      wtime never goes back, wtick is positive; with a global clock a message is never
//             received before the time it was sent
//   finished  where take_finished hands over finished operations (the sim inside a blocking wait
//             of a library call), it hands over only pending sends, each once, and each then
//             answers done; waiting by it and by send_done together finishes every send
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tilempi/transport/transport.h"

using namespace tilempi::transport;

namespace {

int g_rank = -1;

#define EXPECT_CONTRACT(cond, what)                                                                     \
  do {                                                                                                  \
    if (!(cond)) {                                                                                      \
      std::fprintf(stderr, "rank %d: transport contract broken (%s): %s [%s:%d]\n", g_rank, what, #cond, \
                   __FILE__, __LINE__);                                                                 \
      std::fflush(stderr);                                                                              \
      std::exit(3);                                                                                     \
    }                                                                                                   \
  } while (0)

Envelope env_of(std::uint64_t tag, std::uint64_t seq, std::uint64_t extra = 0) {
  return Envelope{{tag, seq, ~seq, extra}};
}
std::uint8_t byte_of(int src, std::uint64_t seq, std::size_t i) {
  return static_cast<std::uint8_t>((static_cast<std::uint64_t>(src) * 131 + seq * 7 + i * 13 + (i >> 8)) & 0xff);
}
void fill(std::vector<std::uint8_t>& b, int src, std::uint64_t seq) {
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = byte_of(src, seq, i);
}
bool intact(const std::vector<std::uint8_t>& b, std::size_t n, int src, std::uint64_t seq) {
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] != byte_of(src, seq, i)) return false;
  return true;
}

void wait_send(Transport& t, OpId id) {
  if (id == kDone) return;
  t.begin_blocking_wait();
  while (!t.send_done(id)) t.wait(1000000);
  t.end_blocking_wait();
}
void wait_fetch(Transport& t, OpId id) {
  if (id == kDone) return;
  t.begin_blocking_wait();
  while (!t.fetch_done(id)) t.wait(1000000);
  t.end_blocking_wait();
}
/// The next arrival; arrivals of other tags are kept in `held` for later (poll order is kept).
Arrival next(Transport& t, std::uint64_t tag, std::vector<Arrival>& held) {
  for (std::size_t i = 0; i < held.size(); ++i)
    if (held[i].envelope.word[0] == tag) {
      Arrival a = held[i];
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
      return a;
    }
  for (;;) {
    Arrival a;
    t.begin_blocking_wait();
    while (!t.poll(a)) t.wait(1000000);
    t.end_blocking_wait();
    if (a.envelope.word[0] == tag) return a;
    held.push_back(a);
  }
}

/// A barrier from messages alone (the transport has none): everyone reports to rank 0, which
/// answers everyone.
void barrier(Transport& t, std::uint64_t tag, std::vector<Arrival>& held) {
  const int n = t.size();
  if (t.rank() == 0) {
    for (int i = 1; i < n; ++i) wait_fetch(t, t.fetch(next(t, tag, held), nullptr, 0));
    for (int i = 1; i < n; ++i) wait_send(t, t.send(i, env_of(tag, 0), nullptr, 0, SendMode::Standard));
  } else {
    wait_send(t, t.send(0, env_of(tag, 0), nullptr, 0, SendMode::Standard));
    wait_fetch(t, t.fetch(next(t, tag, held), nullptr, 0));
  }
}

void check_topology(Transport& t, const std::vector<Coord>& expect) {
  const RankPlacement& topo = t.rank_placement();
  const int n = t.size();
  EXPECT_CONTRACT(static_cast<int>(topo.coord.size()) == n, "topology");
  std::set<std::pair<int, int>> seen;
  for (int r = 0; r < n; ++r) {
    const Coord c = topo.coord[static_cast<std::size_t>(r)];
    EXPECT_CONTRACT(c.x >= 0 && c.x < topo.width && c.y >= 0 && c.y < topo.height, "topology");
    EXPECT_CONTRACT(seen.insert({c.x, c.y}).second, "topology: two ranks on one tile");
    EXPECT_CONTRACT(topo.hops(r, r) == 0, "topology");
    for (int s = 0; s < n; ++s) EXPECT_CONTRACT(topo.hops(r, s) == topo.hops(s, r), "topology");
  }
  if (!expect.empty()) {
    EXPECT_CONTRACT(static_cast<int>(expect.size()) == n, "topology: --expect-coords names every rank");
    for (int r = 0; r < n; ++r) EXPECT_CONTRACT(topo.coord[static_cast<std::size_t>(r)] == expect[static_cast<std::size_t>(r)],
                                                "topology: the rank sits where the placement put it");
  }
}

void check_order(Transport& t, std::vector<Arrival>& held) {
  constexpr std::uint64_t kTag = 1;
  const int n = t.size(), me = t.rank();
  std::vector<std::size_t> sizes = {0, 1, 7, 8, 63, 64, 65, 1000, 4096, 65536 + 3};
  if (std::size_t e = t.capabilities().eager_limit; e > 0 && e < (8u << 20)) {
    sizes.push_back(e);
    sizes.push_back(e + 1);
  }
  // Sends are started in order and waited for at the end: several are in flight at once.
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<OpId> ops;
  std::uint64_t seq = 0;
  for (std::size_t s : sizes)
    for (int d = 0; d < n; ++d) {
      out.emplace_back(s);
      fill(out.back(), me, seq);
      ops.push_back(t.send(d, env_of(kTag, seq, static_cast<std::uint64_t>(d)), out.back().data(), s, SendMode::Standard));
      ++seq;
    }
  // From each source: sizes.size() messages, in its send order (seq grows by n per size).
  std::vector<std::size_t> got(static_cast<std::size_t>(n), 0);
  std::vector<std::uint8_t> in;
  for (std::size_t k = 0; k < sizes.size() * static_cast<std::size_t>(n); ++k) {
    Arrival a = next(t, kTag, held);
    EXPECT_CONTRACT(a.source >= 0 && a.source < n, "order: source");
    const std::size_t i = got[static_cast<std::size_t>(a.source)]++;
    EXPECT_CONTRACT(i < sizes.size(), "order: more messages than were sent");
    const std::uint64_t want_seq = i * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(me);
    EXPECT_CONTRACT(a.envelope.word[1] == want_seq, "order: arrivals from one source in send order");
    EXPECT_CONTRACT(a.envelope.word[2] == ~want_seq && a.envelope.word[3] == static_cast<std::uint64_t>(me),
                    "order: the envelope arrives as written");
    EXPECT_CONTRACT(a.size == sizes[i], "order: size");
    in.assign(a.size, 0);
    wait_fetch(t, t.fetch(a, in.data(), a.size));
    EXPECT_CONTRACT(intact(in, a.size, a.source, want_seq), "order: content");
  }
  for (OpId op : ops) wait_send(t, op);
}

void check_truncate(Transport& t, std::vector<Arrival>& held) {
  constexpr std::uint64_t kTag = 2;
  const int n = t.size(), me = t.rank();
  const int to = (me + 1) % n, from = (me - 1 + n) % n;
  std::vector<std::uint8_t> a(5000), b(300);
  fill(a, me, 1);
  fill(b, me, 2);
  const OpId s1 = t.send(to, env_of(kTag, 1), a.data(), a.size(), SendMode::Standard);
  const OpId s2 = t.send(to, env_of(kTag, 2), b.data(), b.size(), SendMode::Standard);
  std::vector<std::uint8_t> in(5000, 0);
  Arrival first = next(t, kTag, held);
  EXPECT_CONTRACT(first.source == from && first.envelope.word[1] == 1 && first.size == 5000, "truncate");
  wait_fetch(t, t.fetch(first, in.data(), 100));
  EXPECT_CONTRACT(intact(in, 100, from, 1), "truncate: the prefix arrives");
  EXPECT_CONTRACT(in[100] == 0, "truncate: nothing past the fetched length is written");
  Arrival second = next(t, kTag, held);
  EXPECT_CONTRACT(second.source == from && second.envelope.word[1] == 2 && second.size == 300,
                  "truncate: the truncated arrival is consumed, the next one follows whole");
  wait_fetch(t, t.fetch(second, in.data(), 300));
  EXPECT_CONTRACT(intact(in, 300, from, 2), "truncate");
  wait_send(t, s1);
  wait_send(t, s2);
}

void check_sync(Transport& t, std::vector<Arrival>& held) {
  constexpr std::uint64_t kData = 3, kGo = 4;
  const int n = t.size(), me = t.rank();
  if (n < 2 || me > 1) return;
  std::vector<std::uint8_t> buf(256);
  if (me == 0) {
    fill(buf, 0, 7);
    const OpId op = t.send(1, env_of(kData, 7), buf.data(), buf.size(), SendMode::Synchronous);
    // Rank 1 fetches only after the go-ahead, so no amount of progress may complete the send.
    for (int i = 0; i < 100; ++i) {
      t.progress();
      EXPECT_CONTRACT(op != kDone && !t.send_done(op), "sync: done before the receiver fetched");
    }
    wait_send(t, t.send(1, env_of(kGo, 0), nullptr, 0, SendMode::Standard));
    wait_send(t, op);
  } else {
    Arrival go = next(t, kGo, held);
    Arrival data = next(t, kData, held);  // arrived before the go-ahead, not yet fetched
    wait_fetch(t, t.fetch(go, nullptr, 0));
    wait_fetch(t, t.fetch(data, buf.data(), buf.size()));
    EXPECT_CONTRACT(intact(buf, buf.size(), 0, 7), "sync: content");
  }
}

void check_time(Transport& t, std::vector<Arrival>& held) {
  constexpr std::uint64_t kTag = 5;
  EXPECT_CONTRACT(t.wtick() > 0, "time: wtick");
  double last = t.wtime();
  for (int i = 0; i < 1000; ++i) {
    const double now = t.wtime();
    EXPECT_CONTRACT(now >= last, "time: wtime never goes back");
    last = now;
  }
  const Capabilities caps = t.capabilities();
  EXPECT_CONTRACT(!caps.virtual_time || caps.global_clock, "time: a virtual clock is one clock");
  if (!caps.global_clock) return;
  const int n = t.size(), me = t.rank();
  double sent = t.wtime();
  std::uint64_t bits = 0;
  std::memcpy(&bits, &sent, sizeof bits);
  const OpId op = t.send((me + 1) % n, env_of(kTag, bits), nullptr, 0, SendMode::Standard);
  Arrival a = next(t, kTag, held);
  wait_fetch(t, t.fetch(a, nullptr, 0));
  std::memcpy(&sent, &a.envelope.word[1], sizeof sent);
  EXPECT_CONTRACT(t.wtime() >= sent, "time: received before it was sent on a global clock");
  wait_send(t, op);
}

void check_finished(Transport& t, std::vector<Arrival>& held) {
  constexpr std::uint64_t kTag = 6;
  constexpr int kSends = 6;
  const int n = t.size(), me = t.rank();
  // Each send's buffer stays untouched until the send is done.
  std::vector<std::vector<std::uint8_t>> out(kSends, std::vector<std::uint8_t>(256));
  std::vector<std::uint8_t> buf(256);
  std::set<OpId> pending;
  // Synchronous: pending until the receiver (the next rank) has fetched them.
  for (int i = 0; i < kSends; ++i) {
    const std::uint64_t seq = 50 + static_cast<std::uint64_t>(i);
    fill(out[static_cast<std::size_t>(i)], me, seq);
    const OpId op = t.send((me + 1) % n, env_of(kTag, seq), out[static_cast<std::size_t>(i)].data(), buf.size(),
                           SendMode::Synchronous);
    if (op != kDone) pending.insert(op);
  }
  for (int i = 0; i < kSends; ++i) {
    Arrival a = next(t, kTag, held);
    wait_fetch(t, t.fetch(a, buf.data(), buf.size()));
    EXPECT_CONTRACT(intact(buf, buf.size(), (me + n - 1) % n, a.envelope.word[1]), "finished: content");
  }
  std::set<OpId> handed;
  std::vector<OpId> got;
  t.enter_library("contract");
  t.begin_blocking_wait();
  while (!pending.empty()) {
    got.clear();
    if (t.take_finished(got)) {
      for (const OpId id : got) {
        EXPECT_CONTRACT(handed.insert(id).second, "finished: handed over once");
        EXPECT_CONTRACT(pending.erase(id) == 1, "finished: only pending sends are handed over");
        EXPECT_CONTRACT(t.send_done(id), "finished: a handed-over send answers done");
      }
    } else {
      EXPECT_CONTRACT(got.empty(), "finished: nothing handed over without saying so");
    }
    for (auto it = pending.begin(); it != pending.end();) it = t.send_done(*it) ? pending.erase(it) : std::next(it);
    if (!pending.empty()) t.wait(1000000);
  }
  t.end_blocking_wait();
  t.leave_library();
}

std::vector<Coord> parse_coords(const char* s) {
  std::vector<Coord> v;
  while (*s) {
    Coord c;
    char* end = nullptr;
    c.x = static_cast<int>(std::strtol(s, &end, 10));
    if (*end != ',') break;
    c.y = static_cast<int>(std::strtol(end + 1, &end, 10));
    v.push_back(c);
    s = *end == '/' ? end + 1 : end;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Coord> expect;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--expect-coords") == 0 && i + 1 < argc) {
      expect = parse_coords(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: transport_contract [--expect-coords X,Y/X,Y/...]\n");
      return 2;
    }
  }
  auto t = connect_from_environment();
  g_rank = t->rank();
  std::vector<Arrival> held;
  check_topology(*t, expect);
  check_order(*t, held);
  barrier(*t, 100, held);
  check_truncate(*t, held);
  barrier(*t, 101, held);
  check_sync(*t, held);
  barrier(*t, 102, held);
  check_time(*t, held);
  barrier(*t, 103, held);
  check_finished(*t, held);
  barrier(*t, 104, held);
  EXPECT_CONTRACT(held.empty(), "no arrival left over");
  if (t->rank() == 0)
    std::printf("transport contract: %s, %d ranks, %dx%d mesh: topology, order, truncate, sync, time, finished hold\n", t->name(),
                t->size(), t->rank_placement().width, t->rank_placement().height);
  std::fflush(stdout);
  t->finalize();
  return 0;
}
