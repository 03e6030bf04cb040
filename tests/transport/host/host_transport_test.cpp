// The host transport through its interface, with real forked ranks of a real job.
#include <gtest/gtest.h>

#include <sched.h>
#include <time.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "host/platform.h"
#include "rank_harness.h"

namespace tilempi::transport::testing {
namespace {

// Arena streaming (no cross-memory attach) or the default.
RunOptions mode_options(bool cma, RunOptions o = {}) {
  o.env["TILEMPI_HOST_CMA"] = cma ? "1" : "0";
  return o;
}

TEST(HostTransport, PerSourceOrderAndContent) {
  constexpr int kMsgs = 1500;
  auto res = run_ranks(4, [](Transport& t) {
    if (t.rank() != 0) {
      std::vector<unsigned char> buf(300);
      for (int i = 0; i < kMsgs; ++i) {
        std::size_t len = static_cast<std::size_t>(i * 7) % 300;
        fill(buf.data(), len, t.rank(), i);
        send_blocking(t, 0, env_of(i, t.rank()), buf.data(), len);
      }
      return 0;
    }
    std::vector<int> next(t.size(), 0);
    std::vector<unsigned char> buf(300);
    for (int got = 0; got < kMsgs * (t.size() - 1); ++got) {
      Arrival a = next_arrival(t);
      RANK_CHECK(a.source > 0 && a.source < t.size());
      RANK_CHECK(a.envelope.word[0] == static_cast<std::uint64_t>(next[a.source]));
      RANK_CHECK(a.envelope.word[1] == static_cast<std::uint64_t>(a.source));
      RANK_CHECK(a.envelope.word[2] == ~a.envelope.word[0] && a.envelope.word[3] == 0x5eed);
      RANK_CHECK(a.size == static_cast<std::size_t>(next[a.source] * 7) % 300);
      RANK_CHECK(a.buffered);
      fetch_blocking(t, a, buf.data(), a.size);
      RANK_CHECK(check(buf.data(), a.size, a.source, next[a.source]));
      ++next[a.source];
    }
    return 0;
  });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// Payload lines of one lap become header lines of the next. Fill them with exactly the sequence
// words the next lap's headers will carry (a 2-rank job's ring has 4096 lines; 208-byte payloads
// make 4-line records), then send 1-line records over them: a receiver that trusted stale
// payload would see messages that were never sent.
TEST(HostTransport, StalePayloadNeverLooksLikeANewRecord) {
  constexpr std::uint64_t kRing = 4096, kRecord = 4, kPayload = kRecord * 64 - 48;
  auto res = run_ranks(2, [](Transport& t) {
    if (t.rank() == 0) {
      std::vector<std::uint64_t> words(kPayload / 8);
      for (std::uint64_t i = 0; i < kRing / kRecord; ++i) {
        for (std::uint64_t j = 0; j < words.size(); ++j) {
          const std::uint64_t line = i * kRecord + (48 + 8 * j) / 64;
          words[j] = (48 + 8 * j) % 64 == 0 ? line + kRing + 1 : j;
        }
        send_blocking(t, 1, env_of(i), words.data(), kPayload);
      }
      for (std::uint64_t m = 0; m < kRing; ++m) {
        if (m % 16 == 0) sched_yield();
        send_blocking(t, 1, env_of(100000 + m), &m, sizeof m);
      }
      return 0;
    }
    std::vector<std::uint64_t> in(kPayload / 8);
    for (std::uint64_t i = 0; i < kRing / kRecord; ++i) {
      Arrival a = next_arrival(t);
      RANK_CHECK(a.envelope.word[0] == i && a.size == kPayload);
      fetch_blocking(t, a, in.data(), kPayload);
    }
    for (std::uint64_t m = 0; m < kRing; ++m) {
      Arrival a = next_arrival(t);
      RANK_CHECK(a.envelope.word[0] == 100000 + m && a.size == sizeof m);
      std::uint64_t v = ~m;
      fetch_blocking(t, a, &v, sizeof v);
      RANK_CHECK(v == m);
    }
    return 0;
  });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// take_next(): only the next message from the source, only if it matches; the rest as poll().
TEST(HostTransport, TakeNextTakesOnlyTheNextMatchingMessageFromTheSource) {
  auto res = run_ranks(2, [](Transport& t) {
    if (t.rank() == 0) {
      const std::uint64_t a = 111, b = 222, c = 0x0123456789abcdefull;
      send_blocking(t, 1, env_of(1, 10), &a, sizeof a);
      send_blocking(t, 1, env_of(1, 20), &b, sizeof b);
      send_blocking(t, 1, env_of(1, 30), &c, sizeof c);
      send_blocking(t, 1, env_of(2, 0), nullptr, 0);  // (rank 1 is done)
      return 0;
    }
    EnvelopeMatch want20{{1, 20}, {~0ull, ~0ull}};
    EnvelopeMatch any1{{1, 0}, {~0ull, 0}};
    std::uint64_t v = 0;
    Envelope env{};
    std::size_t size = 0;
    while (t.take_next(0, want20, &v, sizeof v, &env, &size) == 0) t.wait(1000000);
    RANK_CHECK(t.take_next(0, want20, &v, sizeof v, &env, &size) == -1);  // 10 comes first
    Arrival first = next_arrival(t);
    RANK_CHECK(first.envelope.word[1] == 10);
    fetch_blocking(t, first, &v, sizeof v);
    RANK_CHECK(v == 111);
    // (20 was sent after 10, but it need not have arrived yet.)
    int got;
    while ((got = t.take_next(0, want20, &v, sizeof v, &env, &size)) == 0) t.wait(1000000);
    RANK_CHECK(got == 1);
    RANK_CHECK(v == 222 && size == sizeof v && env.word[1] == 20 && env.word[2] == ~std::uint64_t{1});
    v = 0;
    while ((got = t.take_next(0, any1, &v, 4, &env, &size)) == 0) t.wait(1000000);
    RANK_CHECK(got == 1);  // truncated to 4 bytes
    RANK_CHECK(size == 8 && env.word[1] == 30 && v == (0x0123456789abcdefull & 0xffffffffull));
    Arrival last = next_arrival(t);
    RANK_CHECK(last.envelope.word[0] == 2);
    fetch_blocking(t, last, nullptr, 0);
    RANK_CHECK(t.take_next(0, any1, &v, sizeof v, &env, &size) == 0);
    return 0;
  });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// The MPI layer's fast path of small messages (mpi/p2p_fast.h) relies on these two: send()
// completing at once only in order (never past a queued send, though the ring has room again),
// and a wait on one source's ring that gives up as soon as anything else needs the rank.
TEST(HostTransport, SendKeepsOrderBehindItsQueueAndWaitTakeNextYieldsToOtherWork) {
  auto res = run_ranks(2, [](Transport& t) {
    auto nap = [](long ms) {
      timespec ts{0, ms * 1000000};
      nanosleep(&ts, nullptr);
    };
    std::vector<unsigned char> kilo(1000, 0x5a);
    if (t.rank() == 0) {
      fetch_blocking(t, next_arrival(t), nullptr, 0);  // rank 1 waits on our ring now
      const std::uint64_t first = 0x1122334455667788ull;
      RANK_CHECK(t.send(1, env_of(1), &first, sizeof first, SendMode::Standard) == kDone);
      // Rank 1 sleeps now: fill the ring until a send must wait in the transport's queue.
      std::uint64_t n = 0;
      OpId queued;
      while ((queued = t.send(1, env_of(2, n), kilo.data(), kilo.size(), SendMode::Standard)) == kDone) ++n;
      RANK_CHECK(n > 0);
      nap(100);  // rank 1 drains the ring meanwhile: there is room, but the queued send is first
      const OpId next = t.send(1, env_of(2, n + 1), kilo.data(), kilo.size(), SendMode::Standard);
      RANK_CHECK(next != kDone);
      while (!t.send_done(queued) || !t.send_done(next)) t.wait(1000000);
      send_blocking(t, 1, env_of(3), nullptr, 0);
      return 0;
    }
    EnvelopeMatch first_only{{1, 0}, {~0ull, ~0ull}};
    std::uint64_t v = 0, mine = 7;
    Envelope env{};
    std::size_t size = 0;
    // A record in another ring (here the rank's own) ends the wait at once, taking nothing.
    send_blocking(t, 1, env_of(9), &mine, sizeof mine);
    RANK_CHECK(t.wait_take_next(0, first_only, &v, sizeof v, &env, &size) == 0);
    fetch_blocking(t, next_arrival(t), &v, sizeof v);
    RANK_CHECK(v == 7);
    send_blocking(t, 0, env_of(0), nullptr, 0);  // (rank 0 sends only now)
    int got;
    while ((got = t.wait_take_next(0, first_only, &v, sizeof v, &env, &size)) == 0) t.wait(1000000);
    RANK_CHECK(got == 1 && v == 0x1122334455667788ull && size == sizeof v && env.word[0] == 1);
    nap(50);
    std::vector<unsigned char> in(1000);
    for (std::uint64_t i = 0;; ++i) {
      Arrival a = next_arrival(t);
      if (a.envelope.word[0] == 3) break;
      RANK_CHECK(a.envelope.word[0] == 2 && a.envelope.word[1] == i && a.size == 1000);
      fetch_blocking(t, a, in.data(), in.size());
      RANK_CHECK(in == kilo);
    }
    return 0;
  });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

class HostTransportModes : public ::testing::TestWithParam<bool> {};

TEST_P(HostTransportModes, PayloadsFromZeroBytesTo64MiB) {
  const std::vector<std::size_t> sizes = {0,     1,     7,       8,       15,          16,         17,
                                          47,    48,    63,      64,      65,          1000,       4095,
                                          4096,  8191,  16384,   16385,   65536 + 13,  1 << 20,    (3 << 20) + 5,
                                          64u << 20};
  auto res = run_ranks(
      2,
      [&](Transport& t) {
        if (t.rank() == 0) {
          std::vector<unsigned char> buf;
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            buf.resize(sizes[i]);
            fill(buf, 0, i);
            send_blocking(t, 1, env_of(i), buf.data(), buf.size());
          }
          // and back, so both directions carry every size
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            Arrival a = next_arrival(t);
            RANK_CHECK(a.size == sizes[i] && a.envelope.word[0] == i);
            std::vector<unsigned char> in(a.size);
            fetch_blocking(t, a, in.data(), in.size());
            RANK_CHECK(check(in.data(), in.size(), 1, i));
          }
          return 0;
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) {
          Arrival a = next_arrival(t);
          RANK_CHECK(a.source == 0 && a.size == sizes[i] && a.envelope.word[0] == i);
          std::vector<unsigned char> in(a.size + 1, 0xa5);
          fetch_blocking(t, a, in.data(), a.size);
          RANK_CHECK(check(in.data(), a.size, 0, i));
          RANK_CHECK(in[a.size] == 0xa5);
        }
        std::vector<unsigned char> buf;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
          buf.resize(sizes[i]);
          fill(buf, 1, i);
          send_blocking(t, 0, env_of(i), buf.data(), buf.size());
        }
        return 0;
      },
      mode_options(GetParam()));
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

TEST_P(HostTransportModes, TruncatingFetchDiscardsTheRest) {
  auto res = run_ranks(
      2,
      [](Transport& t) {
        const std::vector<std::size_t> sizes = {100, 5000, 1 << 20, (1 << 20) + 77};
        if (t.rank() == 0) {
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            std::vector<unsigned char> buf(sizes[i]);
            fill(buf, 0, i);
            send_blocking(t, 1, env_of(i), buf.data(), buf.size());
          }
          std::vector<unsigned char> tail(33);
          fill(tail, 0, 99);
          send_blocking(t, 1, env_of(99), tail.data(), tail.size());
          return 0;
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) {
          Arrival a = next_arrival(t);
          RANK_CHECK(a.size == sizes[i]);
          const std::size_t keep = sizes[i] / 3 + 1;
          std::vector<unsigned char> in(keep + 8, 0x5a);
          fetch_blocking(t, a, in.data(), keep);
          RANK_CHECK(check(in.data(), keep, 0, i));
          for (std::size_t k = keep; k < in.size(); ++k) RANK_CHECK(in[k] == 0x5a);
        }
        Arrival a = next_arrival(t);
        RANK_CHECK(a.envelope.word[0] == 99 && a.size == 33);
        std::vector<unsigned char> in(33);
        fetch_blocking(t, a, in.data(), in.size());
        RANK_CHECK(check(in.data(), in.size(), 0, 99));
        return 0;
      },
      mode_options(GetParam()));
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// Rank 1 sees the synchronous send arrive but does not fetch it; it asks rank 0 whether the
// send is complete (it must not be), then fetches, and rank 0's send completes.
TEST_P(HostTransportModes, SynchronousCompletesOnlyAfterFetch) {
  auto res = run_ranks(
      2,
      [](Transport& t) {
        for (std::size_t len : {std::size_t{0}, std::size_t{8}, std::size_t{200000}}) {
          std::vector<unsigned char> buf(len);
          fill(buf, 0, len);
          if (t.rank() == 0) {
            OpId id = t.send(1, env_of(1), buf.data(), len, SendMode::Synchronous);
            Arrival q = next_arrival(t);  // "are you done?"
            RANK_CHECK(q.envelope.word[0] == 2);
            t.fetch(q, nullptr, 0);
            bool done_early = id == kDone || t.send_done(id);
            std::uint8_t answer = done_early ? 1 : 0;
            send_blocking(t, 1, env_of(3), &answer, 1);
            wait_send(t, id);
          } else {
            Arrival a = next_arrival(t);
            RANK_CHECK(a.envelope.word[0] == 1 && a.size == len && !a.buffered);
            send_blocking(t, 0, env_of(2), nullptr, 0);
            Arrival ans = next_arrival(t);
            RANK_CHECK(ans.envelope.word[0] == 3 && ans.size == 1);
            std::uint8_t done_early = 9;
            fetch_blocking(t, ans, &done_early, 1);
            RANK_CHECK(done_early == 0);
            std::vector<unsigned char> in(len);
            fetch_blocking(t, a, in.data(), len);
            RANK_CHECK(check(in.data(), len, 0, len));
          }
        }
        return 0;
      },
      mode_options(GetParam()));
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// The ranks of a harness killed from outside end with it (they have no launcher to watch): a
// harness process runs two ranks that wait for a message that never comes; it is killed with
// SIGKILL, and both ranks must be gone within seconds.
TEST(RankHarness, RanksEndWithTheirHarness) {
  struct Shared {
    std::atomic<int> pid[2];
    char job[128];
  };
  auto* sh = static_cast<Shared*>(::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(sh, MAP_FAILED);
  sh->pid[0] = 0;
  sh->pid[1] = 0;
  sh->job[0] = 0;
  const pid_t harness = ::fork();
  if (harness == 0) {
    run_ranks(2, [sh](Transport& t) {
      if (t.rank() == 0) std::snprintf(sh->job, sizeof sh->job, "%s", std::getenv(kEnvJob));
      sh->pid[t.rank()] = ::getpid();
      for (;;) t.wait(1000000000ull);  // nothing ever comes
      return 0;
    });
    ::_exit(0);
  }
  ASSERT_GT(harness, 0);
  const auto ended = [](pid_t p) {  // gone, or a zombie not yet reaped by whoever adopted it
    std::FILE* f = std::fopen(("/proc/" + std::to_string(p) + "/stat").c_str(), "r");
    if (!f) return true;
    char state = '?';
    const int got = std::fscanf(f, "%*d %*s %c", &state);
    std::fclose(f);
    return got == 1 && (state == 'Z' || state == 'X');
  };
  for (int i = 0; i < 500 && (sh->pid[0] == 0 || sh->pid[1] == 0); ++i) ::usleep(10000);
  ASSERT_NE(sh->pid[0].load(), 0);
  ASSERT_NE(sh->pid[1].load(), 0);
  ::kill(harness, SIGKILL);
  ::waitpid(harness, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = ended(sh->pid[0]) && ended(sh->pid[1]);
    if (!gone) ::usleep(10000);
  }
  if (!gone) {  // leave nothing behind either way
    ::kill(sh->pid[0], SIGKILL);
    ::kill(sh->pid[1], SIGKILL);
  }
  if (sh->job[0]) ::shm_unlink(sh->job);  // the killed harness could not unlink its job
  EXPECT_TRUE(gone) << "a rank outlived its harness by 5 s";
  ::munmap(sh, sizeof(Shared));
}

// A rendezvous message below 64 KiB (here a synchronous 32 KiB one) is copied once, by the
// receiver alone (its fetch is done at once); from 64 KiB on it streams through the arena
// whichever way messages go (the fetch needs the sender), here one way and then both ways at once.
TEST(HostTransport, RendezvousTakesTheSingleCopyBelow64KiBAndTheArenaFromThereEitherWay) {
  if (!host::cma_allowed()) GTEST_SKIP() << "cross-memory attach is not allowed here";
  auto res = run_ranks(2, [](Transport& t) {
    constexpr std::size_t kSmall = 32u << 10, kLen = 64u << 10;
    std::vector<unsigned char> out(kLen), in(kLen);
    if (t.rank() == 0) {
      fill(out.data(), kSmall, 0, 1);
      send_blocking(t, 1, env_of(1), out.data(), kSmall, SendMode::Synchronous);
      fill(out, 0, 2);
      send_blocking(t, 1, env_of(2), out.data(), kLen);  // one way
      fill(out, 0, 3);
      OpId id = t.send(1, env_of(3), out.data(), kLen, SendMode::Standard);  // both ways
      Arrival back = next_arrival(t);
      RANK_CHECK(back.envelope.word[0] == 4 && back.size == kLen && !back.buffered);
      OpId f = t.fetch(back, in.data(), kLen);
      RANK_CHECK(f != kDone);
      wait_fetch(t, f);
      RANK_CHECK(check(in.data(), kLen, 1, 4));
      wait_send(t, id);
      return 0;
    }
    Arrival a = next_arrival(t);
    RANK_CHECK(a.envelope.word[0] == 1 && a.size == kSmall && !a.buffered);
    RANK_CHECK(t.fetch(a, in.data(), kSmall) == kDone);  // cross-memory attach
    RANK_CHECK(check(in.data(), kSmall, 0, 1));
    Arrival b = next_arrival(t);
    RANK_CHECK(b.envelope.word[0] == 2 && !b.buffered);
    OpId f = t.fetch(b, in.data(), kLen);
    RANK_CHECK(f != kDone);  // the arena: rank 0 streams it
    wait_fetch(t, f);
    RANK_CHECK(check(in.data(), kLen, 0, 2));
    fill(out, 1, 4);
    OpId id = t.send(0, env_of(4), out.data(), kLen, SendMode::Standard);  // our own, in flight
    Arrival c = next_arrival(t);
    RANK_CHECK(c.envelope.word[0] == 3);
    f = t.fetch(c, in.data(), kLen);
    RANK_CHECK(f != kDone);  // the arena again, while ours goes the other way
    wait_fetch(t, f);
    RANK_CHECK(check(in.data(), kLen, 0, 3));
    wait_send(t, id);
    return 0;
  });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// Far more eager messages than a ring holds, all unexpected: the receiver buffers them (as the
// MPI layer does) until the last one, which it consumes first. Then two rendezvous messages and
// an eager one, fetched in reverse order.
TEST_P(HostTransportModes, UnexpectedFloodThenOutOfOrderConsumption) {
  auto res = run_ranks(
      2,
      [](Transport& t) {
        constexpr int kFlood = 6000;
        constexpr std::size_t kLen = 150;
        constexpr std::size_t kBig = (2 << 20) + 3;
        if (t.rank() == 0) {
          std::vector<OpId> ids;
          std::vector<std::vector<unsigned char>> bufs(kFlood + 1, std::vector<unsigned char>(kLen));
          for (int i = 0; i <= kFlood; ++i) {
            fill(bufs[i], 0, i);
            ids.push_back(t.send(1, env_of(i), bufs[i].data(), kLen, SendMode::Standard));
          }
          std::vector<unsigned char> big1(kBig), big2(kBig), small(40);
          fill(big1, 0, 100001);
          fill(big2, 0, 100002);
          fill(small, 0, 100003);
          ids.push_back(t.send(1, env_of(100001), big1.data(), big1.size(), SendMode::Standard));
          ids.push_back(t.send(1, env_of(100002), big2.data(), big2.size(), SendMode::Standard));
          ids.push_back(t.send(1, env_of(100003), small.data(), small.size(), SendMode::Standard));
          for (OpId id : ids) wait_send(t, id);
          return 0;
        }
        std::deque<std::pair<Arrival, std::vector<unsigned char>>> unexpected;
        for (;;) {
          Arrival a = next_arrival(t);
          if (a.envelope.word[0] == static_cast<std::uint64_t>(kFlood)) {
            std::vector<unsigned char> in(kLen);
            fetch_blocking(t, a, in.data(), kLen);
            RANK_CHECK(check(in.data(), kLen, 0, kFlood));
            break;
          }
          std::vector<unsigned char> in(a.size);
          fetch_blocking(t, a, in.data(), a.size);
          unexpected.emplace_back(a, std::move(in));
        }
        RANK_CHECK(unexpected.size() == static_cast<std::size_t>(kFlood));
        for (int i = 0; i < kFlood; ++i) {
          RANK_CHECK(unexpected[i].first.envelope.word[0] == static_cast<std::uint64_t>(i));
          RANK_CHECK(check(unexpected[i].second.data(), kLen, 0, i));
        }
        Arrival b1 = next_arrival(t), b2 = next_arrival(t), s = next_arrival(t);
        RANK_CHECK(b1.envelope.word[0] == 100001 && b2.envelope.word[0] == 100002 && s.envelope.word[0] == 100003);
        std::vector<unsigned char> in(kBig);
        fetch_blocking(t, s, in.data(), s.size);
        RANK_CHECK(check(in.data(), s.size, 0, 100003));
        fetch_blocking(t, b2, in.data(), kBig);
        RANK_CHECK(check(in.data(), kBig, 0, 100002));
        fetch_blocking(t, b1, in.data(), kBig);
        RANK_CHECK(check(in.data(), kBig, 0, 100001));
        return 0;
      },
      mode_options(GetParam()));
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// Every rank sends to every rank (itself included) at once, without blocking, and serves its
// arrivals as they come: 16 ranks pinned round-robin onto this machine's cores.
void all_to_all(int n, bool cma) {
  RunOptions o = mode_options(cma);
  o.bind = true;
  auto res = run_ranks(
      n,
      [](Transport& t) {
        const std::vector<std::size_t> sizes = {0, 64, 3000, 40000, 300000, 700000};
        const int n = t.size();
        std::vector<std::vector<unsigned char>> out;
        std::vector<OpId> sends;
        for (int k = 0; k < n; ++k) {
          int dst = (t.rank() + k) % n;
          for (std::size_t i = 0; i < sizes.size(); ++i) {
            out.emplace_back(sizes[i]);
            fill(out.back(), t.rank(), dst * 100 + i);
            sends.push_back(t.send(dst, env_of(i, dst), out.back().data(), sizes[i], SendMode::Standard));
          }
        }
        const std::size_t expected = static_cast<std::size_t>(n) * sizes.size();
        std::size_t got = 0, checked = 0;
        std::vector<std::size_t> next(n, 0);
        struct Pending {
          OpId id;
          Arrival a;
          std::vector<unsigned char> buf;
        };
        std::deque<Pending> fetching;
        while (checked < expected || !sends.empty()) {
          bool busy = false;
          Arrival a;
          while (got < expected && t.poll(a)) {
            busy = true;
            ++got;
            RANK_CHECK(a.envelope.word[0] == next[a.source]);
            RANK_CHECK(a.envelope.word[1] == static_cast<std::uint64_t>(t.rank()));
            ++next[a.source];
            Pending p{0, a, std::vector<unsigned char>(a.size)};
            p.id = t.fetch(a, p.buf.data(), a.size);
            fetching.push_back(std::move(p));
          }
          for (auto it = fetching.begin(); it != fetching.end();) {
            if (t.fetch_done(it->id)) {
              RANK_CHECK(check(it->buf.data(), it->a.size, it->a.source, t.rank() * 100 + it->a.envelope.word[0]));
              ++checked;
              it = fetching.erase(it);
              busy = true;
            } else {
              ++it;
            }
          }
          for (auto it = sends.begin(); it != sends.end();) {
            if (t.send_done(*it)) {
              it = sends.erase(it);
              busy = true;
            } else {
              ++it;
            }
          }
          t.progress();
          if (!busy) t.wait(1000000);
        }
        return 0;
      },
      o);
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

TEST_P(HostTransportModes, AllToAll16RanksPinnedOversubscribed) { all_to_all(16, GetParam()); }

INSTANTIATE_TEST_SUITE_P(Copy, HostTransportModes, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? std::string("CrossMemoryAttach") : std::string("Arena");
                         });

TEST(HostTransport, AbortWritesTheRecordAndExitsWithTheCode) {
  auto res = run_ranks(3, [](Transport& t) {
    if (t.rank() == 1) t.abort(7, "rank one gives up");
    return 0;
  });
  ASSERT_EQ(res.status.size(), 3u);
  EXPECT_TRUE(WIFEXITED(res.status[1]) && WEXITSTATUS(res.status[1]) == 7) << res.describe();
  ASSERT_TRUE(res.aborted);
  EXPECT_EQ(res.abort.rank, 1);
  EXPECT_EQ(res.abort.code, 7);
  EXPECT_EQ(res.abort.why, "rank one gives up");
  EXPECT_FALSE(res.shm_left_after_job);
}

TEST(HostTransport, NoAbortRecordWithoutAbort) {
  auto res = run_ranks(2, [](Transport&) { return 0; });
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
  EXPECT_FALSE(res.aborted);
}

// The name goes away as soon as every rank attached, so a crash (or a killed launcher) leaves
// nothing behind.
TEST(HostTransport, SegfaultingRankLeavesNoSharedMemory) {
  auto res = run_ranks(3, [](Transport& t) {
    if (t.rank() == 2) {
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    return 0;
  });
  EXPECT_FALSE(res.all_exited_zero());
  EXPECT_FALSE(res.shm_left_after_ranks) << res.shm_name;
  EXPECT_FALSE(res.shm_left_after_job) << res.shm_name;
}

// A rank waiting for a message that will never come ends itself once its launcher is gone.
TEST(HostTransport, RankEndsWhenTheLauncherIsGone) {
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(gone, nullptr, 0), gone);
  RunOptions o;
  o.env[kEnvLauncherPid] = std::to_string(gone);
  o.timeout_s = 30;
  auto res = run_ranks(
      2,
      [](Transport& t) {
        if (t.rank() == 0) next_arrival(t);  // never sent
        return 0;
      },
      o);
  ASSERT_EQ(res.status.size(), 2u);
  EXPECT_FALSE(res.timed_out);
  EXPECT_TRUE(WIFEXITED(res.status[0]) && WEXITSTATUS(res.status[0]) == 1) << res.describe();
}

TEST(HostTransport, JobDestructorRemovesSharedMemoryWhenARankNeverAttached) {
  JobSpec spec;
  spec.nranks = 4;
  auto job = Job::create(spec);
  std::string name;
  for (auto& [k, v] : job->environment())
    if (k == kEnvJob) name = v;
  ASSERT_FALSE(name.empty());
  EXPECT_TRUE(shm_exists(name));
  job.reset();
  EXPECT_FALSE(shm_exists(name));
}

TEST(HostTransport, EnvironmentDescribesTheJob) {
  JobSpec spec;
  spec.nranks = 6;
  spec.bind = false;
  spec.mesh_width = 3;
  spec.mesh_height = 2;
  auto job = Job::create(spec);
  std::map<std::string, std::string> env;
  for (auto& [k, v] : job->environment()) env[k] = v;
  EXPECT_EQ(env[kEnvTransport], "host");
  EXPECT_EQ(env[kEnvSize], "6");
  EXPECT_EQ(env[kEnvBind], "none");
  EXPECT_EQ(env[kEnvMesh], "3x2");
  EXPECT_EQ(env[kEnvJob].rfind("/tilempi-", 0), 0u);
}

TEST(HostTransport, TopologyTimeAndSelfMessages) {
  RunOptions o;
  o.mesh_width = 4;
  o.mesh_height = 2;
  auto res = run_ranks(
      8,
      [](Transport& t) {
        const RankPlacement& topo = t.rank_placement();
        RANK_CHECK(topo.width == 4 && topo.height == 2);
        RANK_CHECK(topo.coord[t.rank()] == (Coord{t.rank() % 4, t.rank() / 4}));
        RANK_CHECK(std::string(t.name()) == "host");
        double t0 = t.wtime();
        RANK_CHECK(t.wtick() > 0 && t.wtick() < 1e-3);
        // to itself: eager and rendezvous
        std::vector<unsigned char> small(100), big(1 << 20), in(1 << 20);
        fill(small, t.rank(), 1);
        fill(big, t.rank(), 2);
        OpId s1 = t.send(t.rank(), env_of(1), small.data(), small.size(), SendMode::Standard);
        OpId s2 = t.send(t.rank(), env_of(2), big.data(), big.size(), SendMode::Standard);
        Arrival a = next_arrival(t);
        RANK_CHECK(a.source == t.rank() && a.envelope.word[0] == 1);
        fetch_blocking(t, a, in.data(), a.size);
        RANK_CHECK(check(in.data(), a.size, t.rank(), 1));
        Arrival b = next_arrival(t);
        RANK_CHECK(b.source == t.rank() && b.envelope.word[0] == 2 && b.size == big.size());
        fetch_blocking(t, b, in.data(), b.size);
        RANK_CHECK(check(in.data(), b.size, t.rank(), 2));
        wait_send(t, s1);
        wait_send(t, s2);
        RANK_CHECK(t.wtime() >= t0);
        return 0;
      },
      o);
  EXPECT_TRUE(res.all_exited_zero()) << res.describe();
}

// Without a launcher a process is a job of one rank (singleton init).
TEST(HostTransport, SingletonWithoutLauncher) {
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::unsetenv(kEnvJob);
    ::unsetenv(kEnvRank);
    ::unsetenv(kEnvSize);
    ::unsetenv(kEnvTransport);
    auto t = connect_from_environment();
    RANK_CHECK(t->rank() == 0 && t->size() == 1);
    std::vector<unsigned char> buf(5000), in(5000);
    fill(buf, 0, 5);
    OpId id = t->send(0, env_of(5), buf.data(), buf.size(), SendMode::Synchronous);
    Arrival a = next_arrival(*t);
    fetch_blocking(*t, a, in.data(), in.size());
    wait_send(*t, id);
    RANK_CHECK(check(in.data(), in.size(), 0, 5));
    t->finalize();
    ::_exit(0);
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

}  // namespace
}  // namespace tilempi::transport::testing
