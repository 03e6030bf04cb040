// Fuzz target: tilempirun's command line (apps/tilempirun/options.cpp, compiled into this
// target): one argument per input line, through parse_command_line, which must either return
// options that hold together or an exit status with a message, for any argument vector.
// Options that read or open files the fuzzer names are left out (--config, the host files of
// -hostfile/-machinefile/-f, and --report/--trace, which are opened for writing before a run, and
// their keys sim.config, sim.report, sim.trace):
// a path such as /dev/zero would be a test of the file system, not of the parser.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../apps/tilempirun/options.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  std::vector<std::string> args = tilempi::fuzz::split_lines(data, size, 32);
  std::vector<const char*> argv{"tilempirun"};
  for (const std::string& a : args) {
    for (const char* touches_files : {"--con", "--rep", "--tra", "--hostf", "-hostf", "--machinef", "-machinef", "-f"})
      if (a.find(touches_files) == 0) return 0;
    // The same settings as keys (--set sim.config=FILE, ...).
    for (const char* file_key : {"sim.con", "sim.rep", "sim.tra"})
      if (a.find(file_key) != std::string::npos) return 0;
    argv.push_back(a.c_str());
  }
  const tilempirun::ParseResult r = tilempirun::parse_command_line(static_cast<int>(argv.size()), argv.data());
  if (r.options) {
    const tilempirun::Options& o = *r.options;
    // (An empty program name is accepted here: the launcher reports it, with status 127.)
    if (o.nranks <= 0) std::abort();
    if (o.mesh_width < 0 || o.mesh_height < 0) std::abort();
    if (o.mesh_width > 0 && static_cast<long>(o.mesh_width) * o.mesh_height < o.nranks) std::abort();
    if (o.transport != "host" && o.transport != "sim") std::abort();
  } else if (r.exit_status < 0) {
    std::abort();
  }
  return 0;
}
