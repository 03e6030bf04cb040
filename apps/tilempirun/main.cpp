// tilempirun: start an MPI program as N ranks. See options.h for the command line and
// launcher.h for how a job runs and ends.
#include "launcher.h"
#include "options.h"

#include <cstdlib>
#include <cstring>

#include "watchdog.h"

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], tilempirun::kWatchdogArgument) == 0)
    return tilempirun::run_segment_watchdog(std::atoi(argv[2]), argv[3]);
  auto parsed = tilempirun::parse_command_line(argc, argv);
  if (!parsed.options) return parsed.exit_status;
  return tilempirun::run_job(*parsed.options);
}
