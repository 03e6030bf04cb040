// Matched probe (MPI_Improbe, MPI_Mprobe, MPI_Imrecv, MPI_Mrecv): a probe takes the first
// matching unexpected message off the queue and names it by a message handle, so that no other
// receive can take it before the one that names it (p2p_state.h).
#include "p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

bool message_valid(MPI_Message m) {
  ProgressEngine& e = engine();
  return m == MPI_MESSAGE_NO_PROC ||
         (m > MPI_MESSAGE_NO_PROC && static_cast<std::size_t>(m) < e.messages.size() && e.messages[m]);
}

bool improbe(int source, int tag, Comm& comm, MPI_Message* message, MPI_Status* status) {
  progress();
  ProgressEngine& e = engine();
  if (source == MPI_PROC_NULL) {
    status_set(status, MPI_Status{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
    *message = MPI_MESSAGE_NO_PROC;
    return true;
  }
  for (auto it = e.unexpected.begin(); it != e.unexpected.end(); ++it) {
    if (!matches(*it, comm.context, source, tag)) continue;
    MPI_Status s{it->source, it->tag, MPI_SUCCESS, 0, 0, 0};
    status_set_bytes(s, it->size);
    status_set(status, s);
    auto m = std::make_unique<Message>();
    m->u = std::move(*it);
    m->comm = comm.handle;
    e.unexpected.erase(it);
    MPI_Message h;
    if (!e.free_messages.empty()) {
      h = e.free_messages.back();
      e.free_messages.pop_back();
      e.messages[h] = std::move(m);
    } else {
      e.messages.push_back(std::move(m));
      h = static_cast<MPI_Message>(e.messages.size() - 1);
    }
    *message = h;
    return true;
  }
  return false;
}

int imrecv(void* buf, std::size_t count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  ProgressEngine& e = engine();
  if (*message == MPI_MESSAGE_NO_PROC) {
    Comm* self = comm_get(MPI_COMM_SELF);
    *message = MPI_MESSAGE_NULL;
    return irecv(buf, count, type, MPI_PROC_NULL, MPI_ANY_TAG, *self, Lane::User, request);
  }
  std::unique_ptr<Message> m = std::move(e.messages[*message]);
  e.free_messages.push_back(*message);
  *message = MPI_MESSAGE_NULL;
  MPI_Request h = new_request(Request::Kind::Recv, m->comm);
  Request* r = e.requests[h].get();
  r->buf = buf;
  r->count = count;
  r->type = datatype_get(type);
  hold_type(*r, r->type);
  r->source = m->u.source;
  r->tag = m->u.tag;
  r->context = m->u.context;
  *request = h;
  deliver_unexpected(h, m->u);
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi
