// The launcher's side of a job: create what the ranks share, tell them how to find it in the
// environment, and always remove it again. Used by tilempirun only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tilempi/transport/job_settings.h"

namespace tilempi::transport {

/// Environment variables the launcher sets for each rank.
inline constexpr const char* kEnvRank = "TILEMPI_RANK";
inline constexpr const char* kEnvSize = "TILEMPI_SIZE";
inline constexpr const char* kEnvJob = "TILEMPI_JOB";              ///< shared-memory name of the job
inline constexpr const char* kEnvTransport = "TILEMPI_TRANSPORT";  ///< host | sim
inline constexpr const char* kEnvBind = "TILEMPI_BIND";            ///< core | none
inline constexpr const char* kEnvMesh = "TILEMPI_MESH";            ///< WxH of the rank grid
inline constexpr const char* kEnvLauncherPid = "TILEMPI_LAUNCHER_PID";
/// MPMD: the number of the program a rank runs (0 for the first after tilempirun's options),
/// which MPI_APPNUM gives; unset with one program.
inline constexpr const char* kEnvAppnum = "TILEMPI_APPNUM";
/// tilempirun --report-bindings: each rank process says on stderr which core it is bound to.
inline constexpr const char* kEnvReportBindings = "TILEMPI_REPORT_BINDINGS";

/// The variables other launchers set for each rank, which scripts and programs read before
/// MPI_Init (a per-rank output file, a device chosen by local rank): MPICH's Hydra (PMI_RANK,
/// PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS), Open MPI's (OMPI_COMM_WORLD_*, OMPI_UNIVERSE_SIZE)
/// and PMIx's (PMIX_RANK). tilempi has one host, so a rank's local and node rank are its rank.
inline constexpr const char* kForeignRankVariables[] = {
    "PMI_RANK", "MPI_LOCALRANKID", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_NODE_RANK", "PMIX_RANK"};
inline constexpr const char* kForeignSizeVariables[] = {
    "PMI_SIZE", "MPI_LOCALNRANKS", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_UNIVERSE_SIZE"};

/// Why a job ended when a rank left main between MPI_Init and MPI_Finalize (the abort record's
/// text on host, the sim's report), so that the launcher can say it in those words.
inline constexpr const char* kExitedWithoutFinalize = "exited without MPI_Finalize";

struct JobSpec {
  int nranks = 1;
  std::string transport = "host";  ///< host | sim
  int mesh_width = 0;              ///< 0: default_placement()
  int mesh_height = 0;
  bool bind = true;
  /// The sim transport's settings, resolved and typed (the host transport has none).
  SimSettings sim;
  /// The program the ranks run (a resolved path), and whether output lines get a [rank] tag.
  std::string program;
  bool tag_output = false;
  /// MPMD (`-n 1 a : -n 4 b`): the ranks run several programs (`program` is the first). The sim
  /// then runs ranks as processes: its contexts hold one program.
  bool several_programs = false;
  /// Each rank's output goes to a file of its own (--output-filename, --outfile-pattern): the
  /// sim then runs ranks as processes, whose output the launcher tells apart.
  bool output_per_rank = false;
};

/// Why a rank asked the job to end (MPI_Abort or a fatal MPI error).
struct AbortRecord {
  int rank = -1;
  int code = 0;
  std::string why;
};

class Job {
 public:
  /// Creates the job's shared state. Throws std::runtime_error with a readable message.
  static std::unique_ptr<Job> create(const JobSpec& spec);
  virtual ~Job() = default;  ///< removes every shared-memory object of the job

  /// Variables to add to every rank's environment (the launcher adds kEnvRank itself).
  virtual std::vector<std::pair<std::string, std::string>> environment() const = 0;
  /// Start backend services that live in the launcher (the sim engine); called before ranks start.
  virtual void start() {}
  /// When the backend runs every rank inside one process of its own (the sim's ranks as
  /// contexts): that process's program. The launcher then starts it once, as
  /// `host PROGRAM ARGS...`, instead of starting PROGRAM once per rank. Empty otherwise.
  virtual std::string rank_host() const { return {}; }
  /// A one-line notice for the user about how the job runs (e.g. why ranks run as processes).
  virtual std::string notice() const { return {}; }
  /// A rank's process ended (status as from waitpid).
  virtual void rank_exited(int rank, int wait_status) { (void)rank; (void)wait_status; }
  /// The first abort a rank recorded, if any.
  virtual bool abort_record(AbortRecord& out) const = 0;
  /// The rank has been through MPI_Finalize (it says so in the job's shared memory before the
  /// call returns). A rank that then exits with a nonzero status fails the job with that status
  /// but does not end it: the other ranks finish and their output is kept, as with MPICH.
  virtual bool rank_finalized(int rank) const { (void)rank; return false; }
  /// How long the job has made no progress as far as the backend can see (host: every rank
  /// still running has waited in MPI with nothing to do, and nothing in flight), in seconds; 0
  /// while it makes progress, nothing when the backend does not watch (the sim reports a
  /// deadlock itself). The launcher calls it a few times a second: each call is one look.
  virtual std::optional<double> seconds_without_progress() { return std::nullopt; }
  /// The report of a job that made no progress for `seconds`: a first line, then one line per
  /// rank that waits with its MPI call and pending operations (as the sim's deadlock report),
  /// and the ranks that ended. Asks each waiting rank (within a second or two).
  virtual std::string no_progress_report(double seconds) { (void)seconds; return {}; }
  /// One line per rank still running: where it waits (its MPI call and pending operations) or
  /// that it runs outside a wait; empty when the backend cannot tell. For a job about to be
  /// ended (--timeout); asks each rank (within a second or two).
  virtual std::string where_ranks_wait() { return {}; }
  /// The launcher ends the job itself (--timeout, --deadlock-after, a signal to tilempirun, a
  /// failed rank): the ranks it ends did not end on their own, and finish() need not say so.
  virtual void ending_by_launcher() {}
  /// Stop services and write reports; called after every rank has ended. Returns a non-empty
  /// message when the backend itself failed the job (e.g. a deadlock the sim engine detected).
  virtual std::string finish() { return {}; }
  /// Remove shared memory now (also done by the destructor); safe to call from a signal path.
  virtual void unlink() = 0;
};

}  // namespace tilempi::transport
