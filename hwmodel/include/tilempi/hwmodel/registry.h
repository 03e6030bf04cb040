// A registry of the hardware model's extension points (adapters, presets, network models): the
// one list of an extension point's entries, keyed by name, in registration order. Everything a
// user or a test sees of the list (help texts, the choices a setting accepts, the error for an
// unknown name, the tests that run for each entry) is read from it.
//
// How an extension point uses it (adapters as the example; docs/ARCHITECTURE.md, "Registries of
// the hardware model"):
//   - its registration header holds the registration lines, one X(name) per entry:
//       #define TILEMPI_REGISTERED_ADAPTERS(X) X(udn) X(namp) ...
//     and, in a namespace of its own whose `Entry` names the entry type, declares one entry object
//     per line (udn_entry, namp_entry, ...) and the names (kNames) with
//     TILEMPI_REGISTRY_DECLARE_ENTRIES;
//   - each entry's own file defines its entry with the extension point's macro
//     (TILEMPI_REGISTER_ADAPTER(udn, "help", .create = ...), a TILEMPI_REGISTRY_DEFINE). The macro
//     refuses to compile when the name has no registration line, and a registration line whose
//     entry is defined nowhere does not link: no entry can be lost, and none is found by a static
//     constructor that a static library could drop;
//   - one function builds the Registry from the registration lines (TILEMPI_REGISTRY_OF, in the
//     extension point's .cpp), the first time it is asked.
// CMake reads the same registration lines (cmake/TilempiRegistry.cmake) for the tests that run
// once per entry.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilempi::hwmodel::registry {

/// Is `name` among the registration lines? (For the static_assert of the registration macros.)
template <std::size_t N>
constexpr bool listed(const std::string_view (&names)[N], std::string_view name) {
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

/// The entries of one extension point. Entry has at least `const char* name` and `const char*
/// help` (one line, what the entry models and after which source).
template <class Entry>
class Registry {
 public:
  /// `kind` names the extension point in messages ("adapter"). A broken registration (an empty
  /// name or help, a name twice) stops the program at the registry's first use: it is a mistake in
  /// the source, not in the user's input.
  Registry(const char* kind, std::vector<const Entry*> entries) : kind_(kind), entries_(std::move(entries)) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& e = *entries_[i];
      if (!e.name || !*e.name) broken("an entry has no name");
      if (!e.help || !*e.help) broken(std::string(e.name) + " has no help text");
      for (std::size_t j = 0; j < i; ++j)
        if (std::string_view(entries_[j]->name) == e.name) broken(std::string(e.name) + " is registered twice");
    }
    if (entries_.empty()) broken("nothing is registered");
  }

  /// The entry called `name`, or nullptr.
  const Entry* find(std::string_view name) const {
    for (const Entry* e : entries_)
      if (name == e->name) return e;
    return nullptr;
  }
  const std::vector<const Entry*>& entries() const { return entries_; }
  /// The names in registration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry* e : entries_) out.emplace_back(e->name);
    return out;
  }
  /// The names in registration order, separated by `separator` ("udn, namp, rdma").
  std::string joined(const char* separator = ", ") const {
    std::string out;
    for (const Entry* e : entries_) out += (out.empty() ? "" : separator) + std::string(e->name);
    return out;
  }

 private:
  [[noreturn]] void broken(const std::string& what) const {
    std::fprintf(stderr, "tilempi: %s registry: %s\n", kind_, what.c_str());
    std::abort();
  }
  const char* kind_;
  std::vector<const Entry*> entries_;
};

}  // namespace tilempi::hwmodel::registry

// ---- the macros of the registration headers and the entries' files

/// One registration line's name as a string: LIST(TILEMPI_REGISTRY_NAME) gives "udn", "namp", ...
#define TILEMPI_REGISTRY_NAME(id) #id,
#define TILEMPI_REGISTRY_DECLARE_ONE(id) extern const Entry id##_entry;
#define TILEMPI_REGISTRY_ADDRESS(id) &id##_entry,

/// In the extension point's namespace, after `using Entry = ...;`: the entry of every registration
/// line of LIST (`extern const Entry udn_entry;`, ...) and their names, kNames.
#define TILEMPI_REGISTRY_DECLARE_ENTRIES(LIST) \
  LIST(TILEMPI_REGISTRY_DECLARE_ONE)           \
  inline constexpr std::string_view kNames[] = {LIST(TILEMPI_REGISTRY_NAME)};

/// Defines entry `id` of the extension point declared in namespace `ns` (written without a
/// leading ::), the fields after name and help as designated initializers. `kind` and `header`
/// name the extension point and its registration header in the error for an unlisted name.
#define TILEMPI_REGISTRY_DEFINE(ns, kind, header, id, help_text, ...)                              \
  static_assert(::tilempi::hwmodel::registry::listed(::ns::kNames, #id),                          \
                kind " '" #id "' has no registration line in " header);                           \
  constinit const ns::Entry ns::id##_entry {                                                        \
    .name = #id, .help = help_text, __VA_ARGS__                                                     \
  }

/// The Registry of the registration lines LIST, whose entries namespace `ns` declares.
#define TILEMPI_REGISTRY_OF(kind, LIST, ns)                                                \
  [] {                                                                                    \
    using namespace ns;                                                                   \
    return ::tilempi::hwmodel::registry::Registry<ns::Entry>(kind, {LIST(TILEMPI_REGISTRY_ADDRESS)}); \
  }()
