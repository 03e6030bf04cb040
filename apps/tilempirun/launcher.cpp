#include "launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdarg>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "output.h"
#include "watchdog.h"
#include "tilempi/settings.h"
#include "tilempi/transport/job.h"
#include "tilempi/transport/rank_placement.h"

extern char** environ;

namespace tilempirun {

static_assert(kAbortNotifySignal == SIGUSR1);

namespace tt = tilempi::transport;
using Clock = std::chrono::steady_clock;

namespace {

// Without --tag-output, a partial line (a prompt) is shown after this long; with tags it waits
// for its newline, so that tagged lines stay whole.
constexpr auto kPartialLineWait = std::chrono::milliseconds(200);
constexpr std::size_t kReadChunk = 64 * 1024;

void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void say(const char* fmt, ...) {
  char line[2048];
  int n = std::snprintf(line, sizeof line, "tilempirun: ");
  va_list ap;
  va_start(ap, fmt);
  int m = std::vsnprintf(line + n, sizeof line - static_cast<std::size_t>(n) - 1, fmt, ap);
  va_end(ap);
  std::size_t len = std::min(sizeof line - 2, static_cast<std::size_t>(n + std::max(m, 0)));
  line[len++] = '\n';
  write_all(STDERR_FILENO, line, len);
}

/// say() for a text of any length and several lines (a report): "tilempirun: " before it.
void say_text(const std::string& text) {
  const std::string line = "tilempirun: " + text + "\n";
  write_all(STDERR_FILENO, line.data(), line.size());
}

/// The file execve() will run, found as a shell would (PATH search when there is no '/').
/// On failure returns the launcher's exit status after printing why.
std::optional<std::string> resolve_program(const std::string& program, int& status) {
  auto check = [&](const std::string& path, bool report) -> int {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
      if (report) say("%s: no such file", path.c_str());
      return kExitNotFound;
    }
    if (S_ISDIR(st.st_mode)) {
      if (report) say("%s: is a directory, not a program", path.c_str());
      return kExitNotExecutable;
    }
    if (::access(path.c_str(), X_OK) != 0) {
      if (report) say("%s: not executable (%s)", path.c_str(), std::strerror(errno));
      return kExitNotExecutable;
    }
    return 0;
  };
  if (program.empty()) {
    say("empty program name");
    status = kExitNotFound;
    return std::nullopt;
  }
  if (program.find('/') != std::string::npos) {
    status = check(program, true);
    if (status != 0) return std::nullopt;
    // Absolute, so that --wdir (the ranks start elsewhere) does not change which file runs.
    if (program[0] != '/') {
      if (char* cwd = ::getcwd(nullptr, 0)) {
        std::string absolute = std::string(cwd) + "/" + program;
        std::free(cwd);
        return absolute;
      }
    }
    return program;
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  int best = kExitNotFound;
  std::string not_executable;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t colon = path.find(':', start);
    if (colon == std::string::npos) colon = path.size();
    std::string dir = path.substr(start, colon - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + program;
    int r = check(candidate, false);
    if (r == 0) return candidate;
    if (r == kExitNotExecutable && not_executable.empty()) {
      best = r;
      not_executable = candidate;
    }
    start = colon + 1;
  }
  status = best;
  if (best == kExitNotExecutable) {
    say("%s: not executable", not_executable.c_str());
  } else {
    say("%s: program not found (not a path, and not in PATH)", program.c_str());
  }
  return std::nullopt;
}

std::string describe_signal(int sig) {
  const char* name = sigabbrev_np(sig);
  const char* text = sigdescr_np(sig);
  std::string s = std::to_string(sig);
  if (name || text) {
    s += " (";
    if (name) s += std::string("SIG") + name;
    if (name && text) s += ": ";
    if (text) s += text;
    s += ")";
  }
  return s;
}

/// Shell-style status of a finished process: its exit code, or 128+N for signal N.
int shell_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

// If the launcher itself crashes, the job's shared memory must still go (the ranks end with it
// through PR_SET_PDEATHSIG). Job::unlink() is async-signal-safe.
tt::Job* volatile crash_job = nullptr;

extern "C" void on_launcher_crash(int sig) {
  if (tt::Job* job = crash_job) job->unlink();
  ::raise(sig);  // the handler was reset on entry: this ends the launcher as the signal would
}

void install_crash_cleanup() {
#ifndef __SANITIZE_ADDRESS__  // a sanitizer's own report of the crash is worth more
  struct sigaction sa{};
  sa.sa_handler = on_launcher_crash;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::sigaction(s, &sa, nullptr);
#endif
}

struct RankProc {
  pid_t pid = -1;
  bool running = false;
  int fd[2] = {-1, -1};  // stdout, stderr read ends
  std::unique_ptr<LineForwarder> fwd[2];
};

/// One string per environment entry plus the pointer array execve() wants, built before fork
/// so that the child only calls async-signal-safe functions.
struct Environment {
  std::vector<std::string> entries;
  std::vector<char*> envp;

  void set(const std::string& name, const std::string& value) {
    std::string prefix = name + "=";
    for (auto& e : entries) {
      if (e.rfind(prefix, 0) == 0) {
        e = prefix + value;
        return;
      }
    }
    entries.push_back(prefix + value);
  }
  void erase(const std::string& name) {
    std::string prefix = name + "=";
    std::erase_if(entries, [&](const std::string& e) { return e.rfind(prefix, 0) == 0; });
  }
  void finalize() {
    envp.clear();
    for (auto& e : entries) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
};

class JobRunner {
 public:
  explicit JobRunner(const Options& o) : o_(o) {}
  ~JobRunner();
  int run();

 private:
  bool enough_resources();
  bool setup_signals();
  bool spawn(int rank, const std::string& path, std::vector<char*>& argv, Environment& env, int devnull);
  void loop();
  void read_rank(int rank, int stream);
  void drain_rank(int rank);
  void stop_reading(int stream);
  void reap();
  void rank_failed(int rank, int wait_status);
  bool report_abort();
  void end_after_abort();
  void begin_ending(int sig);
  void signal_running(int sig);
  void handle_signals();
  void look_for_progress();
  void end_at_timeout();
  int running_count() const;

  const Options& o_;
  std::unique_ptr<tt::Job> job_;
  std::vector<RankProc> ranks_;
  sigset_t blocked_{}, old_mask_{};
  bool mask_set_ = false;
  int sigfd_ = -1;
  pid_t self_ = -1;
  std::optional<int> exit_status_;
  bool ending_ = false;
  bool interrupted_ = false;
  bool abort_reported_ = false;
  /// The abort record says a rank left main without MPI_Finalize: the others may be leaving
  /// too, and are given a moment to do so (and flush their output) before SIGTERM.
  bool abort_is_exit_ = false;
  std::optional<Clock::time_point> end_at_;
  std::optional<Clock::time_point> deadline_;
  std::optional<Clock::time_point> kill_at_;
  /// The next look for a job that makes no progress (--deadlock-after), when the job is watched.
  std::optional<Clock::time_point> progress_look_at_;
  /// Every rank runs inside one simulator process (the sim's ranks as contexts): ranks_[0] is it.
  bool hosted_ = false;
  std::optional<int> host_failed_;  ///< wait status of a simulator process that failed
  std::vector<char> buf_ = std::vector<char>(kReadChunk);
  /// --outfile-pattern, --errfile-pattern, --output-filename: each rank's stdout and stderr sink
  /// (the launcher's own when no pattern), opened before the first rank starts; ranks whose paths
  /// are the same share one file.
  bool open_output_files();
  std::vector<std::array<int, 2>> sinks_;
  std::vector<int> files_;
};

JobRunner::~JobRunner() {
  crash_job = nullptr;
  for (int fd : files_) ::close(fd);
  for (auto& r : ranks_)
    for (int& fd : r.fd)
      if (fd >= 0) ::close(fd);
  if (sigfd_ >= 0) ::close(sigfd_);
  if (mask_set_) ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

namespace {

/// PATTERN with %r the rank, %h this host's name, %g the job (0: one job) and %% a '%' (the
/// escapes of MPICH's -outfile-pattern; options.cpp refused any other).
std::string output_path(const std::string& pattern, int rank) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    switch (pattern[++i]) {
      case 'r': out += std::to_string(rank); break;
      case 'g': out += '0'; break;
      case 'h': {
        char host[256] = {0};
        ::gethostname(host, sizeof host - 1);
        out += host;
        break;
      }
      default: out += pattern[i];
    }
  }
  return out;
}

}  // namespace

bool JobRunner::open_output_files() {
  std::map<std::string, int> opened;
  sinks_.assign(static_cast<std::size_t>(o_.nranks), {STDOUT_FILENO, STDERR_FILENO});
  for (int r = 0; r < o_.nranks; ++r) {
    for (int s = 0; s < 2; ++s) {
      const std::string& pattern = s == 0 ? o_.out_pattern : o_.err_pattern;
      if (pattern.empty()) continue;
      const std::string path = output_path(pattern, r);
      auto it = opened.find(path);
      if (it == opened.end()) {
        std::error_code ec;
        if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty()) std::filesystem::create_directories(dir, ec);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
          say("cannot write rank %d's %s to %s: %s", r, s == 0 ? "stdout" : "stderr", path.c_str(),
              ec ? ec.message().c_str() : std::strerror(errno));
          return false;
        }
        files_.push_back(fd);
        it = opened.emplace(path, fd).first;
      }
      sinks_[static_cast<std::size_t>(r)][static_cast<std::size_t>(s)] = it->second;
    }
  }
  return true;
}

// What a job of N rank processes needs, checked before the first fork: a job the machine
// cannot hold is refused in one line rather than failing thousands of processes later.
bool JobRunner::enough_resources() {
  // (Ranks as contexts run in one simulator process.)
  const long long processes = hosted_ ? 1 : o_.nranks;
  // Two pipes per rank process (their read ends stay open): raise the soft limit as needed.
  const rlim_t files_needed = static_cast<rlim_t>(2 * processes + 64);
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY && files.rlim_cur < files_needed) {
    if (files.rlim_max != RLIM_INFINITY && files.rlim_max < files_needed) {
      say("-n %d needs %llu open files (two pipes per rank); this process may open at most %llu (ulimit -Hn)",
          o_.nranks, static_cast<unsigned long long>(files_needed), static_cast<unsigned long long>(files.rlim_max));
      return false;
    }
    files.rlim_cur = files.rlim_max == RLIM_INFINITY ? files_needed : files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
  rlimit procs{};
  if (processes > 1 && ::getrlimit(RLIMIT_NPROC, &procs) == 0 && procs.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(processes) >= procs.rlim_cur) {
    say("-n %d needs %lld processes; this user may run at most %llu (ulimit -u)", o_.nranks, processes,
        static_cast<unsigned long long>(procs.rlim_cur));
    return false;
  }
  long long threads_max = 0;
  if (FILE* f = std::fopen("/proc/sys/kernel/threads-max", "r")) {
    if (std::fscanf(f, "%lld", &threads_max) != 1) threads_max = 0;
    std::fclose(f);
  }
  if (threads_max > 0 && processes > threads_max / 2) {
    say("-n %d needs %lld processes, more than half of what this machine allows in all (%lld, "
        "/proc/sys/kernel/threads-max)",
        o_.nranks, processes, threads_max);
    return false;
  }
  return true;
}

bool JobRunner::setup_signals() {
  // Signals arrive through a signalfd in the poll loop; they are blocked before the job starts
  // any thread (the sim engine), so that every thread leaves them to the fd.
  // A shell starts background jobs with SIGINT and SIGQUIT ignored, and an ignored signal never
  // reaches the fd; the launcher always wants them, to end the job cleanly.
  sigemptyset(&blocked_);
  struct sigaction dfl{};
  dfl.sa_handler = SIG_DFL;
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}) {
    sigaddset(&blocked_, s);
    ::sigaction(s, &dfl, nullptr);
  }
  if (::sigprocmask(SIG_BLOCK, &blocked_, &old_mask_) != 0) return false;
  mask_set_ = true;
  sigfd_ = ::signalfd(-1, &blocked_, SFD_NONBLOCK | SFD_CLOEXEC);
  // A reader of our output that goes away must not kill the launcher before it cleans up.
  ::signal(SIGPIPE, SIG_IGN);
  return sigfd_ >= 0;
}

bool JobRunner::spawn(int rank, const std::string& path, std::vector<char*>& argv, Environment& env,
                      int devnull) {
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return false;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return false;
  }
  env.set(tt::kEnvRank, std::to_string(rank));
  for (const char* v : tt::kForeignRankVariables) env.set(v, std::to_string(rank));
  env.finalize();
  const char* file = path.c_str();
  const char* workdir = o_.workdir.empty() ? nullptr : o_.workdir.c_str();
  char* const* envp = env.envp.data();
  pid_t pid = ::fork();
  if (pid == 0) {
    // Child: async-signal-safe calls only until execve.
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &dfl, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != self_) ::_exit(kExitLaunchFailed);
    if (rank != 0) ::dup2(devnull, STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    if (workdir && ::chdir(workdir) != 0) {
      const char msg[] = "tilempirun: cannot change to the working directory (--wdir)\n";
      ::write(STDERR_FILENO, msg, sizeof msg - 1);
      ::_exit(kExitLaunchFailed);
    }
    ::execve(file, argv.data(), envp);
    int e = errno;
    const char msg[] = "tilempirun: cannot execute the program: ";
    ::write(STDERR_FILENO, msg, sizeof msg - 1);
    const char* why = e == ENOENT ? "no such file\n" : e == EACCES ? "permission denied\n"
                    : e == ENOEXEC ? "not an executable format\n" : "exec failed\n";
    ::write(STDERR_FILENO, why, std::strlen(why));
    ::_exit(e == ENOENT ? kExitNotFound : kExitNotExecutable);
  }
  ::close(out[1]);
  ::close(err[1]);
  if (pid < 0) {
    int e = errno;
    ::close(out[0]);
    ::close(err[0]);
    errno = e;
    return false;
  }
  RankProc& r = ranks_[static_cast<std::size_t>(rank)];
  r.pid = pid;
  r.running = true;
  r.fd[0] = out[0];
  r.fd[1] = err[0];
  for (int s = 0; s < 2; ++s) {
    ::fcntl(r.fd[s], F_SETFL, ::fcntl(r.fd[s], F_GETFL) | O_NONBLOCK);
    std::string prefix = o_.tag_output && !hosted_ ? "[" + std::to_string(rank) + "] " : "";
    const int sink = hosted_ ? (s == 0 ? STDOUT_FILENO : STDERR_FILENO)
                             : sinks_[static_cast<std::size_t>(rank)][static_cast<std::size_t>(s)];
    r.fwd[s] = std::make_unique<LineForwarder>(sink, prefix);
  }
  if (o_.verbose) {
    if (hosted_) say("the simulator process of all %d ranks started as pid %d", o_.nranks, static_cast<int>(pid));
    else say("rank %d started as pid %d", rank, static_cast<int>(pid));
  }
  return true;
}

int JobRunner::running_count() const {
  int n = 0;
  for (const auto& r : ranks_) n += r.running ? 1 : 0;
  return n;
}

void JobRunner::signal_running(int sig) {
  for (auto& r : ranks_)
    if (r.running) ::kill(r.pid, sig);
}

void JobRunner::begin_ending(int sig) {
  if (ending_) return;
  ending_ = true;
  if (job_) job_->ending_by_launcher();
  if (o_.verbose && running_count() > 0)
    say("sending %s to %d running rank(s)", describe_signal(sig).c_str(), running_count());
  signal_running(sig);
  kill_at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(kKillGraceSeconds));
}

bool JobRunner::report_abort() {
  if (abort_reported_ || !job_) return abort_reported_;
  tt::AbortRecord rec;
  bool have = false;
  try {
    have = job_->abort_record(rec);
  } catch (const std::exception& e) {
    say("cannot read the job's abort record: %s", e.what());
  }
  if (!have) return false;
  abort_reported_ = true;
  std::string where = rec.rank >= 0 ? "rank " + std::to_string(rec.rank) : "a rank";
  if (rec.why == tt::kExitedWithoutFinalize) {
    abort_is_exit_ = true;
    say("%s %s; ending the job", where.c_str(), rec.why.c_str());
  } else if (rec.why.empty() || rec.why.rfind("MPI_Abort", 0) == 0) {
    say("%s called MPI_Abort with code %d; ending the job", where.c_str(), rec.code);
  } else {
    // A fatal MPI error (MPI_ERRORS_ARE_FATAL) ends the job the same way.
    say("%s aborted with code %d: %s; ending the job", where.c_str(), rec.code, rec.why.c_str());
  }
  if (!interrupted_) {
    // As the rank's own exit status would be: a nonzero code never becomes success.
    int st = rec.code & 0xff;
    exit_status_ = st == 0 && rec.code != 0 ? 1 : st;
  }
  return true;
}

void JobRunner::end_after_abort() {
  if (!abort_is_exit_) return begin_ending(SIGTERM);
  if (!end_at_) end_at_ = Clock::now() + std::chrono::milliseconds(500);
}

void JobRunner::rank_failed(int rank, int wait_status) {
  drain_rank(rank);  // its last words come before our message
  if (report_abort()) {
    end_after_abort();
    return;
  }
  pid_t pid = ranks_[static_cast<std::size_t>(rank)].pid;
  if (!hosted_ && WIFEXITED(wait_status) && job_ && job_->rank_finalized(rank)) {
    // A nonzero status after MPI_Finalize: the job fails with it, but the other ranks are
    // finishing (or done) and end on their own, their output kept, as with MPICH.
    say("rank %d (pid %d) exited with status %d after MPI_Finalize", rank, static_cast<int>(pid),
        WEXITSTATUS(wait_status));
    if (!exit_status_ || *exit_status_ == 0) exit_status_ = shell_status(wait_status);
    return;
  }
  if (hosted_) {
    // The simulator process says which rank failed and why (Job::finish); without a word from
    // it, the process itself failed.
    exit_status_ = shell_status(wait_status);
    host_failed_ = wait_status;
    begin_ending(SIGTERM);
    return;
  }
  if (WIFSIGNALED(wait_status)) {
    say("rank %d (pid %d) killed by signal %s%s; ending the job", rank, static_cast<int>(pid),
        describe_signal(WTERMSIG(wait_status)).c_str(), WCOREDUMP(wait_status) ? ", core dumped" : "");
  } else {
    say("rank %d (pid %d) exited with status %d; ending the job", rank, static_cast<int>(pid),
        WEXITSTATUS(wait_status));
  }
  exit_status_ = shell_status(wait_status);
  begin_ending(SIGTERM);
}

void JobRunner::reap() {
  // Only our ranks' pids: the job's backend may have children of its own to wait for.
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    RankProc& r = ranks_[i];
    if (!r.running) continue;
    int st = 0;
    pid_t pid = ::waitpid(r.pid, &st, WNOHANG);
    if (pid != r.pid) continue;
    r.running = false;
    int rank = static_cast<int>(i);
    try {
      if (job_) job_->rank_exited(rank, st);
    } catch (const std::exception& e) {
      say("job backend: %s", e.what());
    }
    bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (o_.verbose) {
      if (WIFSIGNALED(st)) {
        say("rank %d (pid %d) ended by signal %s", rank, static_cast<int>(pid), describe_signal(WTERMSIG(st)).c_str());
      } else {
        say("rank %d (pid %d) exited with status %d", rank, static_cast<int>(pid), WEXITSTATUS(st));
      }
    }
    if (!ok && !ending_) rank_failed(rank, st);
  }
}

void JobRunner::read_rank(int rank, int stream) {
  RankProc& r = ranks_[static_cast<std::size_t>(rank)];
  int& fd = r.fd[stream];
  if (fd < 0) return;
  ssize_t n = ::read(fd, buf_.data(), buf_.size());
  if (n > 0) {
    r.fwd[stream]->feed(buf_.data(), static_cast<std::size_t>(n));
    if (sink_broken(stream + 1)) stop_reading(stream);
    return;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
  r.fwd[stream]->flush_partial(true);
  ::close(fd);
  fd = -1;
}

// The reader of our stdout or stderr went away (tilempirun ... | head): stop reading that
// stream of every rank, so that ranks that go on writing get SIGPIPE, as in a shell pipeline.
void JobRunner::stop_reading(int stream) {
  for (auto& r : ranks_) {
    if (r.fd[stream] >= 0) {
      ::close(r.fd[stream]);
      r.fd[stream] = -1;
    }
  }
}

void JobRunner::drain_rank(int rank) {
  RankProc& r = ranks_[static_cast<std::size_t>(rank)];
  for (int s = 0; s < 2; ++s) {
    // Whatever a finished rank wrote is in the pipe already; read until empty (bounded, in case
    // a child of the rank keeps writing).
    for (int i = 0; i < 1024 && r.fd[s] >= 0; ++i) {
      ssize_t n = ::read(r.fd[s], buf_.data(), buf_.size());
      if (n > 0) {
        r.fwd[s]->feed(buf_.data(), static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!r.running) r.fwd[s]->flush_partial(true);
        break;
      }
      r.fwd[s]->flush_partial(true);
      ::close(r.fd[s]);
      r.fd[s] = -1;
    }
  }
}

void JobRunner::handle_signals() {
  signalfd_siginfo info[16];
  for (;;) {
    ssize_t n = ::read(sigfd_, info, sizeof info);
    if (n <= 0) return;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n) / sizeof info[0]; ++i) {
      int sig = static_cast<int>(info[i].ssi_signo);
      if (sig == SIGCHLD) {
        reap();
      } else if (sig == SIGUSR1) {
        if (!ending_ && report_abort()) end_after_abort();
      } else if (!interrupted_) {
        interrupted_ = true;
        exit_status_ = 128 + sig;
        const char* name = sigabbrev_np(sig);
        say("interrupted by SIG%s; ending the job", name ? name : "?");
        if (ending_) {
          signal_running(sig);
        } else {
          begin_ending(sig);  // the ranks get the same signal, as from a terminal
        }
      } else {
        // A second interrupt: no more grace.
        signal_running(SIGKILL);
      }
    }
  }
}

// A few looks a second (each reads one line per rank): the backend says how long every rank has
// waited with nothing in flight; past --deadlock-after the job is reported and ended, as the
// sim ends a deadlocked one.
void JobRunner::look_for_progress() {
  const double after = o_.deadlock_after_s;
  progress_look_at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(std::clamp(after / 4, 0.1, 0.25)));
  std::optional<double> idle;
  try {
    idle = job_->seconds_without_progress();
  } catch (const std::exception& e) {
    say("job backend: %s", e.what());
  }
  if (!idle) {
    progress_look_at_.reset();  // the backend does not watch (the sim reports deadlocks itself)
    return;
  }
  if (*idle < after) return;
  std::string report;
  try {
    report = job_->no_progress_report(*idle);
  } catch (const std::exception& e) {
    report = std::string("no progress; ") + e.what();
  }
  char tail[96];
  std::snprintf(tail, sizeof tail, "\nending the job (--deadlock-after %g)", after);
  say_text(report + tail);
  if (!exit_status_ || *exit_status_ == 0) exit_status_ = kExitLaunchFailed;
  begin_ending(SIGTERM);
}

// --timeout: where every rank is comes first, then the job ends.
void JobRunner::end_at_timeout() {
  std::string where;
  try {
    where = job_->where_ranks_wait();
  } catch (const std::exception& e) {
    where = std::string("  (where the ranks wait is not known: ") + e.what() + ")";
  }
  char line[160];
  std::snprintf(line, sizeof line, "timeout: the job ran longer than %g s (--timeout); ending it", o_.timeout_s);
  say_text(where.empty() ? std::string(line) : std::string(line) + "\n" + where);
  exit_status_ = kExitTimeout;
  begin_ending(SIGTERM);
}

void JobRunner::loop() {
  std::vector<pollfd> fds;
  std::vector<std::pair<int, int>> who;  // (rank, stream) of fds[i], i >= 1
  while (running_count() > 0) {
    fds.clear();
    who.clear();
    fds.push_back({sigfd_, POLLIN, 0});
    bool holding = false;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      for (int s = 0; s < 2; ++s) {
        if (ranks_[r].fd[s] < 0) continue;
        fds.push_back({ranks_[r].fd[s], POLLIN, 0});
        who.emplace_back(static_cast<int>(r), s);
        holding = holding || (!o_.tag_output && ranks_[r].fwd[s]->holding());
      }
    }
    auto now = Clock::now();
    auto wait = std::chrono::milliseconds(60'000);
    auto until = [&](Clock::time_point t) {
      auto d = std::chrono::duration_cast<std::chrono::milliseconds>(t - now) + std::chrono::milliseconds(1);
      wait = std::min(wait, std::max(d, std::chrono::milliseconds(0)));
    };
    if (deadline_ && !ending_) until(*deadline_);
    if (progress_look_at_ && !ending_) until(*progress_look_at_);
    if (end_at_ && !ending_) until(*end_at_);
    if (kill_at_) until(*kill_at_);
    if (holding) wait = std::min<std::chrono::milliseconds>(wait, kPartialLineWait);
    int n = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    if (n < 0 && errno != EINTR) {
      say("poll failed: %s", std::strerror(errno));
      if (!exit_status_) exit_status_ = kExitLaunchFailed;
      begin_ending(SIGKILL);
    }
    if (n > 0) {
      for (std::size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) read_rank(who[i - 1].first, who[i - 1].second);
      }
      if (fds[0].revents & POLLIN) handle_signals();
    }
    now = Clock::now();
    if (deadline_ && !ending_ && now >= *deadline_) end_at_timeout();
    if (progress_look_at_ && !ending_ && now >= *progress_look_at_) look_for_progress();
    if (end_at_ && !ending_ && now >= *end_at_) begin_ending(SIGTERM);
    if (kill_at_ && now >= *kill_at_) {
      if (o_.verbose && running_count() > 0)
        say("%d rank(s) still running after %g s; sending SIGKILL", running_count(), kKillGraceSeconds);
      signal_running(SIGKILL);
      kill_at_.reset();
    }
    for (auto& r : ranks_)
      for (auto& f : r.fwd)
        if (f && f->holding() && !o_.tag_output && now - f->holding_since() >= kPartialLineWait)
          f->flush_partial(false);
  }
  // Every rank has ended: take what is left in the pipes.
  for (std::size_t r = 0; r < ranks_.size(); ++r) drain_rank(static_cast<int>(r));
  for (auto& r : ranks_) {
    for (int s = 0; s < 2; ++s) {
      if (r.fwd[s]) r.fwd[s]->flush_partial(true);
      if (r.fd[s] >= 0) {
        ::close(r.fd[s]);
        r.fd[s] = -1;
      }
    }
  }
}

int JobRunner::run() {
  int status = 0;
  auto path = resolve_program(o_.program, status);
  if (!path) return status;
  // MPMD: every program is found before anything starts.
  std::vector<std::string> app_paths{*path};
  for (std::size_t a = 1; a < o_.apps.size(); ++a) {
    auto p = resolve_program(o_.apps[a].program, status);
    if (!p) return status;
    app_paths.push_back(*p);
  }

  self_ = ::getpid();
  if (!setup_signals()) {
    say("cannot set up signal handling: %s", std::strerror(errno));
    return kExitLaunchFailed;
  }

  tt::JobSpec spec;
  spec.nranks = o_.nranks;
  spec.transport = o_.transport;
  spec.mesh_width = o_.mesh_width;
  spec.mesh_height = o_.mesh_height;
  spec.bind = o_.bind;
  spec.sim = o_.sim;
  spec.program = *path;
  spec.several_programs = o_.apps.size() > 1;
  spec.tag_output = o_.tag_output;
  spec.output_per_rank = !o_.out_pattern.empty() || !o_.err_pattern.empty();
  if (o_.transport == "host" && !o_.sim.given.empty())
    say("warning: --transport host ignores the chip model options (--preset, --adapter, --compute, "
        "--report, --trace, --set, and --config apart from its mesh size)");
  try {
    job_ = tt::Job::create(spec);
  } catch (const tilempi::settings::Error& e) {
    // A bad preset, adapter, --set key or value, or environment setting: a usage error.
    say("%s\nRun 'tilempirun --help' (or --set help) for the options and settings.", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    say("cannot create the job: %s", e.what());
    return kExitLaunchFailed;
  }
  crash_job = job_.get();
  install_crash_cleanup();
  try {
    for (const auto& [k, v] : job_->environment()) {
      if (k == tt::kEnvJob && !start_segment_watchdog(v))
        say("warning: cannot start the watchdog of the job's shared memory (%s): a SIGKILL of tilempirun "
            "now would leave %s in /dev/shm",
            std::strerror(errno), v.c_str());
    }
  } catch (const std::exception&) {
    // (the environment is asked for again below, where a failure ends the job with its reason)
  }
  if (std::string notice = job_->notice(); !notice.empty()) say("%s", notice.c_str());
  const std::string host = job_->rank_host();
  hosted_ = !host.empty();
  if (!enough_resources()) {
    job_->unlink();
    return kExitLaunchFailed;
  }
  auto topo = tt::default_placement(o_.nranks, o_.mesh_width, o_.mesh_height);
  if (o_.verbose)
    say("job of %d rank(s) created: transport %s, mesh %dx%d, bind %s", o_.nranks, o_.transport.c_str(),
        topo.width, topo.height, o_.bind ? "core" : "none");

  Environment env;
  for (char** e = environ; e && *e; ++e) env.entries.emplace_back(*e);
  // A launcher run from inside a rank starts a job of its own.
  for (const char* v : {tt::kEnvRank, tt::kEnvSize, tt::kEnvJob, tt::kEnvTransport, tt::kEnvBind,
                        tt::kEnvMesh, tt::kEnvLauncherPid, tt::kEnvAppnum})
    env.erase(v);
  env.set(tt::kEnvSize, std::to_string(o_.nranks));
  for (const char* v : tt::kForeignSizeVariables) env.set(v, std::to_string(o_.nranks));
  env.set(tt::kEnvTransport, o_.transport);
  env.set(tt::kEnvBind, o_.bind ? "core" : "none");
  env.set(tt::kEnvMesh, std::to_string(topo.width) + "x" + std::to_string(topo.height));
  try {
    for (const auto& [k, v] : job_->environment()) env.set(k, v);
  } catch (const std::exception& e) {
    say("job backend: %s", e.what());
    return kExitLaunchFailed;
  }
  env.set(tt::kEnvLauncherPid, std::to_string(self_));
  if (!o_.coll.empty()) env.set("TILEMPI_COLL", o_.coll);
  for (const auto& [k, v] : o_.env) env.set(k, v);
  if (o_.verbose) {
    for (const auto& [k, v] : job_->environment()) say("rank environment: %s=%s", k.c_str(), v.c_str());
    if (!o_.coll.empty()) say("rank environment: TILEMPI_COLL=%s", o_.coll.c_str());
  }

  // Each program's argument vector (one program but with MPMD); a hosted job runs the first.
  std::vector<std::vector<std::string>> arg_stores;
  std::vector<std::vector<char*>> argvs;
  for (std::size_t a = 0; a < (o_.apps.empty() ? 1 : o_.apps.size()); ++a) {
    std::vector<std::string> store;
    if (hosted_) store.push_back(host);
    store.push_back(hosted_ ? app_paths[a] : (o_.apps.empty() ? o_.program : o_.apps[a].program));
    for (const auto& arg : (o_.apps.empty() ? o_.args : o_.apps[a].args)) store.push_back(arg);
    arg_stores.push_back(std::move(store));
  }
  for (auto& store : arg_stores) {
    std::vector<char*> v;
    for (auto& arg : store) v.push_back(arg.data());
    v.push_back(nullptr);
    argvs.push_back(std::move(v));
  }
  // The program of rank r: the app whose range holds r.
  auto app_of = [&](int r) {
    std::size_t a = 0;
    for (int first = 0; a + 1 < o_.apps.size() && r >= first + o_.apps[a].nranks; ++a) first += o_.apps[a].nranks;
    return a;
  };

  try {
    job_->start();
  } catch (const std::exception& e) {
    say("cannot start the job: %s", e.what());
    job_->unlink();
    return kExitLaunchFailed;
  }

  if (!open_output_files()) {
    job_->unlink();
    return kExitLaunchFailed;
  }
  int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devnull < 0) {
    say("cannot open /dev/null: %s", std::strerror(errno));
    job_->unlink();
    return kExitLaunchFailed;
  }
  const int processes = hosted_ ? 1 : o_.nranks;
  ranks_.resize(static_cast<std::size_t>(processes));
  if (o_.timeout_s > 0)
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.timeout_s));
  if (o_.deadlock_after_s > 0 && !hosted_) progress_look_at_ = Clock::now();
  for (int r = 0; r < processes; ++r) {
    const std::size_t a = hosted_ ? 0 : app_of(r);
    if (o_.apps.size() > 1) env.set(tt::kEnvAppnum, std::to_string(a));
    if (!spawn(r, hosted_ ? host : app_paths[a], argvs[a], env, devnull)) {
      say("cannot start rank %d: %s; ending the job", r, std::strerror(errno));
      exit_status_ = kExitLaunchFailed;
      begin_ending(SIGKILL);
      break;
    }
    // An interrupt (SIGINT, SIGTERM) or a rank that failed already stops the start at once
    // rather than after the last fork.
    handle_signals();
    if (ending_) break;
  }
  ::close(devnull);

  loop();

  report_abort();  // an abort whose rank ended without a failing status still fails the job
  std::string failure;
  try {
    failure = job_->finish();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    say("%s", failure.c_str());
    if (!exit_status_ || *exit_status_ == 0) exit_status_ = kExitLaunchFailed;
  } else if (host_failed_ && !abort_reported_ && !interrupted_) {
    const int st = *host_failed_;
    if (WIFSIGNALED(st)) {
      say("the simulator process (pid %d) was killed by signal %s; ending the job", static_cast<int>(ranks_[0].pid),
          describe_signal(WTERMSIG(st)).c_str());
    } else {
      say("the simulator process (pid %d) exited with status %d", static_cast<int>(ranks_[0].pid), WEXITSTATUS(st));
    }
  }
  job_->unlink();
  crash_job = nullptr;
  job_.reset();
  if (o_.verbose) say("job finished; exit status %d", exit_status_.value_or(0));
  return exit_status_.value_or(0);
}

}  // namespace

int run_job(const Options& options) {
  JobRunner runner(options);
  return runner.run();
}

}  // namespace tilempirun
