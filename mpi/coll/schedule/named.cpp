// Schedules by name, for tilempi-coll-check and the tests.
#include <functional>
#include <stdexcept>

#include "schedule.h"

namespace tilempi::coll::schedule {

namespace {

struct Entry {
  const char* collective;
  const char* algorithm;
  std::function<Schedule(const Mesh&, const std::vector<Point>&, int root, int param)> make;
};

Schedule concat(Schedule a, const Schedule& b) {
  for (const Round& r : b.rounds) a.rounds.push_back(r);
  return a;
}

Schedule tree_updown(const Tree& t, const std::vector<Point>& m) {
  return concat(tree_gather_rounds(t, m), tree_scatter_rounds(t));
}

const std::vector<Entry>& entries() {
  using P = std::vector<Point>;
  auto n = [](const P& m) { return static_cast<int>(m.size()); };
  static const std::vector<Entry> e = {
      {"alltoall", "mesh_rounds", [](const Mesh& mesh, const P& m, int, int) { return mesh_rounds(mesh, m); }},
      {"alltoall", "pairwise", [n](const Mesh&, const P& m, int, int) { return pairwise(n(m)); }},
      {"alltoall", "xor_direct", [n](const Mesh&, const P& m, int, int) { return xor_direct(n(m)); }},
      {"alltoall", "bruck", [n](const Mesh&, const P& m, int, int) { return bruck(n(m)); }},
      {"alltoall", "linear", [n](const Mesh&, const P& m, int, int) { return linear_turns(n(m)); }},
      {"alltoall", "scattered", [n](const Mesh&, const P& m, int, int) { return scattered(n(m)); }},
      {"alltoallv", "mesh_rounds", [](const Mesh& mesh, const P& m, int, int) { return mesh_rounds(mesh, m); }},
      {"barrier", "ktree", [](const Mesh& mesh, const P& m, int, int k) { return tree_updown(ktree(mesh, m, k > 0 ? k : 3), m); }},
      // The release goes over the static network: only the notifications use the mesh links.
      {"barrier", "ktree_static", [](const Mesh& mesh, const P& m, int, int k) { return tree_gather_rounds(ktree(mesh, m, k > 0 ? k : 3), m); }},
      {"barrier", "dissemination", [n](const Mesh&, const P& m, int, int) { return dissemination(n(m)); }},
      {"barrier", "recursive_doubling", [n](const Mesh&, const P& m, int, int) { return recursive_doubling(n(m)); }},
      {"barrier", "linear", [n](const Mesh&, const P& m, int, int) { return concat(linear_reduce(n(m), 0), linear_bcast(n(m), 0)); }},
      {"bcast", "static_route", [](const Mesh& mesh, const P& m, int root, int) { return tree_scatter_rounds(static_route_tree(mesh, m, root)); }},
      {"bcast", "binomial", [n](const Mesh&, const P& m, int root, int) { return binomial_bcast(n(m), root); }},
      {"bcast", "linear", [n](const Mesh&, const P& m, int root, int) { return linear_bcast(n(m), root); }},
      {"reduce", "mesh_tree", [](const Mesh& mesh, const P& m, int root, int) { return tree_gather_rounds(mesh_reduce_tree(mesh, m, root), m); }},
      {"reduce", "binomial", [n](const Mesh&, const P& m, int root, int) { return binomial_reduce(n(m), root); }},
      {"reduce", "linear", [n](const Mesh&, const P& m, int root, int) { return linear_reduce(n(m), root); }},
      {"allreduce", "mesh_reduce_bcast", [](const Mesh& mesh, const P& m, int, int) {
         return concat(tree_gather_rounds(mesh_reduce_tree(mesh, m, 0), m), tree_scatter_rounds(static_route_tree(mesh, m, 0)));
       }},
      {"allreduce", "recursive_doubling", [n](const Mesh&, const P& m, int, int) { return recursive_doubling(n(m)); }},
      {"allreduce", "ring", [n](const Mesh&, const P& m, int, int) { return ring(n(m), 2 * (n(m) - 1)); }},
      {"allgather", "ring", [n](const Mesh&, const P& m, int, int) { return ring(n(m), n(m) - 1); }},
      {"allgather", "bruck", [n](const Mesh&, const P& m, int, int) { return bruck(n(m)); }},
      {"allgather", "recursive_doubling", [n](const Mesh&, const P& m, int, int) { return recursive_doubling(n(m)); }},
  };
  return e;
}

}  // namespace

std::vector<std::string> known_schedules() {
  std::vector<std::string> out;
  for (const Entry& e : entries()) out.push_back(std::string(e.collective) + "=" + e.algorithm);
  return out;
}

std::optional<Named> named_schedule(const std::string& spec, const Mesh& mesh, const std::vector<Point>& members,
                                    int root, std::string* error) {
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
  for (const char* c : {"alltoall", "barrier", "bcast", "reduce", "allreduce", "allgather", "alltoallv"})
    for (const Entry& e : entries())
      if (e.collective == std::string(c) && e.algorithm == algo && (coll.empty() || coll == c)) {
        if (root < 0 || (root >= static_cast<int>(members.size()) && !members.empty())) root = 0;
        return Named{c, algo, param, e.make(mesh, members, root, param)};
      }
  if (error) {
    std::string list;
    for (const std::string& k : known_schedules()) list += (list.empty() ? "" : ", ") + k;
    *error = "no schedule named '" + spec + "'; known: " + list;
  }
  return std::nullopt;
}

}  // namespace tilempi::coll::schedule
