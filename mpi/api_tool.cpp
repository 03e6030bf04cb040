// The MPI tool information interface (MPI-3.1 chapter 14): what a tool (a profiler, a tuner, a
// test) can learn about the library through its variables, without knowing the library.
//
// Control variables: the environment variables the library reads (the MPI layer's and the
// transports', as `tilempirun --set help=env` lists them), one per variable, each the text the
// rank sees (empty when unset: the description gives the default). The library reads them once,
// at the start, so they are constants of the run (MPI_T_SCOPE_CONSTANT) and never written
// (MPI_T_ERR_CVAR_SET_NEVER); the template TILEMPI_COLL_<COLLECTIVE> is no variable of its own.
// Performance variables: the lengths of the rank's point-to-point queues (posted receives,
// unexpected messages, transport operations in flight), levels read at any time (continuous,
// read-only). Categories group both by the part of the library they belong to.
//
// The interface is the rank's own: with ranks as contexts every rank has its own count of
// initializations, handles and sessions. Its calls return the error codes of §14.3.9 and never
// invoke an error handler (§14.3.9: the interface does not use them).
// Threads: it provides MPI_THREAD_SERIALIZED at most; the calls share a lock, but a performance
// variable reads queues that the rank's MPI calls change.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "mpi.h"
#include "mpi_settings.h"
#include "p2p.h"
#include "tilempi/transport/rank_local.h"
#include "tilempi/transport/transport_settings.h"

namespace {

namespace st = tilempi::settings;

struct ControlVariable {
  std::string name;
  std::string description;
  int category = 0;
};

enum class Queue { posted, unexpected, in_flight };

struct PerformanceVariable {
  const char* name;
  const char* description;
  Queue queue;
};

const PerformanceVariable kPerformanceVariables[] = {
    {"posted_recvq_length", "receives this rank has posted that no message has matched yet", Queue::posted},
    {"unexpected_recvq_length", "messages that reached this rank before a receive matched them", Queue::unexpected},
    {"transport_ops_in_flight",
     "sends and payload fetches this rank has handed to the transport that have not finished", Queue::in_flight},
};
constexpr int kPerformanceCount = static_cast<int>(std::size(kPerformanceVariables));

struct Category {
  const char* name;
  const char* description;
};
const Category kCategories[] = {
    {"tilempi", "the library's general settings"},
    {"host", "the host transport (ranks are processes on pinned cores)"},
    {"sim", "the sim transport (ranks on the modeled chip)"},
    {"collectives", "the choice of collective algorithms"},
    {"p2p_queues", "the rank's point-to-point queues"},
};
constexpr int kQueuesCategory = 4;

int category_of(const std::string& name) {
  if (name.rfind("TILEMPI_HOST_", 0) == 0) return 1;
  if (name.rfind("TILEMPI_SIM_", 0) == 0) return 2;
  if (name.rfind("TILEMPI_COLL", 0) == 0) return 3;
  return 0;
}

/// The control variables, the same in every rank (the settings are declared once).
const std::vector<ControlVariable>& control_variables() {
  static const std::vector<ControlVariable> list = [] {
    std::vector<st::Setting> all = tilempi::transport::settings::environment();
    for (const st::Setting& s : tilempi::mpi::environment_settings()) all.push_back(s);
    std::vector<ControlVariable> out;
    for (const st::Setting& s : all) {
      if (s.name.find('<') != std::string::npos) continue;  // a family of variables, not one
      std::string d = s.description + " Values: " + s.valid() + ".";
      if (!s.default_value.empty()) d += " Unset (the value is empty): " + s.default_value + ".";
      out.push_back({s.name, d, category_of(s.name)});
    }
    return out;
  }();
  return list;
}

struct CvarHandle {
  bool live = false;
  std::string value;  ///< the text when the handle was made (a constant of the run)
};

struct PvarHandle {
  bool live = false;
  int variable = 0;
};

struct Session {
  bool live = false;
  std::vector<PvarHandle> handles;  ///< handle h of the session is handles[h - 1]
};

struct ToolState {
  std::mutex lock;
  int initialized = 0;                 ///< MPI_T_init_thread calls not yet matched by MPI_T_finalize
  std::vector<CvarHandle> cvar_handles;  ///< handle h is cvar_handles[h - 1]
  std::vector<Session> sessions;         ///< session s is sessions[s - 1]
};

tilempi::transport::RankLocal<ToolState> g_tool;

/// The interface's string convention (§14.3.3): with a buffer, as much of `text` as fits with
/// its terminating null, and the length written; without one (NULL or length 0), the length
/// needed. A NULL length pointer asks for nothing.
void put_string(const std::string& text, char* out, int* len) {
  if (!len) return;
  if (!out || *len <= 0) {
    *len = static_cast<int>(text.size()) + 1;
    return;
  }
  const std::size_t n = std::min(text.size(), static_cast<std::size_t>(*len - 1));
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *len = static_cast<int>(n) + 1;
}

template <class T>
void put(T* out, T value) {
  if (out) *out = value;
}

/// Finds the index of a named entry.
template <class Names>
int index_named(const Names& names, const char* name) {
  if (!name) return -1;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> cvar_names() {
  std::vector<std::string> v;
  for (const ControlVariable& c : control_variables()) v.push_back(c.name);
  return v;
}

std::vector<int> cvars_of(int category) {
  std::vector<int> v;
  const auto& list = control_variables();
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].category == category) v.push_back(static_cast<int>(i));
  return v;
}

std::vector<int> pvars_of(int category) {
  std::vector<int> v;
  if (category == kQueuesCategory)
    for (int i = 0; i < kPerformanceCount; ++i) v.push_back(i);
  return v;
}

unsigned long long read_level(Queue q) {
  const tilempi::mpi::QueueLengths l = tilempi::mpi::queue_lengths();
  switch (q) {
    case Queue::posted: return l.posted;
    case Queue::unexpected: return l.unexpected;
    case Queue::in_flight: return l.in_flight;
  }
  return 0;
}

/// The session named by s, or nullptr.
Session* session_of(ToolState& t, MPI_T_pvar_session s) {
  if (s < 1 || static_cast<std::size_t>(s) > t.sessions.size() || !t.sessions[s - 1].live) return nullptr;
  return &t.sessions[s - 1];
}

PvarHandle* pvar_handle_of(Session& s, MPI_T_pvar_handle h) {
  if (h < 1 || static_cast<std::size_t>(h) > s.handles.size() || !s.handles[h - 1].live) return nullptr;
  return &s.handles[h - 1];
}

/// The checks every call on a performance variable handle makes: the interface initialized, the
/// session and (unless MPI_T_PVAR_ALL_HANDLES is allowed and given) the handle valid.
int pvar_call(ToolState& t, MPI_T_pvar_session session, MPI_T_pvar_handle handle, bool all_allowed,
              PvarHandle** out) {
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  Session* s = session_of(t, session);
  if (!s) return MPI_T_ERR_INVALID_SESSION;
  *out = nullptr;
  if (handle == MPI_T_PVAR_ALL_HANDLES) return all_allowed ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
  *out = pvar_handle_of(*s, handle);
  return *out ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

/// Start, stop, write, reset: none applies to a continuous read-only level; on every handle of a
/// session at once (MPI_T_PVAR_ALL_HANDLES) there is nothing to do.
int pvar_unchangeable(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int error) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  PvarHandle* h = nullptr;
  if (int rc = pvar_call(t, session, handle, true, &h)) return rc;
  return h ? error : MPI_SUCCESS;
}

/// MPI_T_category_get_cvars, _pvars, _categories: the first len members.
int category_members(int cat_index, int len, int indices[], std::vector<int> (*members)(int)) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= static_cast<int>(std::size(kCategories))) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && !indices)) return MPI_T_ERR_INVALID;
  const std::vector<int> v = members(cat_index);
  std::copy_n(v.begin(), std::min(v.size(), static_cast<std::size_t>(len)), indices);
  return MPI_SUCCESS;
}
std::vector<int> no_categories(int) { return {}; }

}  // namespace

extern "C" {

int MPI_T_init_thread(int required, int* provided) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (!provided) return MPI_T_ERR_INVALID;
  control_variables();  // built here, not in a later call that a tool times
  ++t.initialized;
  *provided = std::clamp(required, static_cast<int>(MPI_THREAD_SINGLE), static_cast<int>(MPI_THREAD_SERIALIZED));
  return MPI_SUCCESS;
}

int MPI_T_finalize(void) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  // The last finalize ends the interface's state: handles and sessions are no longer valid
  // (§14.3.4), and a later MPI_T_init_thread starts afresh.
  if (--t.initialized == 0) {
    t.cvar_handles.clear();
    t.sessions.clear();
  }
  return MPI_SUCCESS;
}

int MPI_T_enum_get_info(MPI_T_enum, int*, char*, int*) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  return MPI_T_ERR_INVALID_HANDLE;  // no variable of this library has an enumeration
}

int MPI_T_enum_get_item(MPI_T_enum, int, int*, char*, int*) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  return MPI_T_ERR_INVALID_HANDLE;
}

int MPI_T_cvar_get_num(int* num_cvar) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_cvar) return MPI_T_ERR_INVALID;
  *num_cvar = static_cast<int>(control_variables().size());
  return MPI_SUCCESS;
}

int MPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                        MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  const auto& list = control_variables();
  if (cvar_index < 0 || static_cast<std::size_t>(cvar_index) >= list.size()) return MPI_T_ERR_INVALID_INDEX;
  const ControlVariable& c = list[cvar_index];
  put_string(c.name, name, name_len);
  put(verbosity, static_cast<int>(MPI_T_VERBOSITY_USER_BASIC));
  put(datatype, static_cast<MPI_Datatype>(MPI_CHAR));
  put(enumtype, static_cast<MPI_T_enum>(MPI_T_ENUM_NULL));
  put_string(c.description, desc, desc_len);
  put(bind, static_cast<int>(MPI_T_BIND_NO_OBJECT));
  put(scope, static_cast<int>(MPI_T_SCOPE_CONSTANT));
  return MPI_SUCCESS;
}

int MPI_T_cvar_get_index(const char* name, int* cvar_index) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!cvar_index) return MPI_T_ERR_INVALID;
  const int i = index_named(cvar_names(), name);
  if (i < 0) return MPI_T_ERR_INVALID_NAME;
  *cvar_index = i;
  return MPI_SUCCESS;
}

int MPI_T_cvar_handle_alloc(int cvar_index, void*, MPI_T_cvar_handle* handle, int* count) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  const auto& list = control_variables();
  if (cvar_index < 0 || static_cast<std::size_t>(cvar_index) >= list.size()) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_T_ERR_INVALID;
  // Bound to no object: obj_handle is ignored (§14.3.6).
  const char* value = std::getenv(list[cvar_index].name.c_str());
  auto slot = std::find_if(t.cvar_handles.begin(), t.cvar_handles.end(), [](const CvarHandle& h) { return !h.live; });
  if (slot == t.cvar_handles.end()) slot = t.cvar_handles.insert(slot, CvarHandle{});
  slot->live = true;
  slot->value = value ? value : "";
  *handle = static_cast<MPI_T_cvar_handle>(slot - t.cvar_handles.begin()) + 1;
  *count = static_cast<int>(slot->value.size()) + 1;  // MPI_CHAR: the text and its null
  return MPI_SUCCESS;
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!handle || *handle < 1 || static_cast<std::size_t>(*handle) > t.cvar_handles.size() ||
      !t.cvar_handles[*handle - 1].live)
    return MPI_T_ERR_INVALID_HANDLE;
  t.cvar_handles[*handle - 1] = CvarHandle{};
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle < 1 || static_cast<std::size_t>(handle) > t.cvar_handles.size() || !t.cvar_handles[handle - 1].live)
    return MPI_T_ERR_INVALID_HANDLE;
  if (!buf) return MPI_T_ERR_INVALID;
  const std::string& v = t.cvar_handles[handle - 1].value;
  std::memcpy(buf, v.c_str(), v.size() + 1);
  return MPI_SUCCESS;
}

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void*) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle < 1 || static_cast<std::size_t>(handle) > t.cvar_handles.size() || !t.cvar_handles[handle - 1].live)
    return MPI_T_ERR_INVALID_HANDLE;
  return MPI_T_ERR_CVAR_SET_NEVER;  // read once at the start: a constant of the run
}

int MPI_T_pvar_get_num(int* num_pvar) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_pvar) return MPI_T_ERR_INVALID;
  *num_pvar = kPerformanceCount;
  return MPI_SUCCESS;
}

int MPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                        MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind,
                        int* readonly, int* continuous, int* atomic) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (pvar_index < 0 || pvar_index >= kPerformanceCount) return MPI_T_ERR_INVALID_INDEX;
  const PerformanceVariable& p = kPerformanceVariables[pvar_index];
  put_string(p.name, name, name_len);
  put(verbosity, static_cast<int>(MPI_T_VERBOSITY_USER_DETAIL));
  put(var_class, static_cast<int>(MPI_T_PVAR_CLASS_LEVEL));
  put(datatype, static_cast<MPI_Datatype>(MPI_UNSIGNED_LONG_LONG));
  put(enumtype, static_cast<MPI_T_enum>(MPI_T_ENUM_NULL));
  put_string(p.description, desc, desc_len);
  put(bind, static_cast<int>(MPI_T_BIND_NO_OBJECT));
  put(readonly, 1);
  put(continuous, 1);
  put(atomic, 0);
  return MPI_SUCCESS;
}

int MPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!pvar_index) return MPI_T_ERR_INVALID;
  // A performance variable is named by its name and class together (§14.3.7).
  for (int i = 0; name && i < kPerformanceCount; ++i)
    if (var_class == MPI_T_PVAR_CLASS_LEVEL && std::strcmp(kPerformanceVariables[i].name, name) == 0) {
      *pvar_index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session) return MPI_T_ERR_INVALID;
  auto slot = std::find_if(t.sessions.begin(), t.sessions.end(), [](const Session& s) { return !s.live; });
  if (slot == t.sessions.end()) slot = t.sessions.insert(slot, Session{});
  slot->live = true;
  slot->handles.clear();
  *session = static_cast<MPI_T_pvar_session>(slot - t.sessions.begin()) + 1;
  return MPI_SUCCESS;
}

int MPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session) return MPI_T_ERR_INVALID;
  Session* s = session_of(t, *session);
  if (!s) return MPI_T_ERR_INVALID_SESSION;
  *s = Session{};  // its handles go with it (§14.3.7)
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void*, MPI_T_pvar_handle* handle,
                            int* count) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  Session* s = session_of(t, session);
  if (!s) return MPI_T_ERR_INVALID_SESSION;
  if (pvar_index < 0 || pvar_index >= kPerformanceCount) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_T_ERR_INVALID;
  auto slot = std::find_if(s->handles.begin(), s->handles.end(), [](const PvarHandle& h) { return !h.live; });
  if (slot == s->handles.end()) slot = s->handles.insert(slot, PvarHandle{});
  *slot = PvarHandle{true, pvar_index};
  *handle = static_cast<MPI_T_pvar_handle>(slot - s->handles.begin()) + 1;
  *count = 1;
  return MPI_SUCCESS;
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (!handle) return t.initialized == 0 ? MPI_T_ERR_NOT_INITIALIZED : MPI_T_ERR_INVALID_HANDLE;
  PvarHandle* h = nullptr;
  if (int rc = pvar_call(t, session, *handle, false, &h)) return rc;
  *h = PvarHandle{};
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return pvar_unchangeable(session, handle, MPI_T_ERR_PVAR_NO_STARTSTOP);  // continuous
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return pvar_unchangeable(session, handle, MPI_T_ERR_PVAR_NO_STARTSTOP);
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  PvarHandle* h = nullptr;
  if (int rc = pvar_call(t, session, handle, false, &h)) return rc;
  if (!buf) return MPI_T_ERR_INVALID;
  const unsigned long long v = read_level(kPerformanceVariables[h->variable].queue);
  std::memcpy(buf, &v, sizeof v);
  return MPI_SUCCESS;
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void*) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  PvarHandle* h = nullptr;
  if (int rc = pvar_call(t, session, handle, false, &h)) return rc;
  return MPI_T_ERR_PVAR_NO_WRITE;  // read-only
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return pvar_unchangeable(session, handle, MPI_T_ERR_PVAR_NO_WRITE);
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void*) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  PvarHandle* h = nullptr;
  if (int rc = pvar_call(t, session, handle, false, &h)) return rc;
  return MPI_T_ERR_PVAR_NO_WRITE;  // a read-only variable cannot be reset
}

int MPI_T_category_get_num(int* num_cat) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_cat) return MPI_T_ERR_INVALID;
  *num_cat = static_cast<int>(std::size(kCategories));
  return MPI_SUCCESS;
}

int MPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len, int* num_cvars,
                            int* num_pvars, int* num_categories) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index < 0 || cat_index >= static_cast<int>(std::size(kCategories))) return MPI_T_ERR_INVALID_INDEX;
  put_string(kCategories[cat_index].name, name, name_len);
  put_string(kCategories[cat_index].description, desc, desc_len);
  put(num_cvars, static_cast<int>(cvars_of(cat_index).size()));
  put(num_pvars, static_cast<int>(pvars_of(cat_index).size()));
  put(num_categories, 0);
  return MPI_SUCCESS;
}

int MPI_T_category_get_index(const char* name, int* cat_index) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!cat_index) return MPI_T_ERR_INVALID;
  for (std::size_t i = 0; name && i < std::size(kCategories); ++i)
    if (std::strcmp(kCategories[i].name, name) == 0) {
      *cat_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  return category_members(cat_index, len, indices, cvars_of);
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  return category_members(cat_index, len, indices, pvars_of);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  return category_members(cat_index, len, indices, no_categories);
}

int MPI_T_category_changed(int* stamp) {
  ToolState& t = g_tool.get();
  std::lock_guard guard(t.lock);
  if (t.initialized == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!stamp) return MPI_T_ERR_INVALID;
  *stamp = 0;  // the variables and categories are fixed for the whole run
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(T_init_thread)
TILEMPI_PMPI_ALIAS(T_finalize)
TILEMPI_PMPI_ALIAS(T_enum_get_info)
TILEMPI_PMPI_ALIAS(T_enum_get_item)
TILEMPI_PMPI_ALIAS(T_cvar_get_num)
TILEMPI_PMPI_ALIAS(T_cvar_get_info)
TILEMPI_PMPI_ALIAS(T_cvar_get_index)
TILEMPI_PMPI_ALIAS(T_cvar_handle_alloc)
TILEMPI_PMPI_ALIAS(T_cvar_handle_free)
TILEMPI_PMPI_ALIAS(T_cvar_read)
TILEMPI_PMPI_ALIAS(T_cvar_write)
TILEMPI_PMPI_ALIAS(T_pvar_get_num)
TILEMPI_PMPI_ALIAS(T_pvar_get_info)
TILEMPI_PMPI_ALIAS(T_pvar_get_index)
TILEMPI_PMPI_ALIAS(T_pvar_session_create)
TILEMPI_PMPI_ALIAS(T_pvar_session_free)
TILEMPI_PMPI_ALIAS(T_pvar_handle_alloc)
TILEMPI_PMPI_ALIAS(T_pvar_handle_free)
TILEMPI_PMPI_ALIAS(T_pvar_start)
TILEMPI_PMPI_ALIAS(T_pvar_stop)
TILEMPI_PMPI_ALIAS(T_pvar_read)
TILEMPI_PMPI_ALIAS(T_pvar_write)
TILEMPI_PMPI_ALIAS(T_pvar_reset)
TILEMPI_PMPI_ALIAS(T_pvar_readreset)
TILEMPI_PMPI_ALIAS(T_category_get_num)
TILEMPI_PMPI_ALIAS(T_category_get_info)
TILEMPI_PMPI_ALIAS(T_category_get_index)
TILEMPI_PMPI_ALIAS(T_category_get_cvars)
TILEMPI_PMPI_ALIAS(T_category_get_pvars)
TILEMPI_PMPI_ALIAS(T_category_get_categories)
TILEMPI_PMPI_ALIAS(T_category_changed)
