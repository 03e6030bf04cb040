// tilempi-coll-check ALGORITHM --mesh WxH [--ranks N] [--root R] [--json] [--summary]
//
// Enumerates every round of a collective algorithm's communication schedule on a W x H mesh with
// XY routes, and reports the links that more than one message of a round uses (conflicts), the
// maximum link load and, for alltoall schedules, the round count against its lower bound.
#include <cstdio>
#include <iostream>
#include <regex>
#include <string>

#include <CLI/CLI.hpp>

#include "../cli_exit.h"
#include <nlohmann/json.hpp>

#include "schedule.h"

namespace sch = tilempi::coll::schedule;

namespace {

std::string path_str(const std::vector<sch::Link>& links) {
  std::string s;
  for (const auto& l : links) s += (s.empty() ? "" : " ") + l.str();
  return s.empty() ? "(same tile)" : s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Static contention checker of tilempi's collective schedules (XY routing, no wrap-around)"};
  std::string spec, mesh_spec;
  int ranks = 0, root = 0;
  bool json = false, summary = false, fail_on_conflict = false;
  app.add_option("algorithm", spec,
                 "algorithm, algorithm:param or collective=algorithm[:param], e.g. mesh_rounds, ktree:4, "
                 "bcast=binomial")->required();
  app.add_option("--mesh", mesh_spec, "mesh shape WxH, e.g. 7x7")->required();
  app.add_option("--ranks", ranks, "communicator size (default W*H); ranks fill the mesh row-major")
      ->check(CLI::PositiveNumber);
  app.add_option("--root", root, "root rank of rooted collectives (default 0)")->check(CLI::NonNegativeNumber);
  app.add_flag("--json", json, "print the report as JSON");
  app.add_flag("--summary", summary, "omit the per-message paths");
  app.add_flag("--fail-on-conflict", fail_on_conflict, "exit with status 1 when a link conflict is found");
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
  std::string err;
  auto named = sch::named_schedule(spec, mesh, members, root, &err);
  if (!named) {
    std::cerr << "tilempi-coll-check: " << err << "\n";
    return 2;
  }
  const sch::Report rep = sch::analyse(mesh, members, named->schedule);
  const bool all2all = named->collective == "alltoall" || named->collective == "alltoallv";
  const int bound = all2all ? sch::alltoall_round_lower_bound(mesh, members) : 0;
  std::string label = named->collective + "=" + named->algorithm +
                      (named->param > 0 ? ":" + std::to_string(named->param) : std::string());

  if (json) {
    nlohmann::json j;
    j["algorithm"] = label;
    j["mesh"] = {{"width", mesh.width}, {"height", mesh.height}};
    j["ranks"] = ranks;
    j["root"] = root;
    j["rounds"] = rep.rounds;
    j["messages"] = rep.messages;
    j["max_link_load"] = rep.max_link_load;
    j["max_endpoint_load"] = rep.max_endpoint_load;
    j["conflict_count"] = rep.conflicts.size();
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
      for (const auto& r : named->schedule.rounds) {
        nlohmann::json jr = nlohmann::json::array();
        for (const auto& msg : r) {
          nlohmann::json links = nlohmann::json::array();
          for (const auto& l : sch::xy_path(members[static_cast<std::size_t>(msg.src)], members[static_cast<std::size_t>(msg.dst)]))
            links.push_back(l.str());
          jr.push_back({{"src", msg.src}, {"dst", msg.dst}, {"path", links}});
        }
        rounds.push_back(jr);
      }
    }
    std::cout << j.dump(summary ? -1 : 1) << "\n";
  } else {
    std::printf("%s on a %dx%d mesh, %d ranks (row-major), root %d\n", label.c_str(), mesh.width, mesh.height, ranks, root);
    if (!summary) {
      for (std::size_t ri = 0; ri < named->schedule.rounds.size(); ++ri) {
        const auto& r = named->schedule.rounds[ri];
        std::printf("round %zu: %zu messages, max link load %d\n", ri, r.size(), rep.per_round[ri].max_link_load);
        for (const auto& msg : r) {
          auto a = members[static_cast<std::size_t>(msg.src)], b = members[static_cast<std::size_t>(msg.dst)];
          std::printf("  %d(%d,%d) -> %d(%d,%d): %s\n", msg.src, a.x, a.y, msg.dst, b.x, b.y,
                      path_str(sch::xy_path(a, b)).c_str());
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
    std::printf("link conflicts: %zu\nmax link load: %d\nmax endpoint load: %d\n", rep.conflicts.size(),
                rep.max_link_load, rep.max_endpoint_load);
  }
  return fail_on_conflict && !rep.conflicts.empty() ? 1 : 0;
}
