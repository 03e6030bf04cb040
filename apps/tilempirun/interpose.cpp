// C library functions that ranks running as contexts of one process must not share (docs/SIM.md
// "Ranks as contexts", program-wide state). Outside a rank (the scheduler, start-up, the end of
// the process) each one is the C library's own.
//  - exit, _exit, _Exit (and so Fortran STOP, which calls exit): end the rank, not the process.
//  - rand/srand and random/srandom: one generator per rank, seeded as a fresh process's is, so
//    that each rank draws the sequence it would draw as a process.
//  - pthread_create: a rank that starts a thread ends the job with a message saying how to run
//    it as a process instead (a modeled tile core runs one thread; a context cannot host more).
//  - getenv("TILEMPI_RANK") and the other launchers' rank variables (PMI_RANK,
//    OMPI_COMM_WORLD_RANK, ...: transport/job.h): the running rank, as the launcher sets them in
//    each rank process's environment (the rest of the environment is the process's, shared by
//    all ranks).
//  - the Fortran runtime's I/O statements (gfortran's libgfortran): its unit table is the
//    process's, so rank r's external unit u (0 <= u < kUnitStride, other than the preconnected
//    0, 5 and 6) becomes unit u + (r + 1) * kUnitStride: two ranks that OPEN unit 10 on
//    different files no longer collide. Internal units (-1) and NEWUNIT= units (negative, unique
//    in the process) are left alone.
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "tilempi/transport/contexts.h"
#include "tilempi/transport/job.h"
#include "tilempi/transport/rank_local.h"

namespace ts = tilempi::transport::sim;

namespace {

template <class F>
F next_definition(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

struct Generator {
  random_data data{};
  char state[128] = {};
  bool seeded = false;
};

Generator& generator() {
  static tilempi::transport::RankLocal<Generator> g;
  Generator& gen = g.get();
  if (!gen.seeded) {
    // glibc's rand() is random() on a 128-byte state seeded with 1 until srand() is called.
    ::initstate_r(1, gen.state, sizeof gen.state, &gen.data);
    gen.seeded = true;
  }
  return gen;
}

/// Whether getenv(name) in a rank answers the rank: TILEMPI_RANK or another launcher's name for it.
bool names_running_rank(const char* name) {
  if (std::strcmp(name, tilempi::transport::kEnvRank) == 0) return true;
  for (const char* v : tilempi::transport::kForeignRankVariables)
    if (std::strcmp(name, v) == 0) return true;
  return false;
}

// ---- Fortran units

constexpr int kUnitStride = 100000;  // 4097 strides stay below 2^31

/// gfortran passes every I/O statement a parameter block that starts with
/// { GFC_INTEGER_4 flags; GFC_INTEGER_4 unit; ... } (st_parameter_common).
struct FortranIoCommon {
  std::int32_t flags;
  std::int32_t unit;
};

void rank_unit(void* parameters) {
  if (!ts::in_rank_context() || !parameters) return;
  auto* common = static_cast<FortranIoCommon*>(parameters);
  const std::int32_t u = common->unit;
  if (u < 0 || u >= kUnitStride || u == 0 || u == 5 || u == 6) return;
  common->unit = u + (ts::running_rank() + 1) * kUnitStride;
}

/// The Fortran runtime is loaded by the ranks' program copies, outside the process's global
/// scope: look it up by name.
void* fortran_function(const char* name) {
  static void* runtime = ::dlopen("libgfortran.so.5", RTLD_LAZY | RTLD_NOLOAD);
  void* f = runtime ? ::dlsym(runtime, name) : nullptr;
  if (!f) ts::fail_rank(std::string("the Fortran runtime's ") + name + " was not found");
  return f;
}

}  // namespace

#define TILEMPI_FORTRAN_UNIT_STATEMENT(name)                             \
  extern "C" void name(void* parameters) {                                \
    static auto next = reinterpret_cast<void (*)(void*)>(fortran_function(#name)); \
    rank_unit(parameters);                                                \
    next(parameters);                                                     \
  }
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_open)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_close)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_read)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_write)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_rewind)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_backspace)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_endfile)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_flush)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_inquire)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_wait)
TILEMPI_FORTRAN_UNIT_STATEMENT(_gfortran_st_wait_async)
#undef TILEMPI_FORTRAN_UNIT_STATEMENT

extern "C" {

void exit(int status) noexcept {
  if (ts::in_rank_context()) ts::end_rank(status);
  next_definition<void (*)(int)>("exit")(status);
  __builtin_unreachable();
}

void _exit(int status) noexcept {
  if (ts::in_rank_context()) ts::end_rank(status);
  next_definition<void (*)(int)>("_exit")(status);
  __builtin_unreachable();
}

void _Exit(int status) noexcept {
  if (ts::in_rank_context()) ts::end_rank(status);
  next_definition<void (*)(int)>("_Exit")(status);
  __builtin_unreachable();
}

char* getenv(const char* name) noexcept {
  static auto next = next_definition<char* (*)(const char*)>("getenv");
  if (ts::in_rank_context() && names_running_rank(name)) {
    static tilempi::transport::RankLocal<std::string> rank_text;
    std::string& text = rank_text.get();
    if (text.empty()) text = std::to_string(ts::running_rank());
    return text.data();
  }
  return next(name);
}

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) noexcept {
  if (ts::in_rank_context())
    ts::fail_rank("started a thread (pthread_create; OpenMP with OMP_NUM_THREADS > 1 does): ranks that are "
                  "contexts of the simulator run one thread each; run the program with --set sim.ranks=processes");
  using Fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  return next_definition<Fn>("pthread_create")(thread, attr, start, arg);
}

int rand() noexcept {
  if (!ts::in_rank_context()) return next_definition<int (*)()>("rand")();
  std::int32_t r = 0;
  ::random_r(&generator().data, &r);
  return r;
}

long random() noexcept {
  if (!ts::in_rank_context()) return next_definition<long (*)()>("random")();
  std::int32_t r = 0;
  ::random_r(&generator().data, &r);
  return r;
}

void srand(unsigned seed) noexcept {
  if (!ts::in_rank_context()) return next_definition<void (*)(unsigned)>("srand")(seed);
  ::srandom_r(seed, &generator().data);
}

void srandom(unsigned seed) noexcept {
  if (!ts::in_rank_context()) return next_definition<void (*)(unsigned)>("srandom")(seed);
  ::srandom_r(seed, &generator().data);
}

}  // extern "C"
