// The program loader: one private copy of an executable's image per rank. See program_image.h.
#include "sim/program_image.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace tilempi::transport::sim {
namespace {

#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
constexpr std::uint32_t kCopyReloc = R_X86_64_COPY;
constexpr const char* kHostName = "x86_64";
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
constexpr std::uint32_t kCopyReloc = R_AARCH64_COPY;
constexpr const char* kHostName = "aarch64";
#else
#error "program_image: only x86_64 and aarch64 hosts are supported"
#endif

const char* machine_name(unsigned m) {
  switch (m) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_RISCV: return "riscv";
    case EM_PPC64: return "ppc64";
    case EM_S390: return "s390";
    default: return "an unknown machine";
  }
}

std::string errno_text(int e) { return std::strerror(e); }

// Bounds-checked view of the mapped file: every offset in an ELF file is untrusted input.
struct View {
  const unsigned char* p;
  std::size_t size;
  template <class T>
  const T* at(std::uint64_t off, std::uint64_t count = 1) const {
    if (off > size || count > (size - off) / sizeof(T)) return nullptr;
    if (off % alignof(T) != 0) return nullptr;
    return reinterpret_cast<const T*>(p + off);
  }
  // NUL-terminated string at off, or nullptr if it runs past the end.
  const char* str(std::uint64_t off) const {
    if (off >= size) return nullptr;
    const void* nul = std::memchr(p + off, 0, size - off);
    return nul ? reinterpret_cast<const char*>(p + off) : nullptr;
  }
};

std::uint64_t page_size() { return static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)); }
std::uint64_t down(std::uint64_t x, std::uint64_t ps) { return x & ~(ps - 1); }
std::uint64_t up(std::uint64_t x, std::uint64_t ps) { return (x + ps - 1) & ~(ps - 1); }

using Interval = std::pair<std::uint64_t, std::uint64_t>;  // [first, second)

// `from` minus every interval of `cut`.
std::vector<Interval> subtract(Interval from, const std::vector<Interval>& cut) {
  std::vector<Interval> out{from};
  for (const Interval& c : cut) {
    std::vector<Interval> next;
    for (const Interval& i : out) {
      if (c.second <= i.first || c.first >= i.second) {
        next.push_back(i);
        continue;
      }
      if (i.first < c.first) next.emplace_back(i.first, c.first);
      if (c.second < i.second) next.emplace_back(c.second, i.second);
    }
    out = std::move(next);
  }
  return out;
}

// glibc's dlopen first compares the requested name with the names of loaded objects and returns
// a match without opening anything. "/proc/<pid>/fd/N" would repeat as soon as fd N is reused
// (we close each memfd after dlopen), so each load goes through a path string of its own that
// the kernel resolves to the same fd: the serial number, in binary, spelled as "./" (0) and
// "../fd/" (1) steps, which lead back to the same fd directory. (A pid, not "self": a debugger
// reading the link map resolves the name in the inferior, not in itself.)
std::string unique_fd_path(int fd, std::uint64_t serial) {
  std::string p = "/proc/" + std::to_string(getpid()) + "/fd/";
  for (std::uint64_t s = serial; s != 0; s >>= 1) p += (s & 1) ? "../fd/" : "./";
  return p + std::to_string(fd);
}

std::atomic<std::uint64_t> g_serial{0};

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<ProgramImage> ProgramImage::inspect(const std::string& path, std::string& why_not) {
  return inspect(path, why_not, Options{});
}

std::optional<ProgramImage> ProgramImage::inspect(const std::string& path, std::string& why_not,
                                                  const Options& options) {
  ProgramImage img;
  img.path_ = path;
  img.options_ = options;
  img.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (img.fd_ < 0) {
    why_not = "cannot open: " + errno_text(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (fstat(img.fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    why_not = "not a regular file";
    return std::nullopt;
  }
  img.file_size_ = static_cast<std::size_t>(st.st_size);
  if (img.file_size_ < sizeof(Elf64_Ehdr)) {
    why_not = "not an ELF file";
    return std::nullopt;
  }
  // A read-only shared mapping: only the pages we look at (headers, symbol tables) are read,
  // not the debug sections; it also feeds load_copy's writes from the page cache.
  void* m = mmap(nullptr, img.file_size_, PROT_READ, MAP_SHARED, img.fd_, 0);
  if (m == MAP_FAILED) {
    why_not = "cannot map: " + errno_text(errno);
    return std::nullopt;
  }
  img.file_ = static_cast<const unsigned char*>(m);
  const View f{img.file_, img.file_size_};

  const auto* eh = f.at<Elf64_Ehdr>(0);
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
    why_not = "not an ELF file";
    return std::nullopt;
  }
  if (eh->e_ident[EI_CLASS] != ELFCLASS64) {
    why_not = "a 32-bit ELF file: rebuild it for 64-bit " + std::string(kHostName);
    return std::nullopt;
  }
  if (eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    why_not = "a big-endian ELF file: for another architecture";
    return std::nullopt;
  }
  if (eh->e_machine != kHostMachine) {
    why_not = std::string("for another architecture (") + machine_name(eh->e_machine) +
              ", this simulator runs on " + kHostName + ")";
    return std::nullopt;
  }
  if (eh->e_type == ET_REL) {
    why_not = "an object file, not a linked executable";
    return std::nullopt;
  }
  if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
    why_not = "not an executable (ELF type " + std::to_string(eh->e_type) + ")";
    return std::nullopt;
  }
  const auto* ph = eh->e_phentsize == sizeof(Elf64_Phdr)
                       ? f.at<Elf64_Phdr>(eh->e_phoff, eh->e_phnum) : nullptr;
  if (ph == nullptr || eh->e_phnum == 0) {
    why_not = "a damaged ELF file (no valid program headers)";
    return std::nullopt;
  }

  const Elf64_Phdr* dyn_ph = nullptr;
  bool interp = false;
  for (unsigned i = 0; i < eh->e_phnum; ++i) {
    const Elf64_Phdr& p = ph[i];
    if (p.p_type == PT_LOAD) {
      img.loads_.push_back({p.p_offset, p.p_filesz, p.p_vaddr, p.p_memsz, p.p_flags});
    } else if (p.p_type == PT_DYNAMIC) {
      dyn_ph = &p;
    } else if (p.p_type == PT_INTERP) {
      interp = true;
    } else if (p.p_type == PT_TLS) {
      img.has_tls_ = true;
      img.tls_bytes_ = p.p_memsz;
    }
    if (p.p_filesz != 0) {
      if (p.p_offset > img.file_size_ || p.p_filesz > img.file_size_ - p.p_offset) {
        why_not = "a damaged ELF file (a segment runs past the end of the file)";
        return std::nullopt;
      }
      img.ranges_.emplace_back(p.p_offset, p.p_offset + p.p_filesz);
    }
  }
  if (dyn_ph == nullptr) {
    why_not = "a static executable: link it dynamically (without -static)";
    return std::nullopt;
  }
  if (eh->e_type == ET_EXEC) {
    why_not = "not position independent (ET_EXEC): rebuild with tilempicc or -fPIE -pie";
    return std::nullopt;
  }
  // The file offset of a virtual address that the file provides.
  auto file_off = [&img](std::uint64_t vaddr) -> std::optional<std::uint64_t> {
    for (const Segment& s : img.loads_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) return s.offset + (vaddr - s.vaddr);
    return std::nullopt;
  };

  // The dynamic section.
  const auto* dyn = f.at<Elf64_Dyn>(dyn_ph->p_offset, dyn_ph->p_filesz / sizeof(Elf64_Dyn));
  if (dyn == nullptr) {
    why_not = "a damaged ELF file (dynamic section)";
    return std::nullopt;
  }
  std::uint64_t strtab = 0, symtab = 0, rela = 0, relasz = 0, relaent = sizeof(Elf64_Rela);
  std::uint64_t dt_flags = 0, dt_flags1 = 0;
  std::vector<std::uint64_t> needed_at;
  for (std::size_t i = 0; i < dyn_ph->p_filesz / sizeof(Elf64_Dyn) && dyn[i].d_tag != DT_NULL;
       ++i) {
    const Elf64_Dyn& d = dyn[i];
    switch (d.d_tag) {
      case DT_NEEDED: needed_at.push_back(d.d_un.d_val); break;
      case DT_STRTAB: strtab = d.d_un.d_ptr; break;
      case DT_SYMTAB: symtab = d.d_un.d_ptr; break;
      case DT_RELA: rela = d.d_un.d_ptr; break;
      case DT_RELASZ: relasz = d.d_un.d_val; break;
      case DT_RELAENT: relaent = d.d_un.d_val; break;
      case DT_TEXTREL: img.textrel_ = true; break;
      case DT_PREINIT_ARRAY: img.preinit_ = true; break;
      case DT_FLAGS: dt_flags = d.d_un.d_val; break;
      case DT_FLAGS_1:
        dt_flags1 = d.d_un.d_val;
        if (dt_flags1 & DF_1_PIE) {
          img.flags1_at_ = dyn_ph->p_offset + i * sizeof(Elf64_Dyn) + offsetof(Elf64_Dyn, d_un);
          img.flags1_cleared_ = dt_flags1 & ~static_cast<std::uint64_t>(DF_1_PIE);
        }
        break;
      default: break;
    }
  }
  if (dt_flags & DF_TEXTREL) img.textrel_ = true;
  // glibc's static-pie: position independent, dynamic section, but no interpreter: it carries
  // its own libc and relocates itself.
  if (!interp && (dt_flags1 & DF_1_PIE)) {
    why_not = "a static executable (static-pie): link it dynamically (without -static-pie)";
    return std::nullopt;
  }
  // An executable's own TLS accesses are local-exec (fixed thread-pointer offsets: see
  // program_image.h); a shared object's go through relocations and work per copy.
  const bool executable = interp || (dt_flags1 & DF_1_PIE);
  if (img.has_tls_ && executable && !options.allow_tls) {
    why_not = "has thread-local variables (PT_TLS, " + std::to_string(img.tls_bytes_) +
              " bytes: __thread, threadprivate, -static-libgfortran...) that a copy of an "
              "executable would place in the simulator's own TLS: link it with -fPIC -shared";
    return std::nullopt;
  }
  const std::optional<std::uint64_t> strtab_off = strtab ? file_off(strtab) : std::nullopt;
  auto dyn_str = [&](std::uint64_t off) -> const char* {
    return strtab_off ? f.str(*strtab_off + off) : nullptr;
  };
  for (std::uint64_t at : needed_at)
    if (const char* n = dyn_str(at)) img.needed_.emplace_back(n);
  // A sanitizer runtime must be the process's first library: dlopen'ing a program that needs
  // libasan into a process without it makes the runtime print "ASan runtime does not come
  // first in initial library list" and exit the whole process. Under the same sanitizer, copies
  // load and are checked.
  for (const auto& [lib, init, name] :
       {std::tuple{"libasan", "__asan_init", "-fsanitize=address"},
        std::tuple{"libtsan", "__tsan_init", "-fsanitize=thread"}}) {
    const bool needs = std::any_of(img.needed_.begin(), img.needed_.end(),
                                   [prefix = lib](const std::string& n) { return n.rfind(prefix, 0) == 0; });
    if (needs && dlsym(RTLD_DEFAULT, init) == nullptr) {
      why_not = std::string("built with ") + name + " but the simulator is not: rebuild the "
                "program without it, or run a simulator built with it";
      return std::nullopt;
    }
  }

  // Copy relocations: the executable holds the variable, the library's value is copied in once.
  if (rela && relasz && relaent == sizeof(Elf64_Rela) && symtab) {
    const std::optional<std::uint64_t> ro = file_off(rela), so = file_off(symtab);
    const auto* r = ro ? f.at<Elf64_Rela>(*ro, relasz / sizeof(Elf64_Rela)) : nullptr;
    for (std::size_t i = 0; r && so && i < relasz / sizeof(Elf64_Rela); ++i) {
      if (ELF64_R_TYPE(r[i].r_info) != kCopyReloc) continue;
      const auto* s = f.at<Elf64_Sym>(*so + ELF64_R_SYM(r[i].r_info) * sizeof(Elf64_Sym));
      const char* n = s ? dyn_str(s->st_name) : nullptr;
      img.copy_relocs_.emplace_back(n ? n : "?");
    }
  }

  // main: defined FUNC symbol in .dynsym (exported: dlsym finds it) or else in .symtab.
  const auto* sh = eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shoff
                       ? f.at<Elf64_Shdr>(eh->e_shoff, eh->e_shnum) : nullptr;
  auto find_main = [&](std::uint32_t type) -> const Elf64_Sym* {
    for (unsigned i = 0; sh && i < eh->e_shnum; ++i) {
      if (sh[i].sh_type != type || sh[i].sh_entsize != sizeof(Elf64_Sym)) continue;
      if (sh[i].sh_link >= eh->e_shnum) continue;
      const Elf64_Shdr& strs = sh[sh[i].sh_link];
      const auto* syms = f.at<Elf64_Sym>(sh[i].sh_offset, sh[i].sh_size / sizeof(Elf64_Sym));
      for (std::size_t k = 0; syms && k < sh[i].sh_size / sizeof(Elf64_Sym); ++k) {
        const Elf64_Sym& s = syms[k];
        if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF) continue;
        if (s.st_name >= strs.sh_size) continue;
        const char* n = f.str(strs.sh_offset + s.st_name);
        if (n && std::strcmp(n, "main") == 0) return &s;
      }
    }
    return nullptr;
  };
  if (find_main(SHT_DYNSYM)) {
    img.main_exported_ = true;
  } else if (const Elf64_Sym* s = find_main(SHT_SYMTAB)) {
    img.main_value_ = s->st_value;
  } else if (options.need_main) {
    why_not = "main is not in the dynamic or the static symbol table (stripped): link with -rdynamic";
    return std::nullopt;
  }

  // What a copy's memfd holds: ELF header, program headers, every segment's file range.
  img.ranges_.emplace_back(0, sizeof(Elf64_Ehdr));
  img.ranges_.emplace_back(eh->e_phoff, eh->e_phoff + std::uint64_t{eh->e_phnum} * sizeof(Elf64_Phdr));
  std::sort(img.ranges_.begin(), img.ranges_.end());
  std::vector<Interval> merged;
  for (const Interval& r : img.ranges_) {
    if (!merged.empty() && r.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  img.ranges_ = std::move(merged);
  for (const Interval& r : img.ranges_) img.loadable_bytes_ += r.second - r.first;
  return img;
}

ProgramImage::ProgramImage(ProgramImage&& o) noexcept { *this = std::move(o); }

ProgramImage& ProgramImage::operator=(ProgramImage&& o) noexcept {
  if (this == &o) return *this;
  release();
  path_ = std::move(o.path_);
  options_ = o.options_;
  fd_ = std::exchange(o.fd_, -1);
  file_ = std::exchange(o.file_, nullptr);
  file_size_ = std::exchange(o.file_size_, 0);
  loads_ = std::move(o.loads_);
  ranges_ = std::move(o.ranges_);
  loadable_bytes_ = o.loadable_bytes_;
  flags1_at_ = o.flags1_at_;
  flags1_cleared_ = o.flags1_cleared_;
  textrel_ = o.textrel_;
  main_exported_ = o.main_exported_;
  main_value_ = o.main_value_;
  copy_relocs_ = std::move(o.copy_relocs_);
  needed_ = std::move(o.needed_);
  has_tls_ = o.has_tls_;
  tls_bytes_ = o.tls_bytes_;
  preinit_ = o.preinit_;
  return *this;
}

ProgramImage::~ProgramImage() { release(); }

void ProgramImage::release() noexcept {
  if (file_ != nullptr) munmap(const_cast<unsigned char*>(file_), file_size_);
  if (fd_ >= 0) ::close(fd_);
  file_ = nullptr;
  fd_ = -1;
}

bool ProgramImage::needs_threads() const {
  return std::any_of(needed_.begin(), needed_.end(), [](const std::string& n) {
    return n.rfind("libgomp", 0) == 0 || n.rfind("libpthread", 0) == 0 ||
           n.rfind("libiomp", 0) == 0 || n.rfind("libomp", 0) == 0;
  });
}

LoadedCopy ProgramImage::load_copy() {
  auto fail = [this](const std::string& what) -> std::runtime_error {
    return std::runtime_error(path_ + ": cannot load a copy: " + what);
  };
  if (file_ == nullptr) throw fail("not inspected");
  // The basename names the memfd in /proc/<pid>/maps ("/memfd:prog (deleted)").
  const std::string base = path_.substr(path_.find_last_of('/') + 1);
  FdCloser mfd{memfd_create(base.c_str(), MFD_CLOEXEC)};
  if (mfd.fd < 0) throw fail("memfd_create: " + errno_text(errno));
  // Full size, so every offset the loader maps exists; what we do not write stays a hole.
  if (ftruncate(mfd.fd, static_cast<off_t>(file_size_)) != 0)
    throw fail("ftruncate: " + errno_text(errno));
  auto write_at = [&](const void* src, std::uint64_t len, std::uint64_t off) {
    const auto* p = static_cast<const unsigned char*>(src);
    while (len > 0) {
      const ssize_t n = pwrite(mfd.fd, p, len, static_cast<off_t>(off));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw fail("writing the memfd: " + errno_text(n < 0 ? errno : EIO));
      p += n, off += static_cast<std::uint64_t>(n), len -= static_cast<std::uint64_t>(n);
    }
  };
  for (const Interval& r : ranges_) write_at(file_ + r.first, r.second - r.first, r.first);
  if (flags1_at_) write_at(&flags1_cleared_, sizeof flags1_cleared_, *flags1_at_);

  const std::string name = unique_fd_path(mfd.fd, g_serial.fetch_add(1));
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* e = dlerror();
    throw fail(e ? e : "dlopen failed");
  }
  LoadedCopy c;
  c.handle = handle;
  link_map* lm = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == nullptr) {
    const char* e = dlerror();
    dlclose(handle);
    throw fail(std::string("dlinfo: ") + (e ? e : "no link map"));
  }
  c.base = lm->l_addr;
  if (main_exported_) {
    c.main = reinterpret_cast<MainFn>(dlsym(handle, "main"));
    if (c.main == nullptr) {
      const char* e = dlerror();
      dlclose(handle);
      throw fail(std::string("dlsym(main): ") + (e ? e : "not found"));
    }
  } else {
    c.main = reinterpret_cast<MainFn>(c.base + main_value_);
  }

  std::uint64_t kept = loadable_bytes_;
  if (options_.share_readonly && !textrel_) {
    const std::uint64_t ps = page_size();
    auto pages_of = [ps](const Segment& s) -> Interval {
      return {down(s.offset, ps), up(s.offset + s.filesz, ps)};
    };
    auto shareable = [ps](const Segment& s) {
      return !(s.flags & PF_W) && s.filesz != 0 && s.memsz == s.filesz &&
             (s.vaddr - s.offset) % ps == 0;
    };
    // File pages that some mapping still reads from the memfd: those of writable segments
    // (rounded out: one page may hold the end of a read-only segment and the start of a
    // writable one; a MAP_PRIVATE page never written still reads the file), the page we
    // patched, and those of segments we leave alone.
    std::vector<Interval> keep;
    for (const Segment& s : loads_)
      if (!shareable(s)) keep.push_back(pages_of(s));
    if (flags1_at_) keep.emplace_back(down(*flags1_at_, ps), down(*flags1_at_, ps) + ps);
    std::vector<Interval> shared;
    for (const Segment& s : loads_) {
      if (!shareable(s)) continue;
      const Interval pages = pages_of(s);
      const int prot = ((s.flags & PF_R) ? PROT_READ : 0) | ((s.flags & PF_X) ? PROT_EXEC : 0);
      for (const Interval& iv : subtract(pages, keep)) {
        void* at = reinterpret_cast<void*>(down(c.base + s.vaddr, ps) + (iv.first - pages.first));
        // Same bytes, other backing: the original file's page cache, shared by every copy.
        if (mmap(at, iv.second - iv.first, prot, MAP_PRIVATE | MAP_FIXED, fd_,
                 static_cast<off_t>(iv.first)) == MAP_FAILED)
          throw fail("re-mapping a read-only segment: " + errno_text(errno));  // copy leaked
        shared.push_back(iv);
      }
    }
    // Nothing maps those pages of the memfd any more: give their memory back.
    std::sort(shared.begin(), shared.end());
    std::uint64_t done = 0;  // punched up to here (segments may share a page)
    for (const Interval& iv : shared) {
      const std::uint64_t lo = std::max(iv.first, done);
      if (lo >= iv.second) continue;
      done = iv.second;
      if (fallocate(mfd.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(lo),
                    static_cast<off_t>(iv.second - lo)) != 0)
        continue;  // only memory is lost
      for (const Interval& r : ranges_) {  // what the hole removed of what we wrote
        const std::uint64_t a = std::max(r.first, lo), b = std::min(r.second, iv.second);
        if (a < b) kept -= b - a;
      }
    }
  }
  c.memfd_bytes = kept;
  return c;  // mfd closes here: the mappings keep the memfd alive
}

}  // namespace tilempi::transport::sim
