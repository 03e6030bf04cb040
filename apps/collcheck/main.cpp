// tilempi-coll-check ALGORITHM --mesh WxH [--ranks N] [--root R] [--bytes B] [--routing NAME [--seed S]]
//                   [--json] [--summary]
// tilempi-coll-check neighbor_COLL=ALGORITHM --mesh WxH --cart D0xD1[x...] [--periodic] [--reorder]
//                    [--placement row-major|scattered:SEED]
//
// Enumerates every round of a collective algorithm's communication schedule on a W x H mesh with
// the routes of a routing function (XY unless --routing says otherwise), and reports the links
// that more than one message of a round uses (conflicts), the maximum link load and, for alltoall
// schedules, the round count against its lower bound. With --bytes it is the schedule of what the
// registry runs at that block size (operampi runs linear up to 1 KW). An oblivious routing (o1turn, romm, valiant)
// draws each message's path from --seed; an adaptive one has no static answer: its conflicts
// depend on timing. A neighbourhood collective's schedule depends on the process topology: --cart
// gives a Cartesian grid, --reorder places it as MPI_Cart_create(reorder=1) does on the sim (the
// same code, coll/schedule/placement.cpp), --placement says where the ranks sit before that.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <regex>
#include <string>

#include <CLI/CLI.hpp>

#include "../cli_exit.h"
#include <nlohmann/json.hpp>

#include "schedule.h"
#include "tilempi/hwmodel/routing.h"

namespace sch = tilempi::coll::schedule;
namespace hw = tilempi::hwmodel;

namespace {

// A message's mesh links under a routing function (its state drawn from `rng` for an oblivious
// one), in the schedule's terms.
std::vector<sch::Link> routed_links(const hw::RoutingEntry& e, const hw::Topology& topo, sch::Point a, sch::Point b,
                                    std::uint64_t& rng) {
  const hw::TileId src = topo.tile(a.x, a.y), dst = topo.tile(b.x, b.y);
  hw::PacketRoute r;
  if (e.choose) e.choose(r, topo, src, dst, rng);
  std::vector<sch::Link> out;
  for (const hw::Link& l : hw::routed_path(e, topo, src, dst, r)) {
    const hw::Coord c = topo.coord(l.tile);
    const sch::Dir d = l.dir == hw::Dir::East    ? sch::Dir::East
                       : l.dir == hw::Dir::West  ? sch::Dir::West
                       : l.dir == hw::Dir::North ? sch::Dir::North
                                                 : sch::Dir::South;
    out.push_back(sch::Link{c.x, c.y, d});
  }
  return out;
}

// sch::analyse with the routing function's paths (`paths`: per round and message, filled here).
sch::Report analyse_routed(const sch::Mesh& mesh, const std::vector<sch::Point>& members, const sch::Schedule& s,
                           const hw::RoutingEntry& e, std::uint64_t seed,
                           std::vector<std::vector<std::vector<sch::Link>>>& paths) {
  const hw::Topology topo(mesh.width, mesh.height);
  std::uint64_t rng = seed;
  sch::Report rep;
  rep.rounds = static_cast<int>(s.rounds.size());
  for (std::size_t ri = 0; ri < s.rounds.size(); ++ri) {
    std::map<int, std::pair<sch::Link, std::vector<sch::Msg>>> use;
    std::map<int, int> out, in;
    paths.emplace_back();
    for (const sch::Msg& m : s.rounds[ri]) {
      const sch::Point a = members[static_cast<std::size_t>(m.src)], b = members[static_cast<std::size_t>(m.dst)];
      paths.back().push_back(routed_links(e, topo, a, b, rng));
      for (const sch::Link& l : paths.back().back()) {
        auto& slot = use[l.id(mesh)];
        slot.first = l;
        slot.second.push_back(m);
      }
      rep.max_endpoint_load = std::max(rep.max_endpoint_load, ++out[a.y * mesh.width + a.x]);
      rep.max_endpoint_load = std::max(rep.max_endpoint_load, ++in[b.y * mesh.width + b.x]);
    }
    sch::RoundReport rr;
    rr.messages = static_cast<int>(s.rounds[ri].size());
    for (auto& [id, slot] : use) {
      const int load = static_cast<int>(slot.second.size());
      rr.max_link_load = std::max(rr.max_link_load, load);
      if (load > 1) rep.conflicts.push_back({static_cast<int>(ri), slot.first, slot.second});
    }
    rep.max_link_load = std::max(rep.max_link_load, rr.max_link_load);
    rep.messages += s.rounds[ri].size();
    rep.per_round.push_back(rr);
  }
  return rep;
}

std::string path_str(const std::vector<sch::Link>& links) {
  std::string s;
  for (const auto& l : links) s += (s.empty() ? "" : " ") + l.str();
  return s.empty() ? "(same tile)" : s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Static contention checker of tilempi's collective schedules (XY routing unless --routing, no "
               "wrap-around)"};
  std::string spec, mesh_spec, routing = "xy";
  std::uint64_t seed = 1;
  int ranks = 0, root = 0;
  long long bytes = -1;
  bool json = false, summary = false, fail_on_conflict = false;
  app.add_option("algorithm", spec,
                 "algorithm, algorithm:param or collective=algorithm[:param], e.g. mesh_rounds, ktree:4, "
                 "bcast=binomial")->required();
  app.add_option("--mesh", mesh_spec, "mesh shape WxH, e.g. 7x7")->required();
  app.add_option("--ranks", ranks, "communicator size (default W*H); ranks fill the mesh row-major")
      ->check(CLI::PositiveNumber);
  app.add_option("--root", root, "root rank of rooted collectives (default 0)")->check(CLI::NonNegativeNumber);
  app.add_option("--bytes", bytes,
                 "bytes per block (alltoall: per peer): check what the registry runs at that size, e.g. operampi "
                 "runs linear up to 1 KW (default: the algorithm named)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--routing", routing,
                 "routing function of the chip key routing (" + hw::routings().joined() +
                     "); an adaptive one has no static answer")
      ->check(CLI::IsMember(hw::routings().names()));
  app.add_option("--seed", seed, "seed of an oblivious routing's draws (o1turn, romm, valiant), one per message");
  app.add_flag("--json", json, "print the report as JSON");
  app.add_flag("--summary", summary, "omit the per-message paths");
  app.add_flag("--fail-on-conflict", fail_on_conflict, "exit with status 1 when a link conflict is found");
  std::string cart_spec, placement = "row-major";
  bool periodic = false, reorder = false;
  app.add_option("--cart", cart_spec, "neighbourhood collectives: a Cartesian grid D0xD1[x...] of the ranks (row-major)");
  app.add_flag("--periodic", periodic, "the grid is periodic in every dimension");
  app.add_flag("--reorder", reorder, "place the grid's ranks as MPI_Cart_create with reorder=1 does on the sim");
  app.add_option("--placement", placement, "where the ranks sit before reordering: row-major or scattered:SEED");
  app.footer("Known schedules: " + [] {
    std::string s;
    for (const auto& k : sch::known_schedules()) s += (s.empty() ? "" : ", ") + k;
    return s;
  }());
  if (int status = tilempi::apps::parse_command_line(app, argc, argv); status >= 0) return status;

  std::smatch m;
  if (!std::regex_match(mesh_spec, m, std::regex(R"((\d+)[xX](\d+))"))) {
    std::cerr << "tilempi-coll-check: --mesh wants WxH, e.g. 7x7 (got '" << mesh_spec << "')\n";
    return 2;
  }
  sch::Mesh mesh{std::stoi(m[1]), std::stoi(m[2])};
  if (mesh.width < 1 || mesh.height < 1 || mesh.width > 256 || mesh.height > 256) {
    std::cerr << "tilempi-coll-check: mesh dimensions must be 1..256\n";
    return 2;
  }
  if (ranks == 0) ranks = mesh.width * mesh.height;
  if (ranks > mesh.width * mesh.height) {
    std::cerr << "tilempi-coll-check: " << ranks << " ranks do not fit a " << mesh_spec << " mesh\n";
    return 2;
  }
  if (root >= ranks) {
    std::cerr << "tilempi-coll-check: --root " << root << " is not a rank of " << ranks << "\n";
    return 2;
  }
  auto members = sch::row_major(mesh, ranks);
  if (placement.rfind("scattered:", 0) == 0) {
    // A fixed pseudo-random permutation of the tiles (an LCG), the same for a seed everywhere.
    std::uint64_t x = std::stoull(placement.substr(10)) * 6364136223846793005ULL + 1442695040888963407ULL;
    auto tiles = sch::row_major(mesh, mesh.width * mesh.height);
    for (std::size_t i = tiles.size(); i > 1; --i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      std::swap(tiles[i - 1], tiles[(x >> 33) % i]);
    }
    members.assign(tiles.begin(), tiles.begin() + ranks);
  } else if (placement != "row-major") {
    std::cerr << "tilempi-coll-check: --placement wants row-major or scattered:SEED (got '" << placement << "')\n";
    return 2;
  }
  std::string err;
  std::optional<sch::Named> named;
  sch::Neighborhood nb;
  long long placed_hops = -1;
  std::string placed_by;
  if (sch::is_neighbor_spec(spec)) {
    std::vector<int> dims;
    std::smatch dm;
    std::string rest = cart_spec;
    while (std::regex_search(rest, dm, std::regex(R"((\d+))"))) {
      dims.push_back(std::stoi(dm[1]));
      rest = dm.suffix();
    }
    long cells = 1;
    for (int d : dims) cells *= d;
    if (dims.empty() || cells != ranks) {
      std::cerr << "tilempi-coll-check: a neighbourhood collective needs --cart D0xD1[x...] with as many cells as ranks ("
                << ranks << ")\n";
      return 2;
    }
    nb = sch::cartesian_neighborhood(dims, std::vector<int>(dims.size(), periodic ? 1 : 0));
    const sch::WeightedGraph g = sch::graph_of(nb);
    std::vector<int> order(static_cast<std::size_t>(ranks));
    for (int k = 0; k < ranks; ++k) order[static_cast<std::size_t>(k)] = k;
    placed_by = "identity";
    if (reorder) order = sch::place_graph(g, members, dims, &placed_by);
    placed_hops = sch::weighted_hops(g, members, order);
    std::vector<sch::Point> placed;
    for (int k = 0; k < ranks; ++k) placed.push_back(members[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])]);
    members = placed;
    named = sch::named_neighbor_schedule(spec, mesh, members, nb, &err);
  } else {
    named = sch::named_schedule(spec, mesh, members, root, &err,
                                bytes >= 0 ? std::optional<std::size_t>(static_cast<std::size_t>(bytes)) : std::nullopt);
  }
  if (!named) {
    std::cerr << "tilempi-coll-check: " << err << "\n";
    return 2;
  }
  const hw::RoutingEntry& rf = hw::routing_named(routing);
  if (rf.kind == hw::RoutingKind::adaptive) {
    // Each head chooses among its options from the routers' state when it gets there.
    const std::string why = "routing " + routing + " is adaptive: a message's path, and so the schedule's link "
                            "conflicts, depend on timing (run it on the sim to see them)";
    if (json) {
      nlohmann::json j;
      j["routing"] = routing;
      j["adaptive"] = true;
      j["note"] = why;
      std::cout << j.dump() << "\n";
    } else {
      std::printf("%s\n", why.c_str());
    }
    return 0;
  }
  const bool xy = routing == "xy";
  std::vector<std::vector<std::vector<sch::Link>>> paths;  // per round and message (routings other than xy)
  const sch::Report rep = xy ? sch::analyse(mesh, members, named->schedule)
                             : analyse_routed(mesh, members, named->schedule, rf, seed, paths);
  auto path_of = [&](std::size_t round, std::size_t k, const sch::Msg& msg) {
    return xy ? sch::xy_path(members[static_cast<std::size_t>(msg.src)], members[static_cast<std::size_t>(msg.dst)])
              : paths[round][k];
  };
  const std::string routed = xy ? "" : ", routing " + routing +
                                           (rf.kind == hw::RoutingKind::oblivious
                                                ? " (paths drawn per message, seed " + std::to_string(seed) + ")"
                                                : "");
  const bool all2all = named->collective == "alltoall" || named->collective == "alltoallv";
  const bool neighbor = sch::is_neighbor_spec(named->collective);
  const int bound = all2all    ? sch::alltoall_round_lower_bound(mesh, members)
                    : neighbor ? sch::neighbor_round_lower_bound(mesh, members, nb)
                               : 0;
  std::string label = named->collective + "=" + named->algorithm +
                      (named->param > 0 ? ":" + std::to_string(named->param) : std::string());
  const std::string switched = named->requested.empty()
                                   ? ""
                                   : " (what " + named->collective + "=" + named->requested + " runs at " +
                                         std::to_string(bytes) + " B per block)";

  if (json) {
    nlohmann::json j;
    j["algorithm"] = label;
    if (!named->requested.empty()) j["requested"] = named->collective + "=" + named->requested;
    if (bytes >= 0) j["bytes"] = bytes;
    j["routing"] = routing;
    if (rf.kind == hw::RoutingKind::oblivious) j["seed"] = seed;
    j["mesh"] = {{"width", mesh.width}, {"height", mesh.height}};
    j["ranks"] = ranks;
    j["root"] = root;
    j["rounds"] = rep.rounds;
    j["messages"] = rep.messages;
    j["max_link_load"] = rep.max_link_load;
    j["max_endpoint_load"] = rep.max_endpoint_load;
    j["conflict_count"] = rep.conflicts.size();
    if (neighbor) {
      j["round_lower_bound"] = bound;
      j["placement"] = placed_by;
      j["weighted_hops"] = placed_hops;
    }
    if (all2all) {
      j["round_lower_bound"] = bound;
      j["covers_all_pairs_once"] = sch::covers_all_pairs_once(named->schedule, ranks);
    }
    auto& conflicts = j["conflicts"] = nlohmann::json::array();
    for (const auto& c : rep.conflicts) {
      nlohmann::json msgs = nlohmann::json::array();
      for (const auto& msg : c.msgs) msgs.push_back({msg.src, msg.dst});
      conflicts.push_back({{"round", c.round}, {"link", c.link.str()}, {"messages", msgs}});
    }
    if (!summary) {
      auto& rounds = j["schedule"] = nlohmann::json::array();
      for (std::size_t ri = 0; ri < named->schedule.rounds.size(); ++ri) {
        const auto& r = named->schedule.rounds[ri];
        nlohmann::json jr = nlohmann::json::array();
        for (std::size_t k = 0; k < r.size(); ++k) {
          const auto& msg = r[k];
          nlohmann::json links = nlohmann::json::array();
          for (const auto& l : path_of(ri, k, msg)) links.push_back(l.str());
          jr.push_back({{"src", msg.src}, {"dst", msg.dst}, {"path", links}});
        }
        rounds.push_back(jr);
      }
    }
    std::cout << j.dump(summary ? -1 : 1) << "\n";
  } else {
    if (neighbor)
      std::printf("%s on a %dx%d mesh, %d ranks (%s), a %s%s grid placed by %s%s\n", label.c_str(), mesh.width,
                  mesh.height, ranks, placement.c_str(), periodic ? "periodic " : "", cart_spec.c_str(), placed_by.c_str(),
                  routed.c_str());
    else
      std::printf("%s%s on a %dx%d mesh, %d ranks (row-major), root %d%s\n", label.c_str(), switched.c_str(), mesh.width,
                  mesh.height, ranks, root, routed.c_str());
    if (!summary) {
      for (std::size_t ri = 0; ri < named->schedule.rounds.size(); ++ri) {
        const auto& r = named->schedule.rounds[ri];
        std::printf("round %zu: %zu messages, max link load %d\n", ri, r.size(), rep.per_round[ri].max_link_load);
        for (std::size_t k = 0; k < r.size(); ++k) {
          const auto& msg = r[k];
          auto a = members[static_cast<std::size_t>(msg.src)], b = members[static_cast<std::size_t>(msg.dst)];
          std::printf("  %d(%d,%d) -> %d(%d,%d): %s\n", msg.src, a.x, a.y, msg.dst, b.x, b.y,
                      path_str(path_of(ri, k, msg)).c_str());
        }
      }
    }
    for (const auto& c : rep.conflicts) {
      std::printf("conflict in round %d on link %s:", c.round, c.link.str().c_str());
      for (const auto& msg : c.msgs) std::printf(" %d->%d", msg.src, msg.dst);
      std::printf("\n");
    }
    std::printf("rounds: %d\nmessages: %zu\n", rep.rounds, rep.messages);
    if (all2all)
      std::printf("round lower bound: %d\nevery ordered pair exactly once: %s\n", bound,
                  sch::covers_all_pairs_once(named->schedule, ranks) ? "yes" : "NO");
    if (neighbor) std::printf("round lower bound: %d\nweighted hops: %lld\n", bound, placed_hops);
    std::printf("link conflicts: %zu\nmax link load: %d\nmax endpoint load: %d\n", rep.conflicts.size(),
                rep.max_link_load, rep.max_endpoint_load);
  }
  return fail_on_conflict && !rep.conflicts.empty() ? 1 : 0;
}
