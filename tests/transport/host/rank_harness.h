// Runs a host-transport job inside a test: create the Job, fork one process per rank with the
// job's environment, connect through the public entry point and run a body in each rank.
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tilempi/transport/job.h"
#include "tilempi/transport/transport.h"

namespace tilempi::transport::testing {

/// A failed check inside a rank: print it and end the rank with a recognizable status.
#define RANK_CHECK(cond)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: check failed in a rank: %s\n", __FILE__, __LINE__, #cond); \
      std::fflush(stderr);                                                                  \
      ::_exit(90);                                                                          \
    }                                                                                       \
  } while (0)

struct RunOptions {
  bool bind = false;
  std::map<std::string, std::string> env;  ///< extra variables for every rank
  int mesh_width = 0;
  int mesh_height = 0;
  double timeout_s = 90;
};

struct RunResult {
  std::vector<int> status;  ///< waitpid status per rank
  std::string shm_name;
  bool shm_left_after_ranks = false;  ///< the name still existed once every rank had ended
  bool shm_left_after_job = false;    ///< ... and after the Job was destroyed
  bool aborted = false;
  AbortRecord abort;
  bool timed_out = false;

  bool all_exited_zero() const {
    for (int s : status)
      if (!WIFEXITED(s) || WEXITSTATUS(s) != 0) return false;
    return !timed_out;
  }
  std::string describe() const {
    std::string d;
    for (std::size_t r = 0; r < status.size(); ++r) {
      int s = status[r];
      d += "rank " + std::to_string(r) + ": ";
      if (WIFEXITED(s)) d += "exit " + std::to_string(WEXITSTATUS(s));
      else if (WIFSIGNALED(s)) d += "signal " + std::to_string(WTERMSIG(s));
      else d += "?";
      d += "; ";
    }
    if (timed_out) d += "timed out";
    return d;
  }
};

inline bool shm_exists(const std::string& name) {
  struct stat st;
  return ::stat(("/dev/shm" + name).c_str(), &st) == 0;
}

using RankBody = std::function<int(Transport&)>;

inline RunResult run_ranks(int n, const RankBody& body, const RunOptions& opt = {}) {
  RunResult res;
  JobSpec spec;
  spec.nranks = n;
  spec.transport = "host";
  spec.bind = opt.bind;
  spec.mesh_width = opt.mesh_width;
  spec.mesh_height = opt.mesh_height;
  auto job = Job::create(spec);
  auto env = job->environment();
  for (auto& [k, v] : env)
    if (k == kEnvJob) res.shm_name = v;
  std::fflush(nullptr);
  std::vector<pid_t> pids(n, -1);
  const pid_t harness = ::getpid();
  for (int r = 0; r < n; ++r) {
    pid_t pid = ::fork();
    if (pid == 0) {
      // No launcher watches these ranks (a rank's abort would signal it), so they end with the
      // harness instead: a harness killed from outside, with its timeout, leaves no rank waiting.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != harness) ::_exit(92);
      ::unsetenv(kEnvLauncherPid);
      for (auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      for (auto& [k, v] : opt.env) ::setenv(k.c_str(), v.c_str(), 1);
      ::setenv(kEnvRank, std::to_string(r).c_str(), 1);
      int rc = 0;
      try {
        auto t = connect_from_environment();
        rc = body(*t);
        t->finalize();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", r, e.what());
        rc = 91;
      }
      std::fflush(nullptr);
      ::_exit(rc);
    }
    pids[r] = pid;
  }
  res.status.assign(n, 0);
  int left = n;
  timespec start;
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  while (left > 0) {
    int st = 0;
    pid_t p = ::waitpid(-1, &st, WNOHANG);
    if (p > 0) {
      for (int r = 0; r < n; ++r)
        if (pids[r] == p) {
          res.status[r] = st;
          pids[r] = -1;
          --left;
        }
      continue;
    }
    timespec now;
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > opt.timeout_s) {
      res.timed_out = true;
      for (pid_t q : pids)
        if (q > 0) ::kill(q, SIGKILL);
    }
    ::usleep(2000);
  }
  res.aborted = job->abort_record(res.abort);
  res.shm_left_after_ranks = shm_exists(res.shm_name);
  job.reset();
  res.shm_left_after_job = shm_exists(res.shm_name);
  return res;
}

// ---- blocking helpers on top of the non-blocking interface

inline Envelope env_of(std::uint64_t a, std::uint64_t b = 0) { return Envelope{{a, b, ~a, 0x5eed}}; }

inline void wait_send(Transport& t, OpId id) {
  while (!t.send_done(id)) t.wait(1000000);
}
inline void wait_fetch(Transport& t, OpId id) {
  while (!t.fetch_done(id)) t.wait(1000000);
}
inline Arrival next_arrival(Transport& t) {
  Arrival a;
  while (!t.poll(a)) t.wait(1000000);
  return a;
}
inline void send_blocking(Transport& t, int dst, const Envelope& e, const void* buf, std::size_t len,
                          SendMode mode = SendMode::Standard) {
  wait_send(t, t.send(dst, e, buf, len, mode));
}
inline void fetch_blocking(Transport& t, const Arrival& a, void* dst, std::size_t len) {
  wait_fetch(t, t.fetch(a, dst, len));
}

/// Deterministic content of message `seq` from `src`: word w of the payload.
inline std::uint64_t pattern_word(int src, std::uint64_t seq, std::uint64_t w) {
  std::uint64_t x = (static_cast<std::uint64_t>(src) * 0x9e3779b97f4a7c15ull) ^ (seq * 0xbf58476d1ce4e5b9ull) ^
                    (w * 0x94d049bb133111ebull);
  return x ^ (x >> 29);
}
inline void fill(unsigned char* p, std::size_t n, int src, std::uint64_t seq) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x = pattern_word(src, seq, i / 8);
    std::memcpy(p + i, &x, 8);
  }
  if (i < n) {
    std::uint64_t x = pattern_word(src, seq, i / 8);
    std::memcpy(p + i, &x, n - i);
  }
}
inline void fill(std::vector<unsigned char>& v, int src, std::uint64_t seq) { fill(v.data(), v.size(), src, seq); }
inline bool check(const unsigned char* p, std::size_t n, int src, std::uint64_t seq) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x = pattern_word(src, seq, i / 8);
    if (std::memcmp(p + i, &x, 8) != 0) return false;
  }
  if (i < n) {
    std::uint64_t x = pattern_word(src, seq, i / 8);
    if (std::memcmp(p + i, &x, n - i) != 0) return false;
  }
  return true;
}

}  // namespace tilempi::transport::testing
