// Sweeps as plans (sweep.h): writing and reading plan.json, the status of a configuration, the
// local runner (N at a time, progress and ETA, stops cleanly on SIGINT) and the Slurm job array.
#include "sweep.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace tilempi::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes through a temporary file and a rename, so that a reader (another task, a resumed run)
// never sees half a file.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid()) + "." +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream o(tmp);
    o << text;
    if (!o.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  fs::rename(tmp, path);
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string duration(double s) {
  if (s < 60) return fmt("%.0fs", s);
  if (s < 3600) return std::to_string(static_cast<int>(s) / 60) + "m" + fmt("%02.0fs", std::fmod(s, 60.0));
  return std::to_string(static_cast<int>(s) / 3600) + "h" + fmt("%02.0fm", std::fmod(s / 60, 60.0));
}

std::string quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The programs a configuration runs (every argument naming an executable file), each with its
// size and modification time: a result of an earlier build is not taken for one of this build.
json programs_of(const Config& c) {
  json out = json::object();
  for (const std::string& a : c.argv) {
    if (a.empty() || a[0] != '/') continue;
    struct stat st {};
    if (stat(a.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || access(a.c_str(), X_OK) != 0) continue;
    out[a] = std::to_string(st.st_size) + " bytes, modified " + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
  }
  return out;
}

bool merge_only() {
  const char* v = std::getenv("TILEMPI_SWEEP_MERGE_ONLY");
  return v && std::string(v) == "1";
}

// ---- running one configuration ----

std::atomic<bool> g_stop{false};
std::vector<std::atomic<pid_t>>* g_running = nullptr;

extern "C" void on_stop_signal(int) {
  g_stop = true;
  if (g_running)
    for (auto& p : *g_running) {
      const pid_t pid = p.load();
      if (pid > 0) kill(pid, SIGTERM);
    }
}

// Runs the configuration with its output to its log; returns the exit status (128+N when killed
// by signal N, 127 when it could not start). `slot` is where a stop signal finds the child.
int spawn_and_wait(const Plan& p, const Config& c, std::atomic<pid_t>* slot) {
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    if (!c.env.count(kv.substr(0, kv.find('=')))) env_text.push_back(kv);
  }
  for (const auto& [k, v] : c.env) env_text.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (const std::string& a : c.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string log = p.log(c);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int rc = argv[0] ? posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) : ENOENT;
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    std::ofstream(log, std::ios::app) << "cannot start " << (argv[0] ? argv[0] : "(no command)") << ": "
                                      << std::strerror(rc) << '\n';
    return 127;
  }
  if (slot) {
    slot->store(pid);
    if (g_stop) kill(pid, SIGTERM);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (slot) slot->store(0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

// Runs one configuration and leaves its status, unless a stop signal cut it short (then it
// stays pending and runs again on resume).
Status execute(const Plan& p, const Config& c, std::atomic<pid_t>* slot) {
  for (const std::string& out : c.outputs) fs::remove(out);
  fs::remove(p.status_file(c));
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = spawn_and_wait(p, c, slot);
  Status s;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.exit = rc;
  s.state = rc == 0 ? State::done : State::failed;
  // A command killed along with this program (Ctrl-C reaches the whole process group; scancel
  // signals every process of the task) is not a failure: give the stop signal a moment to arrive.
  for (int i = 0; rc != 0 && !g_stop && i < 10; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (rc != 0 && g_stop) return Status{};
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  nlohmann::ordered_json st = {{"config", to_json(c)}, {"programs", programs_of(c)}, {"exit", rc}, {"seconds", s.seconds}, {"host", host}};
  if (const char* job = std::getenv("SLURM_JOB_ID")) st["slurm_job"] = job;
  write_atomically(p.status_file(c), st.dump(1) + "\n");
  return s;
}

struct Item {
  const Plan* plan;
  const Config* config;
};

std::vector<Item> all_items(const std::vector<Plan>& plans) {
  std::vector<Item> out;
  for (const Plan& p : plans)
    for (const Config& c : p.configs) out.push_back({&p, &c});
  return out;
}

void report_failures(const std::vector<Item>& items, const Options& o, bool ran_them) {
  std::size_t n = 0;
  for (const Item& it : items) {
    const Status s = status_of(*it.plan, *it.config);
    if (s.state != State::failed) continue;
    if (n++ == 0)
      std::fprintf(stderr, "%s: failed configurations%s:\n", o.tool.c_str(),
                   ran_them ? "" : " (from an earlier run; --rerun-failed runs them again)");
    std::fprintf(stderr, "  %s: status %d, log %s\n    %s\n", it.config->label.c_str(), s.exit,
                 it.plan->log(*it.config).c_str(), shell_line(*it.config).c_str());
  }
}

Outcome count(const std::vector<Item>& items) {
  Outcome out;
  out.total = items.size();
  for (const Item& it : items) switch (status_of(*it.plan, *it.config).state) {
      case State::done: ++out.done; break;
      case State::failed: ++out.failed; break;
      case State::pending: ++out.pending; break;
    }
  return out;
}

// The count once the file system shows every task's results: when all of them ended well, a
// configuration without a status is one whose status file written on another node is not
// visible here yet (NFS caches directory contents for up to a minute).
Outcome count_settled(const std::vector<Item>& items) {
  Outcome out = count(items);
  for (int i = 0; out.pending && i < 12; ++i) {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    out = count(items);
  }
  return out;
}

bool wanted(const Item& it, bool rerun_failed) {
  const State s = status_of(*it.plan, *it.config).state;
  return s == State::pending || (rerun_failed && s == State::failed);
}

// Holds DIR/lock of every plan for as long as it lives: two local runs of one sweep would run the
// same configurations into the same files.
struct PlanLocks {
  std::vector<int> fds;
  std::string busy;  // a plan another process holds
  explicit PlanLocks(const std::vector<Plan>& plans) {
    for (const Plan& p : plans) {
      const int fd = open((p.dir + "/lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) continue;
      fds.push_back(fd);
      if (flock(fd, LOCK_EX | LOCK_NB) != 0 && busy.empty()) busy = p.dir;
    }
  }
  ~PlanLocks() {
    for (int fd : fds) close(fd);
  }
  PlanLocks(const PlanLocks&) = delete;
  PlanLocks& operator=(const PlanLocks&) = delete;
};

Outcome run_local(const std::vector<Plan>& plans, const Options& o) {
  const std::vector<Item> items = all_items(plans);
  const PlanLocks locks(plans);
  if (!locks.busy.empty()) {
    std::fprintf(stderr, "%s: another process runs the sweep in %s; wait for it or stop it first\n", o.tool.c_str(),
                 locks.busy.c_str());
    Outcome out = count(items);
    out.pending = std::max<std::size_t>(out.pending, 1);
    return out;
  }
  std::vector<Item> todo;
  for (const Item& it : items)
    if (wanted(it, o.rerun_failed)) todo.push_back(it);
  // Expensive configurations first, so that the parallel ones finish together.
  std::stable_sort(todo.begin(), todo.end(),
                   [](const Item& a, const Item& b) { return a.config->cost > b.config->cost; });
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(std::max<std::size_t>(todo.size(), 1))));
  if (o.progress) {
    const std::size_t earlier = items.size() - todo.size();
    std::fprintf(stderr, "%s: %zu configurations%s, %d at a time\n", o.tool.c_str(), todo.size(),
                 earlier ? (" to run (" + std::to_string(earlier) + " of " + std::to_string(items.size()) +
                            " are there from an earlier run)").c_str()
                         : "",
                 jobs);
  }
  std::vector<std::atomic<pid_t>> running(static_cast<std::size_t>(jobs));
  g_stop = false;
  g_running = &running;
  struct sigaction sa {}, old_int{}, old_term{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);

  std::atomic<std::size_t> next{0};
  std::mutex mu;
  double total_cost = 0, done_cost = 0;
  for (const Item& it : todo) total_cost += it.config->cost;
  std::size_t done = 0, failed = 0;
  const auto start = std::chrono::steady_clock::now();
  const bool tty = isatty(2);
  auto last_print = start - std::chrono::seconds(100);
  auto worker = [&](int slot) {
    for (;;) {
      if (g_stop) return;
      const std::size_t i = next++;
      if (i >= todo.size()) return;
      const Item& it = todo[i];
      const Status s = execute(*it.plan, *it.config, &running[static_cast<std::size_t>(slot)]);
      std::lock_guard<std::mutex> lock(mu);
      if (g_stop && s.state == State::pending) continue;
      ++done;
      done_cost += it.config->cost;
      if (s.state == State::failed) {
        ++failed;
        std::fprintf(stderr, "%s%s: %s failed (status %d, log %s): %s\n", tty && o.progress ? "\r\033[K" : "",
                     o.tool.c_str(), it.config->label.c_str(), s.exit, it.plan->log(*it.config).c_str(),
                     shell_line(*it.config).c_str());
      }
      if (!o.progress) continue;
      const auto now = std::chrono::steady_clock::now();
      const double el = std::chrono::duration<double>(now - start).count();
      if (!tty && done != todo.size() && now - last_print < std::chrono::seconds(10)) continue;
      last_print = now;
      const double eta = done_cost > 0 ? el * (total_cost - done_cost) / done_cost : 0;
      std::fprintf(stderr, "%s[%zu/%zu] %3.0f%%  %s  elapsed %s  ETA %s%s%s", tty ? "\r\033[K" : "", done, todo.size(),
                   100.0 * done_cost / std::max(total_cost, 1e-9), it.config->label.c_str(), duration(el).c_str(),
                   duration(eta).c_str(), failed ? (", " + std::to_string(failed) + " failed").c_str() : "",
                   tty ? "" : "\n");
      std::fflush(stderr);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j) pool.emplace_back(worker, j);
  for (std::thread& t : pool) t.join();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  g_running = nullptr;
  if (o.progress && tty && !todo.empty()) std::fprintf(stderr, "\n");
  Outcome out = count(items);
  if (g_stop) {
    out.interrupted = true;
    std::fprintf(stderr, "%s: interrupted: %zu of %zu configurations done; %s\n", o.tool.c_str(), out.done + out.failed,
                 out.total,
                 !o.resume_hint.empty() ? o.resume_hint.c_str()
                                        : ("the same command resumes the sweep (" +
                                           (plans.empty() ? std::string() : plans[0].dir) + ")")
                                              .c_str());
    return out;
  }
  report_failures(items, o, o.rerun_failed || failed > 0);
  return out;
}

// ---- Slurm ----

// Runs a program to completion; its stdout is returned in `out`. While it runs, `tick` is called
// about once a second; when it returns false the program is sent SIGTERM.
int capture(const std::vector<std::string>& args, std::string& out, const std::function<bool()>& tick = {}) {
  char tmpl[] = "/tmp/tilempi-sweep-out.XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) return 127;
  close(fd);
  std::vector<std::string> argv = args;
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, tmpl, O_WRONLY | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  bool signalled = false;
  if (rc == 0)
    for (;;) {
      const pid_t w = waitpid(pid, &status, tick ? WNOHANG : 0);
      if (w == pid) break;
      if (w < 0 && errno != EINTR) break;
      if (w == 0) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (!signalled && !tick()) {
          kill(pid, SIGTERM);
          signalled = true;
        }
      }
    }
  out = slurp(tmpl);
  unlink(tmpl);
  if (rc != 0) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Outcome run_slurm(const std::vector<Plan>& plans, const Options& o) {
  const std::vector<Item> items = all_items(plans);
  // Array indexes stop below the cluster's MaxArraySize: a sweep with more configurations than
  // that puts more into each task (the same number on every resubmission).
  std::size_t max_tasks = 1000;
  {
    std::string conf;
    if (capture({"scontrol", "show", "config"}, conf) == 0) {
      const auto at = conf.find("MaxArraySize");
      const auto eq = at == std::string::npos ? at : conf.find('=', at);
      if (eq != std::string::npos) max_tasks = std::max(1L, std::atol(conf.c_str() + eq + 1) - 1);
    }
  }
  const std::size_t per_task = std::max<std::size_t>(static_cast<std::size_t>(std::max(1, o.group)),
                                                     (items.size() + max_tasks - 1) / max_tasks);
  const int group = static_cast<int>(per_task);
  if (group > o.group)
    std::fprintf(stderr, "%s: %d configurations per task, so that the array fits MaxArraySize\n", o.tool.c_str(), group);
  const int tasks = static_cast<int>((items.size() + per_task - 1) / per_task);
  // Configuration i belongs to task i % tasks: tasks keep their configurations over resubmissions
  // and the expensive ones spread over all tasks.
  std::vector<bool> has_work(static_cast<std::size_t>(tasks), false);
  std::size_t todo = 0;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (wanted(items[i], o.rerun_failed)) {
      has_work[i % static_cast<std::size_t>(tasks)] = true;
      ++todo;
    }
  if (todo == 0) {
    Outcome out = count(items);
    if (o.progress)
      std::fprintf(stderr, "%s: all %zu configurations have a result (%s): nothing to submit\n", o.tool.c_str(),
                   items.size(), plans.empty() ? "" : plans[0].dir.c_str());
    report_failures(items, o, false);
    return out;
  }
  std::string array;
  int ntasks = 0;
  for (int t = 0; t < tasks; ++t)
    if (has_work[static_cast<std::size_t>(t)]) {
      array += (array.empty() ? "" : ",") + std::to_string(t);
      ++ntasks;
    }
  const std::string dir = plans[0].dir + "/slurm";
  fs::create_directories(dir);
  const std::string tool_path = self_dir() + "/tilempi-sweep";
  std::string task_cmd = "exec " + quote(tool_path) + " task --tasks " + std::to_string(tasks);
  if (o.rerun_failed) task_cmd += " --rerun-failed";
  for (const Plan& p : plans) task_cmd += " " + quote(p.file());
  std::vector<std::string> sb = {"sbatch", "--parsable", "--job-name=" + o.tool, "--array=" + array,
                                 "--ntasks=1", "--cpus-per-task=1", "--requeue", "--output=" + dir + "/task-%A_%a.out",
                                 "--chdir=" + fs::current_path().string()};
  if (!o.partition.empty()) sb.push_back("--partition=" + o.partition);
  if (!o.time.empty()) sb.push_back("--time=" + o.time);
  if (!o.account.empty()) sb.push_back("--account=" + o.account);
  for (const std::string& a : o.sbatch_args) sb.push_back(a);
  if (o.wait) sb.push_back("--wait");
  sb.push_back("--wrap=" + task_cmd);
  std::fprintf(stderr, "%s: %zu configurations to run as a Slurm job array: %s (up to %d each, one CPU)%s\n",
               o.tool.c_str(), todo,
               (array.size() > 60 ? std::to_string(ntasks) + " tasks" : "task" + std::string(ntasks > 1 ? "s " : " ") + array).c_str(),
               group, o.wait ? "; waiting for them" : "");
  // While sbatch waits: the array's progress from the status files its tasks leave, every 30 s
  // (every 2 s on a terminal). An interrupt stops the waiting, not the array.
  std::string out;
  g_stop = false;
  struct sigaction sa {}, old_int{}, old_term{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (o.wait) {
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto submitted = fs::file_time_type::clock::now();
  std::vector<Item> waiting;
  for (const Item& it : items)
    if (wanted(it, o.rerun_failed)) waiting.push_back(it);
  const bool tty = isatty(2);
  auto last_print = start;
  std::size_t last_ended = 0;
  const int rc = capture(sb, out, [&] {
    if (g_stop) return false;
    const auto now = std::chrono::steady_clock::now();
    if (!o.progress || now - last_print < std::chrono::seconds(tty ? 2 : 30)) return true;
    last_print = now;
    // Ended: a status written since the submission.
    std::size_t ended = 0, failed = 0;
    for (const Item& it : waiting) {
      std::error_code ec;
      const auto t = fs::last_write_time(it.plan->status_file(*it.config), ec);
      if (ec || t < submitted) continue;
      ++ended;
      if (status_of(*it.plan, *it.config).state == State::failed) ++failed;
    }
    if (!tty && ended == last_ended) return true;
    last_ended = ended;
    const double el = std::chrono::duration<double>(now - start).count();
    std::fprintf(stderr, "%s[%zu/%zu] %3.0f%%  Slurm  elapsed %s%s%s%s", tty ? "\r\033[K" : "", ended, todo,
                 100.0 * static_cast<double>(ended) / static_cast<double>(todo), duration(el).c_str(),
                 ended ? ("  ETA " + duration(el * static_cast<double>(todo - ended) / static_cast<double>(ended))).c_str()
                       : "",
                 failed ? (", " + std::to_string(failed) + " failed").c_str() : "", tty ? "" : "\n");
    std::fflush(stderr);
    return true;
  });
  if (o.wait) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (o.progress && tty) std::fprintf(stderr, "\n");
  }
  const std::string job = out.substr(0, out.find_first_of(";\n"));
  if (g_stop && !job.empty()) {
    Outcome res = count(items);
    res.interrupted = true;
    std::fprintf(stderr, "%s: stopped waiting; job array %s goes on (scancel %s stops it); the same command later "
                 "merges its results\n", o.tool.c_str(), job.c_str(), job.c_str());
    return res;
  }
  if (job.empty()) {
    std::fprintf(stderr, "%s: sbatch failed (status %d)\n", o.tool.c_str(), rc);
    Outcome res = count(items);
    res.pending = std::max<std::size_t>(res.pending, 1);
    return res;
  }
  std::fprintf(stderr, "%s: job array %s%s\n", o.tool.c_str(), job.c_str(),
               o.wait ? (rc == 0 ? " ended" : (" ended, a task with status " + std::to_string(rc)).c_str()) : " submitted");
  if (!o.wait) {
    Outcome res = count(items);
    res.submitted = true;
    if (!o.merge_command.empty()) {
      // The merge runs once every task ended well; a task that failed or was cancelled makes its
      // dependency impossible and Slurm drops the merge job (the same command merges later).
      std::vector<std::string> mb = {"sbatch", "--parsable", "--job-name=" + o.tool + "-merge",
                                     "--dependency=afterok:" + job, "--kill-on-invalid-dep=yes", "--ntasks=1",
                                     "--cpus-per-task=1", "--output=" + dir + "/merge-%j.out",
                                     "--chdir=" + fs::current_path().string(),
                                     "--export=ALL,TILEMPI_SWEEP_MERGE_ONLY=1"};
      if (!o.partition.empty()) mb.push_back("--partition=" + o.partition);
      if (!o.account.empty()) mb.push_back("--account=" + o.account);
      for (const std::string& a : o.sbatch_args) mb.push_back(a);
      mb.push_back("--wrap=" + o.merge_command);
      std::string mout;
      capture(mb, mout);
      const std::string mjob = mout.substr(0, mout.find_first_of(";\n"));
      std::fprintf(stderr, "%s: merge job %s runs after it (afterok:%s); or run the same command again later\n",
                   o.tool.c_str(), mjob.empty() ? "(sbatch failed)" : mjob.c_str(), job.c_str());
    }
    return res;
  }
  Outcome res = rc == 0 ? count_settled(items) : count(items);
  report_failures(items, o, true);
  if (res.pending)
    std::fprintf(stderr,
                 "%s: %zu configurations did not run (a task cancelled or out of time: see %s/task-%s_*.out); the "
                 "same command submits them again\n",
                 o.tool.c_str(), res.pending, dir.c_str(), job.c_str());
  return res;
}

}  // namespace

nlohmann::ordered_json to_json(const Config& c) {
  nlohmann::ordered_json j = {{"id", c.id}};
  if (!c.label.empty() && c.label != c.id) j["label"] = c.label;
  j["argv"] = c.argv;
  if (!c.env.empty()) j["env"] = c.env;
  if (!c.outputs.empty()) j["outputs"] = c.outputs;
  j["cost"] = c.cost;
  return j;
}

Config config_from_json(const nlohmann::ordered_json& j) {
  Config c;
  c.id = j.at("id").get<std::string>();
  c.label = j.value("label", c.id);
  c.argv = j.at("argv").get<std::vector<std::string>>();
  c.env = j.value("env", std::map<std::string, std::string>{});
  c.outputs = j.value("outputs", std::vector<std::string>{});
  c.cost = j.value("cost", 1.0);
  if (c.id.empty() || c.id.find('/') != std::string::npos || c.id[0] == '.')
    throw std::runtime_error("configuration id '" + c.id + "' is not a file name");
  if (c.argv.empty()) throw std::runtime_error("configuration " + c.id + " has no command");
  return c;
}

void write_plan(const Plan& p) {
  fs::create_directories(p.dir + "/runs");
  std::string text = "{\n\"tool\": \"tilempi-sweep\",\n\"version\": 1,\n\"configurations\": [\n";
  for (std::size_t i = 0; i < p.configs.size(); ++i)
    text += to_json(p.configs[i]).dump() + (i + 1 < p.configs.size() ? ",\n" : "\n");
  text += "]\n}\n";
  if (slurp(p.file()) != text) write_atomically(p.file(), text);
}

Plan read_plan(const std::string& path) {
  std::string file = path;
  if (fs::is_directory(file)) file += "/plan.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  Plan p;
  p.dir = fs::absolute(fs::path(file)).parent_path().lexically_normal().string();
  std::map<std::string, int> seen;
  try {
    for (const auto& c : j.at("configurations")) {
      p.configs.push_back(config_from_json(c));
      if (seen[p.configs.back().id]++) throw std::runtime_error("two configurations are named " + p.configs.back().id);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  return p;
}

Status status_of(const Plan& p, const Config& c) {
  Status s;
  const std::string text = slurp(p.status_file(c));
  if (text.empty()) return s;
  try {
    const json j = json::parse(text);
    if (j.at("config") != json::parse(to_json(c).dump()) || j.at("programs") != programs_of(c)) return s;
    s.exit = j.at("exit").get<int>();
    s.seconds = j.value("seconds", 0.0);
  } catch (const std::exception&) {
    return s;
  }
  if (s.exit != 0) {
    s.state = State::failed;
    return s;
  }
  for (const std::string& out : c.outputs)
    if (!fs::exists(out)) return Status{};
  s.state = State::done;
  return s;
}

std::string shell_line(const Config& c) {
  std::string s;
  for (const auto& [k, v] : c.env) s += k + "=" + quote(v) + " ";
  for (const std::string& a : c.argv) s += quote(a) + " ";
  if (!s.empty()) s.pop_back();
  return s;
}

void add_options(CLI::App& app, Options& o) {
  app.add_flag("--rerun-failed", o.rerun_failed, "run the configurations that failed in an earlier run again");
  app.add_flag("--slurm", o.slurm,
               "run the sweep as one Slurm job array (sbatch --array; the work directory must be on a file system the "
               "nodes share), then merge its results; the same command merges later, resubmits what did not run");
  app.add_option("--group", o.group, "--slurm: configurations per array task, run one after the other (default 1)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--partition", o.partition, "--slurm: sbatch --partition");
  app.add_option("--time", o.time, "--slurm: sbatch --time, per array task (e.g. 1:00:00)");
  app.add_option("--account", o.account, "--slurm: sbatch --account");
  app.add_option("--sbatch-arg", o.sbatch_args, "--slurm: one more sbatch option, as it is (repeatable)")
      ->type_name("OPT")
      ->allow_extra_args(false);
  app.add_flag("--no-wait", [&o](std::int64_t) { o.wait = false; },
               "--slurm: return once the array is submitted; a job after it (afterok) merges the results");
}

Outcome run(const std::vector<Plan>& plans, const Options& o) {
  for (const Plan& p : plans) write_plan(p);
  if (merge_only()) {
    // The merge job runs after every task ended well (afterok): wait for their results to show.
    const std::vector<Item> items = all_items(plans);
    Outcome out = count_settled(items);
    report_failures(items, o, false);
    if (out.pending)
      std::fprintf(stderr, "%s: %zu of %zu configurations have no result yet (TILEMPI_SWEEP_MERGE_ONLY=1)\n",
                   o.tool.c_str(), out.pending, out.total);
    return out;
  }
  return o.slurm ? run_slurm(plans, o) : run_local(plans, o);
}

int run_task(const std::vector<Plan>& plans, int tasks, int index, bool rerun_failed) {
  const std::vector<Item> items = all_items(plans);
  int failed = 0;
  g_stop = false;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  for (std::size_t i = static_cast<std::size_t>(index); i < items.size(); i += static_cast<std::size_t>(tasks)) {
    if (!wanted(items[i], rerun_failed)) continue;
    std::fprintf(stdout, "tilempi-sweep: task %d: %s\n", index, shell_line(*items[i].config).c_str());
    std::fflush(stdout);
    const Status s = execute(*items[i].plan, *items[i].config, nullptr);
    std::fprintf(stdout, "tilempi-sweep: task %d: %s: status %d after %.1f s\n", index, items[i].config->label.c_str(),
                 s.exit, s.seconds);
    if (s.state == State::failed) ++failed;
    if (g_stop) break;
  }
  return failed;
}

std::string self_dir() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

}  // namespace tilempi::sweep
