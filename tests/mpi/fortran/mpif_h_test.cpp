// mpif.h must agree with mpi.h: every integer constant of mpi.h has a PARAMETER of the same
// name and value, the Fortran-only constants describe MPI_Status and the kinds as the C side
// lays them out, the file obeys the rules of both source forms, and gfortran reads the values
// the same way in fixed and free form. With the library linked, every C function of mpi.h
// also has its mpi_xxx_ Fortran symbol.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "mpi.h"
#include "mpi_h_tables.inc"

#ifdef TILEMPI_HAVE_LIBRARY
#include <dlfcn.h>
extern "C" void mpi_init_(MPI_Fint* ierr);
// A reference the optimizer cannot drop, so the linker keeps libtilempi even with --as-needed
// and dlsym below can see the library's symbols.
void (*volatile keep_library_linked)(MPI_Fint*) = &mpi_init_;
#endif

namespace {

std::vector<std::string> mpif_lines() {
  std::ifstream in(TILEMPI_MPIF_H);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::map<std::string, long long> mpif_parameters() {
  static const std::regex param(R"(^ {6}PARAMETER \((MPI_[A-Z0-9_]+)=(-?[0-9]+)\)$)");
  std::map<std::string, long long> values;
  for (const auto& line : mpif_lines()) {
    std::smatch m;
    if (std::regex_match(line, m, param)) values[m[1]] = std::stoll(m[2]);
  }
  return values;
}

// Constants that exist only in Fortran, with the value the C side implies.
std::map<std::string, long long> fortran_only() {
  return {
      {"MPI_STATUS_SIZE", static_cast<long long>(sizeof(MPI_Status) / sizeof(MPI_Fint))},
      {"MPI_SOURCE", static_cast<long long>(offsetof(MPI_Status, MPI_SOURCE) / sizeof(MPI_Fint) + 1)},
      {"MPI_TAG", static_cast<long long>(offsetof(MPI_Status, MPI_TAG) / sizeof(MPI_Fint) + 1)},
      {"MPI_ERROR", static_cast<long long>(offsetof(MPI_Status, MPI_ERROR) / sizeof(MPI_Fint) + 1)},
      {"MPI_ADDRESS_KIND", static_cast<long long>(sizeof(MPI_Aint))},
      {"MPI_OFFSET_KIND", static_cast<long long>(sizeof(MPI_Offset))},
      {"MPI_COUNT_KIND", static_cast<long long>(sizeof(MPI_Count))},
      {"MPI_INTEGER_KIND", static_cast<long long>(sizeof(MPI_Fint))},
  };
}

TEST(Mpif, EveryMpiHConstantHasTheSameValue) {
  const auto params = mpif_parameters();
  ASSERT_GT(params.size(), 100u);
  for (const auto& c : kMpiHConstants) {
    auto it = params.find(c.name);
    if (it == params.end()) {
      ADD_FAILURE() << c.name << " is in mpi.h but not in mpif.h";
      continue;
    }
    EXPECT_EQ(it->second, c.value) << c.name;
  }
}

TEST(Mpif, FortranOnlyConstantsMatchTheCLayout) {
  const auto params = mpif_parameters();
  for (const auto& [name, value] : fortran_only()) {
    auto it = params.find(name);
    ASSERT_NE(it, params.end()) << name;
    EXPECT_EQ(it->second, value) << name;
  }
  EXPECT_EQ(params.at("MPI_STATUS_SIZE"), TILEMPI_STATUS_INTS);
}

TEST(Mpif, EveryParameterComesFromMpiHOrTheFortranList) {
  std::set<std::string> known;
  for (const auto& c : kMpiHConstants) known.insert(c.name);
  for (const auto& [name, value] : fortran_only()) known.insert(name);
  for (const auto& [name, value] : mpif_parameters()) {
    EXPECT_TRUE(known.count(name)) << name << " = " << value;
  }
}

TEST(Mpif, EveryDeclaredIntegerIsDefined) {
  static const std::regex decl(R"(^ {6}INTEGER (MPI_[A-Z0-9_]+)(\(.*\))?$)");
  static const std::regex common(R"(^ {6}COMMON /[A-Z_]+/ (MPI_[A-Z0-9_]+)$)");
  std::set<std::string> defined;
  for (const auto& [name, value] : mpif_parameters()) defined.insert(name);
  for (const auto& line : mpif_lines()) {
    std::smatch m;
    if (std::regex_match(line, m, common)) defined.insert(m[1]);
  }
  for (const auto& line : mpif_lines()) {
    std::smatch m;
    if (std::regex_match(line, m, decl)) {
      EXPECT_TRUE(defined.count(m[1])) << m[1] << " is declared, never given a value";
    }
  }
}

TEST(Mpif, ValidInFixedAndFreeSourceForm) {
  int n = 0;
  for (const auto& line : mpif_lines()) {
    ++n;
    EXPECT_LE(line.size(), 72u) << "line " << n << " passes column 72";
    EXPECT_EQ(line.find('\t'), std::string::npos) << "line " << n << " has a tab";
    EXPECT_EQ(line.find('&'), std::string::npos) << "line " << n << " continues";
    if (line.empty() || line[0] == '!') continue;
    // A statement: columns 1-6 blank, text from column 7.
    ASSERT_GT(line.size(), 6u) << "line " << n;
    EXPECT_EQ(line.substr(0, 6), "      ") << "line " << n;
    EXPECT_NE(line[6], ' ') << "line " << n;
  }
}

TEST(Mpif, SentinelsLiveInCommonBlocksOfTheirOwn) {
  // The bindings recognize these by the symbols of their blocks (mpi/fortran/fortran_support.h).
  const std::map<std::string, std::string> blocks = {
      {"MPI_BOTTOM", "TILEMPI_BOTTOM"},
      {"MPI_IN_PLACE", "TILEMPI_IN_PLACE"},
      {"MPI_STATUS_IGNORE", "TILEMPI_STATUS_IGNORE"},
      {"MPI_STATUSES_IGNORE", "TILEMPI_STATUSES_IGNORE"},
      {"MPI_ERRCODES_IGNORE", "TILEMPI_ERRCODES_IGNORE"},
  };
  const auto lines = mpif_lines();
  for (const auto& [var, block] : blocks) {
    const std::string want = "      COMMON /" + block + "/ " + var;
    int found = 0;
    for (const auto& line : lines) found += line == want ? 1 : 0;
    EXPECT_EQ(found, 1) << want;
  }
}

#ifdef TILEMPI_PRINT_MPIF_FIXED
std::map<std::string, long long> run_printer(const char* path) {
  std::map<std::string, long long> values;
  FILE* p = popen(path, "r");
  if (p == nullptr) return values;
  char name[128];
  long long value = 0;
  while (std::fscanf(p, "%127s %lld", name, &value) == 2) values[name] = value;
  pclose(p);
  return values;
}

TEST(Mpif, GfortranReadsTheSameValuesInBothForms) {
  const auto params = mpif_parameters();
  for (const char* printer : {TILEMPI_PRINT_MPIF_FIXED, TILEMPI_PRINT_MPIF_FREE}) {
    const auto seen = run_printer(printer);
    EXPECT_EQ(seen.size(), params.size()) << printer;
    for (const auto& [name, value] : params) {
      auto it = seen.find(name);
      ASSERT_NE(it, seen.end()) << name << " from " << printer;
      EXPECT_EQ(it->second, value) << name << " from " << printer;
    }
  }
}
#endif

#ifdef TILEMPI_HAVE_LIBRARY
TEST(Mpif, EveryCFunctionHasAFortranBinding) {
  ASSERT_NE(reinterpret_cast<void*>(keep_library_linked), nullptr);
  for (const auto& f : kMpiHFunctions) {
    EXPECT_NE(dlsym(RTLD_DEFAULT, f.fortran_symbol), nullptr) << f.name << ": no " << f.fortran_symbol;
  }
  for (const char* sentinel : {"tilempi_bottom_", "tilempi_in_place_", "tilempi_status_ignore_",
                               "tilempi_statuses_ignore_", "tilempi_errcodes_ignore_"}) {
    EXPECT_NE(dlsym(RTLD_DEFAULT, sentinel), nullptr) << sentinel;
  }
}
#endif

}  // namespace
