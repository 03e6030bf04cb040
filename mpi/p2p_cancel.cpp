// MPI_Cancel of a send to another rank (MPI-3.1 §3.8.4): a wait on a send marked for cancellation
// must return whatever the receiver does, so a send that no receive will ever match (a large one,
// which the transport holds until the receiver takes it) cannot simply be left to complete.
//
// The sender asks the receiver, in a control message (envelope.h: kControlContext) that names
// the send by its number (word[2] of its envelope). The question follows the message on the same
// path, and arrivals from one source are handled in order, so when the receiver reads it the
// message is either still unmatched in its unexpected queue, and is dropped there (an empty fetch
// ends the sender's transport operation), or matched already, and is being received. The
// receiver answers which; the answer completes the send's request, cancelled or not.
#include "p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

namespace {

// The control messages' kinds (the tag field of their envelope).
enum ControlKind : int { kAskCancel = 1, kCancelled = 2, kNotCancelled = 3 };

char g_sink;  // where the empty fetches point (nothing is written)

void send_control(ProgressEngine& e, transport::Transport& tp, int world_dst, ControlKind kind, std::uint64_t number) {
  transport::Envelope env{};
  env.word[0] = envelope::kControlContext;
  env.word[1] = static_cast<std::uint64_t>(static_cast<std::uint32_t>(kind)) << 32;
  env.word[2] = number;
  const transport::OpId op = tp.send(world_dst, env, &g_sink, 0, transport::SendMode::Standard);
  if (op != kDone) e.control_ops.emplace_back(op, true);
}

void fetch_empty(ProgressEngine& e, transport::Transport& tp, const Arrival& a) {
  const transport::OpId op = tp.fetch(a, &g_sink, 0);
  if (op != kDone) e.control_ops.emplace_back(op, false);
}

}  // namespace

namespace pt2pt {

bool ask_cancel(MPI_Request h) {
  ProgressEngine& e = engine();
  Request& r = *e.requests[h];
  // Nothing to ask: asked already, or no transport operation (the send is done, or was never
  // the transport's).
  if (r.cancel_ask != Request::CancelAsk::None || r.op == kDone || r.send_number == 0) return false;
  const Comm* c = comm_find(r.comm);
  if (!c || r.peer < 0 || r.peer >= c->peer_size()) return false;
  send_control(e, transport_of_job(), c->peers()[static_cast<std::size_t>(r.peer)], kAskCancel, r.send_number);
  r.cancel_ask = Request::CancelAsk::Asked;
  return true;
}

void on_control(ProgressEngine& e, transport::Transport& tp, const Arrival& a, const envelope::Fields& f) {
  fetch_empty(e, tp, a);
  const std::uint64_t number = a.envelope.word[2];
  if (f.tag == kAskCancel) {
    bool dropped = false;
    for (auto it = e.unexpected.begin(); it != e.unexpected.end(); ++it) {
      // (A message whose data is here already left its sender: its send is done, not asked about.)
      if (it->have_data || it->arrival.source != a.source || it->arrival.envelope.word[2] != number) continue;
      fetch_empty(e, tp, it->arrival);
      e.unexpected.erase(it);
      dropped = true;
      break;
    }
    send_control(e, tp, a.source, dropped ? kCancelled : kNotCancelled, number);
    return;
  }
  // An answer: to the send that asked (numbers are unique at their sender).
  for (std::size_t h = 1; h < e.requests.size(); ++h) {
    Request* r = e.requests[h].get();
    if (!r || !r->live || r->kind != Request::Kind::Send || r->cancel_ask == Request::CancelAsk::None ||
        r->send_number != number)
      continue;
    r->status.tilempi_cancelled = f.tag == kCancelled ? 1 : 0;
    const bool transport_done = r->cancel_ask == Request::CancelAsk::AskedAndSent;
    r->cancel_ask = Request::CancelAsk::None;
    // Else its transport operation completes it (the receiver's empty fetch, or the receive).
    if (transport_done) complete(static_cast<MPI_Request>(h), *r);
    return;
  }
}

void settle_control_ops(ProgressEngine& e, transport::Transport& tp) {
  std::erase_if(e.control_ops, [&](const std::pair<transport::OpId, bool>& op) {
    return op.second ? tp.send_done(op.first) : tp.fetch_done(op.first);
  });
}

}  // namespace pt2pt

}  // namespace tilempi::mpi
