// Fuzz target: tilempi-noc's command line (apps/noc/main.cpp, compiled into this target with its
// main renamed): one argument per input line. The traffic run itself is replaced by one that
// runs only small experiments (a few tiles, a few thousand cycles), so that the fuzzer spends its
// time in the option and configuration paths; options that write or read files are left out.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/traffic.h"

int tilempi_noc_main(int argc, char** argv);

namespace tilempi::hwmodel {
// Called by main.cpp in place of run_traffic (see fuzz/CMakeLists.txt).
TrafficResult fuzz_bounded_run_traffic(const Config& c, const TrafficSpec& s) {
  const bool small = c.width * c.height <= 16 && s.warmup <= 500 && s.measure <= 2000 && s.rate <= 1.0 &&
                     (s.drain_limit == kDrainAuto || s.drain_limit <= 8000);
  if (!small) return TrafficResult{};
  return run_traffic(c, s);
}
}  // namespace tilempi::hwmodel

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  std::vector<std::string> args = tilempi::fuzz::split_lines(data, size, 32);
  std::vector<char*> argv{const_cast<char*>("tilempi-noc")};
  for (std::string& a : args) {
    for (const char* skip : {"--json", "--csv", "--packets-csv", "--pairs-csv", "--heatmap", "--config", "--threads", "--sweep"})
      if (a.rfind(skip, 0) == 0) return 0;
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  const int rc = tilempi_noc_main(static_cast<int>(argv.size()) - 1, argv.data());
  if (rc < 0) std::abort();
  return 0;
}
