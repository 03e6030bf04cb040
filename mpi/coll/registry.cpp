// The collective registry: the only list of algorithms. Each algorithm's file defines its entry
// (name, collective, function, help, restrictions, fallback, family, default, schedule); the
// registration lines below list the entries, in the order --coll help shows them. Everything
// else reads this list: the user's selection (TILEMPI_COLL, TILEMPI_COLL_<NAME>), the default
// selector, the fallback policy (TILEMPI_COLL_FALLBACK), TILEMPIX_Coll_help, TILEMPIX_Coll_algorithms
// (tilempi-bench's lists) and the schedules tilempi-coll-check analyses (named_schedules.cpp).
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "coll/coll.h"
#include "errors.h"
#include "hooks.h"
#include "runtime.h"
#include "mpi_settings.h"
#include "tilempi/transport/rank_local.h"

// ---- the registration lines: one per algorithm, in --coll help order ---------------------------
// TILEMPI_COLL_ALGORITHM(id) names the entry `coll::entry::id` that the algorithm's file defines.
#define TILEMPI_COLL_ALGORITHMS(X)                                                                    \
  X(barrier_ktree) X(barrier_ktree_static) X(barrier_linear) X(barrier_dissemination)                 \
  X(barrier_recursive_doubling) X(barrier_inter_leaders)                                              \
  X(bcast_static_route) X(bcast_linear) X(bcast_binomial) X(bcast_scatter_allgather)                  \
  X(bcast_namp_multicast) X(bcast_inter_leader)                                                       \
  X(reduce_mesh_tree) X(reduce_linear) X(reduce_binomial) X(reduce_namp_reduce)                       \
  X(reduce_inter_leader)                                                                              \
  X(allreduce_mesh_reduce_bcast) X(allreduce_linear) X(allreduce_reduce_bcast)                       \
  X(allreduce_recursive_doubling) X(allreduce_ring)                                                   \
  X(allreduce_rabenseifner) X(allreduce_namp_reduce_multicast) X(allreduce_inter_leaders)             \
  X(alltoall_mesh_rounds) X(alltoall_linear) X(alltoall_operampi) X(alltoall_pairwise)               \
  X(alltoall_bruck)                                                                                   \
  X(alltoall_xor_direct) X(alltoall_scattered) X(alltoall_inter_linear)                               \
  X(alltoallv_mesh_rounds) X(alltoallv_linear) X(alltoallv_pairwise) X(alltoallv_scattered)           \
  X(alltoallv_inter_linear)                                                                           \
  X(alltoallw_linear) X(alltoallw_inter_linear)                                                       \
  X(gather_linear) X(gather_binomial) X(gather_namp_gather) X(gather_inter_linear)                    \
  X(gatherv_linear) X(gatherv_inter_linear)                                                           \
  X(scatter_linear) X(scatter_binomial) X(scatter_namp_scatter) X(scatter_inter_linear)               \
  X(scatterv_linear) X(scatterv_inter_linear)                                                         \
  X(allgather_linear) X(allgather_ring) X(allgather_recursive_doubling) X(allgather_bruck)            \
  X(allgather_inter_linear)                                                                           \
  X(allgatherv_linear) X(allgatherv_ring) X(allgatherv_inter_linear)                                  \
  X(reduce_scatter_nonoverlapping) X(reduce_scatter_ring) X(reduce_scatter_inter_leaders)             \
  X(reduce_scatter_block_nonoverlapping) X(reduce_scatter_block_ring)                                 \
  X(reduce_scatter_block_inter_leaders)                                                               \
  X(scan_linear) X(scan_recursive_doubling) X(exscan_linear) X(exscan_recursive_doubling)                \
  X(neighbor_allgather_linear) X(neighbor_allgather_mesh_rounds)                                      \
  X(neighbor_allgatherv_linear) X(neighbor_allgatherv_mesh_rounds)                                    \
  X(neighbor_alltoall_linear) X(neighbor_alltoall_mesh_rounds)                                        \
  X(neighbor_alltoallv_linear) X(neighbor_alltoallv_mesh_rounds)                                      \
  X(neighbor_alltoallw_linear) X(neighbor_alltoallw_mesh_rounds)

namespace tilempi::mpi {
namespace coll {

namespace entry {
#define TILEMPI_COLL_DECLARE(id) extern const Algorithm id;
TILEMPI_COLL_ALGORITHMS(TILEMPI_COLL_DECLARE)
#undef TILEMPI_COLL_DECLARE
}  // namespace entry

namespace {

const char* const kKindNames[kKinds] = {
    "barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "alltoallw", "gather", "gatherv", "scatter",
    "scatterv", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block", "scan", "exscan",
    "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"};

[[noreturn]] void registry_error(const std::string& what) {
  std::fprintf(stderr, "tilempi: collective registry: %s\n", what.c_str());
  std::abort();
}

/// The registered entries by collective. A broken registration (a fallback that does not exist,
/// a restricted algorithm without one, two defaults for one case) stops the library at its first
/// use: it is a mistake in the source, not in the user's input.
const std::array<std::vector<Algorithm>, kKinds>& table() {
  static const std::array<std::vector<Algorithm>, kKinds> t = [] {
    std::array<std::vector<Algorithm>, kKinds> a;
#define TILEMPI_COLL_ADD(id) a[static_cast<std::size_t>(entry::id.kind)].push_back(entry::id);
    TILEMPI_COLL_ALGORITHMS(TILEMPI_COLL_ADD)
#undef TILEMPI_COLL_ADD
    for (int k = 0; k < kKinds; ++k) {
      const auto& algs = a[static_cast<std::size_t>(k)];
      if (algs.empty()) registry_error(std::string(kKindNames[k]) + " has no algorithm");
      int multi = 0, single = 0, inter = 0, inter_defaults = 0;
      for (const Algorithm& x : algs) {
        const std::string who = std::string(kKindNames[k]) + "=" + x.name;
        if (x.intercomm) {
          ++inter;
          inter_defaults += x.default_on != DefaultOn::None;
          if (x.default_on != DefaultOn::None && x.default_on != DefaultOn::Always)
            registry_error(who + ": an intercommunicator algorithm's default is DefaultOn::Always (rows do not apply)");
        } else {
          multi += x.default_on == DefaultOn::MultiRow || x.default_on == DefaultOn::Always;
          single += x.default_on == DefaultOn::SingleRow || x.default_on == DefaultOn::Always;
        }
        if (!x.fn) registry_error(who + " has no function");
        if (std::count_if(algs.begin(), algs.end(), [&](const Algorithm& y) { return std::strcmp(y.name, x.name) == 0; }) > 1)
          registry_error(who + " is registered twice");
        if (x.restrictions.any() && !x.fallback) registry_error(who + " has restrictions but no fallback");
        if (!x.fallback) continue;
        // The chain of fallbacks ends in an algorithm without restrictions, for the same kind of
        // communicator.
        const Algorithm* cur = &x;
        for (std::size_t steps = 0; cur && cur->fallback; ++steps) {
          auto it = std::find_if(algs.begin(), algs.end(), [&](const Algorithm& y) { return std::strcmp(y.name, cur->fallback) == 0; });
          if (it == algs.end()) registry_error(who + ": fallback '" + cur->fallback + "' is not registered");
          if (it->intercomm != x.intercomm) registry_error(who + ": fallback '" + cur->fallback + "' runs on the other kind of communicator");
          if (steps > algs.size()) registry_error(who + ": its fallbacks form a cycle");
          cur = &*it;
        }
        if (cur->restrictions.any()) registry_error(who + ": the last fallback has restrictions");
      }
      if (inter > 0 && inter_defaults != 1)
        registry_error(std::string(kKindNames[k]) + " needs exactly one default among its intercommunicator algorithms");
      if (std::count_if(algs.begin(), algs.end(), [](const Algorithm& x) { return x.baseline; }) > 1)
        registry_error(std::string(kKindNames[k]) + " has more than one baseline");
      if (multi != 1 || single != 1)
        registry_error(std::string(kKindNames[k]) + " needs exactly one default for several rows and one for one row");
    }
    return a;
  }();
  return t;
}

struct Choice {
  int index = -1;
  int param = 0;
};

enum class Policy { Error, Warn, Silent };

/// The user's choices per collective, one for intracommunicators and one for intercommunicators
/// (an algorithm runs on one kind only: Algorithm::intercomm), so that naming the algorithm of
/// one kind keeps the other's default.
struct Choices {
  std::array<std::optional<Choice>, kKinds> intra, inter;
  std::optional<Choice>& of(Collective k, bool intercomm) {
    return (intercomm ? inter : intra)[static_cast<std::size_t>(k)];
  }
  /// Where a parsed choice goes: the slot of its algorithm's kind of communicator.
  void set(Collective k, const Choice& c) {
    of(k, algorithms(k)[static_cast<std::size_t>(c.index)].intercomm) = c;
  }
};

/// The user's choices, the fallback policy, and whether they were read from the environment yet:
/// per rank, since ranks that are contexts of one simulator process share this library
/// (rank_local.h).
struct Selection {
  Choices choices;
  Policy policy = Policy::Warn;
  bool parsed = false;
};
Selection& selection() {
  static transport::RankLocal<Selection> s;
  return s.get();
}
Choices& user_choices() { return selection().choices; }

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}
std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string valid_names(Collective k) {
  std::string s;
  for (const Algorithm& a : algorithms(k)) s += (s.empty() ? "" : ", ") + std::string(a.name) + (a.takes_param ? "[:K]" : "");
  return s;
}

std::string valid_kinds() {
  std::string s;
  for (const char* n : kKindNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

/// Parse "algorithm[:param]" for collective k.
bool parse_algorithm(Collective k, const std::string& text, Choice* out, std::string* err) {
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
bool parse_spec(const std::string& spec, Choices* out, std::string* err) {
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
    out->set(*k, c);
  }
  return true;
}

/// TILEMPI_COLL_FALLBACK, read through its declaration (mpi/mpi_settings.cpp): a bad value is an
/// error naming the variable and its valid values.
bool parse_policy(Policy* out, std::string* err) {
  std::optional<std::string> v;
  try {
    v = settings::env_choice(coll_fallback_env());
  } catch (const settings::Error& e) {
    *err = e.what();
    return false;
  }
  if (!v) return true;
  *out = *v == "error" ? Policy::Error : *v == "silent" ? Policy::Silent : Policy::Warn;
  return true;
}

/// Read the environment: TILEMPI_COLL, then TILEMPI_COLL_<NAME> (which wins), and
/// TILEMPI_COLL_FALLBACK.
bool parse_environment(std::string* err) {
  Choices c;
  Policy policy = Policy::Warn;
  // Read through their declarations (mpi/mpi_settings.cpp), as every environment variable is.
  if (const std::optional<std::string> spec = settings::env_text(coll_env())) {
    if (!parse_spec(*spec, &c, err)) {
      *err = "TILEMPI_COLL: " + *err;
      return false;
    }
  }
  for (int i = 0; i < kKinds; ++i) {
    std::string var = "TILEMPI_COLL_";
    for (const char* p = kKindNames[i]; *p; ++p) var += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
    settings::Setting one = coll_per_kind_env();
    one.name = var;
    if (const std::optional<std::string> v = settings::env_text(one)) {
      Choice ch;
      if (!parse_algorithm(static_cast<Collective>(i), lower(*v), &ch, err)) {
        *err = var + ": " + *err;
        return false;
      }
      c.set(static_cast<Collective>(i), ch);
    }
  }
  if (!parse_policy(&policy, err)) return false;
  user_choices() = c;
  selection().policy = policy;
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

bool multi_row(Comm& comm) { return comm.size > 1 && geometry(comm).rows > 1; }

/// The parameter an algorithm runs with after a fallback: the requested one where both take it
/// (ktree_static:4 becomes ktree:4), else the fallback's default.
int carried_param(const Algorithm& from, int param, const Algorithm& to) {
  return from.takes_param && to.takes_param ? param : to.default_param;
}

/// The user's choice for this kind of communicator, else the default selector's algorithm
/// (algorithm nullptr: k has none for an intercommunicator).
Selected requested(Collective k, Comm& comm) {
  ensure_parsed();
  const auto& algs = algorithms(k);
  if (const auto& c = user_choices().of(k, comm.inter)) {
    const Algorithm* a = &algs[static_cast<std::size_t>(c->index)];
    return {a, c->param, true, a};
  }
  const Algorithm* a = comm.inter ? intercomm_default(k) : default_for(k, multi_row(comm));
  if (!a) return {};
  return {a, a->default_param, false, a};
}

/// Follow the fallbacks of the restrictions the call breaks. *first_code and *first_why describe
/// the first broken restriction (0: none).
Selected resolve(Collective k, Comm& comm, const Call& call, int* first_code, std::string* first_why) {
  Selected s = requested(k, comm);
  *first_code = 0;
  if (!s.algorithm) return s;
  for (std::size_t steps = 0; steps <= algorithms(k).size(); ++steps) {
    if (call.block) {  // the algorithm's own size switch: not a broken restriction
      const Algorithm& at = at_block_size(k, *s.algorithm, *call.block);
      s.param = carried_param(*s.algorithm, s.param, at);
      s.algorithm = &at;
    }
    std::string why;
    const int code = broken_restriction(*s.algorithm, comm, call, &why);
    if (code == 0) break;
    if (*first_code == 0) {
      *first_code = code;
      *first_why = why;
    }
    const Algorithm* next = find_algorithm(k, s.algorithm->fallback);
    s.param = carried_param(*s.algorithm, s.param, *next);
    s.algorithm = next;
  }
  return s;
}

std::string label(const Algorithm& a, int param) {
  return std::string(a.name) + (a.takes_param ? ":" + std::to_string(param) : std::string());
}

std::string restriction_text(const Algorithm& a) {
  const Restrictions& r = a.restrictions;
  std::string s;
  auto add = [&](const std::string& t) { s += (s.empty() ? "" : ", ") + t; };
  if (r.commutative) add("commutative ops");
  if (r.count_ge_ranks) add("count >= ranks");
  if (r.power_of_two) add("power-of-two ranks");
  if (r.max_ranks > 0) add("at most " + std::to_string(r.max_ranks) + " ranks");
  if (r.static_network) add("a static network");
  if (r.own) add(r.own_text ? r.own_text : "a condition of its own");
  if (r.hardware_multicast) add("hardware multicast (collective offload)");
  if (r.hardware_reduction) add("hardware reduction of the op and type");
  if (r.block_above > 0) add("blocks above " + std::to_string(r.block_above) + " B (its own switch: no warning)");
  return s;
}

}  // namespace

const char* kind_name(Collective k) { return kKindNames[static_cast<int>(k)]; }

std::optional<Collective> kind_of(const std::string& name) {
  for (int i = 0; i < kKinds; ++i)
    if (name == kKindNames[i]) return static_cast<Collective>(i);
  return std::nullopt;
}

const std::vector<Algorithm>& algorithms(Collective k) { return table()[static_cast<std::size_t>(k)]; }

const Algorithm* find_algorithm(Collective k, const std::string& name) {
  for (const Algorithm& a : algorithms(k))
    if (name == a.name) return &a;
  return nullptr;
}

const Algorithm* default_for(Collective k, bool multi_row) {
  const DefaultOn want = multi_row ? DefaultOn::MultiRow : DefaultOn::SingleRow;
  for (const Algorithm& a : algorithms(k))
    if (!a.intercomm && (a.default_on == want || a.default_on == DefaultOn::Always)) return &a;
  return &algorithms(k).front();  // not reached: table() checks that there is one
}

const Algorithm* intercomm_default(Collective k) {
  for (const Algorithm& a : algorithms(k))
    if (a.intercomm && a.default_on != DefaultOn::None) return &a;
  return nullptr;
}

const char* default_algorithm(Collective k, Comm& comm) {
  const Algorithm* a = comm.inter ? intercomm_default(k) : default_for(k, multi_row(comm));
  return a ? a->name : "";
}

const Algorithm& at_block_size(Collective k, const Algorithm& a, std::size_t block) {
  const Algorithm* cur = &a;
  for (std::size_t steps = 0; steps < algorithms(k).size(); ++steps) {
    if (cur->restrictions.block_above == 0 || block > cur->restrictions.block_above) break;
    cur = find_algorithm(k, cur->fallback);  // table() checked that it is registered
  }
  return *cur;
}

int broken_restriction(const Algorithm& a, Comm& comm, const Call& call, std::string* why) {
  const Restrictions& r = a.restrictions;
  const int n = comm.size;
  if (r.commutative && call.red && !call.red->commutative()) {
    *why = "the op is not commutative";
    return MPI_ERR_OP;
  }
  if (r.count_ge_ranks && call.red && call.count < static_cast<std::size_t>(n)) {
    *why = "count " + std::to_string(call.count) + " is less than the " + std::to_string(n) + " ranks";
    return MPI_ERR_COUNT;
  }
  if (r.power_of_two && (n & (n - 1)) != 0) {
    *why = std::to_string(n) + " ranks is not a power of two";
    return MPI_ERR_COMM;
  }
  if (r.max_ranks > 0 && n > r.max_ranks) {
    *why = std::to_string(n) + " ranks is more than its limit of " + std::to_string(r.max_ranks);
    return MPI_ERR_COMM;
  }
  if (r.static_network && !static_routes_now()) {
    *why = transport_of_job().capabilities().static_network
               ? "a non-blocking collective does not use the static network (its broadcast blocks the rank)"
               : "the transport has no static network";
    return MPI_ERR_OTHER;
  }
  if (r.own)
    if (const char* w = r.own(comm)) {
      *why = w;
      return MPI_ERR_OTHER;
    }
  if ((r.hardware_multicast && !transport_of_job().capabilities().hardware_multicast) ||
      (r.hardware_reduction && !transport_of_job().capabilities().hardware_reduction)) {
    *why = "the transport offloads no collective transfers (the sim's namp adapter does)";
    return MPI_ERR_OTHER;
  }
  if ((r.hardware_multicast || r.hardware_reduction) && !collective_offload_now()) {
    *why = "a non-blocking collective does not use the adapter's collective offload (its transfers block the rank)";
    return MPI_ERR_OTHER;
  }
  if (r.hardware_reduction && call.red) {
    transport::HwOp op{};
    transport::HwElem elem{};
    if (!hw_reduction_of(*call.red, &op, &elem)) {
      *why = std::string("the adapter does not reduce ") + op_name(call.red->op()) +
             " on this type (integers of 8 to 32 bits; no multiplication)";
      return MPI_ERR_OP;
    }
  }
  return 0;
}

int set_selection(const std::string& spec, std::string* error) {
  Choices c;
  std::string err;
  if (!parse_spec(spec, &c, &err)) {
    if (error) *error = err;
    return MPI_ERR_ARG;
  }
  ensure_parsed();  // keeps TILEMPI_COLL_FALLBACK
  user_choices() = c;
  return MPI_SUCCESS;
}

Selected select(Collective k, Comm& comm) {
  int code = 0;
  std::string why;
  return resolve(k, comm, Call{}, &code, &why);
}

// The default selector's choice is the library's, so a fallback from it is neither an error nor
// a warning: a correct program must not fail, or be told off, for a choice it did not make. A
// user's choice that cannot run is the user's to hear about: TILEMPI_COLL_FALLBACK.
int choose(Collective k, Comm& comm, const Call& call, Selected* out, std::string* why) {
  int code = 0;
  std::string reason;
  Selected s = resolve(k, comm, call, &code, &reason);
  if (!s.algorithm) {  // (the entry points refuse such a call before they choose)
    *why = std::string(kind_name(k)) + " is not defined on an intercommunicator";
    return MPI_ERR_COMM;
  }
  if (code != 0 && s.user) {
    const Policy policy = selection().policy;
    const std::string req = std::string(kind_name(k)) + "=" + label(*s.requested, user_choices().of(k, comm.inter)->param);
    if (policy == Policy::Error) {
      *why = req + " cannot run: " + reason + " (TILEMPI_COLL_FALLBACK=error; it would run " + kind_name(k) + "=" +
             label(*s.algorithm, s.param) + ")";
      return code;
    }
    CollState& st = state(comm);
    if (policy == Policy::Warn && st.warned.insert(s.requested).second && comm.rank == 0) {
      std::fprintf(stderr,
                   "tilempi: warning: %s cannot run on this communicator of %d ranks: %s; running %s=%s instead "
                   "(TILEMPI_COLL_FALLBACK=error|warn|silent)\n",
                   req.c_str(), comm.size, reason.c_str(), kind_name(k), label(*s.algorithm, s.param).c_str());
      std::fflush(stderr);
    }
  }
  CollState& st = state(comm);
  if (st.ran.empty()) st.ran.assign(kKinds, {nullptr, 0});
  st.ran[static_cast<std::size_t>(k)] = {s.algorithm, s.param};
  // What ran goes to the transport too: the sim's run report counts it per rank.
  const std::string ran = label(*s.algorithm, s.param);
  transport_of_job().annotate(kind_name(k), ran.c_str());
  // And its traffic's energy is this collective's and algorithm's (up to the call's end).
  name_call_kind(std::string(kind_name(k)) + "/" + ran);
  *out = s;
  return MPI_SUCCESS;
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

void coll_finalize() { coll::drains_clear(); }

}  // namespace tilempi::mpi

// ---- TILEMPIX_ extensions ------------------------------------------------------------------------

using namespace tilempi::mpi;

extern "C" {

int TILEMPIX_Coll_validate(const char* spec, char* message, int message_len) {
  coll::Choices c;
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
                  "marked + : the default on a single row. [needs: ...; else X]: what an algorithm needs, and\n"
                  "what runs when a call does not have it (TILEMPI_COLL_FALLBACK=error|warn|silent, default warn).\n"
                  "inter_* algorithms run on intercommunicators only, the others on intracommunicators only\n"
                  "(a choice of one kind leaves the other's default); marked > : the intercommunicators' default.\n";
  for (int i = 0; i < coll::kKinds; ++i) {
    auto k = static_cast<coll::Collective>(i);
    const coll::Algorithm* multi = coll::default_for(k, true);
    const coll::Algorithm* single = coll::default_for(k, false);
    const coll::Algorithm* inter = coll::intercomm_default(k);
    s += std::string("\n") + coll::kind_name(k) + ":\n";
    for (const auto& a : coll::algorithms(k)) {
      const char mark = &a == multi ? '*' : (&a == single ? '+' : (&a == inter ? '>' : ' '));
      std::string name = std::string(a.name) + (a.takes_param ? "[:K]" : "");
      std::string help = a.help;
      if (a.restrictions.any()) help += " [needs " + coll::restriction_text(a) + "; else " + a.fallback + "]";
      char line[64];
      std::snprintf(line, sizeof line, "  %c %-22s ", mark, name.c_str());
      s += line + help + "\n";
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
  // What ran last on this communicator; before the first call, what a call would run.
  const CollState& st = coll::state(*c);
  std::pair<const coll::Algorithm*, int> ran{nullptr, 0};
  if (!st.ran.empty()) ran = st.ran[static_cast<std::size_t>(*k)];
  if (!ran.first) {
    coll::Selected s = coll::select(*k, *c);
    if (!s.algorithm)
      return raise(comm, MPI_ERR_COMM, "TILEMPIX_Coll_selected",
                   std::string(coll::kind_name(*k)) + " is not defined on an intercommunicator");
    ran = {s.algorithm, s.param};
  }
  coll::copy_out(coll::label(*ran.first, ran.second), name, len);
  return MPI_SUCCESS;
}

int TILEMPIX_Coll_collective(int index, char* name, int len) {
  if (index < 0 || index >= coll::kKinds) return MPI_ERR_ARG;
  coll::copy_out(coll::kind_name(static_cast<coll::Collective>(index)), name, len);
  return MPI_SUCCESS;
}

int TILEMPIX_Coll_algorithms(const char* collective, TILEMPIX_Coll_algorithm_info* out, int max, int* count) {
  auto k = collective ? coll::kind_of(coll::lower(collective)) : std::nullopt;
  if (!k || !count || max < 0 || (max > 0 && !out)) return MPI_ERR_ARG;
  const auto& algs = coll::algorithms(*k);
  *count = static_cast<int>(algs.size());
  const coll::Algorithm* multi = coll::default_for(*k, true);
  const coll::Algorithm* single = coll::default_for(*k, false);
  const coll::Algorithm* inter = coll::intercomm_default(*k);
  for (int i = 0; i < max && i < *count; ++i) {
    const coll::Algorithm& a = algs[static_cast<std::size_t>(i)];
    TILEMPIX_Coll_algorithm_info& o = out[i];
    o = TILEMPIX_Coll_algorithm_info{};
    coll::copy_out(a.name, o.name, sizeof o.name);
    coll::copy_out(a.fallback ? a.fallback : "", o.fallback, sizeof o.fallback);
    o.mesh = a.family == coll::Family::Mesh;
    const coll::Restrictions& r = a.restrictions;
    o.needs = (r.commutative ? TILEMPIX_COLL_NEEDS_COMMUTATIVE : 0) | (r.power_of_two ? TILEMPIX_COLL_NEEDS_POWER_OF_TWO : 0) |
              (r.static_network ? TILEMPIX_COLL_NEEDS_STATIC_NETWORK : 0) |
              (r.count_ge_ranks ? TILEMPIX_COLL_NEEDS_COUNT_GE_RANKS : 0) | (r.max_ranks > 0 ? TILEMPIX_COLL_NEEDS_MAX_RANKS : 0) |
              (r.own ? TILEMPIX_COLL_NEEDS_OTHER : 0) | (r.hardware_multicast ? TILEMPIX_COLL_NEEDS_HW_MULTICAST : 0) |
              (r.hardware_reduction ? TILEMPIX_COLL_NEEDS_HW_REDUCTION : 0) |
              (r.block_above > 0 ? TILEMPIX_COLL_NEEDS_BLOCK_ABOVE : 0);
    o.max_ranks = r.max_ranks;
    o.block_above = static_cast<long long>(r.block_above);
    o.defaults = (&a == multi ? TILEMPIX_COLL_DEFAULT_MULTI_ROW : 0) | (&a == single ? TILEMPIX_COLL_DEFAULT_SINGLE_ROW : 0) |
                 (&a == inter ? TILEMPIX_COLL_DEFAULT_INTERCOMM : 0);
    o.intercomm = a.intercomm;
    o.takes_param = a.takes_param;
    o.default_param = a.default_param;
    o.has_schedule = a.schedule != nullptr;
    o.baseline = a.baseline;
  }
  return MPI_SUCCESS;
}

}  // extern "C"
