// Library variables bound to the running rank. See rank_variables.h.
#include "sim/rank_variables.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace tilempi::transport::sim {
namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kGlobDat = R_X86_64_GLOB_DAT;
constexpr std::uint32_t kAbs64 = R_X86_64_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kGlobDat = R_AARCH64_GLOB_DAT;
constexpr std::uint32_t kAbs64 = R_AARCH64_ABS64;
#else
#error "rank_variables: only x86_64 and aarch64 hosts are supported"
#endif

/// State of the C library that a program changes through calls without naming it: per rank even
/// without a copy in the program (a cell each).
constexpr const char* kPerRankState[] = {"optarg", "optind", "opterr", "optopt", "stdin"};
/// Shared (rank_variables.h): derived from the C library's one set of time-zone rules, or owned
/// by it (setenv reallocates the array it allocated last, whichever rank's environ it was).
constexpr const char* kSharedState[] = {"tzname", "__tzname", "timezone", "__timezone", "daylight", "__daylight",
                                        "environ", "__environ", "_environ"};

bool listed(const std::string& name, auto& list) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* n) { return name == n; });
}

/// Whether addr lies in memory a program may write: a writable segment of a loaded object, and
/// not its RELRO part (read-only once relocated). Copy-relocated constants (std::nothrow, vtables)
/// are not: nothing writes them, so sharing them changes nothing.
bool writable_variable(std::uintptr_t addr) {
  struct Query {
    std::uintptr_t at;
    bool writable = false;
  } q{addr};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* q = static_cast<Query*>(data);
        bool inside = false, writable = false, relro = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
          if (q->at < lo || q->at >= hi) continue;
          if (ph.p_type == PT_LOAD) {
            inside = true;
            writable = (ph.p_flags & PF_W) != 0;
          } else if (ph.p_type == PT_GNU_RELRO) {
            relro = true;
          }
        }
        if (!inside) return 0;
        q->writable = writable && !relro;
        return 1;
      },
      &q);
  return q.writable;
}

/// The size of the object symbol at addr (0 if none is known).
std::size_t symbol_bytes(std::uintptr_t addr) {
  Dl_info info{};
  void* entry = nullptr;
  if (!::dladdr1(reinterpret_cast<void*>(addr), &info, &entry, RTLD_DL_SYMENT) || !entry) return 0;
  const auto* sym = static_cast<const ElfW(Sym)*>(entry);
  if (reinterpret_cast<std::uintptr_t>(info.dli_saddr) != addr) return 0;
  return static_cast<std::size_t>(sym->st_size);
}

struct LoadedObject {
  std::uintptr_t base;
  const ElfW(Phdr)* phdr;
  int phnum;
};

/// Where a pointer of an object's dynamic section points: glibc relocates most of them in place
/// when it loads the object, but not those of a read-only dynamic section (the vDSO's).
std::uintptr_t dynamic_pointer(const LoadedObject& o, ElfW(Addr) p) {
  return p < o.base ? o.base + p : p;
}

/// Whether [at, at + bytes) lies inside one of the object's loaded segments.
bool inside(const LoadedObject& o, std::uintptr_t at, std::size_t bytes) {
  for (int i = 0; i < o.phnum; ++i) {
    const ElfW(Phdr)& ph = o.phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t lo = o.base + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (at >= lo && at <= hi && bytes <= hi - at) return true;
  }
  return false;
}

enum class Where { Writable, Relro, Other };
Where where(const LoadedObject& o, std::uintptr_t at) {
  bool writable = false;
  for (int i = 0; i < o.phnum; ++i) {
    const ElfW(Phdr)& ph = o.phdr[i];
    const std::uintptr_t lo = o.base + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (at < lo || at >= hi) continue;
    if (ph.p_type == PT_GNU_RELRO) return Where::Relro;
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) writable = true;
  }
  return writable ? Where::Writable : Where::Other;
}

std::uintptr_t page_of(std::uintptr_t at) {
  static const auto ps = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return at & ~(ps - 1);
}

}  // namespace

void RankVariables::build(const std::vector<RankImage>& copies, const std::vector<std::string>& copied_names) {
  const std::size_t n = copies.size();
  std::unordered_map<std::uintptr_t, std::size_t> by_address;  // the process's definition -> vars_
  auto add = [&](const std::string& name) -> Variable* {
    const auto process = reinterpret_cast<std::uintptr_t>(::dlsym(RTLD_DEFAULT, name.c_str()));
    if (!process || !writable_variable(process)) return nullptr;
    // Aliases (environ, __environ) are one variable: the first name found stands for it.
    if (by_address.count(process)) return nullptr;
    Variable v;
    v.name = name;
    v.process = process;
    v.shared = listed(name, kSharedState);
    by_address.emplace(process, vars_.size());
    vars_.push_back(std::move(v));
    return &vars_.back();
  };

  for (const std::string& name : copied_names) {
    // A program linked against a counted shared library that defines the operation counter holds
    // a copy of it; the copy counts the program's own operations and the library counts into the
    // simulator's (EngineLink::shared_op_counts): both are the rank's, so neither is rebound.
    if (name == "tilempi_op_counts") continue;
    std::vector<std::uintptr_t> mine(n);
    std::size_t bytes = 0;
    bool ok = n > 0;
    for (std::size_t r = 0; r < n && ok; ++r) {
      mine[r] = reinterpret_cast<std::uintptr_t>(::dlsym(copies[r].handle, name.c_str()));
      ok = mine[r] != 0 && writable_variable(mine[r]);
      if (ok && r == 0) bytes = symbol_bytes(mine[r]);
    }
    if (!ok || bytes == 0) continue;
    Variable* v = add(name);
    if (!v || mine[0] == v->process) continue;
    v->bytes = bytes;
    v->of_rank = std::move(mine);
  }
  for (const char* name : kPerRankState) {
    Variable* v = add(name);
    if (!v) continue;
    v->bytes = symbol_bytes(v->process);
    if (v->bytes == 0) v->bytes = sizeof(void*);
    for (std::size_t r = 0; r < n; ++r) {
      cells_.push_back(std::make_unique<unsigned char[]>(std::max<std::size_t>(v->bytes, sizeof(void*))));
      v->of_rank.push_back(reinterpret_cast<std::uintptr_t>(cells_.back().get()));
    }
  }
  // Drop what had no copy (names the process does not define, aliases of a listed variable).
  vars_.erase(std::remove_if(vars_.begin(), vars_.end(), [](const Variable& v) { return v.of_rank.empty(); }),
              vars_.end());
  for (std::size_t i = 0; i < vars_.size(); ++i) {
    // The copy was taken when the image was loaded; take it again now (the process's environ may
    // have changed since the simulator's own copy was made).
    for (std::uintptr_t mine : vars_[i].of_rank)
      std::memcpy(reinterpret_cast<void*>(mine), reinterpret_cast<const void*>(vars_[i].process), vars_[i].bytes);
    if (vars_[i].shared) shared_.push_back(i);
  }
  find_references(copies);
  bound_ = -1;
}

void* RankVariables::cell(const std::string& name, int rank) const {
  for (const Variable& v : vars_)
    if (v.name == name && !v.shared && rank >= 0 && static_cast<std::size_t>(rank) < v.of_rank.size())
      return reinterpret_cast<void*>(v.of_rank[static_cast<std::size_t>(rank)]);
  return nullptr;
}

void RankVariables::find_references(const std::vector<RankImage>& copies) {
  std::unordered_map<std::uintptr_t, std::size_t> by_address;
  for (std::size_t i = 0; i < vars_.size(); ++i) by_address.emplace(vars_[i].process, i);
  if (by_address.empty()) return;

  std::vector<LoadedObject> objects;
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        static_cast<std::vector<LoadedObject>*>(data)->push_back({info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum});
        return 0;
      },
      &objects);
  // The dynamic linker's own references (its copy of environ, read at start-up) stay its own.
  const auto interpreter = static_cast<std::uintptr_t>(::getauxval(AT_BASE));

  std::vector<void*> relro_pages;  // made writable for good: rebound whenever another rank runs
  for (const LoadedObject& o : objects) {
    if (interpreter && o.base == interpreter) continue;
    int copy_of = -1;  // a rank's copy of the program (a -fPIC program reaches them through its GOT)
    for (std::size_t r = 0; r < copies.size(); ++r)
      if (copies[r].base == o.base) copy_of = static_cast<int>(r);
    const ElfW(Dyn)* dyn = nullptr;
    for (int i = 0; i < o.phnum; ++i)
      if (o.phdr[i].p_type == PT_DYNAMIC) dyn = reinterpret_cast<const ElfW(Dyn)*>(o.base + o.phdr[i].p_vaddr);
    if (!dyn) continue;
    std::uintptr_t rela = 0;
    std::size_t rela_bytes = 0, rela_entry = sizeof(ElfW(Rela));
    for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_RELA) rela = dynamic_pointer(o, d->d_un.d_ptr);
      else if (d->d_tag == DT_RELASZ) rela_bytes = d->d_un.d_val;
      else if (d->d_tag == DT_RELAENT) rela_entry = d->d_un.d_val;
    }
    if (!rela || rela_entry != sizeof(ElfW(Rela)) || !inside(o, rela, rela_bytes)) continue;
    const auto* relocs = reinterpret_cast<const ElfW(Rela)*>(rela);
    for (std::size_t k = 0; k < rela_bytes / sizeof(ElfW(Rela)); ++k) {
      const ElfW(Rela)& rel = relocs[k];
      const auto type = static_cast<std::uint32_t>(ELF64_R_TYPE(rel.r_info));
      if (type != kGlobDat && type != kAbs64) continue;
      const std::uintptr_t at = o.base + rel.r_offset;
      if (!inside(o, at, sizeof(std::uintptr_t))) continue;
      const Where w = where(o, at);
      // A GOT entry, or a pointer in data made read-only after relocation; a pointer in data the
      // library may change itself is left alone.
      if (w == Where::Other || (type == kAbs64 && w != Where::Relro)) continue;
      std::uintptr_t* slot = reinterpret_cast<std::uintptr_t*>(at);
      const auto addend = static_cast<std::intptr_t>(rel.r_addend);
      const auto it = by_address.find(*slot - static_cast<std::uintptr_t>(addend));
      if (it == by_address.end()) continue;
      const Variable& v = vars_[it->second];
      // (GOT entries are aligned: one never straddles two pages.)
      void* page = reinterpret_cast<void*>(page_of(at));
      if (copy_of >= 0) {
        // Only rank copy_of runs this code: bound once, to that rank.
        if (w == Where::Relro && ::mprotect(page, 1, PROT_READ | PROT_WRITE) != 0) continue;
        *slot = address(v, copy_of) + static_cast<std::uintptr_t>(addend);
        if (w == Where::Relro) ::mprotect(page, 1, PROT_READ);
        continue;
      }
      if (w == Where::Relro && std::find(relro_pages.begin(), relro_pages.end(), page) == relro_pages.end()) {
        if (::mprotect(page, 1, PROT_READ | PROT_WRITE) != 0)
          throw std::runtime_error(std::string("cannot bind the libraries' references to ") + v.name +
                                   " per rank: mprotect: " + std::strerror(errno));
        relro_pages.push_back(page);
      }
      refs_.push_back({slot, it->second, addend});
    }
  }
}

void RankVariables::rebind(int rank) {
  // A shared variable's current value is in the bound rank's copy: carry it over.
  for (std::size_t i : shared_) {
    const Variable& v = vars_[i];
    const std::uintptr_t from = address(v, bound_), to = address(v, rank);
    if (from != to) std::memcpy(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), v.bytes);
  }
  for (const Reference& r : refs_)
    *r.at = address(vars_[r.var], rank) + static_cast<std::uintptr_t>(r.addend);
  bound_ = rank;
}

}  // namespace tilempi::transport::sim
