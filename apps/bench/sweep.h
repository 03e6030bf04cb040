// Sweeps as plans: a sweep is a list of configurations, each one self-contained command (a
// tilempirun invocation) with its log and output files, written out as DIR/plan.json. A plan runs
// on the local machine (N at a time, progress and ETA) or as one Slurm job array; either way each
// configuration leaves DIR/runs/ID.status once it ended, and a configuration whose status
// matches the plan (same command, same programs) is not run again: an interrupted sweep resumes.
// Used by tilempi-bench (its sweeps) and tilempi-sweep (the experiment scripts' sweeps).
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tilempi::sweep {

/// One configuration: a command and the files it writes.
struct Config {
  std::string id;                           // unique in its plan; names DIR/runs/ID.{log,status}
  std::string label;                        // for progress lines (default: the id)
  std::vector<std::string> argv;            // argv[0]: a program path
  std::map<std::string, std::string> env;   // set for this command only
  std::vector<std::string> outputs;         // files it writes besides its log (absolute paths)
  double cost = 1;                          // relative cost: the ETA and the spread over tasks
};

/// A sweep's configurations and the directory their plan, logs and statuses live in.
struct Plan {
  std::string dir;  // absolute
  std::vector<Config> configs;
  std::string file() const { return dir + "/plan.json"; }
  std::string log(const Config& c) const { return dir + "/runs/" + c.id + ".log"; }
  std::string status_file(const Config& c) const { return dir + "/runs/" + c.id + ".status"; }
};

/// The plan's form of a configuration: id first, then the command (ordered, for people reading it).
nlohmann::ordered_json to_json(const Config& c);
Config config_from_json(const nlohmann::ordered_json& j);
/// Writes DIR/plan.json (one configuration per line, so that two plans diff line by line) and
/// creates DIR/runs. Throws std::runtime_error on an unwritable directory.
void write_plan(const Plan& p);
/// Reads a plan.json (or the plan.json of a directory). Throws std::runtime_error.
Plan read_plan(const std::string& path);

/// What a configuration's status file says against the plan.
enum class State { pending, done, failed };
struct Status {
  State state = State::pending;
  int exit = 0;          // failed: the command's status (128+N: killed by signal N)
  double seconds = 0;    // how long it ran
};
Status status_of(const Plan& p, const Config& c);
/// The command as a shell line (quoted where needed), with its environment in front.
std::string shell_line(const Config& c);

/// How to run the plans: locally, or as a Slurm job array.
struct Options {
  int jobs = 1;               // local: configurations at a time
  bool progress = true;
  bool rerun_failed = false;  // configurations that failed before are run again (else reported)
  bool slurm = false;
  int group = 1;              // slurm: configurations per array task (run one after the other)
  std::string partition, time, account;
  std::vector<std::string> sbatch_args;  // more sbatch options, passed as they are
  bool wait = true;           // slurm: wait for the array, else return once it is submitted
  std::string merge_command;  // slurm --no-wait: a shell line the merge job runs (afterok)
  std::string tool = "tilempi-sweep";  // the name messages start with
  std::string resume_hint;             // how to resume after an interrupt (default: the same command)
};
/// --slurm, --group, --partition, --time, --account, --sbatch-arg, --no-wait, --rerun-failed.
void add_options(CLI::App& app, Options& o);

/// What a run left: how many configurations are done, failed, or still to run.
struct Outcome {
  std::size_t total = 0, done = 0, failed = 0, pending = 0;
  bool interrupted = false;  // local: SIGINT or SIGTERM stopped it (exit 130)
  bool submitted = false;    // slurm --no-wait: the array and the merge job are queued
  bool complete() const { return pending == 0 && !interrupted && !submitted; }
};

/// Runs what is not done yet of the plans (each written first), locally or through Slurm.
/// With TILEMPI_SWEEP_MERGE_ONLY=1 in the environment (the merge job) nothing runs: the
/// outcome says what is there. Prints progress and every failure with its command.
Outcome run(const std::vector<Plan>& plans, const Options& o);

/// Inside an array task: runs the configurations of task INDEX of TASKS (the plans' configurations
/// in order, dealt out round-robin), one after the other. Returns how many failed. Stops at
/// SIGTERM (scancel), leaving the configuration it ran pending.
int run_task(const std::vector<Plan>& plans, int tasks, int index, bool rerun_failed);

/// The directory this program lives in (to find tilempirun, tilempi-sweep next to it).
std::string self_dir();

}  // namespace tilempi::sweep
