// Attribute caching on communicators and datatypes: keyvals with copy and delete callbacks
// (MPI_Comm_create_keyval, MPI_Type_create_keyval, MPI-1's MPI_Keyval_create), set/get/delete,
// the callbacks run by MPI_Comm_dup / MPI_Type_dup (copy) and MPI_Comm_free / MPI_Type_free /
// MPI_Finalize (delete), and the predefined attributes of MPI_COMM_WORLD (MPI_TAG_UB, MPI_HOST,
// MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE).
//
// A keyval remembers the language of its callbacks: a Fortran callback takes every argument by
// reference and attribute values as INTEGER(KIND=MPI_ADDRESS_KIND) (MPI-1's MPI_KEYVAL_CREATE:
// default INTEGERs), so it is called through a different signature than a C one.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "attributes.h"
#include "check.h"
#include "errors.h"
#include "runtime.h"
#include "tilempi/transport/job.h"
#include "tilempi/transport/rank_local.h"
#include "user_errors.h"

namespace tilempi::mpi {

namespace {

struct Keyval {
  AttrObject object = AttrObject::Comm;
  AttrLang lang = AttrLang::C;
  void (*copy)() = nullptr;  ///< nullptr: MPI_*_NULL_COPY_FN (nothing is copied)
  void (*del)() = nullptr;   ///< nullptr: MPI_*_NULL_DELETE_FN
  void* extra = nullptr;
  /// MPI_*_free_keyval was called. The key lives on while attributes carry it (MPI-3.1 §6.7.2:
  /// "the actual free does not transpire until after all references ... have been freed", by
  /// MPI_COMM_DELETE_ATTR or by freeing the objects): those can still be deleted, their delete
  /// callbacks run, and a dup copies them; a new use of the key (set, get) is an error.
  bool freed = false;
  int attrs = 0;  ///< attributes that carry it, on every object
};

/// The cells of attributes set from Fortran (attributes.h), per rank: each with the number of
/// attributes that hold it.
struct Cell {
  std::unique_ptr<MPI_Aint> value;
  int holders = 0;
};
std::unordered_map<const void*, Cell>& cells() {
  static transport::RankLocal<std::unordered_map<const void*, Cell>> c;
  return c.get();
}
// An attribute took value, or let it go: a cell's count follows (nothing for other values).
void hold(void* value) {
  auto& cs = cells();
  if (cs.empty()) [[likely]]
    return;
  if (auto it = cs.find(value); it != cs.end()) ++it->second.holders;
}
void let_go(void* value) {
  auto& cs = cells();
  if (cs.empty()) [[likely]]
    return;
  if (auto it = cs.find(value); it != cs.end() && --it->second.holders <= 0) cs.erase(it);
}
// The integer a Fortran callback sees: a cell's value, else the C value's address.
MPI_Aint fortran_view(void* value) {
  MPI_Aint v;
  return attr_cell_value(value, &v) ? v : reinterpret_cast<MPI_Aint>(value);
}

/// User keyvals start here; below are the predefined attribute keys of mpi.h.
constexpr int kFirstKeyval = 16;

std::vector<Keyval>& keyvals() {
  static transport::RankLocal<std::vector<Keyval>> k;  // per rank (see rank_local.h)
  return k.get();
}

Keyval* keyval_get(int k) {
  auto& ks = keyvals();
  if (k < kFirstKeyval || static_cast<std::size_t>(k - kFirstKeyval) >= ks.size()) return nullptr;
  return &ks[static_cast<std::size_t>(k - kFirstKeyval)];
}

const char* object_name(AttrObject o) {
  return o == AttrObject::Comm ? "communicator" : o == AttrObject::Type ? "datatype" : "window";
}

// The callbacks' signatures. C: MPI_Comm_copy_attr_function and friends (MPI_Comm and
// MPI_Datatype are both int handles). Fortran: everything by reference.
using CCopy = int (*)(int handle, int keyval, void* extra, void* in, void* out, int* flag);
using CDelete = int (*)(int handle, int keyval, void* value, void* extra);
using FCopy = void (*)(const MPI_Fint* handle, const MPI_Fint* keyval, const MPI_Aint* extra, const MPI_Aint* in,
                       MPI_Aint* out, MPI_Fint* flag, MPI_Fint* ierr);
using FDelete = void (*)(const MPI_Fint* handle, const MPI_Fint* keyval, const MPI_Aint* value, const MPI_Aint* extra,
                         MPI_Fint* ierr);
using F1Copy = void (*)(const MPI_Fint* handle, const MPI_Fint* keyval, const MPI_Fint* extra, const MPI_Fint* in,
                        MPI_Fint* out, MPI_Fint* flag, MPI_Fint* ierr);
using F1Delete = void (*)(const MPI_Fint* handle, const MPI_Fint* keyval, const MPI_Fint* value, const MPI_Fint* extra,
                          MPI_Fint* ierr);

/// Runs k's copy callback; *keep says whether the new object gets the attribute.
int run_copy(const Keyval& kv, int handle, int key, void* in, void** out, bool* keep) {
  *keep = false;
  if (!kv.copy) return MPI_SUCCESS;
  const MPI_Aint extra = reinterpret_cast<MPI_Aint>(kv.extra), vin = fortran_view(in);
  switch (kv.lang) {
    case AttrLang::C: {
      int flag = 0;
      const int rc = reinterpret_cast<CCopy>(kv.copy)(handle, key, kv.extra, in, out, &flag);
      *keep = flag != 0;
      return rc;
    }
    case AttrLang::Fortran: {
      MPI_Aint vout = 0;
      MPI_Fint flag = 0, ierr = MPI_SUCCESS;
      reinterpret_cast<FCopy>(kv.copy)(&handle, &key, &extra, &vin, &vout, &flag, &ierr);
      *keep = flag != 0;
      if (*keep) *out = attr_cell_new(vout);  // the copy is a Fortran value too
      return ierr;
    }
    case AttrLang::Fortran1: {
      const MPI_Fint e1 = static_cast<MPI_Fint>(extra), in1 = static_cast<MPI_Fint>(vin);
      MPI_Fint out1 = 0, flag = 0, ierr = MPI_SUCCESS;
      reinterpret_cast<F1Copy>(kv.copy)(&handle, &key, &e1, &in1, &out1, &flag, &ierr);
      *keep = flag != 0;
      if (*keep) *out = attr_cell_new(out1);
      return ierr;
    }
  }
  return MPI_SUCCESS;
}

int run_delete(const Keyval& kv, int handle, int key, void* value) {
  if (!kv.del) return MPI_SUCCESS;
  const MPI_Aint extra = reinterpret_cast<MPI_Aint>(kv.extra), v = fortran_view(value);
  MPI_Fint ierr = MPI_SUCCESS;
  switch (kv.lang) {
    case AttrLang::C: return reinterpret_cast<CDelete>(kv.del)(handle, key, value, kv.extra);
    case AttrLang::Fortran: reinterpret_cast<FDelete>(kv.del)(&handle, &key, &v, &extra, &ierr); return ierr;
    case AttrLang::Fortran1: {
      const MPI_Fint e1 = static_cast<MPI_Fint>(extra), v1 = static_cast<MPI_Fint>(v);
      reinterpret_cast<F1Delete>(kv.del)(&handle, &key, &v1, &e1, &ierr);
      return ierr;
    }
  }
  return MPI_SUCCESS;
}

/// The predefined attributes (MPI-3.1 §8.1.2): values live per rank, handed out by address.
struct Predefined {
  int tag_ub = check::kTagUb, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 0, universe = 0, appnum = 0,
      lastusedcode = MPI_ERR_LASTCODE;
};
Predefined& predefined() {
  static transport::RankLocal<Predefined> p;
  return p.get();
}

int* predefined_value(int key) {
  Predefined& p = predefined();
  switch (key) {
    case MPI_TAG_UB: return &p.tag_ub;
    case MPI_HOST: return &p.host;
    case MPI_IO: return &p.io;
    case MPI_WTIME_IS_GLOBAL: p.wtime_global = runtime().transport->capabilities().global_clock; return &p.wtime_global;
    case MPI_UNIVERSE_SIZE: p.universe = runtime().transport->size(); return &p.universe;
    case MPI_APPNUM: {
      // Which of an MPMD job's programs this rank runs (tilempirun -n 1 a : -n 4 b); 0 with one.
      const char* a = std::getenv(transport::kEnvAppnum);
      p.appnum = a ? std::atoi(a) : 0;
      return &p.appnum;
    }
    case MPI_LASTUSEDCODE: p.lastusedcode = last_used_error_code(); return &p.lastusedcode;
    default: return nullptr;
  }
}

/// Checks keyval for object o: MPI_ERR_KEYVAL (through err, the object's handler) if it is not one.
/// A freed key is still one to delete the attributes that carry it with.
Keyval* usable_keyval(int key, AttrObject o, const AttrRaise& err, int* rc, bool to_delete = false) {
  Keyval* kv = keyval_get(key);
  if (!kv || (kv->freed && !(to_delete && kv->attrs > 0))) {
    *rc = err(MPI_ERR_KEYVAL, "keyval " + std::to_string(key) + " is not a valid key" + (kv ? " (it was freed)" : ""));
    return nullptr;
  }
  if (kv->object != o) {
    *rc = err(MPI_ERR_KEYVAL,
              "keyval " + std::to_string(key) + " is a " + object_name(kv->object) + " key, not a " + object_name(o) + " key");
    return nullptr;
  }
  return kv;
}

/// The error sink of a call on a communicator or datatype: the communicator's handler.
AttrRaise on_comm(MPI_Comm comm, const char* fn) {
  return [comm, fn](int cls, const std::string& why) { return raise(comm, cls, fn, why); };
}

int create_keyval(AttrObject o, AttrLang lang, void (*copy)(), void (*del)(), int* keyval, void* extra, const char* fn) {
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!keyval) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "keyval is NULL");
  auto& ks = keyvals();
  ks.push_back(Keyval{o, lang, copy, del, extra, false});
  *keyval = kFirstKeyval + static_cast<int>(ks.size() - 1);
  return MPI_SUCCESS;
}

int free_keyval(AttrObject o, int* keyval, const char* fn) {
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!keyval) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "keyval is NULL");
  if (predefined_value(*keyval)) return raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, fn, "a predefined key cannot be freed");
  Keyval* kv = usable_keyval(*keyval, o, on_comm(MPI_COMM_WORLD, fn), &rc);
  if (!kv) return rc;
  kv->freed = true;  // attributes already set keep it, and their callbacks (MPI-3.1 §6.7.2)
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

}  // namespace

namespace {
template <typename Map>
auto find_attr(Map& attrs, int key) {
  return std::find_if(attrs.begin(), attrs.end(), [key](const auto& a) { return a.first == key; });
}
}  // namespace

int attr_set(AttrMap& attrs, AttrObject o, int handle, const AttrRaise& err, int key, void* value) {
  int rc;
  if (predefined_value(key)) return err(MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(key) + " cannot be set");
  Keyval* kv = usable_keyval(key, o, err, &rc);
  if (!kv) return rc;
  if (auto it = find_attr(attrs, key); it != attrs.end()) {
    if (int e = run_delete(*kv, handle, key, it->second)) return err(e, "the delete callback of the attribute's old value failed");
    // (The callback may have set or deleted attributes: look again.)
    hold(value);
    if (auto again = find_attr(attrs, key); again != attrs.end()) {
      let_go(again->second);
      again->second = value;
    } else {
      attrs.emplace_back(key, value);
    }
  } else {
    ++kv->attrs;
    hold(value);
    attrs.emplace_back(key, value);
  }
  return MPI_SUCCESS;
}

int attr_get(const AttrMap& attrs, AttrObject o, const AttrRaise& err, int key, void* value, int* flag) {
  int rc;
  if (!value || !flag) return err(MPI_ERR_ARG, "attribute_val or flag is NULL");
  if (o == AttrObject::Comm)
    if (int* p = predefined_value(key)) {
      *static_cast<int**>(value) = p;
      *flag = 1;
      return MPI_SUCCESS;
    }
  if (!usable_keyval(key, o, err, &rc)) return rc;
  auto it = find_attr(attrs, key);
  *flag = it != attrs.end();
  if (*flag) *static_cast<void**>(value) = it->second;
  return MPI_SUCCESS;
}

int attr_delete(AttrMap& attrs, AttrObject o, int handle, const AttrRaise& err, int key) {
  int rc;
  if (predefined_value(key)) return err(MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(key) + " cannot be deleted");
  Keyval* kv = usable_keyval(key, o, err, &rc, true);
  if (!kv) return rc;
  auto it = find_attr(attrs, key);
  if (it == attrs.end()) return err(MPI_ERR_KEYVAL, "no attribute is set with keyval " + std::to_string(key));
  if (int e = run_delete(*kv, handle, key, it->second)) return err(e, "the attribute's delete callback failed");
  if (auto again = find_attr(attrs, key); again != attrs.end()) {
    let_go(again->second);
    attrs.erase(again);
  }
  --kv->attrs;  // (the last attribute of a freed key: the key goes with it)
  return MPI_SUCCESS;
}

int keyval_free(AttrObject o, int* keyval, const char* fn) { return free_keyval(o, keyval, fn); }

int attributes_copy(const AttrMap& from, int from_handle, AttrMap& to) {
  for (const auto& [key, value] : from) {
    Keyval* kv = keyval_get(key);
    if (!kv) continue;
    void* out = nullptr;
    bool keep = false;
    if (int rc = run_copy(*kv, from_handle, key, value, &out, &keep)) {
      attr_cell_drop(out);
      return rc;
    }
    if (!keep) continue;
    hold(out);
    if (auto it = find_attr(to, key); it != to.end()) {
      let_go(it->second);
      it->second = out;
    } else {
      to.emplace_back(key, out);
      ++kv->attrs;
    }
  }
  return MPI_SUCCESS;
}

int attributes_delete(AttrMap& attrs, int handle) {
  int rc = MPI_SUCCESS;
  while (!attrs.empty()) {  // the last set first
    const auto [key, value] = attrs.back();
    attrs.pop_back();
    if (Keyval* kv = keyval_get(key)) {
      --kv->attrs;
      if (int e = run_delete(*kv, handle, key, value); e && !rc) rc = e;
    }
    let_go(value);
  }
  return rc;
}

bool attr_predefined(int key) { return predefined_value(key) != nullptr; }

void* attr_cell_new(MPI_Aint value) {
  auto cell = std::make_unique<MPI_Aint>(value);
  void* at = cell.get();
  cells()[at].value = std::move(cell);
  return at;
}

bool attr_cell_value(const void* value, MPI_Aint* out) {
  auto& cs = cells();
  if (cs.empty()) [[likely]]
    return false;
  auto it = cs.find(value);
  if (it == cs.end()) return false;
  *out = *it->second.value;
  return true;
}

void attr_cell_drop(void* value) {
  auto& cs = cells();
  if (auto it = cs.find(value); it != cs.end() && it->second.holders <= 0) cs.erase(it);
}

int keyval_create(AttrObject o, AttrLang lang, void (*copy)(), void (*del)(), int* keyval, void* extra, const char* fn) {
  return create_keyval(o, lang, copy, del, keyval, extra, fn);
}

}  // namespace tilempi::mpi

using namespace tilempi::mpi;

namespace {
using AnyFn = void (*)();
template <class F>
AnyFn any_fn(F f) {
  return reinterpret_cast<AnyFn>(f);
}
Comm* comm_arg(MPI_Comm comm, const char* fn, int* rc) { return check::comm(comm, fn, rc); }
Datatype* type_arg(MPI_Datatype t, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  Datatype* d = datatype_get_mutable(t);
  if (!d) *rc = raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(t) + " is not valid");
  return d;
}
}  // namespace

extern "C" {

// ---- the predefined callbacks ----------------------------------------------------------------

int tilempi_attr_dup_fn(int, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

// ---- communicators -----------------------------------------------------------------------------

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  ApiScope api_scope(__func__);
  return create_keyval(AttrObject::Comm, AttrLang::C, any_fn(copy_fn), any_fn(delete_fn), keyval, extra_state,
                       "MPI_Comm_create_keyval");
}

int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state) {
  ApiScope api_scope(__func__);
  return create_keyval(AttrObject::Comm, AttrLang::C, any_fn(copy_fn), any_fn(delete_fn), keyval, extra_state,
                       "MPI_Keyval_create");
}

int MPI_Comm_free_keyval(int* keyval) {
  ApiScope api_scope(__func__);
  return free_keyval(AttrObject::Comm, keyval, "MPI_Comm_free_keyval");
}

int MPI_Keyval_free(int* keyval) {
  ApiScope api_scope(__func__);
  return free_keyval(AttrObject::Comm, keyval, "MPI_Keyval_free");
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* attribute_val) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Comm_set_attr", &rc);
  if (!c) return rc;
  return attr_set(c->attributes, AttrObject::Comm, comm, on_comm(comm, "MPI_Comm_set_attr"), keyval, attribute_val);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Attr_put", &rc);
  if (!c) return rc;
  return attr_set(c->attributes, AttrObject::Comm, comm, on_comm(comm, "MPI_Attr_put"), keyval, attribute_val);
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Comm_get_attr", &rc);
  if (!c) return rc;
  return attr_get(c->attributes, AttrObject::Comm, on_comm(comm, "MPI_Comm_get_attr"), keyval, attribute_val, flag);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Attr_get", &rc);
  if (!c) return rc;
  return attr_get(c->attributes, AttrObject::Comm, on_comm(comm, "MPI_Attr_get"), keyval, attribute_val, flag);
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Comm_delete_attr", &rc);
  if (!c) return rc;
  return attr_delete(c->attributes, AttrObject::Comm, comm, on_comm(comm, "MPI_Comm_delete_attr"), keyval);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = comm_arg(comm, "MPI_Attr_delete", &rc);
  if (!c) return rc;
  return attr_delete(c->attributes, AttrObject::Comm, comm, on_comm(comm, "MPI_Attr_delete"), keyval);
}

// ---- datatypes -----------------------------------------------------------------------------------

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  ApiScope api_scope(__func__);
  return create_keyval(AttrObject::Type, AttrLang::C, any_fn(copy_fn), any_fn(delete_fn), keyval, extra_state,
                       "MPI_Type_create_keyval");
}

int MPI_Type_free_keyval(int* keyval) {
  ApiScope api_scope(__func__);
  return free_keyval(AttrObject::Type, keyval, "MPI_Type_free_keyval");
}

int MPI_Type_set_attr(MPI_Datatype datatype, int keyval, void* attribute_val) {
  ApiScope api_scope(__func__);
  int rc;
  Datatype* t = type_arg(datatype, "MPI_Type_set_attr", &rc);
  if (!t) return rc;
  return attr_set(t->attributes, AttrObject::Type, datatype, on_comm(MPI_COMM_WORLD, "MPI_Type_set_attr"), keyval, attribute_val);
}

int MPI_Type_get_attr(MPI_Datatype datatype, int keyval, void* attribute_val, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Datatype* t = type_arg(datatype, "MPI_Type_get_attr", &rc);
  if (!t) return rc;
  return attr_get(t->attributes, AttrObject::Type, on_comm(MPI_COMM_WORLD, "MPI_Type_get_attr"), keyval, attribute_val, flag);
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int keyval) {
  ApiScope api_scope(__func__);
  int rc;
  Datatype* t = type_arg(datatype, "MPI_Type_delete_attr", &rc);
  if (!t) return rc;
  return attr_delete(t->attributes, AttrObject::Type, datatype, on_comm(MPI_COMM_WORLD, "MPI_Type_delete_attr"), keyval);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Comm_create_keyval)
TILEMPI_PMPI_ALIAS(Keyval_create)
TILEMPI_PMPI_ALIAS(Comm_free_keyval)
TILEMPI_PMPI_ALIAS(Keyval_free)
TILEMPI_PMPI_ALIAS(Comm_set_attr)
TILEMPI_PMPI_ALIAS(Attr_put)
TILEMPI_PMPI_ALIAS(Comm_get_attr)
TILEMPI_PMPI_ALIAS(Attr_get)
TILEMPI_PMPI_ALIAS(Comm_delete_attr)
TILEMPI_PMPI_ALIAS(Attr_delete)
TILEMPI_PMPI_ALIAS(Type_create_keyval)
TILEMPI_PMPI_ALIAS(Type_free_keyval)
TILEMPI_PMPI_ALIAS(Type_set_attr)
TILEMPI_PMPI_ALIAS(Type_get_attr)
TILEMPI_PMPI_ALIAS(Type_delete_attr)
