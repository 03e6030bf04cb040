// Buffered sends (MPI_Bsend, buffered persistent requests) and the attached buffer
// (MPI_Buffer_attach/detach): a buffered send packs its data into the attached buffer, where it
// waits for the transport; its segment is free again when the send completes (p2p_state.h).
#include <string>

#include "p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

int bsend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, std::string* detail) {
  return bsend_typed(buf, count, *datatype_get(type), dest, tag, comm, detail);
}

int pt2pt::bsend_typed(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                       std::string* detail) {
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  ProgressEngine& e = engine();
  BsendBuffer& b = e.bsend;
  std::size_t bytes = count * t.size;
  std::size_t need = bytes + MPI_BSEND_OVERHEAD;
  // First fit among the gaps between the segments in use.
  std::size_t at = 0;
  bool found = false;
  for (const auto& [off, len] : b.used) {
    if (off - at >= need) {
      found = true;
      break;
    }
    at = off + len;
  }
  if (!found && b.base && b.size >= at && b.size - at >= need) found = true;
  if (!found) {
    std::size_t in_use = 0;
    for (const auto& [off, len] : b.used) in_use += len;
    *detail = "the message needs " + std::to_string(need) + " bytes (with MPI_BSEND_OVERHEAD) of the attached buffer; " +
              (b.base ? std::to_string(b.size) + " attached, " + std::to_string(in_use) + " in use by pending buffered sends"
                      : std::string("no buffer is attached (MPI_Buffer_attach)"));
    return MPI_ERR_BUFFER;
  }
  char* data = b.base + at;
  pack(buf, count, t, data);
  b.used[at] = need;
  MPI_Request h = new_request(Request::Kind::Send, comm.handle);
  Request* r = e.requests[h].get();
  r->bsend_offset = at;
  r->bsend_size = need;
  r->freed = true;  // nobody waits for it: it releases itself (and its segment) when sent
  send_on(h, data, bytes, *datatype_get(MPI_BYTE), dest, tag, comm, Lane::User, false);
  return MPI_SUCCESS;
}

int buffer_attach(void* buf, std::size_t size) {
  BsendBuffer& b = engine().bsend;
  if (b.base) return MPI_ERR_BUFFER;
  b.base = static_cast<char*>(buf);
  b.size = size;
  return MPI_SUCCESS;
}

void bsend_drain() {
  if (engine().bsend.used.empty()) return;
  progress_until([] { return engine().bsend.used.empty(); });
}

int buffer_detach(void** buf, std::size_t* size) {
  BsendBuffer& b = engine().bsend;
  bsend_drain();
  *buf = b.base;
  *size = b.size;
  b.base = nullptr;
  b.size = 0;
  return MPI_SUCCESS;
}

bool buffer_attached() { return engine().bsend.base != nullptr; }

}  // namespace tilempi::mpi
