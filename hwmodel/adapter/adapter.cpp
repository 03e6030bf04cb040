#include "tilempi/hwmodel/adapter.h"

#include <algorithm>

#include "registered_adapters.h"

namespace tilempi::hwmodel::adapter {

const registry::Registry<AdapterEntry>& Adapter::registry() {
  static const auto r = TILEMPI_REGISTRY_OF("adapter", TILEMPI_REGISTERED_ADAPTERS, registered);
  return r;
}

std::vector<std::string> Adapter::names() { return registry().names(); }

std::unique_ptr<Adapter> Adapter::create(const std::string& name, const Config& config) {
  const AdapterEntry* e = registry().find(name);
  if (!e) throw ConfigError("adapter", "unknown adapter '" + name + "' (" + registry().joined() + ")");
  std::unique_ptr<Adapter> a = e->create(config);
  a->check_unknown();
  return a;
}

std::vector<settings::Setting> Adapter::declarations(const std::string& name, const Config& config) {
  Config defaults = config;
  defaults.adapter.clear();  // the defaults, not the overrides
  std::vector<settings::Setting> out;
  const std::unique_ptr<Adapter> a = create(name, defaults);
  for (const Param& p : a->params()) {
    if (!p.choices.empty()) {
      out.push_back(settings::choice("adapter." + name + "." + p.name, settings::Source::adapter, p.choices,
                                     p.choices[p.default_value], p.source));
      continue;
    }
    if (p.is_text) {
      out.push_back(settings::text("adapter." + name + "." + p.name, settings::Source::adapter, p.range,
                                   p.default_text, p.source));
      continue;
    }
    out.push_back(settings::integer("adapter." + name + "." + p.name, settings::Source::adapter, 0,
                                    static_cast<std::int64_t>(kParamMax), std::to_string(p.default_value),
                                    p.source));
  }
  return out;
}

std::uint64_t Adapter::param(const std::string& name, std::uint64_t def, const std::string& source) {
  const std::string key = "adapter." + adapter_name_ + "." + name;
  std::uint64_t v = def;
  auto it = config_.adapter.find(key);
  if (it != config_.adapter.end()) {
    const settings::Setting decl = settings::integer(key, settings::Source::adapter, 0,
                                                     static_cast<std::int64_t>(kParamMax), "", source);
    try {
      v = static_cast<std::uint64_t>(settings::to_integer(decl, it->second));
    } catch (const settings::Error& e) {
      throw ConfigError(key, e.what());
    }
  }
  params_.push_back(Param{name, v, source, def, {}});
  return v;
}

std::size_t Adapter::choice_param(const std::string& name, std::vector<std::string> choices, std::size_t def,
                                  const std::string& source) {
  const std::string key = "adapter." + adapter_name_ + "." + name;
  std::size_t v = def;
  auto it = config_.adapter.find(key);
  if (it != config_.adapter.end()) {
    const settings::Setting decl =
        settings::choice(key, settings::Source::adapter, choices, choices[def], source);
    try {
      const std::string c = settings::to_choice(decl, it->second);
      v = static_cast<std::size_t>(std::find(choices.begin(), choices.end(), c) - choices.begin());
    } catch (const settings::Error& e) {
      throw ConfigError(key, e.what());
    }
  }
  params_.push_back(Param{name, v, source, def, std::move(choices)});
  return v;
}

std::string Adapter::text_param(const std::string& name, const std::string& def, const std::string& range,
                                const std::string& source) {
  const std::string key = "adapter." + adapter_name_ + "." + name;
  auto it = config_.adapter.find(key);
  const std::string v = it != config_.adapter.end() ? it->second : def;
  Param p{name, 0, source, 0, {}};
  p.is_text = true;
  p.text = v;
  p.default_text = def;
  p.range = range;
  params_.push_back(p);
  return v;
}

void Adapter::check_unknown() const {
  const std::string prefix = "adapter." + adapter_name_ + ".";
  for (const auto& [key, value] : config_.adapter) {
    if (key.rfind(prefix, 0) != 0) continue;
    const std::string n = key.substr(prefix.size());
    bool known = false;
    for (const Param& p : params_) known = known || p.name == n;
    if (!known) {
      std::string list;
      for (const Param& p : params_) list += (list.empty() ? "" : ", ") + p.name;
      throw ConfigError(key, "unknown config key '" + key + "' (adapter " + adapter_name_ + " knows: " + list + ")");
    }
  }
}

void Adapter::channel_of(int c, int& network, int& vc) const {
  const int classes = config_.vc_classes();
  const int nets = config_.networks;
  // Separate networks first (as the TilePro64's several physical networks), then VC classes.
  network = c % nets;
  vc = (c / nets) % classes;
}

std::uint32_t Adapter::inject_stream(int channel, TileId src, TileId dst, std::uint64_t flits, Cycle at,
                                     std::uint64_t tag) {
  int net = 0, vc = 0;
  channel_of(channel, net, vc);
  // A model's step can never act before the chip's present (the engine guarantees
  // at + lookahead >= now for core calls; this keeps a mis-set cost from throwing).
  if (at < chip_->now()) at = chip_->now();
  const std::uint64_t per = static_cast<std::uint64_t>(config_.max_payload_flits());
  std::uint32_t n = 0;
  if (flits == 0) {
    chip_->inject(net, src, dst, 0, at, tag, vc);
    return 1;
  }
  while (flits > 0) {
    const std::uint64_t f = flits < per ? flits : per;
    chip_->inject(net, src, dst, static_cast<std::uint32_t>(f), at, tag, vc);
    flits -= f;
    ++n;
  }
  return n;
}

}  // namespace tilempi::hwmodel::adapter

// ---- one-sided operations, the default protocol: no RDMA engine, so the cores do the work.
// A put is packets of address, length and data that the origin's core writes like a message;
// an interrupt handler on the target's core reads them into memory (the cost of receiving them)
// and answers with a one-word acknowledgement, which completes the put at the origin. A get is
// a request packet; the target's handler writes the data back (the cost of sending it), and the
// origin's core reads it as it reads a message. Cores and network overlap as on the UDN's
// register-mapped FIFOs: a reader takes words as they arrive, so it ends at the later of the
// last arrival plus its fixed overhead and the first arrival plus its whole cost.
namespace tilempi::hwmodel::adapter {

namespace {
enum RemoteKind : unsigned { kRemotePut = 12, kRemoteAck, kRemoteGetReq, kRemoteData };  // from kRemoteFirst
}

Cycle Adapter::remote_issue_cost(std::uint64_t put_bytes, std::uint64_t get_bytes) const {
  (void)get_bytes;
  return send_cost(kRemoteHeaderBytes + put_bytes, false);
}

void Adapter::remote_start(const Remote& r, Cycle at) {
  RemoteState& s = remotes_[r.id];
  s.r = r;
  const Cycle go = at + lookahead();
  if (r.get_bytes == 0) {
    s.to_deliver = inject_stream(0, r.origin, r.target, flits_of(kRemoteHeaderBytes + r.put_bytes), go,
                                 make_tag(r.id, kRemotePut));
  } else {
    s.to_deliver = inject_stream(0, r.origin, r.target, flits_of(kRemoteHeaderBytes), go, make_tag(r.id, kRemoteGetReq));
  }
}

Adapter::PacketOwner Adapter::packet_owner(const PacketEvent& e) const {
  return {tag_kind(e.tag) >= kRemoteFirst ? TagFamily::one_sided : TagFamily::message,
          tag_msg(e.tag) & (kMsgIdLimit - 1), true};
}

bool Adapter::remote_delivered(const PacketEvent& e) {
  const unsigned kind = tag_kind(e.tag);
  if (kind < kRemoteFirst) return false;
  auto it = remotes_.find(tag_msg(e.tag));
  if (it == remotes_.end()) return true;
  RemoteState& s = it->second;
  const Remote& r = s.r;
  if (s.first == 0) s.first = e.cycle;
  // The reader of a stream of packets is done at the later of (last + fixed) and (first + all).
  auto read_done = [&](std::uint64_t bytes) {
    const Cycle all = recv_cost(bytes, false), fixed = recv_cost(0, false);
    return std::max(e.cycle + fixed, s.first + all);
  };
  switch (kind) {
    case kRemotePut:
      if (--s.to_deliver == 0) {
        const Cycle done = read_done(kRemoteHeaderBytes + r.put_bytes);
        out_->remote_served(r.id, s.first, recv_cost(kRemoteHeaderBytes + r.put_bytes, false));
        s.first = 0;
        s.to_deliver = inject_stream(1, r.target, r.origin, 1, done, make_tag(r.id, kRemoteAck));
      }
      break;
    case kRemoteAck:
      if (--s.to_deliver == 0) {
        s.first = 0;
        out_->remote_done(r.id, e.cycle, recv_cost(0, false));
        remotes_.erase(it);
      }
      break;
    case kRemoteGetReq:
      if (--s.to_deliver == 0) {
        // The handler reads the request, then writes the data words (the network takes them as
        // they come: the packets leave once its fixed part is done).
        const Cycle start = e.cycle + recv_cost(kRemoteHeaderBytes, false);
        out_->remote_served(r.id, e.cycle, recv_cost(kRemoteHeaderBytes, false) + send_cost(r.get_bytes, false));
        s.first = 0;
        s.to_deliver = inject_stream(1, r.target, r.origin, flits_of(r.get_bytes), start + send_cost(0, false),
                                     make_tag(r.id, kRemoteData));
      }
      break;
    case kRemoteData:
      if (--s.to_deliver == 0) {
        out_->remote_done(r.id, read_done(r.get_bytes), 0);
        remotes_.erase(it);
      }
      break;
    default:
      break;
  }
  return true;
}

}  // namespace tilempi::hwmodel::adapter
