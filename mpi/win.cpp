// One-sided communication: windows, their epochs, and the two paths of an operation (win.h).
#include "win.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "coll/op.h"
#include "comm.h"
#include "errors.h"
#include "hooks.h"
#include "p2p.h"
#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

using transport::kDone;

struct Registry {
  std::vector<std::unique_ptr<Win>> wins{1};  // handle 0 is MPI_WIN_NULL
  int live = 0;
  bool serving = false;  // inside onesided_progress (a nested progress pass skips it)
  std::uint64_t shm_count = 0;
};

Registry& registry() {
  static transport::RankLocal<Registry> r;  // per rank (ranks as contexts share the library)
  return r.get();
}

// ---- control messages: a header, then (offset, length) pairs, then data.
enum ControlKind : std::uint32_t {
  kLock = 1, kGrant, kUnlock, kUnlockAck,  // passive target
  kAcc, kGetAcc, kCas,                     // the message path (Put = Acc with MPI_REPLACE, Get = GetAcc with MPI_NO_OP)
  kAck, kResult,                           // answers of kAcc, kGetAcc/kCas
  kPost, kComplete,                        // general active target
};

struct Header {
  std::uint32_t kind = 0;
  std::int32_t a = 0;       // lock type; error class in answers
  std::int32_t op = 0;
  std::int32_t basic = 0;
  std::uint64_t seq = 0;
  std::uint64_t blocks = 0;
  std::uint64_t bytes = 0;  // data bytes after the blocks
};

struct Span {
  std::uint64_t where, len;  // offset from the window's base (address on a dynamic window)
};

void send_ctl(Win& w, int dest, const Header& h, const std::vector<Span>& spans = {}, const void* data = nullptr,
              std::size_t data_len = 0, const void* data2 = nullptr, std::size_t data2_len = 0) {
  Win::Out out;
  const std::size_t n = sizeof h + spans.size() * sizeof(Span) + data_len + data2_len;
  out.bytes.resize(n);
  char* p = out.bytes.data();
  std::memcpy(p, &h, sizeof h);
  p += sizeof h;
  if (!spans.empty()) std::memcpy(p, spans.data(), spans.size() * sizeof(Span));
  p += spans.size() * sizeof(Span);
  if (data_len) std::memcpy(p, data, data_len);
  p += data_len;
  if (data2_len) std::memcpy(p, data2, data2_len);
  Comm* c = comm_get(w.ctrl);
  isend(out.bytes.data(), n, MPI_BYTE, dest, 0, *c, Lane::User, false, &out.request);
  w.sends.push_back(std::move(out));
}

/// The bytes of count elements of t, as (offset, length) runs in type-map order.
std::vector<Span> flatten(std::size_t count, const Datatype& t, std::uint64_t start) {
  std::vector<Span> out;
  for (std::size_t i = 0; i < count; ++i)
    for (const Block& b : t.blocks) {
      const std::uint64_t at = start + static_cast<std::uint64_t>(static_cast<std::ptrdiff_t>(i) * t.extent + b.offset);
      if (!out.empty() && out.back().where + out.back().len == at) out.back().len += b.length;
      else out.push_back(Span{at, b.length});
    }
  return out;
}

/// Target side: the spans of an operation lie in this window's memory? Returns the address of each.
bool resolve(const Win& w, const std::vector<Span>& spans, std::vector<unsigned char*>& at) {
  at.clear();
  for (const Span& s : spans) {
    if (w.flavor == Flavor::Dynamic) {
      // Every byte must be attached, possibly by regions attached one by one that adjoin (an
      // array attached in halves): walk from region to region (they never overlap).
      const std::uint64_t end = s.where + s.len;
      std::uint64_t pos = s.where;
      bool ok = true;
      while (ok) {
        ok = false;
        for (const auto& [base, len] : w.attached)
          if (pos >= base && pos < base + len) {
            pos = base + len;
            ok = true;
            break;
          }
        if (pos >= end) break;
      }
      if (!ok) return false;
      at.push_back(reinterpret_cast<unsigned char*>(s.where));
    } else {
      if (s.where + s.len > static_cast<std::uint64_t>(w.size) || s.where > static_cast<std::uint64_t>(w.size))
        return false;
      at.push_back(static_cast<unsigned char*>(w.base) + s.where);
    }
  }
  return true;
}

bool can_grant(const Win& w, int type) {
  return w.exclusive_holder < 0 && (type == MPI_LOCK_SHARED || w.shared_holders == 0);
}

void grant(Win& w, int origin, int type) {
  if (type == MPI_LOCK_EXCLUSIVE) w.exclusive_holder = origin;
  else ++w.shared_holders;
  Header g;
  g.kind = kGrant;
  send_ctl(w, origin, g);
}

/// Apply an accumulate-family operation that arrived from `origin` and answer it.
void serve_update(Win& w, int origin, const Header& h, const char* body) {
  std::vector<Span> spans(h.blocks);
  if (h.blocks) std::memcpy(spans.data(), body, h.blocks * sizeof(Span));
  const char* data = body + h.blocks * sizeof(Span);
  std::vector<unsigned char*> at;
  Header ans;
  ans.seq = h.seq;
  ans.kind = h.kind == kAcc ? kAck : kResult;
  if (!resolve(w, spans, at)) {
    ans.a = MPI_ERR_RMA_RANGE;
    send_ctl(w, origin, ans);
    return;
  }
  std::uint64_t total = 0;
  for (const Span& s : spans) total += s.len;
  std::vector<char> old;
  if (h.kind != kAcc) {
    old.resize(total);
    std::uint64_t pos = 0;
    for (std::size_t i = 0; i < spans.size(); ++i) {
      std::memcpy(old.data() + pos, at[i], spans[i].len);
      pos += spans[i].len;
    }
  }
  const MPI_Op op = h.op;
  const MPI_Datatype basic = h.basic;
  if (h.kind == kCas) {
    // data: the new value, then the value to compare with; one element.
    if (total && std::memcmp(at[0], data + total, total) == 0) std::memcpy(at[0], data, total);
  } else if (op != MPI_NO_OP) {
    const std::size_t esize = basic_size(basic);
    bool whole = true;  // every span holds whole elements
    for (const Span& s : spans) whole = whole && (esize == 0 || s.len % esize == 0);
    if (op == MPI_REPLACE || esize == 0 || whole) {
      std::uint64_t pos = 0;
      for (std::size_t i = 0; i < spans.size(); ++i) {
        if (op == MPI_REPLACE || esize == 0) std::memcpy(at[i], data + pos, spans[i].len);
        else coll::apply_predefined(op, basic, data + pos, at[i], spans[i].len / esize);
        pos += spans[i].len;
      }
    } else {
      // A pair type (MPI_DOUBLE_INT) with padding: its value and index are separate spans.
      // Combine in packed form, as the origin's data is, and put the result back.
      std::vector<unsigned char> target(total);
      std::uint64_t pos = 0;
      for (std::size_t i = 0; i < spans.size(); ++i) {
        std::memcpy(target.data() + pos, at[i], spans[i].len);
        pos += spans[i].len;
      }
      coll::apply_predefined(op, basic, data, target.data(), total / esize);
      pos = 0;
      for (std::size_t i = 0; i < spans.size(); ++i) {
        std::memcpy(at[i], target.data() + pos, spans[i].len);
        pos += spans[i].len;
      }
    }
  }
  ans.bytes = old.size();
  send_ctl(w, origin, ans, {}, old.data(), old.size());
}

WinPending* pending_of(Win& w, std::uint64_t seq) {
  for (WinPending& p : w.pending)
    if (p.seq == seq) return &p;
  return nullptr;
}

void serve(Win& w, int origin, const std::vector<char>& msg) {
  Header h;
  std::memcpy(&h, msg.data(), sizeof h);
  const char* body = msg.data() + sizeof h;
  switch (h.kind) {
    case kLock:
      if (w.lock_waiters.empty() && can_grant(w, h.a)) grant(w, origin, h.a);
      else w.lock_waiters.emplace_back(origin, h.a);
      break;
    case kUnlock: {
      if (w.exclusive_holder == origin) w.exclusive_holder = -1;
      else if (w.shared_holders > 0) --w.shared_holders;
      Header ack;
      ack.kind = kUnlockAck;
      send_ctl(w, origin, ack);
      while (!w.lock_waiters.empty() && can_grant(w, w.lock_waiters.front().second)) {
        const auto [o, t] = w.lock_waiters.front();
        w.lock_waiters.pop_front();
        grant(w, o, t);
      }
      break;
    }
    case kAcc:
    case kGetAcc:
    case kCas:
      serve_update(w, origin, h, body);
      break;
    case kGrant:
      w.granted[static_cast<std::size_t>(origin)] = 1;
      break;
    case kUnlockAck:
      ++w.unlock_acks[static_cast<std::size_t>(origin)];
      break;
    case kAck:
    case kResult:
      if (WinPending* p = pending_of(w, h.seq)) {
        p->replied = true;
        if (h.a != MPI_SUCCESS && w.deferred_error == MPI_SUCCESS) {
          w.deferred_error = h.a;
          w.deferred_detail = "target rank " + std::to_string(origin) +
                              " has no attached memory at the displacement of an operation";
        }
        if (h.kind == kResult && h.a == MPI_SUCCESS) p->staging.assign(body, body + h.bytes);
      }
      break;
    case kPost:
      ++w.posts_seen[static_cast<std::size_t>(origin)];
      break;
    case kComplete:
      ++w.completes_seen;
      break;
    default:
      break;
  }
}

void finish(WinPending& p) {
  if (p.unpack && p.result)
    unpack(p.staging.data(), p.staging.size(), p.result_count, p.result_type, p.result);
  if (p.request != MPI_REQUEST_NULL) complete_generic_request(p.request, MPI_SUCCESS);
}

bool pending_done(WinPending& p) {
  if (p.seq) return p.replied;
  transport::Transport& tp = transport_of_job();
  while (!p.ops.empty() && tp.rma_done(p.ops.back())) p.ops.pop_back();
  return p.ops.empty();
}

void advance(Win& w) {
  for (auto it = w.sends.begin(); it != w.sends.end();) {
    Request* r = request_get(it->request);
    if (r && !r->done) {
      ++it;
      continue;
    }
    if (r) request_release(it->request);
    it = w.sends.erase(it);
  }
  Comm* c = comm_get(w.ctrl);
  MPI_Status st;
  while (c && iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, *c, Lane::User, &st)) {
    std::vector<char> msg(status_bytes(st));
    MPI_Request rq = MPI_REQUEST_NULL;
    irecv(msg.data(), msg.size(), MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, *c, Lane::User, &rq);
    wait(&rq, MPI_STATUS_IGNORE);
    serve(w, st.MPI_SOURCE, msg);
  }
  for (auto it = w.pending.begin(); it != w.pending.end();) {
    if (!pending_done(*it)) {
      ++it;
      continue;
    }
    finish(*it);
    it = w.pending.erase(it);
  }
}

bool has_pending(const Win& w, int target) {
  if (target < 0) return !w.pending.empty();
  for (const WinPending& p : w.pending)
    if (p.target == target) return true;
  return false;
}

int take_deferred(Win& w, const char* fn) {
  if (w.deferred_error == MPI_SUCCESS) return MPI_SUCCESS;
  const int e = w.deferred_error;
  w.deferred_error = MPI_SUCCESS;
  return win_raise(&w, e, fn, w.deferred_detail);
}

}  // namespace

// Every pass of the progress engine: serve the peers of every window, complete our operations.
bool onesided_idle() { return registry().live == 0; }

void onesided_progress() {
  Registry& reg = registry();
  if (reg.live == 0 || reg.serving) return;
  reg.serving = true;
  for (std::size_t i = 1; i < reg.wins.size(); ++i)
    if (Win* w = reg.wins[i].get()) advance(*w);
  reg.serving = false;
}

Win* win_get(MPI_Win h) {
  Registry& reg = registry();
  if (h <= 0 || static_cast<std::size_t>(h) >= reg.wins.size()) return nullptr;
  return reg.wins[static_cast<std::size_t>(h)].get();
}

int win_raise(const Win* w, int errclass, const char* function, const std::string& detail) {
  if (!w) return raise_with(MPI_ERRORS_ARE_FATAL, errclass, function, detail);
  return raise_on(w->errhandler, w->handle, errclass, function, detail);
}

int win_create(Flavor flavor, void** base, MPI_Aint size, int disp_unit, MPI_Comm comm, MPI_Win* out) {
  Comm* c = comm_get(comm);
  auto w = std::make_unique<Win>();
  w->comm = comm;
  w->flavor = flavor;
  w->size = flavor == Flavor::Dynamic ? 0 : size;
  w->disp_unit = disp_unit;
  w->rank = c->rank;
  w->nranks = c->size;
  w->world = c->world;
  w->errhandler = MPI_ERRORS_ARE_FATAL;
  int rc = MPI_Comm_dup(comm, &w->ctrl);
  if (rc != MPI_SUCCESS) return rc;
  comm_get(w->ctrl)->errhandler = MPI_ERRORS_RETURN;
  const std::size_t n = static_cast<std::size_t>(c->size);
  if (flavor == Flavor::Allocate) {
    w->owned = std::calloc(1, static_cast<std::size_t>(std::max<MPI_Aint>(size, 1)));
    if (!w->owned) return MPI_ERR_NO_MEM;
    w->base = w->owned;
  } else if (flavor == Flavor::Shared) {
    // One mapping of every member's segment, contiguous by rank (each rounded to 64 bytes); the
    // first member creates the object, the others open it by name, then it is unlinked.
    long long mine = size;
    std::vector<long long> sizes(n);
    MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, w->ctrl);
    std::uint64_t total = 0;
    w->shm_offset.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      w->shm_offset[r] = total;
      total += (static_cast<std::uint64_t>(sizes[r]) + 63) / 64 * 64;
    }
    w->shm_bytes = std::max<std::uint64_t>(total, 64);
    char name[96] = {};
    if (c->rank == 0)
      std::snprintf(name, sizeof name, "/tilempi-win-%d-%d-%llu", static_cast<int>(::getpid()),
                    transport_of_job().rank(), static_cast<unsigned long long>(++registry().shm_count));
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, w->ctrl);
    int fd = -1;
    if (c->rank == 0) {
      fd = ::shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
      if (fd >= 0 && ::ftruncate(fd, static_cast<off_t>(w->shm_bytes)) != 0) {
        ::close(fd);
        fd = -1;
      }
    }
    MPI_Barrier(w->ctrl);
    if (c->rank != 0) fd = ::shm_open(name, O_RDWR, 0600);
    void* m = fd >= 0 ? ::mmap(nullptr, w->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0) ::close(fd);
    int ok = m != MAP_FAILED ? 1 : 0, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, w->ctrl);
    if (c->rank == 0) ::shm_unlink(name);
    if (!all) {
      if (m != MAP_FAILED) ::munmap(m, w->shm_bytes);
      MPI_Comm_free(&w->ctrl);
      return MPI_ERR_RMA_SHARED;
    }
    w->shm = m;
    w->base = static_cast<char*>(m) + w->shm_offset[static_cast<std::size_t>(c->rank)];
  } else if (flavor == Flavor::Create) {
    w->base = *base;
  }
  if (base && flavor != Flavor::Create && flavor != Flavor::Dynamic) *base = w->base;
  // What every origin needs of every target: address, size, displacement unit; and whether
  // every rank's transport reaches the others' memory.
  const bool reach = transport_of_job().capabilities().one_sided;
  std::uint64_t me[4] = {reinterpret_cast<std::uint64_t>(w->base), static_cast<std::uint64_t>(w->size),
                         static_cast<std::uint64_t>(disp_unit), reach ? 1u : 0u};
  std::vector<std::uint64_t> all(4 * n);
  MPI_Allgather(me, 4, MPI_UINT64_T, all.data(), 4, MPI_UINT64_T, w->ctrl);
  w->peers.resize(n);
  bool direct = flavor != Flavor::Dynamic;
  for (std::size_t r = 0; r < n; ++r) {
    w->peers[r] = WinPeer{all[4 * r], all[4 * r + 1], static_cast<int>(all[4 * r + 2])};
    direct = direct && all[4 * r + 3] != 0;
  }
  w->direct = direct;
  w->in_access.assign(n, 0);
  w->lock_type.assign(n, 0);
  w->lock_sent.assign(n, 0);
  w->granted.assign(n, 0);
  w->unlock_acks.assign(n, 0);
  w->posts_seen.assign(n, 0);
  w->attr_size = w->size;
  w->attr_disp_unit = disp_unit;
  w->attr_flavor = static_cast<int>(flavor);
  Registry& reg = registry();
  std::size_t h = 1;
  while (h < reg.wins.size() && reg.wins[h]) ++h;
  if (h == reg.wins.size()) reg.wins.emplace_back();
  w->handle = static_cast<MPI_Win>(h);
  *out = w->handle;
  reg.wins[h] = std::move(w);
  ++reg.live;
  return MPI_SUCCESS;
}

int win_free(Win& w) {
  int rc = win_complete_ops(w, -1);
  progress_until([&] { return w.sends.empty(); });
  MPI_Barrier(w.ctrl);
  progress_until([&] { return w.sends.empty(); });
  if (w.owned) std::free(w.owned);
  if (w.shm) ::munmap(w.shm, w.shm_bytes);
  MPI_Comm_free(&w.ctrl);
  Registry& reg = registry();
  reg.wins[static_cast<std::size_t>(w.handle)].reset();
  --reg.live;
  return rc;
}

int win_rma(Win& w, const RmaArgs& a) {
  const WinPeer& peer = w.peers[static_cast<std::size_t>(a.target)];
  const int dest_world = w.world[static_cast<std::size_t>(a.target)];
  const bool dynamic = w.flavor == Flavor::Dynamic;
  const std::uint64_t start =
      dynamic ? static_cast<std::uint64_t>(a.disp) : static_cast<std::uint64_t>(a.disp) * static_cast<std::uint64_t>(peer.disp_unit);
  std::vector<Span> spans = flatten(a.target_count, *a.target_type, start);
  std::size_t bytes = a.target_count * a.target_type->size;
  transport::Transport& tp = transport_of_job();

  // Origin data, contiguous.
  std::vector<char> packed;
  const void* data = nullptr;
  if (a.kind != RmaKind::Get && a.origin_type) {  // (a NULL origin is MPI_BOTTOM: the type's addresses)
    if (a.origin_type->contiguous) {
      data = static_cast<const char*>(a.origin) + a.origin_type->true_lb;
    } else {
      packed.resize(a.origin_count * a.origin_type->size);
      pack(a.origin, a.origin_count, *a.origin_type, packed.data());
      data = packed.data();
    }
  }

  WinPending p;
  p.target = a.target;
  if (a.request) {
    *a.request = new_generic_request(w.comm);
    p.request = *a.request;
  }
  if (w.direct && (a.kind == RmaKind::Put || a.kind == RmaKind::Get)) {
    char* into = nullptr;
    if (a.kind == RmaKind::Get) {
      // Straight into a contiguous origin buffer, else through staging unpacked at completion.
      if (a.result_type->contiguous) {
        into = static_cast<char*>(a.result) + a.result_type->true_lb;
      } else {
        p.staging.resize(bytes);
        into = p.staging.data();
        p.unpack = true;
        p.result = a.result;
        p.result_count = a.result_count;
        p.result_type = *a.result_type;
      }
    }
    std::uint64_t pos = 0;
    for (const Span& s : spans) {
      const transport::OpId op =
          a.kind == RmaKind::Put
              ? tp.rma_put(dest_world, peer.base + s.where, static_cast<const char*>(data) + pos, s.len)
              : tp.rma_get(dest_world, peer.base + s.where, into + pos, s.len);
      pos += s.len;
      if (op != kDone) p.ops.push_back(op);
    }
    if (p.ops.empty()) finish(p);  // done inside the calls (the host's cross-memory attach)
    else w.pending.push_back(std::move(p));
    return MPI_SUCCESS;
  }

  // The message path.
  Header h;
  h.seq = w.next_seq++;
  h.blocks = spans.size();
  h.basic = a.target_type->basic;
  h.op = a.op;
  const void* compare = nullptr;
  std::size_t data_len = bytes;
  switch (a.kind) {
    case RmaKind::Put: h.kind = kAcc; h.op = MPI_REPLACE; break;
    case RmaKind::Acc: h.kind = kAcc; break;
    case RmaKind::Get: h.kind = kGetAcc; h.op = MPI_NO_OP; data_len = 0; break;
    case RmaKind::GetAcc: h.kind = kGetAcc; if (a.op == MPI_NO_OP) data_len = 0; break;
    case RmaKind::Cas: h.kind = kCas; compare = a.compare; break;
  }
  h.bytes = data_len;
  p.seq = h.seq;
  if (a.kind != RmaKind::Put && a.kind != RmaKind::Acc) {
    p.unpack = true;
    p.result = a.result;
    p.result_count = a.result_count;
    p.result_type = *a.result_type;
  }
  w.pending.push_back(std::move(p));
  send_ctl(w, a.target, h, spans, data, data_len, compare, compare ? bytes : 0);
  return MPI_SUCCESS;
}

int win_complete_ops(Win& w, int target) {
  progress_until([&] { return !has_pending(w, target); });
  return take_deferred(w, "MPI_Win (completion of one-sided operations)");
}

int win_fence(Win& w, int assert) {
  int rc = win_complete_ops(w, -1);
  MPI_Barrier(w.ctrl);
  w.fence = (assert & MPI_MODE_NOSUCCEED) == 0;
  return rc;
}

int win_lock(Win& w, int type, int target, int assert) {
  const std::size_t t = static_cast<std::size_t>(target);
  w.fence = false;
  w.lock_type[t] = type;
  if (assert & MPI_MODE_NOCHECK) return MPI_SUCCESS;
  w.granted[t] = 0;
  w.lock_sent[t] = 1;
  Header h;
  h.kind = kLock;
  h.a = type;
  send_ctl(w, target, h);
  progress_until([&] { return w.granted[t] != 0; });
  return MPI_SUCCESS;
}

int win_unlock(Win& w, int target) {
  const int rc = win_complete_ops(w, target);
  const std::size_t t = static_cast<std::size_t>(target);
  if (w.lock_sent[t]) {
    const int before = w.unlock_acks[t];
    Header h;
    h.kind = kUnlock;
    send_ctl(w, target, h);
    progress_until([&] { return w.unlock_acks[t] != before; });
  }
  w.lock_type[t] = 0;
  w.lock_sent[t] = 0;
  return rc;
}

int win_post(Win& w, const std::vector<int>& members, int assert) {
  w.posted = true;
  w.post_count = static_cast<int>(members.size());
  if (!(assert & MPI_MODE_NOCHECK)) {
    Header h;
    h.kind = kPost;
    for (int m : members) send_ctl(w, m, h);
  }
  return MPI_SUCCESS;
}

int win_start(Win& w, const std::vector<int>& members, int assert) {
  w.fence = false;
  std::fill(w.in_access.begin(), w.in_access.end(), 0);
  for (int m : members) w.in_access[static_cast<std::size_t>(m)] = 1;
  w.started = true;
  if (assert & MPI_MODE_NOCHECK) return MPI_SUCCESS;
  progress_until([&] {
    for (int m : members)
      if (w.posts_seen[static_cast<std::size_t>(m)] == 0) return false;
    return true;
  });
  for (int m : members) --w.posts_seen[static_cast<std::size_t>(m)];
  return MPI_SUCCESS;
}

int win_complete(Win& w) {
  const int rc = win_complete_ops(w, -1);
  Header h;
  h.kind = kComplete;
  for (std::size_t m = 0; m < w.in_access.size(); ++m)
    if (w.in_access[m]) send_ctl(w, static_cast<int>(m), h);
  std::fill(w.in_access.begin(), w.in_access.end(), 0);
  w.started = false;
  return rc;
}

int win_wait(Win& w, bool block, bool* done) {
  if (block) progress_until([&] { return w.completes_seen >= w.post_count; });
  else progress();
  *done = w.completes_seen >= w.post_count;
  if (*done) {
    w.completes_seen -= w.post_count;
    w.posted = false;
    w.post_count = 0;
  }
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi
