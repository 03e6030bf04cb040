// MPI_Info objects (ordered key/value lists, per rank) and MPI_Alloc_mem / MPI_Free_mem.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "check.h"
#include "info.h"
#include "tilempi/transport/rank_local.h"

using namespace tilempi::mpi;

namespace {

using Info = std::vector<std::pair<std::string, std::string>>;  // in the order keys were first set

struct InfoState {
  std::vector<std::unique_ptr<Info>> infos;  // [MPI_INFO_NULL] and [MPI_INFO_ENV] are reserved
  std::vector<MPI_Info> free_handles;
  Info env;                                  // MPI_INFO_ENV, filled at first use
  bool env_filled = false;
  std::set<void*> allocations;               // live MPI_Alloc_mem blocks
};

InfoState& state() {
  static tilempi::transport::RankLocal<InfoState> s;  // per rank (see rank_local.h)
  InfoState& st = s.get();
  if (st.infos.size() < 2) st.infos.resize(2);
  return st;
}

// MPI_INFO_ENV: what the standard lists that tilempi knows.
const Info& env_info() {
  InfoState& st = state();
  if (!st.env_filled) {
    st.env_filled = true;
    if (runtime().transport) st.env.emplace_back("maxprocs", std::to_string(runtime().transport->size()));
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) st.env.emplace_back("wdir", cwd);
    static const char* const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                         "MPI_THREAD_MULTIPLE"};
    st.env.emplace_back("thread_level", levels[runtime().thread_level & 3]);
  }
  return st.env;
}

// A readable info object (MPI_INFO_ENV included), or nullptr after raising MPI_ERR_INFO.
const Info* readable(MPI_Info h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  if (h == MPI_INFO_ENV) return &env_info();
  InfoState& st = state();
  if (h > MPI_INFO_ENV && static_cast<std::size_t>(h) < st.infos.size() && st.infos[h]) return st.infos[h].get();
  *rc = raise(MPI_COMM_WORLD, MPI_ERR_INFO, fn, "info handle " + std::to_string(h) + " is not valid");
  return nullptr;
}

// An info object the caller may change (not MPI_INFO_ENV).
Info* writable(MPI_Info h, const char* fn, int* rc) {
  const Info* i = readable(h, fn, rc);
  if (!i) return nullptr;
  if (h == MPI_INFO_ENV) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_INFO, fn, "MPI_INFO_ENV cannot be changed or freed");
    return nullptr;
  }
  return state().infos[h].get();
}

bool key_ok(const char* key, const char* fn, int* rc) {
  if (!key) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, fn, "key is NULL");
    return false;
  }
  std::size_t n = std::strlen(key);
  if (n == 0 || n > MPI_MAX_INFO_KEY) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, fn,
                "key length " + std::to_string(n) + " is outside 1..MPI_MAX_INFO_KEY");
    return false;
  }
  return true;
}

const std::string* find(const Info& info, const char* key) {
  for (const auto& [k, v] : info)
    if (k == key) return &v;
  return nullptr;
}

MPI_Info new_info(Info contents) {
  InfoState& st = state();
  auto p = std::make_unique<Info>(std::move(contents));
  if (!st.free_handles.empty()) {
    MPI_Info h = st.free_handles.back();
    st.free_handles.pop_back();
    st.infos[h] = std::move(p);
    return h;
  }
  st.infos.push_back(std::move(p));
  return static_cast<MPI_Info>(st.infos.size() - 1);
}

}  // namespace

namespace tilempi::mpi {

bool info_valid(MPI_Info h) {
  if (h == MPI_INFO_ENV) return true;
  InfoState& st = state();
  return h > MPI_INFO_ENV && static_cast<std::size_t>(h) < st.infos.size() && st.infos[h];
}

void info_merge(MPI_Info h, Hints& into) {
  if (!info_valid(h)) return;
  for (const auto& entry : h == MPI_INFO_ENV ? env_info() : *state().infos[h]) {
    auto it = std::find_if(into.begin(), into.end(), [&](const auto& kv) { return kv.first == entry.first; });
    if (it == into.end()) into.emplace_back(entry.first, entry.second);
    else it->second = entry.second;
  }
}

MPI_Info info_of(const Hints& hints) { return new_info(hints); }

}  // namespace tilempi::mpi

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Info_create", &rc)) return rc;
  if (!info) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
  *info = new_info({});
  return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  ApiScope api_scope(__func__);
  int rc;
  Info* i = writable(info, "MPI_Info_set", &rc);
  if (!i || !key_ok(key, "MPI_Info_set", &rc)) return rc;
  if (!value) return raise(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "MPI_Info_set", "value is NULL");
  std::size_t n = std::strlen(value);
  if (n == 0 || n > MPI_MAX_INFO_VAL)
    return raise(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "MPI_Info_set",
                 "value length " + std::to_string(n) + " is outside 1..MPI_MAX_INFO_VAL");
  for (auto& [k, v] : *i) {
    if (k == key) {
      v = value;
      return MPI_SUCCESS;
    }
  }
  i->emplace_back(key, value);
  return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  ApiScope api_scope(__func__);
  int rc;
  Info* i = writable(info, "MPI_Info_delete", &rc);
  if (!i || !key_ok(key, "MPI_Info_delete", &rc)) return rc;
  for (auto it = i->begin(); it != i->end(); ++it) {
    if (it->first == key) {
      i->erase(it);
      return MPI_SUCCESS;
    }
  }
  return raise(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "MPI_Info_delete", std::string("no key \"") + key + "\"");
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  const Info* i = readable(info, "MPI_Info_get", &rc);
  if (!i || !key_ok(key, "MPI_Info_get", &rc)) return rc;
  if (valuelen < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get", "valuelen is negative");
  if (!flag || (!value && valuelen > 0)) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get", "value or flag is NULL");
  const std::string* v = find(*i, key);
  *flag = v != nullptr;
  if (v) {
    // The standard's rule: at most valuelen characters, then the terminating null.
    std::size_t n = std::min(v->size(), static_cast<std::size_t>(valuelen));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  const Info* i = readable(info, "MPI_Info_get_valuelen", &rc);
  if (!i || !key_ok(key, "MPI_Info_get_valuelen", &rc)) return rc;
  if (!valuelen || !flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get_valuelen", "valuelen or flag is NULL");
  const std::string* v = find(*i, key);
  *flag = v != nullptr;
  if (v) *valuelen = static_cast<int>(v->size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  ApiScope api_scope(__func__);
  int rc;
  const Info* i = readable(info, "MPI_Info_get_nkeys", &rc);
  if (!i) return rc;
  if (!nkeys) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys is NULL");
  *nkeys = static_cast<int>(i->size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  ApiScope api_scope(__func__);
  int rc;
  const Info* i = readable(info, "MPI_Info_get_nthkey", &rc);
  if (!i) return rc;
  if (n < 0 || static_cast<std::size_t>(n) >= i->size())
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get_nthkey",
                 "n " + std::to_string(n) + " is outside 0.." + std::to_string(static_cast<int>(i->size()) - 1));
  if (!key) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get_nthkey", "key is NULL");
  std::strcpy(key, (*i)[static_cast<std::size_t>(n)].first.c_str());
  return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  ApiScope api_scope(__func__);
  int rc;
  const Info* i = readable(info, "MPI_Info_dup", &rc);
  if (!i) return rc;
  if (!newinfo) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_dup", "newinfo is NULL");
  Info copy = *i;
  *newinfo = new_info(std::move(copy));
  return MPI_SUCCESS;
}

int MPI_Info_free(MPI_Info* info) {
  ApiScope api_scope(__func__);
  int rc;
  if (!info) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_free", "info is NULL");
  if (!writable(*info, "MPI_Info_free", &rc)) return rc;
  InfoState& st = state();
  st.infos[*info].reset();
  st.free_handles.push_back(*info);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Alloc_mem", &rc)) return rc;
  if (size < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem", "size " + std::to_string(size) + " is negative");
  if (info != MPI_INFO_NULL && !readable(info, "MPI_Alloc_mem", &rc)) return rc;
  if (!baseptr) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr is NULL");
  // Ordinary memory: no transport registers memory, so no hint changes anything.
  void* p = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (!p) return raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem", "cannot allocate " + std::to_string(size) + " bytes");
  state().allocations.insert(p);
  std::memcpy(baseptr, &p, sizeof p);
  return MPI_SUCCESS;
}

int MPI_Free_mem(void* base) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Free_mem", &rc)) return rc;
  // NULL frees nothing, as free(NULL) does: MPICH and Open MPI accept it, and a code that frees
  // a pointer it may never have allocated relies on that.
  if (!base) return MPI_SUCCESS;
  auto& live = state().allocations;
  auto it = live.find(base);
  if (it == live.end()) return raise(MPI_COMM_WORLD, MPI_ERR_BASE, "MPI_Free_mem", "the address was not returned by MPI_Alloc_mem");
  live.erase(it);
  std::free(base);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Info_create)
TILEMPI_PMPI_ALIAS(Info_set)
TILEMPI_PMPI_ALIAS(Info_delete)
TILEMPI_PMPI_ALIAS(Info_get)
TILEMPI_PMPI_ALIAS(Info_get_valuelen)
TILEMPI_PMPI_ALIAS(Info_get_nkeys)
TILEMPI_PMPI_ALIAS(Info_get_nthkey)
TILEMPI_PMPI_ALIAS(Info_dup)
TILEMPI_PMPI_ALIAS(Info_free)
TILEMPI_PMPI_ALIAS(Alloc_mem)
TILEMPI_PMPI_ALIAS(Free_mem)
