// Fuzz target: tilempi-bench's inputs (apps/bench/driver.cpp, included into this file so that its
// internal parsers can be called): the --sizes and --ranks lists, the CSV that --from reads back
// (through the whole --from path: reader, tables), and the command line. The first input byte
// chooses which. A bad input must be a usage error (UsageError, exit status 2) with a message.
// The command line runs with launcher and benchmark paths that do not exist, so no job starts,
// and without the options that write files.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define main tilempi_bench_main_unused
#include "../apps/bench/driver.cpp"
#undef main

#include "fuzz_input.h"

namespace {

/// A private file for --from, removed at exit.
const std::string& csv_path() {
  static const std::string path = [] {
    char tmpl[] = "/tmp/tilempi-fuzz-bench.XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) std::abort();
    close(fd);
    static std::string keep = tmpl;
    std::atexit([] { unlink(keep.c_str()); });
    return keep;
  }();
  return path;
}

int run_main(std::vector<std::string> args) {
  std::vector<char*> argv{const_cast<char*>("tilempi-bench")};
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    return bench_main(static_cast<int>(argv.size()) - 1, argv.data());
  } catch (const tilempi::bench::UsageError&) {
    return tilempi::bench::kExitUsage;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilempi::bench;
  if (size == 0 || size > 4096) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 4) {
    case 0:
      try {
        for (long v : parse_sizes(rest))
          if (v < 0 || v > (1L << 30)) std::abort();
      } catch (const UsageError&) {
      }
      break;
    case 1:
      try {
        for (int v : parse_ranks(rest))
          if (v < 1 || v > 4096) std::abort();
      } catch (const UsageError&) {
      }
      break;
    case 2: {
      FILE* f = std::fopen(csv_path().c_str(), "wb");
      if (!f) std::abort();
      std::fwrite(rest.data(), 1, rest.size(), f);
      std::fclose(f);
      (void)run_main({"--from", csv_path(), "-q"});
      break;
    }
    default: {
      std::vector<std::string> args{"--tilempirun", "/nonexistent/tilempirun", "--bench-mpi", "/nonexistent/bench"};
      for (const std::string& a : tilempi::fuzz::split_lines(data + 1, size - 1, 32)) {
        for (const char* skip : {"--tilempirun", "--bench-mpi", "--work-dir", "--csv", "--json", "--table", "--plot",
                                 "--figures", "--from"})
          if (a.rfind(skip, 0) == 0) return 0;
        args.push_back(a);
      }
      (void)run_main(args);
    }
  }
  return 0;
}
