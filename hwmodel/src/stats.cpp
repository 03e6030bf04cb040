#include "tilempi/hwmodel/stats.h"

#include <algorithm>
#include <ostream>

namespace tilempi::hwmodel {

nlohmann::json Summary::to_json() const {
  nlohmann::json j;
  j["count"] = count;
  j["mean"] = mean();
  j["min"] = count ? min : 0;
  j["max"] = max;
  return j;
}

void Summary::add(const Summary& o) {
  count += o.count;
  sum += o.sum;
  min = std::min(min, o.min);
  max = std::max(max, o.max);
}

namespace {
void add_links(std::vector<LinkStats>& to, const std::vector<LinkStats>& from) {
  if (to.size() < from.size()) to.resize(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) {
    to[i].flits += from[i].flits;
    to[i].busy_cycles += from[i].busy_cycles;
    to[i].blocked_cycles += from[i].blocked_cycles;
  }
}
}  // namespace

void Stats::append(const Stats& later) {
  end_cycle = later.end_cycle;
  router_cycles += later.router_cycles;
  if (networks.size() < later.networks.size()) networks.resize(later.networks.size());
  for (std::size_t n = 0; n < later.networks.size(); ++n) {
    NetworkStats& a = networks[n];
    const NetworkStats& b = later.networks[n];
    add_links(a.links, b.links);
    add_links(a.injection, b.injection);
    add_links(a.ejection, b.ejection);
    a.latency.add(b.latency);
    a.queueing.add(b.queueing);
    a.network.add(b.network);
    a.hops.add(b.hops);
    a.packets_injected += b.packets_injected;
    a.packets_delivered += b.packets_delivered;
    a.flits_delivered += b.flits_delivered;
    a.flit_hops += b.flit_hops;
    a.link_wait_packets += b.link_wait_packets;
    a.link_wait_cycles += b.link_wait_cycles;
  }
  add_links(static_links, later.static_links);
  packets.insert(packets.end(), later.packets.begin(), later.packets.end());
}

double Stats::utilization(int network, int link_index) const {
  const Cycle c = cycles();
  if (c == 0) return 0.0;
  const LinkStats& l = network < 0 ? static_links.at(static_cast<std::size_t>(link_index))
                                   : networks.at(static_cast<std::size_t>(network)).links.at(static_cast<std::size_t>(link_index));
  return static_cast<double>(l.busy_cycles) / static_cast<double>(c);
}

namespace {
nlohmann::json link_json(const LinkStats& l) {
  return nlohmann::json{{"flits", l.flits}, {"busy", l.busy_cycles}, {"blocked", l.blocked_cycles}};
}

nlohmann::json links_json(const std::vector<LinkStats>& links, const Topology& topo, double cycles) {
  nlohmann::json arr = nlohmann::json::array();
  for (int i = 0; i < static_cast<int>(links.size()); ++i) {
    Link l = Topology::link_at(i);
    if (!topo.link_exists(l)) continue;
    const LinkStats& s = links[static_cast<std::size_t>(i)];
    Coord c = topo.coord(l.tile);
    nlohmann::json j = link_json(s);
    j["tile"] = l.tile;
    j["x"] = c.x;
    j["y"] = c.y;
    j["dir"] = dir_name(l.dir);
    j["utilization"] = cycles > 0 ? static_cast<double>(s.busy_cycles) / cycles : 0.0;
    arr.push_back(std::move(j));
  }
  return arr;
}
}  // namespace

nlohmann::json Stats::to_json(const Topology& topo) const {
  const double cyc = static_cast<double>(cycles());
  nlohmann::json j;
  j["start_cycle"] = start_cycle;
  j["end_cycle"] = end_cycle;
  j["cycles"] = cycles();
  j["router_activations"] = router_cycles;
  j["mesh"] = {{"width", topo.width()}, {"height", topo.height()}, {"torus", topo.torus()}};
  nlohmann::json nets = nlohmann::json::array();
  for (std::size_t n = 0; n < networks.size(); ++n) {
    const NetworkStats& ns = networks[n];
    nlohmann::json jn;
    jn["network"] = n;
    jn["packets_injected"] = ns.packets_injected;
    jn["packets_delivered"] = ns.packets_delivered;
    jn["flits_delivered"] = ns.flits_delivered;
    jn["flit_hops"] = ns.flit_hops;
    jn["link_wait_packets"] = ns.link_wait_packets;
    jn["link_wait_cycles"] = ns.link_wait_cycles;
    jn["latency"] = ns.latency.to_json();
    jn["queueing_latency"] = ns.queueing.to_json();
    jn["network_latency"] = ns.network.to_json();
    jn["hops"] = ns.hops.to_json();
    jn["accepted_flits_per_node_cycle"] =
        cyc > 0 ? static_cast<double>(ns.flits_delivered) / (cyc * topo.num_tiles()) : 0.0;
    jn["links"] = links_json(ns.links, topo, cyc);
    nlohmann::json inj = nlohmann::json::array(), ej = nlohmann::json::array();
    for (std::size_t t = 0; t < ns.injection.size(); ++t) inj.push_back(link_json(ns.injection[t]));
    for (std::size_t t = 0; t < ns.ejection.size(); ++t) ej.push_back(link_json(ns.ejection[t]));
    jn["injection"] = std::move(inj);
    jn["ejection"] = std::move(ej);
    nets.push_back(std::move(jn));
  }
  j["networks"] = std::move(nets);
  j["static_links"] = links_json(static_links, topo, cyc);
  if (!packets.empty()) {
    nlohmann::json pk = nlohmann::json::array();
    for (const PacketRecord& p : packets)
      pk.push_back({{"id", p.id}, {"tag", p.tag}, {"src", p.src}, {"dst", p.dst}, {"network", p.network},
                    {"flits", p.flits}, {"hops", p.hops}, {"created", p.created}, {"head_in", p.head_in},
                    {"tail_out", p.tail_out}, {"delivered", p.delivered}, {"link_wait", p.link_wait}});
    j["packets"] = std::move(pk);
  }
  return j;
}

void Stats::write_links_csv(std::ostream& out, const Topology& topo) const {
  const double cyc = static_cast<double>(cycles());
  out << "network,tile,x,y,dir,flits,busy,blocked,utilization\n";
  auto rows = [&](const std::string& net, const std::vector<LinkStats>& links) {
    for (int i = 0; i < static_cast<int>(links.size()); ++i) {
      Link l = Topology::link_at(i);
      if (!topo.link_exists(l)) continue;
      const LinkStats& s = links[static_cast<std::size_t>(i)];
      Coord c = topo.coord(l.tile);
      out << net << ',' << l.tile << ',' << c.x << ',' << c.y << ',' << dir_name(l.dir) << ',' << s.flits << ','
          << s.busy_cycles << ',' << s.blocked_cycles << ','
          << (cyc > 0 ? static_cast<double>(s.busy_cycles) / cyc : 0.0) << '\n';
    }
  };
  for (std::size_t n = 0; n < networks.size(); ++n) rows(std::to_string(n), networks[n].links);
  bool any_static = false;
  for (const LinkStats& s : static_links) any_static = any_static || s.flits;
  if (any_static) rows("static", static_links);
}

void Stats::write_packets_csv(std::ostream& out) const {
  out << "id,tag,network,src,dst,flits,hops,created,head_in,tail_out,delivered,latency,queueing,network_latency,link_wait\n";
  for (const PacketRecord& p : packets)
    out << p.id << ',' << p.tag << ',' << p.network << ',' << p.src << ',' << p.dst << ',' << p.flits << ','
        << p.hops << ',' << p.created << ',' << p.head_in << ',' << p.tail_out << ',' << p.delivered << ','
        << (p.delivered - p.created) << ',' << (p.head_in - p.created) << ',' << (p.delivered - p.head_in)
        << ',' << p.link_wait << '\n';
}

}  // namespace tilempi::hwmodel
