// The registry's schedules by name, for tilempi-coll-check and the tests: every registered
// algorithm with a schedule (Algorithm::schedule) is checkable, nothing else is.
#include <stdexcept>

#include "coll/coll.h"

namespace tilempi::coll::schedule {

namespace {

namespace mc = ::tilempi::mpi::coll;

/// Where a bare algorithm name ("linear") is looked up first: alltoall is what the checker was
/// written for, then the registry's order.
std::vector<mc::Collective> lookup_order() {
  std::vector<mc::Collective> order{mc::Collective::Alltoall};
  for (int i = 0; i < mc::kKinds; ++i)
    if (static_cast<mc::Collective>(i) != mc::Collective::Alltoall) order.push_back(static_cast<mc::Collective>(i));
  return order;
}

}  // namespace

std::vector<std::string> known_schedules() {
  std::vector<std::string> out;
  for (int i = 0; i < mc::kKinds; ++i)
    for (const mc::Algorithm& a : mc::algorithms(static_cast<mc::Collective>(i)))
      if (a.schedule || a.neighbor_schedule) out.push_back(std::string(mc::kind_name(a.kind)) + "=" + a.name);
  return out;
}

bool is_neighbor_spec(const std::string& spec) { return spec.rfind("neighbor_", 0) == 0; }

std::optional<Named> named_neighbor_schedule(const std::string& spec, const Mesh& mesh, const std::vector<Point>& members,
                                             const Neighborhood& nb, std::string* error) {
  std::string coll = "neighbor_alltoall", algo = spec;
  if (auto eq = spec.find('='); eq != std::string::npos) {
    coll = spec.substr(0, eq);
    algo = spec.substr(eq + 1);
  }
  const auto kind = mc::kind_of(coll);
  const mc::Algorithm* a = kind ? mc::find_algorithm(*kind, algo) : nullptr;
  if (!a || !a->neighbor_schedule) {
    if (error) {
      std::string list;
      for (const std::string& k : known_schedules())
        if (is_neighbor_spec(k)) list += (list.empty() ? "" : ", ") + k;
      *error = "no neighbourhood schedule named '" + spec + "'; known: " + list;
    }
    return std::nullopt;
  }
  return Named{coll, algo, 0, a->neighbor_schedule(mesh, members, nb), ""};
}

std::optional<Named> named_schedule(const std::string& spec, const Mesh& mesh, const std::vector<Point>& members,
                                    int root, std::string* error, std::optional<std::size_t> block) {
  std::string coll, algo = spec;
  if (auto eq = spec.find('='); eq != std::string::npos) {
    coll = spec.substr(0, eq);
    algo = spec.substr(eq + 1);
  }
  int param = 0;
  if (auto colon = algo.find(':'); colon != std::string::npos) {
    const std::string p = algo.substr(colon + 1);
    algo = algo.substr(0, colon);
    try {
      std::size_t used = 0;
      param = std::stoi(p, &used);
      if (used != p.size() || param < 1) throw std::invalid_argument(p);
    } catch (const std::exception&) {
      if (error) *error = "bad parameter '" + p + "' in '" + spec + "' (a positive integer, e.g. ktree:4)";
      return std::nullopt;
    }
  }
  for (mc::Collective k : lookup_order()) {
    if (!coll.empty() && coll != mc::kind_name(k)) continue;
    const mc::Algorithm* a = mc::find_algorithm(k, algo);
    if (!a || !a->schedule) continue;
    if (root < 0 || (root >= static_cast<int>(members.size()) && !members.empty())) root = 0;
    std::string requested;
    if (block) {
      const mc::Algorithm& runs = mc::at_block_size(k, *a, *block);
      if (&runs != a) {
        requested = algo;
        a = &runs;
        if (!a->takes_param) param = 0;
      }
    }
    if (!a->schedule) {
      if (error) *error = std::string(mc::kind_name(k)) + "=" + a->name + ", which runs at this size, has no schedule";
      return std::nullopt;
    }
    return Named{mc::kind_name(k), a->name, param, a->schedule(mesh, members, root, param), requested};
  }
  if (error) {
    std::string list;
    for (const std::string& k : known_schedules()) list += (list.empty() ? "" : ", ") + k;
    *error = "no schedule named '" + spec + "'; known: " + list;
  }
  return std::nullopt;
}

}  // namespace tilempi::coll::schedule
