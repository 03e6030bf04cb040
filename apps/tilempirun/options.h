// tilempirun's command line: what the user asked for, parsed and checked before anything starts.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tilempi/transport/job_settings.h"

namespace tilempirun {

/// Exit statuses of the launcher itself (a rank's own status is passed through unchanged).
inline constexpr int kExitUsage = 2;         ///< bad option or value
inline constexpr int kExitLaunchFailed = 1;  ///< the job could not be created or started
inline constexpr int kExitNotExecutable = 126;
inline constexpr int kExitNotFound = 127;
inline constexpr int kExitTimeout = 124;     ///< --timeout expired (as timeout(1))

/// What the user asked for, resolved: the job.* keys (job_keys.h; parse_command_line sets each
/// from its flag, its --set key or its declared default, the one default of each) and the sim.*
/// keys (tilempi/transport/job_settings.h).
struct Options {
  int nranks = 0;             ///< job.ranks
  std::string transport;      ///< job.transport
  bool bind = false;          ///< job.bind: core
  bool tag_output = false;    ///< job.tag_output
  double timeout_s = 0;       ///< job.timeout; 0: none
  /// job.deadlock_after: host: end a job that has made no progress for this long (every rank
  /// waiting in MPI, nothing in flight), saying where each rank waits; 0: never.
  double deadlock_after_s = 0;
  int mesh_width = 0;         ///< job.mesh; 0: the default grid for nranks
  int mesh_height = 0;
  std::string coll;           ///< job.coll: passed to ranks as TILEMPI_COLL
  std::string workdir;        ///< job.wdir: the ranks' working directory (empty: the launcher's)
  /// Each rank's stdout and stderr to a file instead of the launcher's (empty: the launcher's):
  /// a path in which %r is the rank, %h this host's name, %g the job (0) and %% a '%'
  /// (MPICH's -outfile-pattern/-errfile-pattern; Open MPI's --output-filename DIR is
  /// DIR/1/rank.%r/stdout and .../stderr). Ranks whose paths are the same share the file.
  std::string out_pattern, err_pattern;  ///< job.stdout, job.stderr
  bool report_bindings = false;          ///< job.report_bindings
  bool verbose = false;       ///< job.verbose
  /// The sim transport's settings (JobSpec::sim): the sim flags and every --set key, resolved.
  tilempi::transport::SimSettings sim;
  /// -x: variables added to (or, without '=', copied into) every rank's environment.
  std::vector<std::pair<std::string, std::string>> env;
  std::string program;             ///< as given (the first program's, when there are several)
  std::vector<std::string> args;   ///< the program's arguments, untouched
  /// The programs of an MPMD job (`-n 1 a : -n 4 b`, MPI-3.1 §10.5.1), in rank order: ranks
  /// [0, apps[0].nranks) run apps[0], and so on. One entry (program, args, nranks) otherwise.
  struct App {
    std::string program;
    std::vector<std::string> args;
    int nranks = 0;
  };
  std::vector<App> apps;
};

/// The result of parsing: either options to run, or a status to exit with right away
/// (--help, --version, --coll help, or a usage error that has already been printed).
struct ParseResult {
  std::optional<Options> options;
  int exit_status = 0;
};

ParseResult parse_command_line(int argc, const char* const* argv);

}  // namespace tilempirun
