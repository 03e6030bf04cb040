// The progress engine: matching of arrivals against posted receives (MPI's rules), the
// unexpected-message queue, and completion of transport operations.
#include "p2p.h"

#include <algorithm>
#include <cstring>
#include <list>
#include <memory>
#include <string>

#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

using transport::Arrival;
using transport::Envelope;
using transport::kDone;

constexpr std::uint64_t kFlagSelfSync = 1;

struct Unexpected {
  std::uint64_t context = 0;
  int source = 0;  // rank in the communicator
  int tag = 0;
  std::size_t size = 0;
  bool have_data = false;           // payload copied into data (buffered or loopback)
  transport::OpId fetch = kDone;    // payload still being copied into data
  std::vector<char> data;
  Arrival arrival;                  // rendezvous: fetch from the transport once matched
  MPI_Request sync_sender = MPI_REQUEST_NULL;  // loopback synchronous send waiting for the match
};

struct Engine {
  std::vector<std::unique_ptr<Request>> requests{1};  // handle 0 is MPI_REQUEST_NULL
  std::vector<MPI_Request> free_handles;
  std::list<MPI_Request> posted;                       // receives in posting order
  std::list<Unexpected> unexpected;                    // arrivals in arrival order
  std::vector<MPI_Request> in_flight;                  // transport sends and fetches
};

Engine& engine() {
  static transport::RankLocal<Engine> e;  // per rank (see rank_local.h)
  return e.get();
}

MPI_Request new_request(Request::Kind kind, MPI_Comm comm) {
  Engine& e = engine();
  auto r = std::make_unique<Request>();
  r->kind = kind;
  r->comm = comm;
  if (!e.free_handles.empty()) {
    MPI_Request h = e.free_handles.back();
    e.free_handles.pop_back();
    e.requests[h] = std::move(r);
    return h;
  }
  e.requests.push_back(std::move(r));
  return static_cast<MPI_Request>(e.requests.size() - 1);
}

bool matches(const Request& r, std::uint64_t context, int source, int tag) {
  return r.context == context && (r.source == MPI_ANY_SOURCE || r.source == source) &&
         (r.tag == MPI_ANY_TAG ? tag >= 0 : r.tag == tag);
}

bool matches(const Unexpected& u, std::uint64_t context, int source, int tag) {
  return u.context == context && (source == MPI_ANY_SOURCE || source == u.source) &&
         (tag == MPI_ANY_TAG ? u.tag >= 0 : tag == u.tag);
}

void complete(MPI_Request h) {
  Request* r = engine().requests[h].get();
  r->done = true;
  r->op = kDone;
  if (r->freed) request_release(h);
}

void set_recv_status(Request& r, int source, int tag, std::size_t size) {
  std::size_t capacity = r.count * r.type->size;
  r.received = std::min(size, capacity);
  r.status.MPI_SOURCE = source;
  r.status.MPI_TAG = tag;
  r.status.MPI_ERROR = size > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  r.error = r.status.MPI_ERROR;
  status_set_bytes(r.status, r.received);
}

void finish_recv(MPI_Request h) {
  Request* r = engine().requests[h].get();
  if (!r->type->contiguous) unpack(r->staging.data(), r->received, r->count, *r->type, r->buf);
  r->staging = {};
  complete(h);
}

// Start moving a matched message from the transport into the receive.
void start_fetch(MPI_Request h, const Arrival& a) {
  Request* r = engine().requests[h].get();
  void* dst = r->buf;
  if (!r->type->contiguous) {
    r->staging.resize(r->received);
    dst = r->staging.data();
  }
  r->op = transport_of_job().fetch(a, dst, r->received);
  if (r->op == kDone)
    finish_recv(h);
  else
    engine().in_flight.push_back(h);
}

void deliver_unexpected(MPI_Request h, Unexpected& u) {
  Request* r = engine().requests[h].get();
  set_recv_status(*r, u.source, u.tag, u.size);
  if (u.sync_sender != MPI_REQUEST_NULL) complete(u.sync_sender);
  if (!u.have_data && u.fetch == kDone) {
    start_fetch(h, u.arrival);
    return;
  }
  if (u.fetch != kDone) {
    transport::OpId op = u.fetch;
    progress_until([&] { return transport_of_job().fetch_done(op); });
  }
  unpack(u.data.data(), r->received, r->count, *r->type, r->buf);
  complete(h);
}

void on_arrival(const Arrival& a) {
  Engine& e = engine();
  std::uint64_t context = a.envelope.word[0];
  int source = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1]));
  int tag = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1] >> 32));
  for (auto it = e.posted.begin(); it != e.posted.end(); ++it) {
    Request* r = e.requests[*it].get();
    if (matches(*r, context, source, tag)) {
      MPI_Request h = *it;
      e.posted.erase(it);
      set_recv_status(*r, source, tag, a.size);
      start_fetch(h, a);
      return;
    }
  }
  Unexpected u;
  u.context = context;
  u.source = source;
  u.tag = tag;
  u.size = a.size;
  if (a.buffered) {
    // Free the transport's buffer at once: unmatched messages must never stall later ones.
    u.data.resize(a.size);
    u.fetch = transport_of_job().fetch(a, u.data.data(), a.size);
    u.have_data = true;
  } else {
    u.arrival = a;
  }
  e.unexpected.push_back(std::move(u));
}

}  // namespace

void status_set_bytes(MPI_Status& s, std::size_t bytes) {
  s.tilempi_count_lo = static_cast<int>(static_cast<std::uint32_t>(bytes));
  s.tilempi_count_hi = static_cast<int>(static_cast<std::uint64_t>(bytes) >> 32);
}

std::size_t status_bytes(const MPI_Status& s) {
  return static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_lo)) |
         (static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_hi)) << 32);
}

void status_set(MPI_Status* out, const MPI_Status& in) {
  if (out && out != MPI_STATUS_IGNORE) *out = in;
}

Request* request_get(MPI_Request h) {
  Engine& e = engine();
  if (h <= 0 || static_cast<std::size_t>(h) >= e.requests.size()) return nullptr;
  return e.requests[h].get();
}

void request_release(MPI_Request h) {
  Engine& e = engine();
  if (h <= 0 || static_cast<std::size_t>(h) >= e.requests.size() || !e.requests[h]) return;
  e.requests[h].reset();
  e.free_handles.push_back(h);
}

bool request_cancel(MPI_Request h) {
  Engine& e = engine();
  auto it = std::find(e.posted.begin(), e.posted.end(), h);
  if (it == e.posted.end()) return false;
  e.posted.erase(it);
  Request* r = e.requests[h].get();
  r->status.tilempi_cancelled = 1;
  r->status.MPI_SOURCE = MPI_ANY_SOURCE;
  r->status.MPI_TAG = MPI_ANY_TAG;
  complete(h);
  return true;
}

void progress() {
  Engine& e = engine();
  transport::Transport& tp = transport_of_job();
  tp.progress();
  Arrival a;
  while (tp.poll(a)) on_arrival(a);
  for (std::size_t i = 0; i < e.in_flight.size();) {
    MPI_Request h = e.in_flight[i];
    Request* r = e.requests[h].get();
    bool finished = r->kind == Request::Kind::Send ? tp.send_done(r->op) : tp.fetch_done(r->op);
    if (!finished) {
      ++i;
      continue;
    }
    e.in_flight[i] = e.in_flight.back();
    e.in_flight.pop_back();
    if (r->kind == Request::Kind::Send) {
      r->staging = {};
      complete(h);
    } else {
      finish_recv(h);
    }
  }
  for (Unexpected& u : e.unexpected)
    if (u.fetch != kDone && tp.fetch_done(u.fetch)) u.fetch = kDone;
}

void progress_wait() { transport_of_job().wait(1'000'000); }

void progress_blocking(bool on) {
  transport::Transport& tp = transport_of_job();
  if (on) tp.begin_blocking_wait();
  else tp.end_blocking_wait();
}

std::string describe_pending() {
  Engine& e = engine();
  std::string out;
  auto who = [](int r) { return r == MPI_ANY_SOURCE ? std::string("MPI_ANY_SOURCE") : std::to_string(r); };
  auto tag_of = [](int t) { return t == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(t); };
  auto comm_of = [](MPI_Comm c) {
    if (c == MPI_COMM_WORLD) return std::string("MPI_COMM_WORLD");
    if (c == MPI_COMM_SELF) return std::string("MPI_COMM_SELF");
    return "communicator " + std::to_string(c);
  };
  for (MPI_Request h : e.posted) {
    const Request& r = *e.requests[h];
    bool coll = r.context & 1;
    out += std::string(coll ? "collective " : "") + "receive from " + who(r.source) + " tag " + tag_of(r.tag) +
           " on " + comm_of(r.comm) + "; ";
  }
  for (MPI_Request h : e.in_flight) {
    const Request& r = *e.requests[h];
    if (r.kind == Request::Kind::Send)
      out += "send on " + comm_of(r.comm) + " not yet taken by its receiver; ";
  }
  if (!out.empty()) out.resize(out.size() - 2);
  return out.empty() ? "nothing pending" : out;
}

int isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request) {
  Engine& e = engine();
  MPI_Request h = new_request(Request::Kind::Send, comm.handle);
  *request = h;
  Request* r = e.requests[h].get();
  if (dest == MPI_PROC_NULL) {
    complete(h);
    return MPI_SUCCESS;
  }
  const Datatype& t = *datatype_get(type);
  std::size_t bytes = count * t.size;
  std::uint64_t context = comm.context + (lane == Lane::Coll ? 1 : 0);
  transport::Transport& tp = transport_of_job();
  int dst = comm.world[dest];

  if (dst == tp.rank()) {
    // Loopback: match a posted receive directly, else queue as unexpected.
    for (auto it = e.posted.begin(); it != e.posted.end(); ++it) {
      Request* rr = e.requests[*it].get();
      if (matches(*rr, context, comm.rank, tag)) {
        MPI_Request rh = *it;
        e.posted.erase(it);
        set_recv_status(*rr, comm.rank, tag, bytes);
        std::vector<char> tmp(bytes);
        pack(buf, count, t, tmp.data());
        unpack(tmp.data(), rr->received, rr->count, *rr->type, rr->buf);
        complete(rh);
        complete(h);
        return MPI_SUCCESS;
      }
    }
    Unexpected u;
    u.context = context;
    u.source = comm.rank;
    u.tag = tag;
    u.size = bytes;
    u.have_data = true;
    u.data.resize(bytes);
    pack(buf, count, t, u.data.data());
    if (synchronous)
      u.sync_sender = h;
    else
      complete(h);
    e.unexpected.push_back(std::move(u));
    return MPI_SUCCESS;
  }

  Envelope env{};
  env.word[0] = context;
  env.word[1] = static_cast<std::uint32_t>(comm.rank) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  const void* data = buf;
  if (!t.contiguous) {
    r->staging.resize(bytes);
    pack(buf, count, t, r->staging.data());
    data = r->staging.data();
  }
  r->op = tp.send(dst, env, data, bytes,
                  synchronous ? transport::SendMode::Synchronous : transport::SendMode::Standard);
  if (r->op == kDone) {
    r->staging = {};
    complete(h);
  } else {
    e.in_flight.push_back(h);
  }
  return MPI_SUCCESS;
}

int irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request) {
  Engine& e = engine();
  MPI_Request h = new_request(Request::Kind::Recv, comm.handle);
  *request = h;
  Request* r = e.requests[h].get();
  r->buf = buf;
  r->count = count;
  r->type = datatype_get(type);
  r->source = source;
  r->tag = tag;
  r->context = comm.context + (lane == Lane::Coll ? 1 : 0);
  if (source == MPI_PROC_NULL) {
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    complete(h);
    return MPI_SUCCESS;
  }
  for (auto it = e.unexpected.begin(); it != e.unexpected.end(); ++it) {
    if (matches(*it, r->context, source, tag)) {
      Unexpected u = std::move(*it);
      e.unexpected.erase(it);
      deliver_unexpected(h, u);
      return MPI_SUCCESS;
    }
  }
  e.posted.push_back(h);
  return MPI_SUCCESS;
}

int wait(MPI_Request* request, MPI_Status* status) {
  MPI_Request h = *request;
  Request* r = request_get(h);
  if (!r) {
    status_set(status, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
    return MPI_SUCCESS;
  }
  progress_until([&] { return r->done; });
  status_set(status, r->status);
  int rc = r->error;
  request_release(h);
  *request = MPI_REQUEST_NULL;
  return rc;
}

int waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    int e = wait(&requests[i], st);
    if (e != MPI_SUCCESS) rc = statuses == MPI_STATUSES_IGNORE ? e : MPI_ERR_IN_STATUS;
  }
  return rc;
}

bool iprobe(int source, int tag, Comm& comm, Lane lane, MPI_Status* status) {
  progress();
  std::uint64_t context = comm.context + (lane == Lane::Coll ? 1 : 0);
  if (source == MPI_PROC_NULL) {
    MPI_Status s{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0};
    status_set(status, s);
    return true;
  }
  for (const Unexpected& u : engine().unexpected) {
    if (matches(u, context, source, tag)) {
      MPI_Status s{u.source, u.tag, MPI_SUCCESS, 0, 0, 0};
      status_set_bytes(s, u.size);
      status_set(status, s);
      return true;
    }
  }
  return false;
}

int coll_send(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm) {
  MPI_Request r;
  int rc = isend(buf, count, type, dest, tag, comm, Lane::Coll, false, &r);
  return rc == MPI_SUCCESS ? wait(&r, MPI_STATUS_IGNORE) : rc;
}

int coll_recv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm) {
  MPI_Request r;
  int rc = irecv(buf, count, type, source, tag, comm, Lane::Coll, &r);
  return rc == MPI_SUCCESS ? wait(&r, MPI_STATUS_IGNORE) : rc;
}

int coll_sendrecv(const void* sbuf, std::size_t scount, MPI_Datatype stype, int dest, void* rbuf, std::size_t rcount,
                  MPI_Datatype rtype, int source, int tag, Comm& comm) {
  MPI_Request r[2];
  int rc = irecv(rbuf, rcount, rtype, source, tag, comm, Lane::Coll, &r[0]);
  if (rc == MPI_SUCCESS) rc = isend(sbuf, scount, stype, dest, tag, comm, Lane::Coll, false, &r[1]);
  if (rc != MPI_SUCCESS) return rc;
  return waitall(2, r, MPI_STATUSES_IGNORE);
}

}  // namespace tilempi::mpi
