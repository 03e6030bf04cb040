// MPI one-sided communication: windows, operations and synchronization (C entry points). The
// checks live here; what the calls do is mpi/win.cpp's.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "coll/op.h"
#include "comm.h"
#include "errors.h"
#include "p2p.h"
#include "runtime.h"
#include "win.h"

using namespace tilempi::mpi;

namespace {

Win* check_win(MPI_Win h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  Win* w = win_get(h);
  if (!w) *rc = raise(MPI_COMM_WORLD, MPI_ERR_WIN, fn, "window handle " + std::to_string(h) + " is not valid");
  return w;
}

int fail(const Win& w, int cls, const char* fn, const std::string& why) { return win_raise(&w, cls, fn, why); }
/// The error sink of an attribute call on w: the window's error handler.
AttrRaise on_win(const Win& w, const char* fn) {
  return [&w, fn](int cls, const std::string& why) { return fail(w, cls, fn, why); };
}

bool check_rank(const Win& w, int r, const char* fn, int* rc, bool proc_null_ok = true) {
  if ((proc_null_ok && r == MPI_PROC_NULL) || (r >= 0 && r < w.nranks)) return true;
  *rc = fail(w, MPI_ERR_RANK, fn, "rank " + std::to_string(r) + " is not in the window's group (size " +
                                      std::to_string(w.nranks) + ")");
  return false;
}

const Datatype* check_type(const Win& w, MPI_Datatype h, const char* fn, int* rc) {
  const Datatype* t = datatype_get(h);
  if (!t) *rc = fail(w, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  else if (!t->committed) *rc = fail(w, MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
  else return t;
  return nullptr;
}

bool in_epoch(const Win& w, int target) {
  const std::size_t t = static_cast<std::size_t>(target);
  return w.fence || (w.started && w.in_access[t]) || w.lock_type[t] != 0;
}

/// The checks every RMA operation shares; fills a.
struct OpCall {
  const void* origin;
  int origin_count;
  MPI_Datatype origin_type;
  void* result;
  int result_count;
  MPI_Datatype result_type;
  int target;
  MPI_Aint disp;
  int target_count;
  MPI_Datatype target_type;
};

int rma(const char* fn, RmaKind kind, const OpCall& c, MPI_Op op, MPI_Win win, MPI_Request* request,
        const void* compare = nullptr) {
  ApiScope api_scope(fn);
  int rc;
  Win* w = check_win(win, fn, &rc);
  if (!w) return rc;
  if (request) *request = MPI_REQUEST_NULL;
  if (c.origin_count < 0 || c.target_count < 0 || c.result_count < 0)
    return fail(*w, MPI_ERR_COUNT, fn, "a count is negative");
  if (!check_rank(*w, c.target, fn, &rc)) return rc;
  RmaArgs a;
  a.kind = kind;
  a.origin = c.origin;
  a.origin_count = static_cast<std::size_t>(c.origin_count);
  a.result = c.result;
  a.result_count = static_cast<std::size_t>(c.result_count);
  a.target_count = static_cast<std::size_t>(c.target_count);
  a.compare = compare;
  a.op = op;
  a.disp = c.disp;
  a.target = c.target;
  const bool uses_origin = kind != RmaKind::Get && !(kind == RmaKind::GetAcc && op == MPI_NO_OP);
  if (uses_origin && !(a.origin_type = check_type(*w, c.origin_type, fn, &rc))) return rc;
  if (kind == RmaKind::Get || kind == RmaKind::GetAcc || kind == RmaKind::Cas)
    if (!(a.result_type = check_type(*w, c.result_type, fn, &rc))) return rc;
  if (!(a.target_type = check_type(*w, c.target_type, fn, &rc))) return rc;
  if (kind == RmaKind::Get) {
    a.result = const_cast<void*>(c.origin);
    a.result_count = a.origin_count;
  }
  const std::size_t tbytes = a.target_count * a.target_type->size;
  if (uses_origin && a.origin_count * a.origin_type->size != tbytes)
    return fail(*w, MPI_ERR_TYPE, fn, "the origin holds " + std::to_string(a.origin_count * a.origin_type->size) +
                                          " bytes but the target " + std::to_string(tbytes) + " (type signatures differ)");
  if (a.result_type && a.result_count * a.result_type->size != tbytes)
    return fail(*w, MPI_ERR_TYPE, fn, "the result buffer holds " +
                                          std::to_string(a.result_count * a.result_type->size) + " bytes but the target " +
                                          std::to_string(tbytes) + " (type signatures differ)");
  if (uses_origin && !c.origin && tbytes && !check::bottom_ok(*a.origin_type))
    return fail(*w, MPI_ERR_BUFFER, fn, "origin " + check::null_buffer_why(a.origin_count));
  if (a.result_type && !a.result && tbytes && !check::bottom_ok(*a.result_type))
    return fail(*w, MPI_ERR_BUFFER, fn, "result " + check::null_buffer_why(a.result_count));
  if (kind == RmaKind::Acc || kind == RmaKind::GetAcc || kind == RmaKind::Cas) {
    if (kind != RmaKind::Cas) {
      if (op < MPI_MAX || op >= TILEMPI_OP_PREDEFINED_END)
        return fail(*w, MPI_ERR_OP, fn, "op " + std::to_string(op) + " is not a predefined operation (one-sided "
                                        "accumulates take predefined ops and MPI_REPLACE, MPI_NO_OP)");
    }
    const MPI_Datatype basic = a.target_type->basic;
    if (basic == MPI_DATATYPE_NULL || (uses_origin && a.origin_type->basic != basic) ||
        (a.result_type && a.result_type->basic != basic))
      return fail(*w, MPI_ERR_TYPE, fn, "accumulate types must be built from one and the same predefined type");
    if (op != MPI_REPLACE && op != MPI_NO_OP && kind != RmaKind::Cas) {
      std::string why;
      if (int e = coll::op_check(op, basic, &why)) return fail(*w, e, fn, why);
    }
  }
  if (c.target == MPI_PROC_NULL) {
    if (request) *request = new_generic_request(w->comm), complete_generic_request(*request, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  if (!in_epoch(*w, c.target))
    return fail(*w, MPI_ERR_RMA_SYNC, fn, "no access epoch to rank " + std::to_string(c.target) +
                                               " is open (call MPI_Win_fence, MPI_Win_start or MPI_Win_lock first)");
  if (w->flavor != Flavor::Dynamic) {
    if (c.disp < 0) return fail(*w, MPI_ERR_DISP, fn, "target displacement " + std::to_string(c.disp) + " is negative");
    const WinPeer& p = w->peers[static_cast<std::size_t>(c.target)];
    const std::int64_t start = static_cast<std::int64_t>(c.disp) * p.disp_unit;
    if (a.target_count > 0 && tbytes > 0) {
      const std::int64_t lo = start + a.target_type->true_lb;
      const std::int64_t hi = start + a.target_type->true_lb + a.target_type->true_extent +
                              static_cast<std::int64_t>(a.target_count - 1) * a.target_type->extent;
      if (lo < 0 || hi > static_cast<std::int64_t>(p.size))
        return fail(*w, MPI_ERR_RMA_RANGE, fn,
                    "bytes " + std::to_string(lo) + ".." + std::to_string(hi) + " of rank " + std::to_string(c.target) +
                        "'s window, which has " + std::to_string(p.size));
    }
  }
  a.request = request;
  return win_rma(*w, a);
}

int group_members(const Win& w, MPI_Group g, const char* fn, std::vector<int>& out, int* rc) {
  Group* gr = group_get(g);
  if (!gr) {
    *rc = fail(w, MPI_ERR_GROUP, fn, "group handle " + std::to_string(g) + " is not valid");
    return false;
  }
  out.clear();
  for (int wr : gr->world) {
    auto it = std::find(w.world.begin(), w.world.end(), wr);
    if (it == w.world.end()) {
      *rc = fail(w, MPI_ERR_GROUP, fn, "world rank " + std::to_string(wr) + " of the group is not in the window");
      return false;
    }
    out.push_back(static_cast<int>(it - w.world.begin()));
  }
  return true;
}

bool any_lock(const Win& w) {
  return w.lock_all || std::any_of(w.lock_type.begin(), w.lock_type.end(), [](int t) { return t != 0; });
}

constexpr int kAsserts = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

bool check_assert(const Win& w, int assert, const char* fn, int* rc) {
  if ((assert & ~kAsserts) == 0) return true;
  *rc = fail(w, MPI_ERR_ASSERT, fn, "assert " + std::to_string(assert) + " has bits that are no MPI_MODE_ value");
  return false;
}

/// A window constructor's own arguments (the error is reported here).
int create_arguments(const char* fn, Flavor flavor, void** base, MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, MPI_Win* win) {
  if (!base) return raise(comm, MPI_ERR_ARG, fn, "baseptr is NULL");
  if (info != MPI_INFO_NULL && !info_valid(info))
    return raise(comm, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  if (!win) return raise(comm, MPI_ERR_ARG, fn, "win is NULL");
  if (size < 0) return raise(comm, MPI_ERR_SIZE, fn, "size " + std::to_string(size) + " is negative");
  if (disp_unit <= 0) return raise(comm, MPI_ERR_DISP, fn, "disp_unit " + std::to_string(disp_unit) + " is not positive");
  if (flavor == Flavor::Create && !*base && size > 0) return raise(comm, MPI_ERR_BASE, fn, "base is NULL");
  return MPI_SUCCESS;
}

int create(const char* fn, Flavor flavor, void** base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
           MPI_Win* win) {
  int rc;
  Comm* c = check::intra(comm, fn, &rc);
  if (!c) return rc;
  // The group agrees on its arguments first (the size and displacement unit are each rank's own):
  // a rank with a wrong one gets its class, the others the same class, and no rank has a
  // window; nobody waits in the constructor's collectives for a rank that returned.
  const int mine = create_arguments(fn, flavor, base, size, disp_unit, info, comm, win);
  int worst = MPI_SUCCESS;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm);
  if (mine != MPI_SUCCESS) return mine;
  if (worst != MPI_SUCCESS)
    return raise(comm, worst, fn, "another rank of the communicator gave a wrong argument; no window was made");
  rc = win_create(flavor, base, size, disp_unit, comm, win);
  if (rc != MPI_SUCCESS) return raise(comm, rc, fn, "creating the window failed");
  info_merge(info, win_get(*win)->hints);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  ApiScope api_scope(__func__);
  return create("MPI_Win_create", Flavor::Create, &base, size, disp_unit, info, comm, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  ApiScope api_scope(__func__);
  return create("MPI_Win_allocate", Flavor::Allocate, static_cast<void**>(baseptr), size, disp_unit, info, comm, win);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  ApiScope api_scope(__func__);
  return create("MPI_Win_allocate_shared", Flavor::Shared, static_cast<void**>(baseptr), size, disp_unit, info, comm,
                win);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  ApiScope api_scope(__func__);
  void* none = nullptr;
  return create("MPI_Win_create_dynamic", Flavor::Dynamic, &none, 0, 1, info, comm, win);
}

int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_shared_query", &rc);
  if (!w) return rc;
  if (w->flavor != Flavor::Shared)
    return fail(*w, MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query", "the window was not made by MPI_Win_allocate_shared");
  if (!size || !disp_unit || !baseptr) return fail(*w, MPI_ERR_ARG, "MPI_Win_shared_query", "an output pointer is NULL");
  int r = rank;
  if (r == MPI_PROC_NULL) {
    // The first member with memory (MPI 3.1 §11.2.3).
    r = 0;
    while (r < w->nranks - 1 && w->peers[static_cast<std::size_t>(r)].size == 0) ++r;
  } else if (!check_rank(*w, r, "MPI_Win_shared_query", &rc, false)) {
    return rc;
  }
  const std::size_t i = static_cast<std::size_t>(r);
  *size = static_cast<MPI_Aint>(w->peers[i].size);
  *disp_unit = w->peers[i].disp_unit;
  *static_cast<void**>(baseptr) = static_cast<char*>(w->shm) + w->shm_offset[i];
  return MPI_SUCCESS;
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_attach", &rc);
  if (!w) return rc;
  if (w->flavor != Flavor::Dynamic)
    return fail(*w, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach", "the window was not made by MPI_Win_create_dynamic");
  if (size < 0) return fail(*w, MPI_ERR_SIZE, "MPI_Win_attach", "size " + std::to_string(size) + " is negative");
  if (!base && size > 0) return fail(*w, MPI_ERR_RMA_ATTACH, "MPI_Win_attach", "base is NULL");
  const std::uint64_t b = reinterpret_cast<std::uint64_t>(base), s = static_cast<std::uint64_t>(size);
  for (const auto& [ab, as] : w->attached)
    if (b < ab + as && ab < b + s)
      return fail(*w, MPI_ERR_RMA_ATTACH, "MPI_Win_attach", "the memory overlaps a region already attached");
  w->attached.emplace_back(b, s);
  return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_detach", &rc);
  if (!w) return rc;
  if (w->flavor != Flavor::Dynamic)
    return fail(*w, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach", "the window was not made by MPI_Win_create_dynamic");
  const std::uint64_t b = reinterpret_cast<std::uint64_t>(base);
  auto it = std::find_if(w->attached.begin(), w->attached.end(), [&](const auto& r) { return r.first == b; });
  if (it == w->attached.end())
    return fail(*w, MPI_ERR_RMA_ATTACH, "MPI_Win_detach", "no region attached at that address");
  w->attached.erase(it);
  return MPI_SUCCESS;
}

int MPI_Win_free(MPI_Win* win) {
  ApiScope api_scope(__func__);
  int rc;
  if (!win) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Win_free", "win is NULL");
  Win* w = check_win(*win, "MPI_Win_free", &rc);
  if (!w) return rc;
  if (any_lock(*w) || w->started || w->posted)
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_free", "an epoch is still open (unlock, complete or wait first)");
  // The attributes' delete callbacks run first, while the window still exists (MPI-3.1 §6.7.3).
  if (int e = attributes_delete(w->attributes, *win))
    return fail(*w, e, "MPI_Win_free", "an attribute's delete callback failed");
  rc = win_free(*w);
  *win = MPI_WIN_NULL;
  return rc;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_get_group", &rc);
  if (!w) return rc;
  if (!group) return fail(*w, MPI_ERR_ARG, "MPI_Win_get_group", "group is NULL");
  *group = group_register(w->world);
  return MPI_SUCCESS;
}

int MPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_get_attr", &rc);
  if (!w) return rc;
  if (!attribute_val || !flag) return fail(*w, MPI_ERR_ARG, "MPI_Win_get_attr", "an output pointer is NULL");
  void** out = static_cast<void**>(attribute_val);
  *flag = 1;
  switch (keyval) {
    case MPI_WIN_BASE: *out = w->base; break;
    case MPI_WIN_SIZE: *out = &w->attr_size; break;
    case MPI_WIN_DISP_UNIT: *out = &w->attr_disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: *out = &w->attr_flavor; break;
    case MPI_WIN_MODEL: *out = &w->attr_model; break;
    default:  // a user keyval (MPI_Win_create_keyval)
      *flag = 0;
      return attr_get(w->attributes, AttrObject::Win, on_win(*w, "MPI_Win_get_attr"), keyval, attribute_val, flag);
  }
  return MPI_SUCCESS;
}

// ---- user attributes (MPI-3.1 §6.7.3): keyvals of windows; a window is never duplicated, so
// only the delete callbacks run (at MPI_Win_delete_attr, on a new value, and at MPI_Win_free).

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                          int* keyval, void* extra_state) {
  ApiScope api_scope(__func__);
  return keyval_create(AttrObject::Win, AttrLang::C, reinterpret_cast<void (*)()>(copy_fn),
                       reinterpret_cast<void (*)()>(delete_fn), keyval, extra_state, "MPI_Win_create_keyval");
}

int MPI_Win_free_keyval(int* keyval) {
  ApiScope api_scope(__func__);
  return keyval_free(AttrObject::Win, keyval, "MPI_Win_free_keyval");
}

int MPI_Win_set_attr(MPI_Win win, int keyval, void* attribute_val) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_set_attr", &rc);
  if (!w) return rc;
  if (keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL)
    return fail(*w, MPI_ERR_KEYVAL, "MPI_Win_set_attr", "predefined attribute " + std::to_string(keyval) + " cannot be set");
  return attr_set(w->attributes, AttrObject::Win, win, on_win(*w, "MPI_Win_set_attr"), keyval, attribute_val);
}

int MPI_Win_delete_attr(MPI_Win win, int keyval) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_delete_attr", &rc);
  if (!w) return rc;
  if (keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL)
    return fail(*w, MPI_ERR_KEYVAL, "MPI_Win_delete_attr", "predefined attribute " + std::to_string(keyval) + " cannot be deleted");
  return attr_delete(w->attributes, AttrObject::Win, win, on_win(*w, "MPI_Win_delete_attr"), keyval);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_set_errhandler", &rc);
  if (!w) return rc;
  if (!errhandler_fits(errhandler, ErrhandlerFor::Win))
    return fail(*w, MPI_ERR_ARG, "MPI_Win_set_errhandler",
                "error handler " + std::to_string(errhandler) + " is not valid for a window");
  w->errhandler = errhandler;
  return MPI_SUCCESS;
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Win_create_errhandler", &rc)) return rc;
  if (!function || !errhandler)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Win_create_errhandler", "function or errhandler is NULL");
  *errhandler = errhandler_create(function, ErrhandlerFor::Win);
  return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_call_errhandler", &rc);
  if (!w) return rc;
  fail(*w, errorcode, "MPI_Win_call_errhandler", "the application called the handler");
  return MPI_SUCCESS;  // the handler returned (MPI-3.1 §8.3.5)
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_set_info", &rc);
  if (!w) return rc;
  if (info != MPI_INFO_NULL && !info_valid(info))
    return fail(*w, MPI_ERR_INFO, "MPI_Win_set_info", "info handle " + std::to_string(info) + " is not valid");
  info_merge(info, w->hints);
  return MPI_SUCCESS;
}

int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_get_info", &rc);
  if (!w) return rc;
  if (!info_used) return fail(*w, MPI_ERR_ARG, "MPI_Win_get_info", "info_used is NULL");
  *info_used = info_of(w->hints);
  return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_get_errhandler", &rc);
  if (!w) return rc;
  if (!errhandler) return fail(*w, MPI_ERR_ARG, "MPI_Win_get_errhandler", "errhandler is NULL");
  *errhandler = w->errhandler;
  errhandler_ref(w->errhandler);  // a new reference (MPI-3.1 §8.3.1)
  return MPI_SUCCESS;
}

int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_set_name", &rc);
  if (!w) return rc;
  if (!win_name) return fail(*w, MPI_ERR_ARG, "MPI_Win_set_name", "name is NULL");
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_get_name", &rc);
  if (!w) return rc;
  if (!win_name || !resultlen) return fail(*w, MPI_ERR_ARG, "MPI_Win_get_name", "an output pointer is NULL");
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

// ---- operations

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  return rma("MPI_Put", RmaKind::Put,
             {origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
              target_count, target_datatype},
             MPI_REPLACE, win, nullptr);
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  return rma("MPI_Get", RmaKind::Get,
             {origin_addr, origin_count, MPI_DATATYPE_NULL, nullptr, origin_count, origin_datatype, target_rank,
              target_disp, target_count, target_datatype},
             MPI_NO_OP, win, nullptr);
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return rma("MPI_Accumulate", RmaKind::Acc,
             {origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
              target_count, target_datatype},
             op, win, nullptr);
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  return rma("MPI_Get_accumulate", RmaKind::GetAcc,
             {origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank,
              target_disp, target_count, target_datatype},
             op, win, nullptr);
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  return rma("MPI_Fetch_and_op", RmaKind::GetAcc,
             {origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1, datatype}, op, win,
             nullptr);
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win) {
  if (!compare_addr) {
    ApiScope api_scope(__func__);
    int rc;
    Win* w = check_win(win, "MPI_Compare_and_swap", &rc);
    if (!w) return rc;
    return fail(*w, MPI_ERR_BUFFER, "MPI_Compare_and_swap", "compare buffer is NULL");
  }
  return rma("MPI_Compare_and_swap", RmaKind::Cas,
             {origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1, datatype}, MPI_REPLACE,
             win, nullptr, compare_addr);
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Rput", "request is NULL");
  return rma("MPI_Rput", RmaKind::Put,
             {origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
              target_count, target_datatype},
             MPI_REPLACE, win, request);
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Rget", "request is NULL");
  return rma("MPI_Rget", RmaKind::Get,
             {origin_addr, origin_count, MPI_DATATYPE_NULL, nullptr, origin_count, origin_datatype, target_rank,
              target_disp, target_count, target_datatype},
             MPI_NO_OP, win, request);
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request* request) {
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Raccumulate", "request is NULL");
  return rma("MPI_Raccumulate", RmaKind::Acc,
             {origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
              target_count, target_datatype},
             op, win, request);
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Rget_accumulate", "request is NULL");
  return rma("MPI_Rget_accumulate", RmaKind::GetAcc,
             {origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank,
              target_disp, target_count, target_datatype},
             op, win, request);
}

// ---- synchronization

int MPI_Win_fence(int assert, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_fence", &rc);
  if (!w) return rc;
  if (!check_assert(*w, assert, "MPI_Win_fence", &rc)) return rc;
  if (any_lock(*w) || w->started || w->posted)
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                "a lock, start or post epoch is open (fences do not mix with other synchronization)");
  return win_fence(*w, assert);
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_post", &rc);
  if (!w) return rc;
  if (!check_assert(*w, assert, "MPI_Win_post", &rc)) return rc;
  std::vector<int> members;
  if (!group_members(*w, group, "MPI_Win_post", members, &rc)) return rc;
  if (w->posted) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_post", "an exposure epoch is already open (call MPI_Win_wait)");
  return win_post(*w, members, assert);
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_start", &rc);
  if (!w) return rc;
  if (!check_assert(*w, assert, "MPI_Win_start", &rc)) return rc;
  std::vector<int> members;
  if (!group_members(*w, group, "MPI_Win_start", members, &rc)) return rc;
  if (w->started || any_lock(*w))
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_start", "an access epoch is already open (complete or unlock it first)");
  return win_start(*w, members, assert);
}

int MPI_Win_complete(MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_complete", &rc);
  if (!w) return rc;
  if (!w->started) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_complete", "no MPI_Win_start epoch is open");
  return win_complete(*w);
}

int MPI_Win_wait(MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_wait", &rc);
  if (!w) return rc;
  if (!w->posted) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_wait", "no MPI_Win_post epoch is open");
  bool done = false;
  return win_wait(*w, true, &done);
}

int MPI_Win_test(MPI_Win win, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_test", &rc);
  if (!w) return rc;
  if (!flag) return fail(*w, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
  if (!w->posted) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_test", "no MPI_Win_post epoch is open");
  bool done = false;
  rc = win_wait(*w, false, &done);
  *flag = done ? 1 : 0;
  return rc;
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_lock", &rc);
  if (!w) return rc;
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
    return fail(*w, MPI_ERR_LOCKTYPE, "MPI_Win_lock", "lock type " + std::to_string(lock_type) +
                                                          " is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE");
  if (!check_rank(*w, rank, "MPI_Win_lock", &rc)) return rc;
  if (!check_assert(*w, assert, "MPI_Win_lock", &rc)) return rc;
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (w->lock_all || w->lock_type[static_cast<std::size_t>(rank)] != 0)
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_lock", "rank " + std::to_string(rank) + " is already locked");
  if (w->started) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_lock", "an MPI_Win_start epoch is open");
  return win_lock(*w, lock_type, rank, assert);
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_unlock", &rc);
  if (!w) return rc;
  if (!check_rank(*w, rank, "MPI_Win_unlock", &rc)) return rc;
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (w->lock_all || w->lock_type[static_cast<std::size_t>(rank)] == 0)
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_unlock", "rank " + std::to_string(rank) + " is not locked by MPI_Win_lock");
  return win_unlock(*w, rank);
}

int MPI_Win_lock_all(int assert, MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_lock_all", &rc);
  if (!w) return rc;
  if (!check_assert(*w, assert, "MPI_Win_lock_all", &rc)) return rc;
  if (any_lock(*w) || w->started)
    return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all", "an access epoch is already open");
  for (int r = 0; r < w->nranks; ++r) win_lock(*w, MPI_LOCK_SHARED, r, assert);
  w->lock_all = true;
  return MPI_SUCCESS;
}

int MPI_Win_unlock_all(MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_unlock_all", &rc);
  if (!w) return rc;
  if (!w->lock_all) return fail(*w, MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all", "no MPI_Win_lock_all epoch is open");
  rc = MPI_SUCCESS;
  for (int r = 0; r < w->nranks; ++r) {
    const int e = win_unlock(*w, r);
    if (rc == MPI_SUCCESS) rc = e;
  }
  w->lock_all = false;
  return rc;
}

namespace {
int flush(const char* fn, int rank, MPI_Win win, bool all) {
  int rc;
  Win* w = check_win(win, fn, &rc);
  if (!w) return rc;
  if (!all) {
    if (!check_rank(*w, rank, fn, &rc)) return rc;
    if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
    if (w->lock_type[static_cast<std::size_t>(rank)] == 0)
      return fail(*w, MPI_ERR_RMA_SYNC, fn, "rank " + std::to_string(rank) + " is not locked (flush needs a passive epoch)");
  } else if (!any_lock(*w)) {
    return fail(*w, MPI_ERR_RMA_SYNC, fn, "no passive-target epoch is open");
  }
  return win_complete_ops(*w, all ? -1 : rank);
}
}  // namespace

int MPI_Win_flush(int rank, MPI_Win win) {
  ApiScope api_scope(__func__);
  return flush("MPI_Win_flush", rank, win, false);
}
int MPI_Win_flush_all(MPI_Win win) {
  ApiScope api_scope(__func__);
  return flush("MPI_Win_flush_all", 0, win, true);
}
// Local completion: the origin's buffer may be reused. Remote completion implies it, and waiting
// for it costs no more than the operation's own round trip (no cheaper local notice is modeled).
int MPI_Win_flush_local(int rank, MPI_Win win) {
  ApiScope api_scope(__func__);
  return flush("MPI_Win_flush_local", rank, win, false);
}
int MPI_Win_flush_local_all(MPI_Win win) {
  ApiScope api_scope(__func__);
  return flush("MPI_Win_flush_local_all", 0, win, true);
}

// The unified memory model: public and private copies are the same memory; a memory fence
// orders this rank's loads and stores against the window's other accesses.
int MPI_Win_sync(MPI_Win win) {
  ApiScope api_scope(__func__);
  int rc;
  Win* w = check_win(win, "MPI_Win_sync", &rc);
  if (!w) return rc;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  progress();
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Win_create)
TILEMPI_PMPI_ALIAS(Win_allocate)
TILEMPI_PMPI_ALIAS(Win_allocate_shared)
TILEMPI_PMPI_ALIAS(Win_shared_query)
TILEMPI_PMPI_ALIAS(Win_create_dynamic)
TILEMPI_PMPI_ALIAS(Win_attach)
TILEMPI_PMPI_ALIAS(Win_detach)
TILEMPI_PMPI_ALIAS(Win_free)
TILEMPI_PMPI_ALIAS(Win_get_group)
TILEMPI_PMPI_ALIAS(Win_get_attr)
TILEMPI_PMPI_ALIAS(Win_create_keyval)
TILEMPI_PMPI_ALIAS(Win_free_keyval)
TILEMPI_PMPI_ALIAS(Win_set_attr)
TILEMPI_PMPI_ALIAS(Win_delete_attr)
TILEMPI_PMPI_ALIAS(Win_set_errhandler)
TILEMPI_PMPI_ALIAS(Win_get_errhandler)
TILEMPI_PMPI_ALIAS(Win_create_errhandler)
TILEMPI_PMPI_ALIAS(Win_call_errhandler)
TILEMPI_PMPI_ALIAS(Win_set_info)
TILEMPI_PMPI_ALIAS(Win_get_info)
TILEMPI_PMPI_ALIAS(Win_set_name)
TILEMPI_PMPI_ALIAS(Win_get_name)
TILEMPI_PMPI_ALIAS(Put)
TILEMPI_PMPI_ALIAS(Get)
TILEMPI_PMPI_ALIAS(Accumulate)
TILEMPI_PMPI_ALIAS(Get_accumulate)
TILEMPI_PMPI_ALIAS(Fetch_and_op)
TILEMPI_PMPI_ALIAS(Compare_and_swap)
TILEMPI_PMPI_ALIAS(Rput)
TILEMPI_PMPI_ALIAS(Rget)
TILEMPI_PMPI_ALIAS(Raccumulate)
TILEMPI_PMPI_ALIAS(Rget_accumulate)
TILEMPI_PMPI_ALIAS(Win_fence)
TILEMPI_PMPI_ALIAS(Win_post)
TILEMPI_PMPI_ALIAS(Win_start)
TILEMPI_PMPI_ALIAS(Win_complete)
TILEMPI_PMPI_ALIAS(Win_wait)
TILEMPI_PMPI_ALIAS(Win_test)
TILEMPI_PMPI_ALIAS(Win_lock)
TILEMPI_PMPI_ALIAS(Win_unlock)
TILEMPI_PMPI_ALIAS(Win_lock_all)
TILEMPI_PMPI_ALIAS(Win_unlock_all)
TILEMPI_PMPI_ALIAS(Win_flush)
TILEMPI_PMPI_ALIAS(Win_flush_all)
TILEMPI_PMPI_ALIAS(Win_flush_local)
TILEMPI_PMPI_ALIAS(Win_flush_local_all)
TILEMPI_PMPI_ALIAS(Win_sync)
