// tilempi-sweep: runs sweeps written as plans (sweep.h) — the experiment scripts' sweeps and the
// tasks of a Slurm job array that tilempi-bench --slurm or `tilempi-sweep run --slurm` submits.
//   tilempi-sweep add DIR --id ID [--output FILE]... [--env K=V]... [--cost C] -- PROGRAM ARGS...
//   tilempi-sweep run DIR... [-j N] [--rerun-failed] [--slurm [--group G] [--partition P] ...]
//   tilempi-sweep status DIR...
//   tilempi-sweep task --tasks T DIR...        (inside an array task: SLURM_ARRAY_TASK_ID)
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "../cli_exit.h"
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sweep.h"

namespace fs = std::filesystem;
using namespace tilempi::sweep;

namespace {

std::vector<Plan> read_plans(const std::vector<std::string>& paths) {
  std::vector<Plan> plans;
  for (const std::string& p : paths) plans.push_back(read_plan(p));
  return plans;
}

int sweep_main(int argc, char** argv) {
  CLI::App app{
      "tilempi-sweep: runs sweeps written as plans (DIR/plan.json: one self-contained command per configuration, "
      "with its log and output files) on this machine, N at a time, or as one Slurm job array. A configuration "
      "whose result is there and matches the plan is not run again, so an interrupted sweep resumes where it "
      "stopped.\n\n"
      "Examples:\n"
      "  tilempi-sweep add sweep --id a -- build/bin/tilempirun -n 4 build/bin/coll_once bcast 8\n"
      "  tilempi-sweep run sweep -j 2\n"
      "  tilempi-sweep run sweep --slurm --partition short --time 10:00 --group 4 --no-wait\n",
      "tilempi-sweep"};
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);

  std::string add_dir, id, label;
  std::vector<std::string> outputs, env, command;
  double cost = 1;
  CLI::App* add = app.add_subcommand("add", "add a configuration to the plan in DIR (replacing one of the same id)");
  add->add_option("dir", add_dir, "the sweep's directory")->required();
  add->add_option("--id", id, "the configuration's name (DIR/runs/ID.log, ID.status)")->required();
  add->add_option("--label", label, "what progress lines call it (default: the id)");
  add->add_option("--output", outputs, "a file the command writes (repeatable)")->allow_extra_args(false);
  add->add_option("--env", env, "K=V set for the command (repeatable)")->allow_extra_args(false);
  add->add_option("--cost", cost, "relative cost, for the ETA and the spread over Slurm tasks (default 1)");
  add->add_option("command", command, "-- PROGRAM ARGS...")->required();

  std::vector<std::string> dirs;
  Options o;
  o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool quiet = false;
  std::string merge;
  CLI::App* run = app.add_subcommand("run", "run what is not done yet of the plans in DIR...");
  run->add_option("dirs", dirs, "sweep directories (or their plan.json)")->required();
  run->add_option("-j,--jobs", o.jobs, "configurations run in parallel (default: the number of cores)")
      ->check(CLI::Range(1, 1024));
  run->add_flag("-q,--quiet", quiet, "no progress lines");
  run->add_option("--merge-command", merge,
                  "--slurm --no-wait: a shell command a job after the array runs (afterok) with "
                  "TILEMPI_SWEEP_MERGE_ONLY=1, e.g. the script that made the plans");
  add_options(*run, o);

  std::vector<std::string> status_dirs;
  CLI::App* status = app.add_subcommand("status", "say per plan how many configurations are done, failed, pending; "
                                                  "exit 0 when all are done");
  status->add_option("dirs", status_dirs, "sweep directories")->required();

  std::vector<std::string> task_dirs;
  int tasks = 0, index = -1;
  bool rerun_failed = false;
  CLI::App* task = app.add_subcommand("task", "run one Slurm array task's configurations (what --slurm submits)");
  task->add_option("dirs", task_dirs, "sweep directories")->required();
  task->add_option("--tasks", tasks, "the array's number of tasks")->required()->check(CLI::Range(1, 100000000));
  task->add_option("--index", index, "the task (default: SLURM_ARRAY_TASK_ID)");
  task->add_flag("--rerun-failed", rerun_failed, "run configurations that failed before too");

  if (int st = tilempi::apps::parse_command_line(app, argc, argv); st >= 0) return st;
  try {
    if (*add) {
      Plan p;
      p.dir = fs::absolute(add_dir).lexically_normal().string();
      if (fs::exists(p.file())) p = read_plan(p.dir);
      Config c;
      c.id = id;
      c.label = label.empty() ? id : label;
      c.argv = command;
      c.cost = cost;
      for (const std::string& out : outputs) c.outputs.push_back(fs::absolute(out).lexically_normal().string());
      for (const std::string& kv : env) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw std::runtime_error("--env " + kv + ": expected K=V");
        c.env[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
      config_from_json(to_json(c));  // the same checks as reading it back
      bool replaced = false;
      for (Config& x : p.configs)
        if (x.id == c.id) {
          x = c;
          replaced = true;
        }
      if (!replaced) p.configs.push_back(c);
      write_plan(p);
      return 0;
    }
    if (*run) {
      o.progress = !quiet;
      o.merge_command = merge;
      const Outcome out = tilempi::sweep::run(read_plans(dirs), o);
      if (out.interrupted) return 130;
      if (out.submitted) return 0;
      return out.pending || out.failed ? 1 : 0;
    }
    if (*status) {
      int rc = 0;
      for (const Plan& p : read_plans(status_dirs)) {
        std::size_t n[3] = {0, 0, 0};
        for (const Config& c : p.configs) ++n[static_cast<int>(status_of(p, c).state)];
        std::printf("%s: %zu configurations: %zu done, %zu failed, %zu pending\n", p.dir.c_str(), p.configs.size(),
                    n[static_cast<int>(State::done)], n[static_cast<int>(State::failed)],
                    n[static_cast<int>(State::pending)]);
        for (const Config& c : p.configs)
          if (status_of(p, c).state == State::failed)
            std::printf("  failed: %s (log %s)\n    %s\n", c.label.c_str(), p.log(c).c_str(), shell_line(c).c_str());
        if (n[0] || n[2]) rc = 1;
      }
      return rc;
    }
    if (*task) {
      if (index < 0) {
        const char* v = std::getenv("SLURM_ARRAY_TASK_ID");
        if (!v) throw std::runtime_error("task: no --index and no SLURM_ARRAY_TASK_ID");
        index = std::atoi(v);
      }
      // A configuration that failed is recorded as such; the task itself ends well, so that the
      // merge job (afterok) runs and reports it. A cancelled task ends by signal instead.
      run_task(read_plans(task_dirs), tasks, index, rerun_failed);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilempi-sweep: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return sweep_main(argc, argv); }
