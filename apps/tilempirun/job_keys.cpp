// tilempirun's job.* keys (job_keys.h).
#include "job_keys.h"

#include <cerrno>
#include <cstdlib>

#include "options.h"
#include "tilempi/transport/transport_settings.h"

namespace tilempirun {

namespace st = tilempi::settings;

namespace job_keys {

const Setting& ranks() {
  static const Setting s = st::with_flags(
      st::integer("job.ranks", st::Source::job, 1, 999999999, "the mesh size --config gives, else 1 (as mpiexec)",
                  "number of ranks (--ppn, ranks per host, gives it when -n does not: tilempi has one host)"),
      {"-n", "--np", "--ppn (without -n)"});
  return s;
}

const Setting& transport() {
  static const Setting s = st::with_flags(
      st::choice("job.transport", st::Source::job, {"host", "sim"}, "host",
                 "host: real cores, shared memory; sim: the modeled chip"),
      {"--transport"});
  return s;
}

const Setting& bind() {
  static const Setting s = st::with_flags(
      st::choice("job.bind", st::Source::job, {"core", "none"}, "core", "pin each rank to a core (core) or not (none)"),
      {"--bind", "--bind-to"});
  return s;
}

const Setting& tag_output() {
  static const Setting s = st::with_flags(
      st::boolean("job.tag_output", st::Source::job, "false", "prefix each output line with [rank]"),
      {"--tag-output (true)"});
  return s;
}

const Setting& timeout() {
  static const Setting s = st::with_flags(
      st::text("job.timeout", st::Source::job, "a number of seconds > 0", "$MPIEXEC_TIMEOUT, else none",
               "end the whole job after this many seconds (exit status 124), saying where each rank waits"),
      {"--timeout"});
  return s;
}

const Setting& deadlock_after() {
  static const Setting s = st::with_flags(
      st::text("job.deadlock_after", st::Source::job, "a number of seconds >= 0; 0: never",
               "$TILEMPI_HOST_DEADLOCK_AFTER, else " + tilempi::transport::settings::host_deadlock_after_env().default_value,
               "host: end a job in which every rank has waited in MPI with nothing in flight for this many seconds, "
               "saying where each rank waits (exit status 1)"),
      {"--deadlock-after"});
  return s;
}

const Setting& mesh() {
  static const Setting s = st::with_flags(
      st::text("job.mesh", st::Source::job, "WxH, e.g. 7x7, with at least as many tiles as ranks",
               "the mesh size --config gives, else width ceil(sqrt(N)), rows as needed", "the rank grid"),
      {"--mesh"});
  return s;
}

const Setting& coll() {
  static const Setting s = st::with_flags(
      st::text("job.coll", st::Source::job,
               "collective=algorithm[,...], e.g. alltoall=mesh_rounds,barrier=ktree:4 (--coll help lists them)",
               "the library's selector", "collective algorithms, checked before any rank starts; the ranks get it as TILEMPI_COLL"),
      {"--coll"});
  return s;
}

const Setting& workdir() {
  static const Setting s = st::with_flags(
      st::text("job.wdir", st::Source::job, "a directory", "the launcher's", "the ranks' working directory"),
      {"--wdir"});
  return s;
}

namespace {
/// job.stdout, job.stderr: a rank's stream to a file named by a pattern.
Setting output_pattern(const char* key, const char* stream, std::vector<std::string> flags) {
  return st::with_flags(
      st::text(key, st::Source::job, "a path; %r the rank, %h the host, %g the job (0), %% a '%'", "the launcher's",
               std::string("each rank's ") + stream +
                   " to this file instead (ranks with the same path share it; on the sim the ranks then run as processes)"),
      std::move(flags));
}
}  // namespace

const Setting& stdout_pattern() {
  static const Setting s =
      output_pattern("job.stdout", "stdout", {"--outfile-pattern", "--output-filename (DIR/1/rank.%r/stdout)"});
  return s;
}

const Setting& stderr_pattern() {
  static const Setting s =
      output_pattern("job.stderr", "stderr", {"--errfile-pattern", "--output-filename (DIR/1/rank.%r/stderr)"});
  return s;
}

const Setting& report_bindings() {
  static const Setting s = st::with_flags(
      st::boolean("job.report_bindings", st::Source::job, "false",
                  "host: each rank says on stderr which core it is bound to"),
      {"--report-bindings (true)"});
  return s;
}

const Setting& verbose() {
  static const Setting s = st::with_flags(
      st::boolean("job.verbose", st::Source::job, "false", "say what the launcher does"), {"--verbose (true)"});
  return s;
}

const Setting& mpiexec_timeout_env() {
  static const Setting s = st::text("MPIEXEC_TIMEOUT", st::Source::environment, "a number of seconds > 0", "",
                                    "the default of --timeout (job.timeout), as mpiexec reads it");
  return s;
}

namespace {
const std::vector<const Setting*>& list() {
  static const std::vector<const Setting*> l{&bind(),       &coll(),         &deadlock_after(), &mesh(),
                                             &ranks(),      &report_bindings(), &stderr_pattern(), &stdout_pattern(),
                                             &tag_output(), &timeout(),       &transport(),      &verbose(),
                                             &workdir()};
  return l;
}
}  // namespace

std::vector<Setting> all() {
  std::vector<Setting> out;
  for (const Setting* s : list()) out.push_back(*s);
  return out;
}

const Setting* find(const std::string& key) {
  for (const Setting* s : list())
    if (s->name == key) return s;
  return nullptr;
}

}  // namespace job_keys

namespace {

/// A decimal number of seconds, all of `text`, in [lo, 1e7] (lo excluded when `open`).
bool seconds(const std::string& text, double lo, bool open, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && end && *end == '\0' && (open ? out > lo : out >= lo) && out <= 1e7;
}

/// "WxH" with positive integers.
bool parse_mesh(const st::Setting& d, const std::string& text, int& w, int& h) {
  auto x = text.find_first_of("xX");
  if (x == std::string::npos) return false;
  try {
    w = static_cast<int>(st::to_integer(d, text.substr(0, x), 1, 1 << 20));
    h = static_cast<int>(st::to_integer(d, text.substr(x + 1), 1, 1 << 20));
  } catch (const st::Error&) {
    return false;
  }
  return true;
}

}  // namespace

void apply_job_key(Options& o, const std::string& key, const std::string& value) {
  namespace jk = job_keys;
  const st::Setting* d = jk::find(key);
  if (!d) st::unknown_key(key, "job keys", jk::all());
  if (d == &jk::ranks()) {
    o.nranks = static_cast<int>(st::to_integer(*d, value));
  } else if (d == &jk::transport()) {
    o.transport = st::to_choice(*d, value);
  } else if (d == &jk::bind()) {
    o.bind = st::to_choice(*d, value) == "core";
  } else if (d == &jk::tag_output()) {
    o.tag_output = st::to_boolean(*d, value);
  } else if (d == &jk::timeout()) {
    if (!seconds(value, 0, true, o.timeout_s)) st::bad_value(*d, value, "a positive number of seconds");
  } else if (d == &jk::deadlock_after()) {
    if (!seconds(value, 0, false, o.deadlock_after_s)) st::bad_value(*d, value, "a number of seconds >= 0 (0: never)");
  } else if (d == &jk::mesh()) {
    if (!parse_mesh(*d, value, o.mesh_width, o.mesh_height)) st::bad_value(*d, value, "WxH, e.g. 7x7");
  } else if (d == &jk::coll()) {
    o.coll = value;
  } else if (d == &jk::workdir()) {
    o.workdir = value;
  } else if (d == &jk::verbose()) {
    o.verbose = st::to_boolean(*d, value);
  } else if (d == &jk::report_bindings()) {
    o.report_bindings = st::to_boolean(*d, value);
  } else if (d == &jk::stdout_pattern() || d == &jk::stderr_pattern()) {
    for (std::size_t at = value.find('%'); at != std::string::npos; at = value.find('%', at + 2))
      if (at + 1 == value.size() || std::string("rhg%").find(value[at + 1]) == std::string::npos)
        st::bad_value(*d, value, "a path whose escapes are %r (rank), %h (host), %g (job) and %%");
    (d == &jk::stdout_pattern() ? o.out_pattern : o.err_pattern) = value;
  }
}

}  // namespace tilempirun
