// Library variables that ranks as contexts must not share: each library's references to them
// are bound to the running rank's variable (docs/SIM.md "Ranks as contexts", library variables).
//
// In a process, a -fPIE executable that uses a library's variable (getopt's optarg and optind,
// environ, stdout, tzname, signgam, std::cout, ...) holds the variable itself (a copy relocation:
// the library's value is copied in at load), and every library's reference to it (a GOT entry,
// a pointer in relocated read-only data) is bound to the executable's definition, which comes
// first in the symbol scope: the program and the libraries use one variable. A copy of the
// executable opened with dlopen still gets its copy, but the libraries' references stay bound to
// their own definition: getopt sets an optarg that the program never reads, setenv changes an
// environ that the program does not look at. So before a rank runs, every library reference to
// such a variable is pointed at the running rank's copy, as the dynamic linker does for a
// process's executable.
//
// Variables of the C library that a program changes through calls without naming them (getopt's
// optind, optarg, opterr and optopt) are per rank even when the program holds no copy: each rank
// then has a cell of the simulator's, started from the process's value.
//
// Two sets stay shared, whichever copy holds their current value (when another rank is bound, its
// copies take the values of the rank bound before):
// - the time-zone variables (tzname, timezone, daylight), derived from the C library's one set of
//   time-zone rules, which tzset recomputes only when TZ changes: a rank calling tzset after
//   another with the same TZ must see the values that call computed;
// - environ: setenv reallocates the array it allocated last, whichever rank's environ that was,
//   so one environment per rank would leave the others pointing at freed memory.
//
// Not covered: a program's own functions that would interpose a library's in a process (a
// program that defines malloc), and libraries a rank opens with dlopen while it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilempi::transport::sim {

/// One rank's loaded copy of the program, as far as binding its variables is concerned.
struct RankImage {
  void* handle = nullptr;     ///< dlopen handle
  std::uintptr_t base = 0;    ///< load base
};

class RankVariables {
 public:
  /// Once every rank's copy is loaded: finds the variables (the image's copy-relocated symbols,
  /// copied_names, and the C library's per-rank state), resets each copy to the process's
  /// current value, and finds every library reference to them. Leaves the process's own bound.
  void build(const std::vector<RankImage>& copies, const std::vector<std::string>& copied_names);

  /// Points every library reference at rank r's variables (-1: the process's own). Cheap when r
  /// is already bound.
  void bind(int rank) {
    if (rank != bound_) rebind(rank);
  }
  int bound() const { return bound_; }

  /// Rank r's own copy of per-rank variable `name` (e.g. "stdin"), or nullptr.
  void* cell(const std::string& name, int rank) const;

  /// Counts, for the profile line and the tests.
  std::size_t variables() const { return vars_.size(); }
  std::size_t references() const { return refs_.size(); }

 private:
  struct Variable {
    std::string name;
    std::uintptr_t process = 0;            ///< the definition the libraries were bound to
    std::size_t bytes = 0;
    bool shared = false;                   ///< one value for all ranks (time zone)
    std::vector<std::uintptr_t> of_rank;   ///< each rank's copy or cell
  };
  struct Reference {
    std::uintptr_t* at;
    std::size_t var;
    std::intptr_t addend;
  };

  std::uintptr_t address(const Variable& v, int rank) const {
    return rank < 0 ? v.process : v.of_rank[static_cast<std::size_t>(rank)];
  }
  void rebind(int rank);
  void find_references(const std::vector<RankImage>& copies);

  std::vector<Variable> vars_;
  std::vector<Reference> refs_;
  std::vector<std::size_t> shared_;                    ///< indices of shared variables
  std::vector<std::unique_ptr<unsigned char[]>> cells_;
  int bound_ = -1;
};

}  // namespace tilempi::transport::sim
