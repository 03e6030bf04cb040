// MPI-IO entry points over POSIX files (file.h says how): open/close/delete, sizes, views,
// explicit offsets, individual and shared file pointers, nonblocking forms, sync.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "comm.h"
#include "errors.h"
#include "file.h"
#include "info.h"
#include "p2p.h"
#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

using namespace tilempi::mpi;

namespace {

// The handler of MPI_FILE_NULL: what MPI_File_open and MPI_File_delete report to (and new files
// inherit). MPI's default for files is MPI_ERRORS_RETURN.
MPI_Errhandler& null_handler() {
  static tilempi::transport::RankLocal<MPI_Errhandler> h;
  MPI_Errhandler& v = h.get();
  if (v == 0) v = MPI_ERRORS_RETURN;
  return v;
}

int fail(const File* f, int cls, const char* fn, const std::string& why) {
  return raise_on(f ? f->errhandler : null_handler(), f ? f->handle : MPI_FILE_NULL, cls, fn, why);
}

File* check_file(MPI_File h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  File* f = file_get(h);
  if (!f) *rc = fail(nullptr, MPI_ERR_FILE, fn, "file handle " + std::to_string(h) + " is not valid");
  return f;
}

int errno_class(int e) {
  switch (e) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES: case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG: case EISDIR: case ENOTDIR: case ELOOP: return MPI_ERR_BAD_FILE;
    default: return MPI_ERR_IO;
  }
}

/// File I/O is the application's time on the sim (charged like its compute between MPI calls):
/// the transport hears that the library is left for the duration.
struct ChargedAsCompute {
  const char* fn;
  explicit ChargedAsCompute(const char* f) : fn(f) { transport_of_job().leave_library(); }
  ~ChargedAsCompute() { transport_of_job().enter_library(fn); }
};

constexpr int kAccessModes = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY;

const Datatype* check_type(const File& f, MPI_Datatype h, const char* fn, int* rc) {
  const Datatype* t = datatype_get(h);
  if (!t) *rc = fail(&f, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  else if (!t->committed) *rc = fail(&f, MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
  else return t;
  return nullptr;
}

/// A file access's status: bytes moved, no source or tag.
void status_set_transferred(MPI_Status* status, std::uint64_t bytes) {
  if (!status || status == MPI_STATUS_IGNORE) return;
  MPI_Status s{};
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  status_set_bytes(s, bytes);
  status_set(status, s);  // (MPI_ERROR is left as it was)
}

/// In atomic mode (MPI_File_set_atomicity), an access holds a lock on the file bytes it spans
/// while it moves them (fcntl: shared for a read, exclusive for a write), so that a read never
/// sees part of a concurrent write (MPI-3.1 §13.6.1): one pread or pwrite is not atomic against
/// another process's on Linux, and a view that is not contiguous takes several. (Ranks as
/// contexts of one process share its locks, but no other rank runs inside an access.)
class AtomicLock {
 public:
  AtomicLock(const File& f, bool write, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans)
      : fd_(f.atomic && !spans.empty() ? f.fd : -1) {
    if (fd_ < 0) return;
    std::uint64_t lo = spans.front().first, hi = lo;
    for (const auto& [at, len] : spans) {
      lo = std::min(lo, at);
      hi = std::max(hi, at + len);
    }
    lock_.l_type = static_cast<short>(write ? F_WRLCK : F_RDLCK);
    lock_.l_whence = SEEK_SET;
    lock_.l_start = static_cast<off_t>(lo);
    lock_.l_len = static_cast<off_t>(hi - lo);
    while (::fcntl(fd_, F_SETLKW, &lock_) != 0) {
      if (errno != EINTR) {  // (no locks on this file system: the access goes on without)
        fd_ = -1;
        return;
      }
    }
  }
  ~AtomicLock() {
    if (fd_ < 0) return;
    lock_.l_type = F_UNLCK;
    ::fcntl(fd_, F_SETLK, &lock_);
  }
  AtomicLock(const AtomicLock&) = delete;
  AtomicLock& operator=(const AtomicLock&) = delete;

 private:
  int fd_;
  struct flock lock_ {};
};

/// Read or write count (>= 0, checked) elements of t (committed, checked) at buf, at view offset
/// `offset` (etypes). Sets the status's byte count; *moved: bytes moved (a read stops short at the
/// end of the file).
int transfer(File& f, bool write, MPI_Offset offset, void* buf, int count, MPI_Datatype type, const Datatype* t,
             MPI_Status* status, const char* fn, std::uint64_t* moved) {
  if (!buf && count > 0 && !check::bottom_ok(*t)) return fail(&f, MPI_ERR_BUFFER, fn, check::null_buffer_why(static_cast<std::size_t>(count)));
  if (offset < 0) return fail(&f, MPI_ERR_ARG, fn, "offset " + std::to_string(offset) + " is negative");
  if (write && (f.amode & MPI_MODE_RDONLY)) return fail(&f, MPI_ERR_READ_ONLY, fn, "the file was opened MPI_MODE_RDONLY");
  if (!write && (f.amode & MPI_MODE_WRONLY)) return fail(&f, MPI_ERR_ACCESS, fn, "the file was opened MPI_MODE_WRONLY");
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * t->size;
  if (bytes == 0) {  // nothing to move: no system call, no time charged as the application's
    status_set_transferred(status, 0);
    if (moved) *moved = 0;
    return MPI_SUCCESS;
  }
  const std::uint64_t pos = static_cast<std::uint64_t>(offset) * f.etype_desc.size;
  // A registered representation's functions convert between memory and the file's bytes (in the
  // layout of the type's packed data: the extents are the types' own, datarep_layout_native).
  const Datarep* conv = f.conversion;
  const bool convert = conv && datarep_converts(*conv, write);
  if (convert) {
    std::string why;
    if (!datarep_layout_native(*conv, type, &why)) return fail(&f, MPI_ERR_UNSUPPORTED_DATAREP, fn, why);
  }
  std::vector<char> staging;
  char* data = static_cast<char*>(buf) + t->true_lb;
  if (!t->contiguous || convert) {
    staging.resize(bytes);
    if (write && convert) {
      if (int r = datarep_convert(*conv, true, buf, type, count, staging.data()); r != MPI_SUCCESS)
        return fail(&f, r, fn, "the write conversion function of '" + conv->name + "' failed");
    } else if (write) {
      pack(buf, static_cast<std::size_t>(count), *t, staging.data());
    }
    data = staging.data();
  }
  std::uint64_t done = 0;
  int err = 0;
  {
    ChargedAsCompute io(fn);
    const auto spans = view_spans(f, pos, bytes);
    const AtomicLock atomic(f, write, spans);
    for (const auto& [at, len] : spans) {
      std::uint64_t k = 0;
      while (k < len) {
        const ssize_t n = write ? ::pwrite(f.fd, data + done + k, len - k, static_cast<off_t>(at + k))
                                : ::pread(f.fd, data + done + k, len - k, static_cast<off_t>(at + k));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          err = errno;
          break;
        }
        if (n == 0) break;  // end of file
        k += static_cast<std::uint64_t>(n);
      }
      done += k;
      if (err || k < len) break;
    }
  }
  if (err) return fail(&f, errno_class(err), fn, std::string(write ? "writing " : "reading ") + f.path + ": " + std::strerror(err));
  if (!write && convert) {
    // The items read whole are converted (a short read at the end of the file converts fewer).
    const int items = t->size ? static_cast<int>(done / t->size) : 0;
    if (int r = datarep_convert(*conv, false, buf, type, items, staging.data()); r != MPI_SUCCESS)
      return fail(&f, r, fn, "the read conversion function of '" + conv->name + "' failed");
  } else if (!write && !t->contiguous) {
    unpack(staging.data(), done, static_cast<std::size_t>(count), *t, buf);
  }
  status_set_transferred(status, done);
  if (moved) *moved = done;
  return MPI_SUCCESS;
}

std::uint64_t etypes(const File& f, std::uint64_t bytes) {
  return f.etype_desc.size ? bytes / f.etype_desc.size : 0;
}

/// The view offset (etypes) of the end of the file: the view's data bytes below its size.
MPI_Offset view_end(const File& f) {
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return 0;
  const std::int64_t size = st.st_size - f.disp;
  if (size <= 0) return 0;
  const Datatype& ft = f.filetype_desc;
  if (ft.extent <= 0) return 0;
  const std::int64_t tiles = size / ft.extent;
  std::uint64_t data = static_cast<std::uint64_t>(tiles) * ft.size;
  const std::int64_t rest = size - tiles * ft.extent;
  for (const Block& b : ft.blocks) {
    if (b.offset >= rest) break;
    data += std::min<std::uint64_t>(b.length, static_cast<std::uint64_t>(rest - b.offset));
  }
  return static_cast<MPI_Offset>(etypes(f, data));
}

bool not_sequential(const File& f, const char* fn, int* rc) {
  if (!(f.amode & MPI_MODE_SEQUENTIAL)) return true;
  *rc = fail(&f, MPI_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened MPI_MODE_SEQUENTIAL (no explicit offsets)");
  return false;
}

/// Where an access starts: an explicit offset, the individual file pointer, the shared file
/// pointer, or the shared pointer in rank order (collective).
enum class Pattern { Explicit, Individual, Shared, Ordered };

/// Move the shared pointer by n etypes (atomically, on the group's rank 0): its old value.
MPI_Offset shared_fetch_add(File& f, long long n) {
  if (f.shared_in_memory) return std::atomic_ref<long long>(*f.shared_mem).fetch_add(n, std::memory_order_acq_rel);
  long long old = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, f.shared_win);
  MPI_Fetch_and_op(&n, &old, MPI_LONG_LONG, 0, 0, MPI_SUM, f.shared_win);
  MPI_Win_unlock(0, f.shared_win);
  return old;
}

/// Rank order: each rank's place is the sum of the lower ranks' amounts after the pointer. One
/// allgather tells every rank all the amounts; only when some rank accesses data does rank 0
/// move the pointer and broadcast where it was (a 0-byte ordered access is one collective).
MPI_Offset ordered_place(File& f, long long mine) {
  int r = 0, n = 0;
  MPI_Comm_rank(f.comm, &r);
  MPI_Comm_size(f.comm, &n);
  std::vector<long long> amounts(static_cast<std::size_t>(n));
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, amounts.data(), 1, MPI_LONG_LONG, f.comm);
  long long before = 0, total = 0;
  for (int k = 0; k < n; ++k) {
    if (k < r) before += amounts[static_cast<std::size_t>(k)];
    total += amounts[static_cast<std::size_t>(k)];
  }
  if (total == 0) return 0;
  long long base = 0;
  if (r == 0) base = shared_fetch_add(f, total);
  MPI_Bcast(&base, 1, MPI_LONG_LONG, 0, f.comm);
  return base + before;
}

/// How an access completes: in the call (status), as a request completed at once (the I/O is
/// done inside the call), or as the first half of a split collective (the status waits for _end).
struct Completion {
  enum Kind { Blocking, Nonblocking, Begin } kind;
  MPI_Status* status = MPI_STATUS_IGNORE;
  MPI_Request* request = nullptr;
};
Completion blocking(MPI_Status* status) { return Completion{Completion::Blocking, status, nullptr}; }
Completion nonblocking(MPI_Request* request) { return Completion{Completion::Nonblocking, MPI_STATUS_IGNORE, request}; }
Completion split_begin() { return Completion{Completion::Begin, MPI_STATUS_IGNORE, nullptr}; }

/// The argument errors file_io finds before it places the access (the error is reported here).
int access_arguments(File& f, const char* fn, Pattern pattern, int count, MPI_Datatype type, const Completion& how,
                     const Datatype** t) {
  int rc;
  if (how.kind == Completion::Nonblocking && !how.request) return fail(&f, MPI_ERR_ARG, fn, "request is NULL");
  if (how.kind == Completion::Begin && f.split.active)
    return fail(&f, MPI_ERR_IO, fn, "a split collective access (..._begin) is already active on this file");
  if (pattern == Pattern::Explicit && !not_sequential(f, fn, &rc)) return rc;
  if (!(*t = check_type(f, type, fn, &rc))) return rc;
  if (count < 0) return fail(&f, MPI_ERR_COUNT, fn, "count " + std::to_string(count) + " is negative");
  return MPI_SUCCESS;
}

/// Every read and write: the pattern places it, transfer() moves the bytes, `how` completes it.
int file_io(const char* fn, MPI_File fh, Pattern pattern, bool write, MPI_Offset offset, const void* cbuf, int count,
           MPI_Datatype type, Completion how) {
  void* buf = const_cast<void*>(cbuf);
  int rc;
  File* f = check_file(fh, fn, &rc);
  if (!f) return rc;
  const Datatype* t = nullptr;
  if ((rc = access_arguments(*f, fn, pattern, count, type, how, &t)) != MPI_SUCCESS) {
    // The ordered pattern is the one that communicates (the group places its accesses in rank
    // order): a rank with a wrong argument still takes its place, with nothing to access, so that
    // the others complete. The other collective accesses are each rank's own (file.h).
    if (pattern == Pattern::Ordered) ordered_place(*f, 0);
    return rc;
  }
  const long long amount = static_cast<long long>(etypes(*f, static_cast<std::uint64_t>(count) * t->size));
  MPI_Offset at = offset;
  if (pattern == Pattern::Individual) at = f->pointer;
  // An access of no data leaves the shared pointer where it is: there is nothing to ask the
  // group's rank 0, whose progress an oversubscribed job waits for (about 140 us on 4 ranks
  // sharing 2 cores, against 0.07 us for the other 0-byte writes).
  else if (pattern == Pattern::Shared) at = amount == 0 ? 0 : shared_fetch_add(*f, amount);
  else if (pattern == Pattern::Ordered) at = ordered_place(*f, amount);
  std::uint64_t moved = 0;
  // A blocking access's status is written in place (a copy of one built field by field costs a
  // stalled store-to-load forward, a third of a 0-byte write's time).
  MPI_Status st{};
  rc = transfer(*f, write, at, buf, count, type, t, how.kind == Completion::Blocking ? how.status : &st, fn, &moved);
  if (rc == MPI_SUCCESS && pattern == Pattern::Individual) f->pointer += static_cast<MPI_Offset>(etypes(*f, moved));
  if (how.kind == Completion::Nonblocking) {
    *how.request = new_generic_request(MPI_COMM_SELF);
    complete_generic_request(*how.request, rc);
    if (Request* r = request_get(*how.request); r && rc == MPI_SUCCESS) status_set_bytes(r->status, moved);
  } else if (how.kind == Completion::Begin) {
    if (rc == MPI_SUCCESS) f->split = File::Split{true, static_cast<int>(pattern), write, cbuf, st};
  }
  return rc;
}

/// The second half of a split collective: the status of the I/O its _begin did.
int split_end(const char* fn, MPI_File fh, Pattern pattern, bool write, const void* buf, MPI_Status* status) {
  int rc;
  File* f = check_file(fh, fn, &rc);
  if (!f) return rc;
  if (!f->split.active || f->split.pattern != static_cast<int>(pattern) || f->split.write != write)
    return fail(f, MPI_ERR_IO, fn, "no matching ..._begin is active on this file");
  if (buf != f->split.buf) return fail(f, MPI_ERR_BUFFER, fn, "buf is not the buffer given to the ..._begin call");
  f->split.active = false;
  if (status && status != MPI_STATUS_IGNORE) *status = f->split.status;
  return MPI_SUCCESS;
}

/// MPI_File_set_view's arguments (the error is reported here).
int view_arguments(File& f, const char* fn, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                   const char* datarep, MPI_Info info, const Datatype** et, const Datatype** ft,
                   const Datarep** conversion) {
  int rc;
  if (info != MPI_INFO_NULL && !info_valid(info))
    return fail(&f, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  if (!(*et = check_type(f, etype, fn, &rc))) return rc;
  if (!(*ft = check_type(f, filetype, fn, &rc))) return rc;
  if (disp < 0) return fail(&f, MPI_ERR_ARG, fn, "displacement " + std::to_string(disp) + " is negative");
  *conversion = nullptr;
  if (!datarep || std::strcmp(datarep, "native") != 0) {
    *conversion = datarep ? datarep_find(datarep) : nullptr;
    if (!*conversion)
      return fail(&f, MPI_ERR_UNSUPPORTED_DATAREP, fn,
                  std::string("data representation '") + (datarep ? datarep : "(null)") +
                      "' (\"native\" and those registered with MPI_Register_datarep)");
    std::string why;
    if (!datarep_layout_native(**conversion, etype, &why) || !datarep_layout_native(**conversion, filetype, &why))
      return fail(&f, MPI_ERR_UNSUPPORTED_DATAREP, fn, why);
  }
  if ((*et)->size == 0 || (*ft)->size == 0 || (*ft)->size % (*et)->size != 0)
    return fail(&f, MPI_ERR_TYPE, fn, "the filetype must hold a whole, non-zero number of etypes");
  if ((*ft)->lb < 0 || (*ft)->true_lb < 0) return fail(&f, MPI_ERR_TYPE, fn, "the filetype has a negative displacement");
  return MPI_SUCCESS;
}

/// MPI_File_open's arguments (the error is reported here, to MPI_FILE_NULL's handler).
int open_arguments(const char* fn, const MPI_File* fh, const char* filename, int amode, MPI_Info info) {
  if (!fh) return fail(nullptr, MPI_ERR_ARG, fn, "fh is NULL");
  if (info != MPI_INFO_NULL && !info_valid(info))
    return fail(nullptr, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  if (!filename || !*filename) return fail(nullptr, MPI_ERR_BAD_FILE, fn, "the file name is empty");
  const int access = amode & kAccessModes;
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY)
    return fail(nullptr, MPI_ERR_AMODE, fn, "amode must have exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR, MPI_MODE_WRONLY");
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    return fail(nullptr, MPI_ERR_AMODE, fn, "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL");
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
    return fail(nullptr, MPI_ERR_AMODE, fn, "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL");
  const int known = kAccessModes | MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
                    MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if (amode & ~known) return fail(nullptr, MPI_ERR_AMODE, fn, "amode " + std::to_string(amode) + " has unknown bits");
  return MPI_SUCCESS;
}

/// The outcome of a collective call that rank 0 carries out for the group (MPI_File_set_size,
/// preallocate, seek_shared), as rank 0 broadcasts it: 0, an errno value, or -(error class)
/// when rank 0's own argument was wrong and it did nothing.
int group_outcome(const File& f, const char* fn, int outcome, const char* undone) {
  if (outcome >= 0) return outcome == 0 ? MPI_SUCCESS : fail(&f, errno_class(outcome), fn, std::strerror(outcome));
  return fail(&f, -outcome, fn, std::string("rank 0 of the file's group gave a wrong argument: ") + undone);
}

}  // namespace

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_File_open";
  int rc;
  Comm* c = check::intra(comm, fn, &rc);
  if (!c) return rc;
  if (fh) *fh = MPI_FILE_NULL;
  auto f = std::make_unique<File>();
  MPI_Comm_dup(comm, &f->comm);
  comm_get(f->comm)->errhandler = MPI_ERRORS_RETURN;
  // The group agrees on its arguments before anything is created: a rank with a wrong one gets
  // its error class, the others one that says so, and no rank has the file open (an open file
  // is the whole group's). Every rank takes part, so that none waits for one that returned.
  const int mine = open_arguments(fn, fh, filename, amode, info);
  int worst = MPI_SUCCESS;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, f->comm);
  if (worst != MPI_SUCCESS) {
    MPI_Comm_free(&f->comm);
    if (mine != MPI_SUCCESS) return mine;
    return fail(nullptr, worst, fn, "another rank of the group gave a wrong argument; the file was not opened");
  }
  f->path = filename;
  f->amode = amode;
  f->errhandler = null_handler();
  info_merge(info, f->hints);
  const int access = amode & kAccessModes;
  const int flags = (access == MPI_MODE_RDONLY ? O_RDONLY : access == MPI_MODE_WRONLY ? O_WRONLY : O_RDWR) | O_CLOEXEC;
  // The first rank creates (MPI_MODE_EXCL holds for the group as a whole), then the others open.
  int err = 0;
  if (c->rank == 0) {
    ChargedAsCompute io(fn);
    const int create = (amode & MPI_MODE_CREATE ? O_CREAT : 0) | (amode & MPI_MODE_EXCL ? O_EXCL : 0);
    f->fd = ::open(filename, flags | create, 0644);
    if (f->fd < 0) err = errno;
  }
  MPI_Bcast(&err, 1, MPI_INT, 0, f->comm);
  if (c->rank != 0 && err == 0) {
    ChargedAsCompute io(fn);
    f->fd = ::open(filename, flags, 0644);
    if (f->fd < 0) err = errno;
  }
  MPI_Allreduce(&err, &worst, 1, MPI_INT, MPI_MAX, f->comm);
  if (worst) {
    if (f->fd >= 0) ::close(f->fd);
    MPI_Comm_free(&f->comm);
    return fail(nullptr, errno_class(worst), fn, std::string(filename) + ": " + std::strerror(worst));
  }
  // The shared file pointer: one integer in a window on rank 0. In real time it is shared
  // memory that every rank moves with an atomic add (file.h); the sim models the accesses.
  if (runtime().real_time) {
    long long* mine = nullptr;
    f->shared_in_memory = MPI_Win_allocate_shared(c->rank == 0 ? sizeof(long long) : 0, sizeof(long long), MPI_INFO_NULL,
                                                  f->comm, &mine, &f->shared_win) == MPI_SUCCESS;
    MPI_Aint bytes = 0;
    int unit = 0;
    if (f->shared_in_memory) MPI_Win_shared_query(f->shared_win, 0, &bytes, &unit, &f->shared_mem);
  }
  if (!f->shared_in_memory) {  // (a failed shared window fails on every rank: it agrees first)
    MPI_Win_allocate(c->rank == 0 ? sizeof(long long) : 0, sizeof(long long), MPI_INFO_NULL, f->comm, &f->shared_mem,
                     &f->shared_win);
  }
  if (c->rank == 0) *f->shared_mem = 0;
  f->etype_desc = *datatype_get(MPI_BYTE);
  f->filetype_desc = *datatype_get(MPI_BYTE);
  if (amode & MPI_MODE_APPEND) {
    f->pointer = view_end(*f);
    if (c->rank == 0) *f->shared_mem = f->pointer;
  }
  MPI_Barrier(f->comm);
  *fh = file_register(std::move(f));
  return MPI_SUCCESS;
}

int MPI_File_close(MPI_File* fh) {
  ApiScope api_scope(__func__);
  int rc;
  if (!fh) return fail(nullptr, MPI_ERR_ARG, "MPI_File_close", "fh is NULL");
  File* f = check_file(*fh, "MPI_File_close", &rc);
  if (!f) return rc;
  MPI_Win_free(&f->shared_win);
  int r = 0;
  MPI_Comm_rank(f->comm, &r);
  {
    ChargedAsCompute io("MPI_File_close");
    ::close(f->fd);
  }
  if (f->amode & MPI_MODE_DELETE_ON_CLOSE) {
    MPI_Barrier(f->comm);
    if (r == 0) ::unlink(f->path.c_str());
  }
  MPI_Comm_free(&f->comm);
  datatype_release(f->etype);
  datatype_release(f->filetype);
  file_release(*fh);
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}

int MPI_File_delete(const char* filename, MPI_Info info) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_File_delete", &rc)) return rc;
  (void)info;
  if (!filename || !*filename) return fail(nullptr, MPI_ERR_BAD_FILE, "MPI_File_delete", "the file name is empty");
  int e = 0;
  {
    ChargedAsCompute io("MPI_File_delete");
    if (::unlink(filename) != 0) e = errno;
  }
  if (e) return fail(nullptr, errno_class(e), "MPI_File_delete", std::string(filename) + ": " + std::strerror(e));
  return MPI_SUCCESS;
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_set_size", &rc);
  if (!f) return rc;
  // A rank with a wrong argument still takes part in rank 0's broadcast (group_outcome).
  rc = MPI_SUCCESS;
  if (size < 0) rc = fail(f, MPI_ERR_ARG, "MPI_File_set_size", "size " + std::to_string(size) + " is negative");
  else if (f->amode & MPI_MODE_RDONLY) rc = fail(f, MPI_ERR_READ_ONLY, "MPI_File_set_size", "the file was opened MPI_MODE_RDONLY");
  int r = 0, e = 0;
  MPI_Comm_rank(f->comm, &r);
  if (r == 0 && rc != MPI_SUCCESS) {
    e = -rc;
  } else if (r == 0) {
    ChargedAsCompute io("MPI_File_set_size");
    if (::ftruncate(f->fd, static_cast<off_t>(size)) != 0) e = errno;
  }
  MPI_Bcast(&e, 1, MPI_INT, 0, f->comm);
  if (rc != MPI_SUCCESS) return rc;
  return group_outcome(*f, "MPI_File_set_size", e, "the file was not resized");
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_preallocate", &rc);
  if (!f) return rc;
  // A rank with a wrong argument still takes part in rank 0's broadcast (group_outcome).
  rc = MPI_SUCCESS;
  if (size < 0) rc = fail(f, MPI_ERR_ARG, "MPI_File_preallocate", "size " + std::to_string(size) + " is negative");
  else if (f->amode & MPI_MODE_RDONLY)
    rc = fail(f, MPI_ERR_READ_ONLY, "MPI_File_preallocate", "the file was opened MPI_MODE_RDONLY");
  int r = 0, e = 0;
  MPI_Comm_rank(f->comm, &r);
  if (r == 0 && rc != MPI_SUCCESS) {
    e = -rc;
  } else if (r == 0) {
    ChargedAsCompute io("MPI_File_preallocate");
    struct stat st {};
    if (::fstat(f->fd, &st) == 0 && st.st_size < size) {
      e = ::posix_fallocate(f->fd, 0, static_cast<off_t>(size));
      if (e == EOPNOTSUPP || e == EINVAL) e = ::ftruncate(f->fd, static_cast<off_t>(size)) == 0 ? 0 : errno;
    }
  }
  MPI_Bcast(&e, 1, MPI_INT, 0, f->comm);
  if (rc != MPI_SUCCESS) return rc;
  return group_outcome(*f, "MPI_File_preallocate", e, "no space was allocated");
}

int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_size", &rc);
  if (!f) return rc;
  if (!size) return fail(f, MPI_ERR_ARG, "MPI_File_get_size", "size is NULL");
  struct stat st {};
  if (::fstat(f->fd, &st) != 0) return fail(f, errno_class(errno), "MPI_File_get_size", std::strerror(errno));
  *size = st.st_size;
  return MPI_SUCCESS;
}

int MPI_File_get_group(MPI_File fh, MPI_Group* group) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_group", &rc);
  if (!f) return rc;
  if (!group) return fail(f, MPI_ERR_ARG, "MPI_File_get_group", "group is NULL");
  *group = group_register(comm_get(f->comm)->world);
  return MPI_SUCCESS;
}

int MPI_File_get_amode(MPI_File fh, int* amode) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_amode", &rc);
  if (!f) return rc;
  if (!amode) return fail(f, MPI_ERR_ARG, "MPI_File_get_amode", "amode is NULL");
  *amode = f->amode;
  return MPI_SUCCESS;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                      MPI_Info info) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_File_set_view";
  int rc;
  File* f = check_file(fh, fn, &rc);
  if (!f) return rc;
  const Datatype* et = nullptr;
  const Datatype* ft = nullptr;
  const Datarep* conversion = nullptr;
  // A rank with a wrong argument keeps its view but still takes part in the group's two
  // barriers, so that the others complete with theirs (and the shared pointer is reset for them).
  // MPI_DISPLACEMENT_CURRENT: the view starts where the shared file pointer is, in bytes; only
  // a file opened MPI_MODE_SEQUENTIAL has one that means anything (MPI-3.1 §13.3).
  rc = MPI_SUCCESS;
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    if (!(f->amode & MPI_MODE_SEQUENTIAL)) {
      rc = fail(f, MPI_ERR_ARG, fn, "MPI_DISPLACEMENT_CURRENT needs a file opened with MPI_MODE_SEQUENTIAL");
    } else {
      MPI_Offset shared = 0;
      MPI_File_get_position_shared(fh, &shared);
      MPI_File_get_byte_offset(fh, shared, &disp);
    }
  }
  if (rc == MPI_SUCCESS) rc = view_arguments(*f, fn, disp, etype, filetype, datarep, info, &et, &ft, &conversion);
  if (rc == MPI_SUCCESS) {
    info_merge(info, f->hints);  // the view's hints join the file's (MPI_File_get_info returns them)
    f->disp = disp;
    // The view keeps its derived types' handles (MPI_File_get_view hands them out again), whatever
    // the user frees (datatype_ref: nothing for a predefined type).
    datatype_ref(etype);
    datatype_ref(filetype);
    datatype_release(f->etype);
    datatype_release(f->filetype);
    f->etype = etype;
    f->filetype = filetype;
    f->etype_desc = *et;
    f->filetype_desc = *ft;
    f->pointer = 0;
    f->conversion = conversion;
    f->datarep = conversion ? conversion->name : "native";
  }
  int r = 0;
  MPI_Comm_rank(f->comm, &r);
  MPI_Barrier(f->comm);
  if (r == 0) *f->shared_mem = 0;
  MPI_Barrier(f->comm);
  return rc;
}

int MPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_view", &rc);
  if (!f) return rc;
  if (!disp || !etype || !filetype || !datarep) return fail(f, MPI_ERR_ARG, "MPI_File_get_view", "an output pointer is NULL");
  *disp = f->disp;
  // A derived type returned is a new reference, which the caller frees (MPI-3.1 §13.3), as those
  // of MPI_Type_get_contents; a predefined one is not to be freed.
  *etype = f->etype;
  *filetype = f->filetype;
  datatype_ref(f->etype);
  datatype_ref(f->filetype);
  std::strcpy(datarep, f->datarep.c_str());
  return MPI_SUCCESS;
}

/// The extent of a type in the file's data representation (MPI-3.1 §13.5.3): in "native" its
/// extent in memory; in a registered one, what its extent function says of a predefined type, and
/// of a derived type its memory extent when its basic types keep theirs (the representations the
/// views support).
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_File_get_type_extent";
  int rc;
  File* f = check_file(fh, fn, &rc);
  if (!f) return rc;
  const Datatype* t = datatype_get(datatype);  // (need not be committed: only its extent is asked)
  if (!t) return fail(f, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(datatype) + " is not valid");
  if (!extent) return fail(f, MPI_ERR_ARG, fn, "extent is NULL");
  if (f->conversion && t->predefined && !t->contents) {
    MPI_Aint e = 0;
    if (int r = datarep_extent(*f->conversion, datatype, &e); r != MPI_SUCCESS)
      return fail(f, r, fn, "the representation's extent function failed");
    *extent = e;
    return MPI_SUCCESS;
  }
  std::string why;
  if (f->conversion && !datarep_layout_native(*f->conversion, datatype, &why))
    return fail(f, MPI_ERR_UNSUPPORTED_DATAREP, fn, why);
  *extent = t->extent;
  return MPI_SUCCESS;
}

// Reads and writes: one line each. The collective forms are each rank's own I/O (file.h).
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, false, offset, buf, count, datatype, blocking(status));
}
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, true, offset, buf, count, datatype, blocking(status));
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, false, offset, buf, count, datatype, blocking(status));
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, true, offset, buf, count, datatype, blocking(status));
}
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, false, offset, buf, count, datatype, nonblocking(request));
}
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, true, offset, buf, count, datatype, nonblocking(request));
}
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                          MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, false, offset, buf, count, datatype, nonblocking(request));
}
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, true, offset, buf, count, datatype, nonblocking(request));
}
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, false, offset, buf, count, datatype, split_begin());
}
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Explicit, true, offset, buf, count, datatype, split_begin());
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, false, 0, buf, count, datatype, blocking(status));
}
int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, true, 0, buf, count, datatype, blocking(status));
}
int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, false, 0, buf, count, datatype, blocking(status));
}
int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, true, 0, buf, count, datatype, blocking(status));
}
int MPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, false, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, true, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, false, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, true, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, false, 0, buf, count, datatype, split_begin());
}
int MPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Individual, true, 0, buf, count, datatype, split_begin());
}

int MPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Shared, false, 0, buf, count, datatype, blocking(status));
}
int MPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Shared, true, 0, buf, count, datatype, blocking(status));
}
int MPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Shared, false, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Shared, true, 0, buf, count, datatype, nonblocking(request));
}
int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Ordered, false, 0, buf, count, datatype, blocking(status));
}
int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Ordered, true, 0, buf, count, datatype, blocking(status));
}
int MPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Ordered, false, 0, buf, count, datatype, split_begin());
}
int MPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  return file_io(__func__, fh, Pattern::Ordered, true, 0, buf, count, datatype, split_begin());
}

// The ends of the split collectives.
int MPI_File_read_at_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Explicit, false, buf, status);
}
int MPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Explicit, true, buf, status);
}
int MPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Individual, false, buf, status);
}
int MPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Individual, true, buf, status);
}
int MPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Ordered, false, buf, status);
}
int MPI_File_write_ordered_end(MPI_File fh, const void* buf, MPI_Status* status) {
  ApiScope api_scope(__func__);
  return split_end(__func__, fh, Pattern::Ordered, true, buf, status);
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_seek", &rc);
  if (!f) return rc;
  if (!not_sequential(*f, "MPI_File_seek", &rc)) return rc;
  MPI_Offset to = 0;
  switch (whence) {
    case MPI_SEEK_SET: to = offset; break;
    case MPI_SEEK_CUR: to = f->pointer + offset; break;
    case MPI_SEEK_END: to = view_end(*f) + offset; break;
    default: return fail(f, MPI_ERR_ARG, "MPI_File_seek", "whence " + std::to_string(whence) + " is not an MPI_SEEK_ value");
  }
  if (to < 0) return fail(f, MPI_ERR_ARG, "MPI_File_seek", "the position " + std::to_string(to) + " is negative");
  f->pointer = to;
  return MPI_SUCCESS;
}

int MPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_position", &rc);
  if (!f) return rc;
  if (!offset) return fail(f, MPI_ERR_ARG, "MPI_File_get_position", "offset is NULL");
  *offset = f->pointer;
  return MPI_SUCCESS;
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_byte_offset", &rc);
  if (!f) return rc;
  if (!disp) return fail(f, MPI_ERR_ARG, "MPI_File_get_byte_offset", "disp is NULL");
  if (offset < 0) return fail(f, MPI_ERR_ARG, "MPI_File_get_byte_offset", "offset is negative");
  const auto spans = view_spans(*f, static_cast<std::uint64_t>(offset) * f->etype_desc.size, 1);
  *disp = spans.empty() ? f->disp : static_cast<MPI_Offset>(spans.front().first);
  return MPI_SUCCESS;
}

int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_seek_shared", &rc);
  if (!f) return rc;
  // A rank with a wrong argument still takes part in the barrier and rank 0's broadcast.
  rc = MPI_SUCCESS;
  if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
    rc = fail(f, MPI_ERR_ARG, "MPI_File_seek_shared", "whence " + std::to_string(whence) + " is not an MPI_SEEK_ value");
  int r = 0, bad = 0;
  MPI_Comm_rank(f->comm, &r);
  MPI_Barrier(f->comm);  // every earlier shared access is done
  if (r == 0 && rc != MPI_SUCCESS) {
    bad = -rc;
  } else if (r == 0) {
    const MPI_Offset to = whence == MPI_SEEK_SET ? offset
                          : whence == MPI_SEEK_CUR ? *f->shared_mem + offset
                                                   : view_end(*f) + offset;
    if (to < 0) bad = 1;
    else *f->shared_mem = to;
  }
  MPI_Bcast(&bad, 1, MPI_INT, 0, f->comm);
  if (rc != MPI_SUCCESS) return rc;
  if (bad < 0) return group_outcome(*f, "MPI_File_seek_shared", bad, "the shared file pointer did not move");
  if (bad) return fail(f, MPI_ERR_ARG, "MPI_File_seek_shared", "the position would be negative");
  return MPI_SUCCESS;
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_position_shared", &rc);
  if (!f) return rc;
  if (!offset) return fail(f, MPI_ERR_ARG, "MPI_File_get_position_shared", "offset is NULL");
  *offset = shared_fetch_add(*f, 0);
  return MPI_SUCCESS;
}

int MPI_File_sync(MPI_File fh) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_sync", &rc);
  if (!f) return rc;
  int e = 0;
  {
    ChargedAsCompute io("MPI_File_sync");
    if (::fsync(f->fd) != 0) e = errno;
  }
  MPI_Barrier(f->comm);
  if (e) return fail(f, errno_class(e), "MPI_File_sync", std::strerror(e));
  return MPI_SUCCESS;
}

int MPI_File_set_atomicity(MPI_File fh, int flag) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_set_atomicity", &rc);
  if (!f) return rc;
  f->atomic = flag != 0;  // (each access then locks what it spans: AtomicLock)
  return MPI_SUCCESS;
}

int MPI_File_get_atomicity(MPI_File fh, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_atomicity", &rc);
  if (!f) return rc;
  if (!flag) return fail(f, MPI_ERR_ARG, "MPI_File_get_atomicity", "flag is NULL");
  *flag = f->atomic ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_File_set_errhandler(MPI_File fh, MPI_Errhandler errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_File_set_errhandler", &rc)) return rc;
  if (!errhandler_fits(errhandler, ErrhandlerFor::File))
    return fail(file_get(fh), MPI_ERR_ARG, "MPI_File_set_errhandler",
                "error handler " + std::to_string(errhandler) + " is not valid for a file");
  if (fh == MPI_FILE_NULL) {
    null_handler() = errhandler;
    return MPI_SUCCESS;
  }
  File* f = check_file(fh, "MPI_File_set_errhandler", &rc);
  if (!f) return rc;
  f->errhandler = errhandler;
  return MPI_SUCCESS;
}

int MPI_File_get_errhandler(MPI_File fh, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_File_get_errhandler", &rc)) return rc;
  if (!errhandler) return fail(file_get(fh), MPI_ERR_ARG, "MPI_File_get_errhandler", "errhandler is NULL");
  if (fh == MPI_FILE_NULL) {
    *errhandler = null_handler();
  } else {
    File* f = check_file(fh, "MPI_File_get_errhandler", &rc);
    if (!f) return rc;
    *errhandler = f->errhandler;
  }
  errhandler_ref(*errhandler);  // a new reference (MPI-3.1 §8.3.1)
  return MPI_SUCCESS;
}

int MPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_File_create_errhandler", &rc)) return rc;
  if (!function || !errhandler)
    return fail(nullptr, MPI_ERR_ARG, "MPI_File_create_errhandler", "function or errhandler is NULL");
  *errhandler = errhandler_create(function, ErrhandlerFor::File);
  return MPI_SUCCESS;
}

int MPI_File_call_errhandler(MPI_File fh, int errorcode) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_File_call_errhandler", &rc)) return rc;
  File* f = nullptr;
  if (fh != MPI_FILE_NULL && !(f = check_file(fh, "MPI_File_call_errhandler", &rc))) return rc;
  fail(f, errorcode, "MPI_File_call_errhandler", "the application called the handler");
  return MPI_SUCCESS;  // the handler returned (MPI-3.1 §8.3.5)
}

int MPI_File_set_info(MPI_File fh, MPI_Info info) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_set_info", &rc);
  if (!f) return rc;
  if (info != MPI_INFO_NULL && !info_valid(info))
    return fail(f, MPI_ERR_INFO, "MPI_File_set_info", "info handle " + std::to_string(info) + " is not valid");
  info_merge(info, f->hints);
  return MPI_SUCCESS;
}

int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  ApiScope api_scope(__func__);
  int rc;
  File* f = check_file(fh, "MPI_File_get_info", &rc);
  if (!f) return rc;
  if (!info_used) return fail(f, MPI_ERR_ARG, "MPI_File_get_info", "info_used is NULL");
  *info_used = info_of(f->hints);
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(File_open)
TILEMPI_PMPI_ALIAS(File_close)
TILEMPI_PMPI_ALIAS(File_delete)
TILEMPI_PMPI_ALIAS(File_set_size)
TILEMPI_PMPI_ALIAS(File_preallocate)
TILEMPI_PMPI_ALIAS(File_get_size)
TILEMPI_PMPI_ALIAS(File_get_group)
TILEMPI_PMPI_ALIAS(File_get_amode)
TILEMPI_PMPI_ALIAS(File_set_view)
TILEMPI_PMPI_ALIAS(File_get_view)
TILEMPI_PMPI_ALIAS(File_get_type_extent)
TILEMPI_PMPI_ALIAS(File_read_at)
TILEMPI_PMPI_ALIAS(File_write_at)
TILEMPI_PMPI_ALIAS(File_read_at_all)
TILEMPI_PMPI_ALIAS(File_write_at_all)
TILEMPI_PMPI_ALIAS(File_iread_at)
TILEMPI_PMPI_ALIAS(File_iwrite_at)
TILEMPI_PMPI_ALIAS(File_read)
TILEMPI_PMPI_ALIAS(File_write)
TILEMPI_PMPI_ALIAS(File_read_all)
TILEMPI_PMPI_ALIAS(File_write_all)
TILEMPI_PMPI_ALIAS(File_iread)
TILEMPI_PMPI_ALIAS(File_iwrite)
TILEMPI_PMPI_ALIAS(File_seek)
TILEMPI_PMPI_ALIAS(File_get_position)
TILEMPI_PMPI_ALIAS(File_get_byte_offset)
TILEMPI_PMPI_ALIAS(File_read_shared)
TILEMPI_PMPI_ALIAS(File_write_shared)
TILEMPI_PMPI_ALIAS(File_read_ordered)
TILEMPI_PMPI_ALIAS(File_write_ordered)
TILEMPI_PMPI_ALIAS(File_seek_shared)
TILEMPI_PMPI_ALIAS(File_get_position_shared)
TILEMPI_PMPI_ALIAS(File_sync)
TILEMPI_PMPI_ALIAS(File_set_atomicity)
TILEMPI_PMPI_ALIAS(File_get_atomicity)
TILEMPI_PMPI_ALIAS(File_set_errhandler)
TILEMPI_PMPI_ALIAS(File_get_errhandler)
TILEMPI_PMPI_ALIAS(File_create_errhandler)
TILEMPI_PMPI_ALIAS(File_call_errhandler)
TILEMPI_PMPI_ALIAS(File_set_info)
TILEMPI_PMPI_ALIAS(File_get_info)
TILEMPI_PMPI_ALIAS(File_iread_at_all)
TILEMPI_PMPI_ALIAS(File_iwrite_at_all)
TILEMPI_PMPI_ALIAS(File_iread_all)
TILEMPI_PMPI_ALIAS(File_iwrite_all)
TILEMPI_PMPI_ALIAS(File_iread_shared)
TILEMPI_PMPI_ALIAS(File_iwrite_shared)
TILEMPI_PMPI_ALIAS(File_read_at_all_begin)
TILEMPI_PMPI_ALIAS(File_read_at_all_end)
TILEMPI_PMPI_ALIAS(File_write_at_all_begin)
TILEMPI_PMPI_ALIAS(File_write_at_all_end)
TILEMPI_PMPI_ALIAS(File_read_all_begin)
TILEMPI_PMPI_ALIAS(File_read_all_end)
TILEMPI_PMPI_ALIAS(File_write_all_begin)
TILEMPI_PMPI_ALIAS(File_write_all_end)
TILEMPI_PMPI_ALIAS(File_read_ordered_begin)
TILEMPI_PMPI_ALIAS(File_read_ordered_end)
TILEMPI_PMPI_ALIAS(File_write_ordered_begin)
TILEMPI_PMPI_ALIAS(File_write_ordered_end)
