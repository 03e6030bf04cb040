// The program loader of the sim transport's "ranks as contexts" process model: every MPI rank is
// a user-level context inside one simulator process, and an unmodified MPI program must keep its
// globals private per rank. So the simulator loads one private copy of the program's image per
// rank (dlopen of a byte copy of the executable) and calls each copy's main.
//
// Why a copy per rank and how:
// - glibc's dlopen refuses an executable whose DT_FLAGS_1 has DF_1_PIE set, so each copy has that
//   bit cleared (in the copy only; the original file is never written).
// - dlopen of the same inode, or of a name that is already loaded, returns the already loaded
//   object, so every copy is a distinct memfd (nothing on disk), opened through a path string that
//   is never used twice in the process (see load_copy).
// - Memory: a copy's memfd holds only what the dynamic loader maps (ELF header, program headers,
//   the segments' file ranges: no debug info; the rest of the file is a hole). After dlopen, the
//   segments that are not writable (text, rodata; a PIE has no relocations there unless
//   DT_TEXTREL) are re-mapped MAP_PRIVATE from the original file, so their pages are shared by
//   all copies through the page cache, and punched out of the memfd. Pages of writable segments
//   are never punched: a MAP_PRIVATE page that was never written still reads the file.
//
// What does not work per copy (measured on Debian 12, glibc 2.36, x86_64, GCC 12; the numbers
// come from loading copies of the samples in tests/transport/sim/samples/ in a small host program):
// - Thread-local storage in an executable. A PIE accesses its own __thread/thread_local/
//   threadprivate variables with the local-exec model: a constant offset from the thread pointer,
//   fixed at link time for the executable's TLS block, with no dynamic relocation and no
//   DF_STATIC_TLS (the linker relaxes -fPIC's models to local-exec too, even with --no-relax).
//   dlopen cannot tell: it gives the copy a dynamic TLS module and never complains, so there is
//   no limit and no "cannot allocate memory in static TLS block" (3000 copies of tls.c loaded),
//   and GLIBC_TUNABLES=glibc.rtld.optional_static_tls changes nothing. But every copy's code reads
//   and writes the same word of the host thread's own TLS (tls.c's main, ++x with x = 5, returned
//   1, 2, 3, ... in successive copies): silent corruption of the simulator's or libc's
//   thread-locals. So inspect() refuses an executable with a PT_TLS segment unless
//   Options::allow_tls (experiments only).
//   What works instead: link the program as a shared object (-fPIC -shared, main exported). Its
//   TLS then goes through relocations: with the default global-dynamic model each copy gets its
//   own TLS block, without limit (5000 copies, each ++x returned 6); with -ftls-model=
//   initial-exec (DF_STATIC_TLS) each copy takes glibc's surplus static TLS: 420 copies of a
//   4-byte TLS variable loaded, the 421st failed "cannot allocate memory in static TLS block";
//   GLIBC_TUNABLES=glibc.rtld.optional_static_tls=4096 in the environment before the process
//   starts (ld.so reads it at startup; setenv later does nothing) raised that to 1316 copies,
//   =65536 to more than 5000. inspect() accepts such a shared object.
// - A Fortran program linked with -static-libgfortran: libgfortran.a brings one 8-byte
//   thread-local variable (thread_unit, used only by asynchronous I/O) into the executable, i.e. a
//   PT_TLS segment. With allow_tls, 3000 copies loaded and ran (main returned 0), but an
//   asynchronous I/O statement would hit the host's TLS as above; inspect() refuses it. With the
//   shared libgfortran (the default) one libgfortran serves all copies and the COMMON blocks,
//   SAVEd variables and units stay private per copy.
// - AddressSanitizer. A program built with -fsanitize=address in a simulator without ASan: the
//   ASan runtime, pulled in by dlopen, prints "ASan runtime does not come first in initial
//   library list" and exits the whole process (status 1) from inside dlopen; inspect() refuses it
//   (likewise TSan). In a simulator built with ASan, both instrumented and plain programs load:
//   copies ran, and ASan reported a heap overflow inside a copy (the frame named
//   "/proc/<pid>/fd/N+offset": the copy's file is gone by then).
// - DT_PREINIT_ARRAY functions never run in a copy (dlopen runs only DT_INIT/DT_INIT_ARRAY).
// - Copy relocations (R_X86_64_COPY, R_AARCH64_COPY): a -fPIE executable that reads a library's
//   variable (stdout, environ/__environ, optind, ...) holds its own copy of it. In a dlopened
//   copy, glibc fills it once from the library's storage, not searching executables, and the
//   library keeps using its own: the copy reads a snapshot. Worse, when the simulator itself
//   has a copy relocation for the same variable, the library's storage is dead: a copy's environ
//   is NULL (an empty environment; getenv, inside libc, still works), its optind stays 1.
//   -fPIC code reads through the GOT and has none. copy_relocated_symbols() lists them; the
//   simulator binds the libraries' references to the running rank's copies (rank_variables.h).
// - Per-process limits: every copy runs its constructors, so libraries linked into the program
//   statically that take process-wide resources in constructors run out: e.g. a GoogleTest
//   program calls pthread_key_create per copy and died when the 1024 keys (PTHREAD_KEYS_MAX) were
//   used up. Each copy also costs about 6 memory mappings (vm.max_map_count, 65530 by default).
//
// Memory (1000 copies of samples/counter.c, RelWithDebInfo, shared memory from the memfds =
// Shmem of /proc/meminfo, private = RssAnon): without the re-mapping 16 kB shmem + 9.6 kB
// private per copy; with it 8 kB + 9.6 kB. For an NPB CG binary (43 kB of text and rodata):
// 52 kB against 8 kB of shmem per copy. 4096 copies of counter.c load in 1.1 s with 33 MB of
// shmem and 40 MB private.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilempi::transport::sim {

using MainFn = int (*)(int, char**, char**);

struct LoadedCopy {
  void* handle = nullptr;        ///< dlopen handle (dlsym into this copy, dlclose)
  MainFn main = nullptr;         ///< this copy's main
  std::uintptr_t base = 0;       ///< load base (link_map l_addr)
  std::size_t memfd_bytes = 0;   ///< bytes the copy's memfd still holds (shared memory it costs)
};

class ProgramImage {
 public:
  struct Options {
    /// Re-map non-writable segments from the original file and punch them out of the memfd.
    bool share_readonly = true;
    /// Load an executable with a PT_TLS segment anyway (its TLS accesses hit the host's TLS:
    /// see the top of this file). For experiments only.
    bool allow_tls = false;
    /// Fail when main cannot be found (a copy must be started there). A look at what a program
    /// links (needed()) asks without.
    bool need_main = true;
  };

  /// Reads and checks the executable once. Returns std::nullopt and sets why_not to a one-line
  /// reason a user can act on when the program cannot be loaded once per rank.
  static std::optional<ProgramImage> inspect(const std::string& path, std::string& why_not);
  static std::optional<ProgramImage> inspect(const std::string& path, std::string& why_not,
                                             const Options& options);

  ProgramImage(ProgramImage&& other) noexcept;
  ProgramImage& operator=(ProgramImage&& other) noexcept;
  ProgramImage(const ProgramImage&) = delete;
  ProgramImage& operator=(const ProgramImage&) = delete;
  /// Closes the original file. Loaded copies stay valid (their mappings hold the file).
  ~ProgramImage();

  /// Loads one more private copy (RTLD_NOW|RTLD_LOCAL) and finds its main. Throws
  /// std::runtime_error naming the program and dlerror() on failure. Thread-safe against other
  /// load_copy calls (dlopen serialises).
  LoadedCopy load_copy();

  /// Facts found by inspect(), for notices and docs.
  const std::vector<std::string>& copy_relocated_symbols() const { return copy_relocs_; }
  bool has_static_tls() const { return tls_bytes_ != 0 || has_tls_; }
  std::size_t tls_bytes() const { return tls_bytes_; }
  bool has_preinit_array() const { return preinit_; }
  /// Whether a DT_NEEDED library starts threads of its own (libgomp, libpthread): they would run
  /// outside the scheduler's contexts.
  bool needs_threads() const;
  const std::vector<std::string>& needed() const { return needed_; }
  const std::string& path() const { return path_; }
  /// main is in the dynamic symbol table (-rdynamic): found with dlsym; else from .symtab.
  bool main_exported() const { return main_exported_; }
  /// Bytes written into each copy's memfd before punching (ELF/program headers, segments).
  std::size_t loadable_bytes() const { return loadable_bytes_; }

 private:
  struct Segment {
    std::uint64_t offset, filesz, vaddr, memsz;
    std::uint32_t flags;
  };
  ProgramImage() = default;
  void release() noexcept;

  std::string path_;
  Options options_{};
  int fd_ = -1;                        // the original file, for re-mapping read-only segments
  const unsigned char* file_ = nullptr;  // read-only mapping of the original file
  std::size_t file_size_ = 0;
  std::vector<Segment> loads_;         // PT_LOAD
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;  // [offset, end) to write
  std::size_t loadable_bytes_ = 0;
  std::optional<std::uint64_t> flags1_at_;  // file offset of DT_FLAGS_1's d_val, if DF_1_PIE set
  std::uint64_t flags1_cleared_ = 0;
  bool textrel_ = false;
  bool main_exported_ = false;
  std::uint64_t main_value_ = 0;       // st_value of main in .symtab (when not exported)
  std::vector<std::string> copy_relocs_;
  std::vector<std::string> needed_;
  bool has_tls_ = false;
  std::size_t tls_bytes_ = 0;
  bool preinit_ = false;
};

}  // namespace tilempi::transport::sim
