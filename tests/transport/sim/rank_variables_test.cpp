// Library variables bound to the running rank (transport/sim/rank_variables.h): the C library's
// getopt and setenv work on the bound rank's copy of a -fPIE program's variables. The sample
// (samples/environ_reader.c) holds copies of environ and optind; optarg, opterr and optopt get
// cells of the simulator's.
#include "sim/rank_variables.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/program_image.h"

namespace tilempi::transport::sim {
namespace {

struct TwoCopies {
  ProgramImage image;
  LoadedCopy copy[2];
  RankVariables vars;

  static ProgramImage inspect(const char* path) {
    std::string why;
    std::optional<ProgramImage> img = ProgramImage::inspect(path, why);
    if (!img) throw std::runtime_error(std::string(path) + ": " + why);
    return std::move(*img);
  }
  TwoCopies() : image(inspect(SAMPLE_ENVIRON_PIE)) {
    for (LoadedCopy& c : copy) c = image.load_copy();
    vars.build({{copy[0].handle, copy[0].base}, {copy[1].handle, copy[1].base}}, image.copy_relocated_symbols());
  }
  ~TwoCopies() { vars.bind(-1); }
  template <class T>
  T& of(int rank, const char* name) {
    void* p = ::dlsym(copy[rank].handle, name);
    if (!p) throw std::runtime_error(std::string("no ") + name + " in the copy");
    return *static_cast<T*>(p);
  }
};

// The arguments every getopt call below parses: one option with its argument.
char* const* sample_args() {
  static char p[] = "p", x[] = "-x", seven[] = "7";
  static char* argv[] = {p, x, seven, nullptr};
  return argv;
}

TEST(RankVariables, GetoptWritesTheBoundRanksCopy) {
  TwoCopies t;
  ASSERT_GE(t.vars.variables(), 5u);  // environ, optind (copies); optarg, opterr, optopt (cells)
  ASSERT_GE(t.vars.references(), 5u);
  int& optind0 = t.of<int>(0, "optind");
  int& optind1 = t.of<int>(1, "optind");
  ASSERT_EQ(optind0, 1);
  ASSERT_EQ(optind1, 1);

  t.vars.bind(0);
  EXPECT_EQ(::getopt(3, sample_args(), "x:"), 'x');
  EXPECT_EQ(optind0, 3) << "getopt advanced rank 0's optind";
  EXPECT_EQ(optind1, 1) << "rank 1's optind is untouched";
  EXPECT_EQ(::getopt(3, sample_args(), "x:"), -1);

  t.vars.bind(1);
  EXPECT_EQ(::getopt(3, sample_args(), "x:"), 'x') << "rank 1 parses from its own optind 1";
  EXPECT_EQ(optind1, 3);
  optind1 = 1;  // the program resets it: the next loop starts over
  EXPECT_EQ(::getopt(3, sample_args(), "x:"), 'x');
  EXPECT_EQ(optind1, 3);
  EXPECT_EQ(optind0, 3);

  t.vars.bind(-1);
  EXPECT_EQ(t.vars.bound(), -1);
}

TEST(RankVariables, EnvironIsSharedAndFollowsTheBoundCopy) {
  TwoCopies t;
  char**& environ0 = t.of<char**>(0, "environ");
  char**& environ1 = t.of<char**>(1, "environ");
  t.vars.bind(0);
  ASSERT_EQ(::setenv("TILEMPI_RANK_VARIABLES_TEST", "0", 1), 0);
  // setenv replaced the array in rank 0's copy (the one the C library is bound to)...
  bool found = false;
  for (char** e = environ0; e && *e; ++e) found |= std::strcmp(*e, "TILEMPI_RANK_VARIABLES_TEST=0") == 0;
  EXPECT_TRUE(found) << "rank 0's environ does not show its setenv";
  // ...and rank 1, bound next, takes it over.
  t.vars.bind(1);
  EXPECT_EQ(environ1, environ0);
  ASSERT_NE(::getenv("TILEMPI_RANK_VARIABLES_TEST"), nullptr);
  // The process gets the current environment back when no rank is bound.
  t.vars.bind(-1);
  ASSERT_NE(::getenv("TILEMPI_RANK_VARIABLES_TEST"), nullptr);
  EXPECT_STREQ(::getenv("TILEMPI_RANK_VARIABLES_TEST"), "0");
  ::unsetenv("TILEMPI_RANK_VARIABLES_TEST");
}

}  // namespace
}  // namespace tilempi::transport::sim
