// The algorithm registry, the user's selection (TILEMPI_COLL, TILEMPI_COLL_<NAME>), the default
// selector, per-communicator state and the byte-level helpers of the algorithms.
#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

#include "coll/coll.h"
#include "errors.h"
#include "hooks.h"
#include "p2p.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {
namespace coll {

namespace {

const char* const kKindNames[kKinds] = {
    "barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "gatherv", "scatter",
    "scatterv", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"};

const std::array<std::vector<Algorithm>, kKinds>& table() {
  static const std::array<std::vector<Algorithm>, kKinds> t = [] {
    std::array<std::vector<Algorithm>, kKinds> a;
    auto& barrier = a[static_cast<int>(Kind::Barrier)];
    barrier = {
        {"ktree", "k-ary tree rooted at the mesh centre, built once per communicator (seed 003 §3.2.2); ktree:K sets k (default 3)", any(&barrier_ktree), true, 3},
        {"ktree_static", "ktree's notifications up to the root, released by one word over the static network along the §3.2.3 tree (ktree's replies without one); mesh_rounds' round barrier", any(&barrier_ktree_static), true, 3},
        {"linear", "every rank notifies rank 0, which releases them all (2(N-1) messages at rank 0)", any(&barrier_linear)},
        {"dissemination", "ceil(log2 N) rounds, rank r signals r+2^i (Hensgen, Finkel, Manber)", any(&barrier_dissemination)},
        {"recursive_doubling", "pairwise exchanges r xor 2^i; extra ranks fold in before and out after", any(&barrier_recursive_doubling)},
    };
    a[static_cast<int>(Kind::Bcast)] = {
        {"static_route", "static-network tree: root's column, then the rows (seed 003 §3.2.3); the same tree over point-to-point without a static network", any(&bcast_static_route)},
        {"linear", "root sends to every other rank in turn", any(&bcast_linear)},
        {"binomial", "binomial tree over ranks relative to the root, ceil(log2 N) steps (OperaMPI, MPICH)", any(&bcast_binomial)},
        {"scatter_allgather", "scatter of the message in N pieces, then a ring allgather (van de Geijn)", any(&bcast_scatter_allgather)},
    };
    a[static_cast<int>(Kind::Reduce)] = {
        {"mesh_tree", "two-level tree: the root's row, then the columns (seed 003 §3.2.4); rank-ordered binomial for non-commutative ops", any(&reduce_mesh_tree)},
        {"linear", "root receives from every rank and combines in rank order", any(&reduce_linear)},
        {"binomial", "binomial tree, ceil(log2 N) steps; keeps rank order for non-commutative ops", any(&reduce_binomial)},
    };
    a[static_cast<int>(Kind::Allreduce)] = {
        {"mesh_reduce_bcast", "mesh_tree reduce to rank 0, then static_route broadcast (seed 003 Algorithm 3)", any(&allreduce_mesh_reduce_bcast)},
        {"linear", "linear reduce to rank 0, then linear broadcast", any(&allreduce_linear)},
        {"recursive_doubling", "log2 N exchange-and-combine steps; non-power-of-two ranks fold in and out", any(&allreduce_recursive_doubling)},
        {"ring", "ring reduce-scatter then ring allgather, 2(N-1) steps (commutative ops; else recursive_doubling)", any(&allreduce_ring)},
        {"rabenseifner", "recursive-halving reduce-scatter then recursive-doubling allgather (commutative ops; else recursive_doubling)", any(&allreduce_rabenseifner)},
    };
    a[static_cast<int>(Kind::Alltoall)] = {
        {"mesh_rounds", "contention-free rounds of exchanges on the mesh with a barrier between rounds (seed 003 §3.2.1)", any(&alltoall_mesh_rounds)},
        {"linear", "OperaMPI baseline (seed 003 §2.2): the tasks take turns, in turn s task s sends to every other", any(&alltoall_linear)},
        {"pairwise", "N-1 steps, step k: send to r+k, receive from r-k", any(&alltoall_pairwise)},
        {"bruck", "ceil(log2 N) steps of combined blocks (Bruck et al.), for small messages", any(&alltoall_bruck)},
        {"xor_direct", "steps k = 1..2^ceil(log2 N)-1 exchanging with r xor k (Thakur & Choudhary): contended on a mesh", any(&alltoall_xor_direct)},
        {"scattered", "every send and receive posted at once", any(&alltoall_scattered)},
    };
    a[static_cast<int>(Kind::Alltoallv)] = {
        {"mesh_rounds", "the mesh_rounds exchange schedule with per-pair sizes (seed 003 §3.2.1)", any(&alltoallv_mesh_rounds)},
        {"linear", "the tasks take turns sending to every other (as alltoall linear)", any(&alltoallv_linear)},
        {"pairwise", "N-1 steps, step k: send to r+k, receive from r-k", any(&alltoallv_pairwise)},
        {"scattered", "every send and receive posted at once", any(&alltoallv_scattered)},
    };
    a[static_cast<int>(Kind::Gather)] = {
        {"linear", "root receives every block directly", any(&gather_linear)},
        {"binomial", "binomial tree over relative ranks, subtrees forward their blocks", any(&gather_binomial)},
    };
    a[static_cast<int>(Kind::Gatherv)] = {
        {"linear", "root receives every block directly", any(&gatherv_linear)},
    };
    a[static_cast<int>(Kind::Scatter)] = {
        {"linear", "root sends every block directly", any(&scatter_linear)},
        {"binomial", "binomial tree over relative ranks, subtrees forward their blocks", any(&scatter_binomial)},
    };
    a[static_cast<int>(Kind::Scatterv)] = {
        {"linear", "root sends every block directly", any(&scatterv_linear)},
    };
    a[static_cast<int>(Kind::Allgather)] = {
        {"linear", "every rank sends its block to every other", any(&allgather_linear)},
        {"ring", "N-1 steps passing blocks to the right neighbour", any(&allgather_ring)},
        {"recursive_doubling", "log2 N exchanges of doubling size (power-of-two sizes; bruck otherwise)", any(&allgather_recursive_doubling)},
        {"bruck", "ceil(log2 N) steps, any N (Bruck et al.)", any(&allgather_bruck)},
    };
    a[static_cast<int>(Kind::Allgatherv)] = {
        {"linear", "every rank sends its block to every other", any(&allgatherv_linear)},
        {"ring", "N-1 steps passing blocks to the right neighbour", any(&allgatherv_ring)},
    };
    const std::vector<Algorithm> rs = {
        {"nonoverlapping", "reduce to rank 0, then scatterv", any(&reduce_scatter_nonoverlapping)},
        {"ring", "N-1 ring steps each combining one block (commutative ops; else nonoverlapping)", any(&reduce_scatter_ring)},
    };
    a[static_cast<int>(Kind::ReduceScatter)] = rs;
    a[static_cast<int>(Kind::ReduceScatterBlock)] = rs;
    a[static_cast<int>(Kind::Scan)] = {
        {"linear", "rank r waits for the prefix of r-1, combines, passes it on (N-1 steps)", any(&scan_linear)},
        {"recursive_doubling", "ceil(log2 N) exchange steps keeping rank order", any(&scan_recursive_doubling)},
    };
    a[static_cast<int>(Kind::Exscan)] = {
        {"linear", "rank r waits for the prefix of r-1, combines, passes it on (N-1 steps)", any(&exscan_linear)},
        {"recursive_doubling", "ceil(log2 N) exchange steps keeping rank order", any(&exscan_recursive_doubling)},
    };
    return a;
  }();
  return t;
}

struct Choice {
  int index = -1;
  int param = 0;
};

/// The user's choices, and whether they were read from the environment yet: per rank, since
/// ranks that are contexts of one simulator process share this library (rank_local.h).
struct Selection {
  std::array<std::optional<Choice>, kKinds> choices;
  bool parsed = false;
};
Selection& selection() {
  static transport::RankLocal<Selection> s;
  return s.get();
}
std::array<std::optional<Choice>, kKinds>& user_choices() { return selection().choices; }

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}
std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string valid_names(Kind k) {
  std::string s;
  for (const Algorithm& a : algorithms(k)) s += (s.empty() ? "" : ", ") + std::string(a.name) + (a.takes_param ? "[:K]" : "");
  return s;
}

std::string valid_kinds() {
  std::string s;
  for (const char* n : kKindNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

std::optional<Kind> kind_of(const std::string& name) {
  for (int i = 0; i < kKinds; ++i)
    if (name == kKindNames[i]) return static_cast<Kind>(i);
  return std::nullopt;
}

/// Parse "algorithm[:param]" for collective k.
bool parse_algorithm(Kind k, const std::string& text, Choice* out, std::string* err) {
  std::string name = trim(text), param;
  if (auto c = name.find(':'); c != std::string::npos) {
    param = name.substr(c + 1);
    name = name.substr(0, c);
  }
  const auto& algs = algorithms(k);
  for (std::size_t i = 0; i < algs.size(); ++i) {
    if (name != algs[i].name) continue;
    Choice ch{static_cast<int>(i), algs[i].default_param};
    if (!param.empty() || text.find(':') != std::string::npos) {
      if (!algs[i].takes_param) {
        *err = std::string(kind_name(k)) + " algorithm '" + name + "' takes no parameter (got '" + text + "')";
        return false;
      }
      char* end = nullptr;
      long v = std::strtol(param.c_str(), &end, 10);
      if (param.empty() || *end != '\0' || v < 1 || v > 64) {
        *err = std::string(kind_name(k)) + " algorithm '" + name + "': parameter '" + param +
               "' must be an integer 1..64 (e.g. " + name + ":4)";
        return false;
      }
      ch.param = static_cast<int>(v);
    }
    *out = ch;
    return true;
  }
  *err = "unknown " + std::string(kind_name(k)) + " algorithm '" + name + "'; valid: " + valid_names(k);
  return false;
}

/// Parse "coll=alg[:p],coll=alg" into choices. Empty entries are ignored.
bool parse_spec(const std::string& spec, std::array<std::optional<Choice>, kKinds>* out, std::string* err) {
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) {
      *err = "'" + item + "' is not collective=algorithm (e.g. alltoall=mesh_rounds)";
      return false;
    }
    std::string coll = lower(trim(item.substr(0, eq)));
    auto k = kind_of(coll);
    if (!k) {
      *err = "unknown collective '" + coll + "'; valid: " + valid_kinds();
      return false;
    }
    Choice c;
    if (!parse_algorithm(*k, lower(item.substr(eq + 1)), &c, err)) return false;
    (*out)[static_cast<int>(*k)] = c;
  }
  return true;
}

/// Read the environment: TILEMPI_COLL, then TILEMPI_COLL_<NAME> (which wins).
bool parse_environment(std::string* err) {
  std::array<std::optional<Choice>, kKinds> c;
  if (const char* spec = std::getenv("TILEMPI_COLL")) {
    if (!parse_spec(spec, &c, err)) {
      *err = "TILEMPI_COLL: " + *err;
      return false;
    }
  }
  for (int i = 0; i < kKinds; ++i) {
    std::string var = "TILEMPI_COLL_";
    for (const char* p = kKindNames[i]; *p; ++p) var += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
    if (const char* v = std::getenv(var.c_str()); v && *v) {
      Choice ch;
      if (!parse_algorithm(static_cast<Kind>(i), lower(v), &ch, err)) {
        *err = var + ": " + *err;
        return false;
      }
      c[i] = ch;
    }
  }
  user_choices() = c;
  selection().parsed = true;
  return true;
}

void ensure_parsed() {
  if (selection().parsed) return;
  std::string err;
  if (!parse_environment(&err)) {
    std::fprintf(stderr, "tilempi: invalid collective selection: %s\n", err.c_str());
    std::fflush(stderr);
    transport_of_job().abort(1, "invalid collective selection: " + err);
  }
}

void copy_out(const std::string& s, char* buf, int len) {
  if (!buf || len <= 0) return;
  std::size_t n = std::min(s.size(), static_cast<std::size_t>(len - 1));
  std::memcpy(buf, s.data(), n);
  buf[n] = '\0';
}

}  // namespace

const char* kind_name(Kind k) { return kKindNames[static_cast<int>(k)]; }

const std::vector<Algorithm>& algorithms(Kind k) { return table()[static_cast<std::size_t>(k)]; }

// The default selector. On a communicator whose members span more than one mesh row, the mesh
// algorithms of seed 003 (alltoall/alltoallv mesh_rounds, barrier ktree:3, bcast static_route,
// reduce mesh_tree, allreduce mesh_reduce_bcast); on a single row (or a single rank) the classic
// ones (pairwise, dissemination, binomial, binomial, recursive_doubling). Always: gather and
// scatter binomial, the v-variants linear, allgather bruck, allgatherv ring, reduce_scatter
// nonoverlapping, scan and exscan recursive_doubling.
const char* default_algorithm(Kind k, Comm& comm) {
  const bool mesh = comm.size > 1 && geometry(comm).rows > 1;
  switch (k) {
    case Kind::Barrier: return mesh ? "ktree" : "dissemination";
    case Kind::Bcast: return mesh ? "static_route" : "binomial";
    case Kind::Reduce: return mesh ? "mesh_tree" : "binomial";
    case Kind::Allreduce: return mesh ? "mesh_reduce_bcast" : "recursive_doubling";
    case Kind::Alltoall: return mesh ? "mesh_rounds" : "pairwise";
    case Kind::Alltoallv: return mesh ? "mesh_rounds" : "pairwise";
    case Kind::Gather: return "binomial";
    case Kind::Gatherv: return "linear";
    case Kind::Scatter: return "binomial";
    case Kind::Scatterv: return "linear";
    case Kind::Allgather: return "bruck";
    case Kind::Allgatherv: return "ring";
    case Kind::ReduceScatter: return "nonoverlapping";
    case Kind::ReduceScatterBlock: return "nonoverlapping";
    case Kind::Scan: return "recursive_doubling";
    case Kind::Exscan: return "recursive_doubling";
    case Kind::Count: break;
  }
  return "linear";
}

int set_selection(const std::string& spec, std::string* error) {
  std::array<std::optional<Choice>, kKinds> c;
  std::string err;
  if (!parse_spec(spec, &c, &err)) {
    if (error) *error = err;
    return MPI_ERR_ARG;
  }
  user_choices() = c;
  selection().parsed = true;
  return MPI_SUCCESS;
}

Selected select(Kind k, Comm& comm) {
  ensure_parsed();
  const auto& algs = algorithms(k);
  if (const auto& c = user_choices()[static_cast<int>(k)]) return {&algs[static_cast<std::size_t>(c->index)], c->param, true};
  const char* name = default_algorithm(k, comm);
  for (const Algorithm& a : algs)
    if (std::strcmp(a.name, name) == 0) return {&a, a.default_param, false};
  return {&algs[0], algs[0].default_param, false};
}

// ---- per-communicator state ----------------------------------------------------------------------

CollState& state(Comm& comm) {
  if (!comm.coll) comm.coll = std::make_shared<CollState>();
  return *comm.coll;
}

const CollState& geometry(Comm& comm) {
  CollState& st = state(comm);
  if (st.geometry_ready) return st;
  const auto& topo = transport_of_job().topology();
  st.mesh = {topo.width, topo.height};
  st.members.clear();
  std::set<int> rows;
  for (int r = 0; r < comm.size; ++r) {
    const int w = comm.world[static_cast<std::size_t>(r)];
    schedule::Point p{0, 0};
    if (w >= 0 && static_cast<std::size_t>(w) < topo.coord.size()) p = {topo.coord[static_cast<std::size_t>(w)].x, topo.coord[static_cast<std::size_t>(w)].y};
    st.members.push_back(p);
    rows.insert(p.y);
  }
  st.rows = static_cast<int>(rows.size());
  st.geometry_ready = true;
  return st;
}

const schedule::Tree& cached_ktree(Comm& comm, int k) {
  CollState& st = state(comm);
  auto it = st.ktrees.find(k);
  if (it != st.ktrees.end()) return it->second;
  const CollState& g = geometry(comm);
  return st.ktrees.emplace(k, schedule::ktree(g.mesh, g.members, k)).first->second;
}

// ---- byte helpers ------------------------------------------------------------------------------

int send_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm) {
  return coll_send(buf, n, MPI_BYTE, dest, tag, comm);
}
int recv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm) {
  return coll_recv(buf, n, MPI_BYTE, src, tag, comm);
}
int sendrecv_bytes(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag, Comm& comm) {
  return coll_sendrecv(sbuf, sn, MPI_BYTE, dest, rbuf, rn, MPI_BYTE, src, tag, comm);
}
int isend_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm, MPI_Request* req) {
  return coll_isend(buf, n, MPI_BYTE, dest, tag, comm, req);
}
int irecv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm, MPI_Request* req) {
  return coll_irecv(buf, n, MPI_BYTE, src, tag, comm, req);
}
int waitall(std::vector<MPI_Request>& reqs) {
  if (reqs.empty()) return MPI_SUCCESS;
  int rc = mpi::waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  reqs.clear();
  return rc;
}

}  // namespace coll

// ---- hooks called by MPI_Init / MPI_Finalize ---------------------------------------------------

int coll_initialize() {
  std::string err;
  if (!coll::parse_environment(&err)) {
    std::fprintf(stderr, "tilempi: invalid collective selection: %s\n", err.c_str());
    std::fflush(stderr);
    return MPI_ERR_ARG;
  }
  return MPI_SUCCESS;
}

void coll_finalize() {}

}  // namespace tilempi::mpi

// ---- TILEMPIX_ extensions ------------------------------------------------------------------------

using namespace tilempi::mpi;

extern "C" {

int TILEMPIX_Coll_validate(const char* spec, char* message, int message_len) {
  std::array<std::optional<coll::Choice>, coll::kKinds> c;
  std::string err;
  if (!spec) {
    coll::copy_out("spec is NULL", message, message_len);
    return MPI_ERR_ARG;
  }
  if (!coll::parse_spec(spec, &c, &err)) {
    coll::copy_out(err, message, message_len);
    return MPI_ERR_ARG;
  }
  coll::copy_out("", message, message_len);
  return MPI_SUCCESS;
}

int TILEMPIX_Coll_help(char* text, int len) {
  std::string s = "Collective algorithms (select with --coll COLL=ALG[,COLL=ALG...] or TILEMPI_COLL_<COLL>=ALG).\n"
                  "Defaults marked *: mesh algorithms when the communicator spans more than one mesh row;\n"
                  "marked + : the default on a single row.\n";
  const char* mesh_default[coll::kKinds] = {"ktree", "static_route", "mesh_tree", "mesh_reduce_bcast", "mesh_rounds",
                                            "mesh_rounds", "binomial", "linear", "binomial", "linear", "bruck", "ring",
                                            "nonoverlapping", "nonoverlapping", "recursive_doubling", "recursive_doubling"};
  const char* row_default[coll::kKinds] = {"dissemination", "binomial", "binomial", "recursive_doubling", "pairwise",
                                           "pairwise", "binomial", "linear", "binomial", "linear", "bruck", "ring",
                                           "nonoverlapping", "nonoverlapping", "recursive_doubling", "recursive_doubling"};
  for (int i = 0; i < coll::kKinds; ++i) {
    auto k = static_cast<coll::Kind>(i);
    s += std::string("\n") + coll::kind_name(k) + ":\n";
    for (const auto& a : coll::algorithms(k)) {
      const bool d = std::strcmp(a.name, mesh_default[i]) == 0;
      const bool r = std::strcmp(a.name, row_default[i]) == 0 && !d;
      std::string name = std::string(a.name) + (a.takes_param ? "[:K]" : "");
      char line[512];
      std::snprintf(line, sizeof line, "  %c %-22s %s\n", d ? '*' : (r ? '+' : ' '), name.c_str(), a.help);
      s += line;
    }
  }
  coll::copy_out(s, text, len);
  return MPI_SUCCESS;
}

int TILEMPIX_Coll_selected(MPI_Comm comm, const char* collective, char* name, int len) {
  Comm* c = comm_get(comm);
  if (!c) return raise(MPI_COMM_WORLD, MPI_ERR_COMM, "TILEMPIX_Coll_selected", "invalid communicator");
  auto k = collective ? coll::kind_of(coll::lower(collective)) : std::nullopt;
  if (!k) return raise(comm, MPI_ERR_ARG, "TILEMPIX_Coll_selected", std::string("unknown collective '") + (collective ? collective : "(null)") + "'; valid: " + coll::valid_kinds());
  coll::Selected s = coll::select(*k, *c);
  std::string out = s.algorithm->name;
  if (s.algorithm->takes_param) out += ":" + std::to_string(s.param);
  coll::copy_out(out, name, len);
  return MPI_SUCCESS;
}

}  // extern "C"
