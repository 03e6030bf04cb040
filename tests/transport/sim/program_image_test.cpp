// The program loader (transport/sim/program_image.h): private copies of an executable per rank.
// The sample programs are in tests/transport/sim/samples/, built by tests/transport/sim/units.cmake.
#include "sim/program_image.h"

#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace tilempi::transport::sim {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
#else
constexpr bool kUnderAsan = false;
#endif

ProgramImage inspect_ok(const std::string& path, const ProgramImage::Options& o = {}) {
  std::string why;
  std::optional<ProgramImage> img = ProgramImage::inspect(path, why, o);
  if (!img) throw std::runtime_error(path + ": " + why);
  return std::move(*img);
}

std::string refusal(const std::string& path) {
  std::string why;
  std::optional<ProgramImage> img = ProgramImage::inspect(path, why);
  return img ? std::string("(accepted)") : why;
}

int call_main(const LoadedCopy& c, std::vector<std::string> args = {"sample"}) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return c.main(static_cast<int>(args.size()), argv.data(), environ);
}

template <class Fn>
Fn find(const LoadedCopy& c, const char* name) {
  void* p = dlsym(c.handle, name);
  if (p == nullptr) throw std::runtime_error(std::string("dlsym ") + name);
  return reinterpret_cast<Fn>(p);
}

// A scratch file removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& bytes) {
    char tmpl[] = "/tmp/tilempi_image_test_XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) throw std::runtime_error("mkstemp");
    path = tmpl;
    if (write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
      throw std::runtime_error("write");
    close(fd);
  }
  ~TempFile() { unlink(path.c_str()); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ProgramImage, MainFromSymtabAndPrivateGlobals) {
  ProgramImage img = inspect_ok(SAMPLE_COUNTER);
  EXPECT_FALSE(img.main_exported());
  std::vector<LoadedCopy> copies;
  for (int i = 0; i < 3; ++i) copies.push_back(img.load_copy());
  std::set<void*> handles;
  for (const LoadedCopy& c : copies) handles.insert(c.handle);
  EXPECT_EQ(handles.size(), 3u) << "each copy is a distinct object";
  // counter*100 + static local*10 + constructor runs: a fresh copy says 111.
  EXPECT_EQ(call_main(copies[0]), 111);
  EXPECT_EQ(call_main(copies[0]), 221) << "the same copy keeps its state";
  EXPECT_EQ(call_main(copies[1]), 111) << "copy 1 does not see copy 0's globals";
  EXPECT_EQ(call_main(copies[2]), 111);
}

TEST(ProgramImage, MainFromDynsymAndConstructorsOncePerCopy) {
  ProgramImage img = inspect_ok(SAMPLE_COUNTER_RDYNAMIC);
  EXPECT_TRUE(img.main_exported());
  std::vector<LoadedCopy> copies;
  for (int i = 0; i < 3; ++i) copies.push_back(img.load_copy());
  for (const LoadedCopy& c : copies) {
    EXPECT_EQ(find<int (*)()>(c, "sample_ctor_runs")(), 1);
    EXPECT_EQ(reinterpret_cast<void*>(c.main), dlsym(c.handle, "main"));
  }
  auto bump0 = find<int (*)()>(copies[0], "sample_bump");
  EXPECT_EQ(bump0(), 1);
  EXPECT_EQ(bump0(), 2);
  EXPECT_EQ(find<int (*)()>(copies[1], "sample_bump")(), 1);
  EXPECT_EQ(call_main(copies[0], {"sample", "counter"}), 3);
  EXPECT_EQ(call_main(copies[2], {"sample", "counter"}), 1);
  EXPECT_EQ(*find<int*>(copies[1], "sample_counter"), 1);
}

TEST(ProgramImage, TwoHundredCopies) {
  ProgramImage img = inspect_ok(SAMPLE_COUNTER);
  // Each memfd is closed after dlopen, so fd numbers repeat: the names must not (glibc would
  // return an earlier copy for a name it already has loaded).
  std::vector<LoadedCopy> copies;
  for (int i = 0; i < 200; ++i) copies.push_back(img.load_copy());
  std::set<void*> handles;
  for (const LoadedCopy& c : copies) {
    handles.insert(c.handle);
    EXPECT_EQ(call_main(c), 111);
  }
  EXPECT_EQ(handles.size(), 200u);
}

// The text of each copy is mapped from the original file (shared page cache); the memfd keeps
// only the pages of writable segments.
TEST(ProgramImage, ReadonlySegmentsComeFromTheOriginalFile) {
  ProgramImage shared = inspect_ok(SAMPLE_COUNTER);
  const LoadedCopy c = shared.load_copy();
  EXPECT_LT(c.memfd_bytes, shared.loadable_bytes());
  EXPECT_GT(c.memfd_bytes, 0u) << "the writable segment stays in the memfd";
  // The page of main is mapped from the original file, executable.
  const auto main_at = reinterpret_cast<std::uintptr_t>(c.main);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  bool from_original = false;
  char real[PATH_MAX];
  ASSERT_NE(realpath(SAMPLE_COUNTER, real), nullptr);
  while (std::getline(maps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perms) != 3) continue;
    if (main_at >= lo && main_at < hi) {
      from_original = line.find(real) != std::string::npos && perms[2] == 'x';
      EXPECT_TRUE(from_original) << line;
    }
  }
  EXPECT_TRUE(from_original);
  EXPECT_EQ(call_main(c), 111);

  ProgramImage::Options o;
  o.share_readonly = false;
  ProgramImage own = inspect_ok(SAMPLE_COUNTER, o);
  const LoadedCopy d = own.load_copy();
  EXPECT_EQ(d.memfd_bytes, own.loadable_bytes());
  EXPECT_EQ(call_main(d), 111);
  // Only what the loader maps is in the memfd: no section headers, symbols or debug info.
  EXPECT_LT(own.loadable_bytes(), slurp(SAMPLE_COUNTER).size());
}

TEST(ProgramImage, CopyRelocationsWithPieNoneWithPic) {
  ProgramImage pie = inspect_ok(SAMPLE_ENVIRON_PIE);
  const auto& syms = pie.copy_relocated_symbols();
  auto listed = [&syms](const char* s) { return std::find(syms.begin(), syms.end(), s) != syms.end(); };
  EXPECT_TRUE(listed("environ") || listed("__environ"));  // the linker picks either alias
  EXPECT_TRUE(listed("optind"));
  ProgramImage pic = inspect_ok(SAMPLE_ENVIRON_PIC);
  EXPECT_TRUE(pic.copy_relocated_symbols().empty());
  int host = 0;
  for (char** e = environ; *e; ++e) ++host;
  // -fPIC reads this process's live environ and optind (1).
  EXPECT_EQ(call_main(pic.load_copy()), host + 1);
  // -fPIE reads its own copies, filled at dlopen from libc's storage of them, the executable
  // not searched (glibc resolves copy relocations past executables). This test program itself
  // reads environ through a copy relocation, so libc's storage of environ is dead: never set,
  // NULL. The copy sees an empty environment (getenv, inside libc, still works) and optind 1.
  EXPECT_EQ(call_main(pie.load_copy()), 0 + 1);
}

TEST(ProgramImage, Facts) {
  ProgramImage img = inspect_ok(SAMPLE_COUNTER);
  EXPECT_NE(std::find(img.needed().begin(), img.needed().end(), "libc.so.6"), img.needed().end());
  EXPECT_FALSE(img.has_static_tls());
  EXPECT_FALSE(img.has_preinit_array());
  EXPECT_FALSE(img.needs_threads());
  EXPECT_EQ(img.path(), SAMPLE_COUNTER);
}

TEST(ProgramImage, RefusesWithAReason) {
  EXPECT_EQ(refusal(SAMPLE_COUNTER_STRIPPED),
            "main is not in the dynamic or the static symbol table (stripped): link with -rdynamic");
  EXPECT_EQ(refusal(SAMPLE_COUNTER_NOPIE),
            "not position independent (ET_EXEC): rebuild with tilempicc or -fPIE -pie");
  EXPECT_NE(refusal(SAMPLE_TLS).find("thread-local variables (PT_TLS"), std::string::npos)
      << refusal(SAMPLE_TLS);
  TempFile text("#!/bin/sh\necho not an ELF file\n");
  EXPECT_EQ(refusal(text.path), "not an ELF file");
  TempFile empty("");
  EXPECT_EQ(refusal(empty.path), "not an ELF file");
  EXPECT_EQ(refusal("/nonexistent/tilempi/program").rfind("cannot open: ", 0), 0u);

  // The same program, claiming another machine.
  std::string bytes = slurp(SAMPLE_COUNTER);
  ASSERT_GT(bytes.size(), sizeof(Elf64_Ehdr));
  Elf64_Half other = EM_X86_64;
#if defined(__x86_64__)
  other = EM_AARCH64;
#endif
  std::memcpy(bytes.data() + offsetof(Elf64_Ehdr, e_machine), &other, sizeof other);
  TempFile foreign(bytes);
  EXPECT_EQ(refusal(foreign.path).rfind("for another architecture (", 0), 0u)
      << refusal(foreign.path);
}

// An executable's thread-locals are refused (see RefusesWithAReason); the same program linked as
// a shared object gets one TLS block per copy: tls.c's main returns ++x with x = 5.
TEST(ProgramImage, ThreadLocalsPerCopyInASharedObject) {
  ProgramImage img = inspect_ok(SAMPLE_TLS_SHARED);
  EXPECT_TRUE(img.has_static_tls());
  EXPECT_EQ(img.tls_bytes(), sizeof(int));
  std::vector<LoadedCopy> copies;
  for (int i = 0; i < 3; ++i) copies.push_back(img.load_copy());
  for (const LoadedCopy& c : copies) EXPECT_EQ(call_main(c), 6);
  EXPECT_EQ(call_main(copies[0]), 7);
}

TEST(ProgramImage, RefusesAStaticExecutable) {
  if (std::strlen(SAMPLE_STATIC) == 0) GTEST_SKIP() << "no libc.a here to build a static sample";
  EXPECT_EQ(refusal(SAMPLE_STATIC), "a static executable: link it dynamically (without -static)");
}

TEST(ProgramImage, FortranCommonAndSavePerCopy) {
  if (std::strlen(SAMPLE_FORTRAN) == 0) GTEST_SKIP() << "no Fortran compiler";
  ProgramImage img = inspect_ok(SAMPLE_FORTRAN);
  std::vector<LoadedCopy> copies;
  for (int i = 0; i < 3; ++i) copies.push_back(img.load_copy());
  for (const LoadedCopy& c : copies) EXPECT_EQ(call_main(c), 0);
  EXPECT_EQ(call_main(copies[0]), 0);
  EXPECT_EQ(find<int (*)()>(copies[0], "sample_f_hits")(), 2);
  EXPECT_EQ(find<int (*)()>(copies[1], "sample_f_hits")(), 1);
  EXPECT_EQ(find<int (*)()>(copies[2], "sample_f_hits")(), 1);
  EXPECT_EQ(find<int (*)()>(copies[1], "sample_f_bump")(), 1);
  EXPECT_EQ(find<int (*)()>(copies[1], "sample_f_bump")(), 2);
  EXPECT_EQ(find<int (*)()>(copies[2], "sample_f_bump")(), 1);
}

TEST(ProgramImage, RefusesStaticLibgfortran) {
  if (std::strlen(SAMPLE_FORTRAN_STATIC_RT) == 0) GTEST_SKIP() << "no GNU Fortran compiler";
  EXPECT_NE(refusal(SAMPLE_FORTRAN_STATIC_RT).find("PT_TLS"), std::string::npos)
      << refusal(SAMPLE_FORTRAN_STATIC_RT);
}

// A program built with -fsanitize=address loads only into a simulator under ASan (elsewhere the
// ASan runtime would end the process from inside dlopen).
TEST(ProgramImage, AsanProgramNeedsAsanSimulator) {
  if (std::strlen(SAMPLE_COUNTER_ASAN) == 0) GTEST_SKIP() << "no -fsanitize=address here";
  if (!kUnderAsan) {
    EXPECT_EQ(refusal(SAMPLE_COUNTER_ASAN),
              "built with -fsanitize=address but the simulator is not: rebuild the program "
              "without it, or run a simulator built with it");
    return;
  }
  ProgramImage img = inspect_ok(SAMPLE_COUNTER_ASAN);
  const LoadedCopy a = img.load_copy(), b = img.load_copy();
  EXPECT_EQ(call_main(a), 111);
  EXPECT_EQ(call_main(b), 111);
}

}  // namespace
}  // namespace tilempi::transport::sim
