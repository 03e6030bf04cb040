// Communication schedules of the collective algorithms, as pure functions of the mesh shape and
// the members' tile coordinates: rounds of (source, destination) messages between members
// (communicator ranks). The runtime algorithms in mpi/coll/ take their partners from these
// generators, and tilempi-coll-check analyses the same schedules, so what is checked is what runs.
//
// Mesh conventions: x grows east, y grows south; dimension-ordered XY routing (X first, then Y),
// no wrap-around.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilempi::coll::schedule {

struct Point {
  int x = 0;
  int y = 0;
  bool operator==(const Point&) const = default;
};

struct Mesh {
  int width = 1;
  int height = 1;
};

struct Msg {
  int src = 0;
  int dst = 0;
  bool operator==(const Msg&) const = default;
};

/// Messages that may be in flight at the same time. A round of an exchange schedule lists both
/// directions of each exchange.
using Round = std::vector<Msg>;

struct Schedule {
  std::vector<Round> rounds;
  std::size_t messages() const;
};

inline int hops(Point a, Point b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

// ---- directed links and XY paths --------------------------------------------------------------

enum class Dir : std::uint8_t { North = 0, East = 1, South = 2, West = 3, Inject = 4, Eject = 5 };
const char* dir_name(Dir d);

/// A directed link: leaves tile (x, y) in direction d (Inject: core -> own router; Eject:
/// router -> own core).
struct Link {
  int x = 0;
  int y = 0;
  Dir dir = Dir::North;
  bool operator==(const Link&) const = default;
  int id(const Mesh& m) const { return ((y * m.width) + x) * 6 + static_cast<int>(dir); }
  std::string str() const;
};

/// Mesh links of the XY route from a to b (X first, then Y), in order.
std::vector<Link> xy_path(Point a, Point b);

/// Every directed link of the mesh the members span (and the injection and ejection ports), by a
/// dense id: what the round schedulers mark as used in a round.
struct Space {
  int width;
  int height;
  int link_id(const Link& l) const { return ((l.y * width) + l.x) * 6 + static_cast<int>(l.dir); }
  int links() const { return width * height * 6; }
};
inline Space space_of(const Mesh& mesh, const std::vector<Point>& members) {
  Space s{std::max(mesh.width, 1), std::max(mesh.height, 1)};
  for (const Point& p : members) {
    s.width = std::max(s.width, p.x + 1);
    s.height = std::max(s.height, p.y + 1);
  }
  return s;
}

// ---- trees ------------------------------------------------------------------------------------

struct Tree {
  int root = 0;
  std::vector<int> parent;                 ///< -1 at the root
  std::vector<std::vector<int>> children;  ///< in the order the parent serves them
  std::vector<int> depth;
  /// Gather step: in a reduction children of level 1 send first, then level 2, ... Deepest first
  /// for the k-ary and broadcast trees; the two steps of [Yagna 2013] §3.2.4 for the reduce tree.
  std::vector<int> level;
  int height() const;
};

/// The barrier tree of [Yagna 2013] §3.2.2: rooted at the member nearest the centre of the members'
/// bounding box; members join in order of hop distance from the root, each under the nearest
/// member already in the tree that has room (k children, k + 1 at the root), preferring a parent
/// in the same row, then in the same column. On a full mesh and k = 3 this is Yagna's tree:
/// the root's column are secondary roots with 3 children, the rows hang off the column.
Tree ktree(const Mesh& mesh, const std::vector<Point>& members, int k);

/// The static-route broadcast tree of [Yagna 2013] §3.2.3: the root's column is the trunk (members
/// chained up and down from the root), every row hangs off the trunk and is chained outwards east
/// and west. A row with no member in the root's column hangs off the trunk member nearest to it.
Tree static_route_tree(const Mesh& mesh, const std::vector<Point>& members, int root);

/// The two-level reduce tree of [Yagna 2013] §3.2.4: each column's head is its member in the root's
/// row (or, if it has none, the member nearest that row); the heads are the root's children and
/// every other member is a child of its column's head. Children are listed nearest first
/// (ties: north before south, west before east).
Tree mesh_reduce_tree(const Mesh& mesh, const std::vector<Point>& members, int root);

/// Rounds of a tree: children to parents by level, and within a level by hop distance (so that
/// children converging on a parent along one line do not share a link) (up) ...
Schedule tree_gather_rounds(const Tree& t, const std::vector<Point>& members);
/// ... and parents to children, root first (down). One round per level of the tree.
Schedule tree_scatter_rounds(const Tree& t);

// ---- the contention-free alltoall -------------------------------------------------------------

/// Unordered exchanges {a, b} grouped in rounds; each member is in at most one exchange per
/// round and no directed link (mesh, injection or ejection) is used twice in a round; every pair
/// of distinct members is in exactly one round. See docs/COLLECTIVES.md for the design.
struct Exchange {
  int a = 0;
  int b = 0;
};
std::vector<std::vector<Exchange>> mesh_rounds_exchanges(const Mesh& mesh, const std::vector<Point>& members);
Schedule mesh_rounds(const Mesh& mesh, const std::vector<Point>& members);
/// Rounds any schedule of the full exchange needs on these members: the largest number of
/// messages that must cross one directed link, or, as a member exchanges with one partner per
/// round, the edge-chromatic number of the complete graph (n - 1, or n for odd n).
int alltoall_round_lower_bound(const Mesh& mesh, const std::vector<Point>& members);

// ---- neighbourhood exchanges and topology placement (neighbor_rounds.cpp, placement.cpp) ---------------

/// The out-edges of every rank of a process topology, in its send order (MPI-3.1 §7.6):
/// destinations[r][j] is where rank r's send block j goes; -1 (MPI_PROC_NULL) sends nothing.
struct Neighborhood {
  std::vector<std::vector<int>> destinations;
};
/// A Cartesian grid's neighbourhood: per dimension the lower then the upper neighbour (-1 off a
/// non-periodic border), ranks in row-major order.
Neighborhood cartesian_neighborhood(const std::vector<int>& dims, const std::vector<int>& periods);

/// mesh_rounds for a neighbourhood: every message (r -> destinations[r][j]) is in exactly one
/// round, and no directed link (mesh, injection, ejection) is used twice in a round. Messages to
/// oneself use no link and go in round 0. First fit, messages taken grouped by their offset on the
/// mesh (all "one east" messages, then all "one south", ...: the messages of one unit offset never
/// share a link), the largest groups first, so that a grid mapped onto the mesh needs one round
/// per direction. send_round[r][j]: the round of rank r's send j (-1 for -1 destinations).
struct NeighborRounds {
  std::vector<std::vector<int>> send_round;
  int rounds = 0;
};
NeighborRounds neighbor_rounds(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb);
Schedule neighbor_mesh_rounds(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb);
/// Every message at once (the classic post-all, wait-all exchange).
Schedule neighbor_all_at_once(const Neighborhood& nb);
/// Rounds any schedule of this neighbourhood needs: the most messages leaving or entering one
/// tile, or crossing one directed link.
int neighbor_round_lower_bound(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb);

/// A weighted directed graph on the ranks of a topology (duplicate edges allowed).
struct WeightedGraph {
  int n = 0;
  std::vector<std::vector<std::pair<int, int>>> out;  ///< out[v] = {(u, weight)}
};
WeightedGraph graph_of(const Neighborhood& nb);
/// Sum over the edges of weight x XY hops, rank v on tile tiles[order[v]].
long long weighted_hops(const WeightedGraph& g, const std::vector<Point>& tiles, const std::vector<int>& order);

/// Where the g.n ranks of a topology go among candidate tiles (tiles.size() >= g.n): order[v] is
/// the candidate that becomes rank v. The cheapest (weighted_hops) of: the identity; for a grid
/// (cart_dims not empty) with at most two dimensions of more than one process, an exact embedding
/// onto a rectangle of candidates (every grid neighbour one hop away); and a greedy placement
/// (ranks taken in order of their weight to the ranks already placed, each onto the free tile
/// that costs least) improved by swapping pairs while a swap lowers the cost. Ties keep the
/// identity; the identity improved by those swaps is the fourth. *method says which won
/// ("identity", "grid", "greedy", "swaps").
std::vector<int> place_graph(const WeightedGraph& g, const std::vector<Point>& tiles, const std::vector<int>& cart_dims,
                             std::string* method);

// ---- classic schedules (partners depend on ranks only) ------------------------------------------

/// pairwise: round k = 1..n-1, rank r sends to (r + k) mod n and receives from (r - k) mod n.
inline int pairwise_send_to(int n, int r, int k) { return (r + k) % n; }
inline int pairwise_recv_from(int n, int r, int k) { return (r - k + n) % n; }
Schedule pairwise(int n);
/// xor_direct (Thakur & Choudhary): rounds k = 1..2^ceil(log2 n)-1, partner r xor k (skipped when
/// it is >= n).
Schedule xor_direct(int n);
int pow2_ceil(int n);
/// bruck: ceil(log2 n) rounds, rank r sends to (r + 2^i) mod n.
Schedule bruck(int n);
/// linear ([Yagna 2013] §2.2, OperaMPI): the tasks take turns; in turn s task s sends to every other.
Schedule linear_turns(int n);
/// scattered: every message posted at once.
Schedule scattered(int n);
/// binomial tree over ranks relative to root: round i, relative rank r < 2^i sends to r + 2^i.
Schedule binomial_bcast(int n, int root);
Schedule binomial_reduce(int n, int root);
/// linear: root to every other (bcast) / every other to root (reduce), one round.
Schedule linear_bcast(int n, int root);
Schedule linear_reduce(int n, int root);
/// dissemination barrier: round i, r sends to (r + 2^i) mod n.
Schedule dissemination(int n);
/// recursive doubling over the largest power of two p <= n (the rest fold in before, out after).
Schedule recursive_doubling(int n);
/// ring: n - 1 rounds, r sends to r + 1.
Schedule ring(int n, int rounds);

// ---- analysis ---------------------------------------------------------------------------------

struct Conflict {
  int round = 0;
  Link link;
  std::vector<Msg> msgs;  ///< the messages that share the link
};

struct RoundReport {
  int messages = 0;
  int max_link_load = 0;
};

struct Report {
  int rounds = 0;
  std::size_t messages = 0;
  int max_link_load = 0;      ///< most messages on one directed mesh link in one round
  int max_endpoint_load = 0;  ///< most messages leaving or entering one tile in one round
  std::vector<RoundReport> per_round;
  std::vector<Conflict> conflicts;  ///< mesh links used by more than one message of a round
};

Report analyse(const Mesh& mesh, const std::vector<Point>& members, const Schedule& s);

/// Every ordered pair of distinct members exactly once (the alltoall property).
bool covers_all_pairs_once(const Schedule& s, int n);

/// The first n tiles of a W x H mesh in row-major order (how ranks are placed by default).
std::vector<Point> row_major(const Mesh& mesh, int n);

// ---- by name (what tilempi-coll-check and the tests analyse) ------------------------------------
// Defined in libtilempi (mpi/coll/named_schedules.cpp), not in tilempi_coll_schedules: the names
// and their schedules are the collective registry's entries (Algorithm::schedule).

struct Named {
  std::string collective;  ///< "alltoall", "barrier", ...
  std::string algorithm;   ///< "mesh_rounds", "ktree", ...: what runs
  int param = 0;           ///< ktree arity
  Schedule schedule;
  /// The algorithm named in the spec where another runs at the block size asked for (operampi
  /// runs linear up to 1 KW: the registry's size switch); empty when it is the one that runs.
  std::string requested;
};
/// spec: "algorithm", "algorithm:param" or "collective=algorithm[:param]". A bare algorithm name
/// is looked up in alltoall first, then in the registry's order (barrier, bcast, reduce, ...). With
/// `block` (bytes per peer) the schedule is that of the algorithm the registry runs at that size.
/// Returns nullopt (and a message listing what is known) when there is no schedule of that name.
std::optional<Named> named_schedule(const std::string& spec, const Mesh& mesh, const std::vector<Point>& members,
                                    int root, std::string* error, std::optional<std::size_t> block = std::nullopt);
/// A neighbourhood collective's schedule ("neighbor_alltoall=mesh_rounds"; a bare name is looked
/// up in neighbor_alltoall): members[k] is the tile of the topology's rank k.
std::optional<Named> named_neighbor_schedule(const std::string& spec, const Mesh& mesh, const std::vector<Point>& members,
                                             const Neighborhood& nb, std::string* error);
/// Whether spec names a neighbourhood collective ("neighbor_...=").
bool is_neighbor_spec(const std::string& spec);
/// Lines "collective=algorithm" of every schedule named_schedule knows.
std::vector<std::string> known_schedules();

}  // namespace tilempi::coll::schedule
