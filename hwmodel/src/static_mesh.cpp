#include <algorithm>
#include <stdexcept>
#include <string>

#include "tilempi/hwmodel/chip.h"

namespace tilempi::hwmodel {

namespace {
void check_tile(const Topology& topo, TileId t, const char* what) {
  if (!topo.valid(t))
    throw std::invalid_argument(std::string(what) + ": tile " + std::to_string(t) + " is outside the mesh");
}
}  // namespace

StaticMesh::StaticMesh(Chip* chip) : chip_(chip) {
  const Topology& topo = chip->topology();
  source_.assign(static_cast<std::size_t>(topo.num_tiles()) * kPorts, -1);
  ready_.assign(static_cast<std::size_t>(topo.num_tiles()), 0);
  link_free_.assign(static_cast<std::size_t>(topo.num_link_slots()), 0);
  link_stats_.assign(static_cast<std::size_t>(topo.num_link_slots()), LinkStats{});
}

Cycle StaticMesh::configure(TileId tile, Dir input, PortMask outputs, Cycle at) {
  const Topology& topo = chip_->topology();
  if (!chip_->config().static_network)
    throw std::invalid_argument("static network: disabled in this config (static_network=false)");
  check_tile(topo, tile, "static configure");
  if (input != Dir::Local && topo.neighbor(tile, input) == kNoTile)
    throw std::invalid_argument("static configure: tile " + std::to_string(tile) + " has no " + dir_name(input) +
                                " input");
  for (int o = 0; o < kPorts; ++o) {
    if (!(outputs & (1u << o))) continue;
    Dir d = static_cast<Dir>(o);
    if (d != Dir::Local && topo.neighbor(tile, d) == kNoTile)
      throw std::invalid_argument("static configure: tile " + std::to_string(tile) + " has no " + dir_name(d) +
                                  " output");
  }
  if (outputs >> kPorts) throw std::invalid_argument("static configure: bad output mask");
  for (int o = 0; o < kPorts; ++o)
    if (outputs & (1u << o)) source_[static_cast<std::size_t>(tile) * kPorts + static_cast<std::size_t>(o)] = static_cast<std::int8_t>(input);
  Cycle& r = ready_[static_cast<std::size_t>(tile)];
  r = std::max(at, r) + static_cast<Cycle>(chip_->config().static_setup_cycles);
  return r;
}

void StaticMesh::clear(TileId tile) {
  check_tile(chip_->topology(), tile, "static clear");
  for (int o = 0; o < kPorts; ++o) source_[static_cast<std::size_t>(tile) * kPorts + static_cast<std::size_t>(o)] = -1;
}

void StaticMesh::clear_all() { std::fill(source_.begin(), source_.end(), -1); }

Cycle StaticMesh::ready_at(TileId tile) const {
  check_tile(chip_->topology(), tile, "static ready_at");
  return ready_[static_cast<std::size_t>(tile)];
}

bool StaticMesh::source_of(TileId tile, Dir output, Dir* input) const {
  check_tile(chip_->topology(), tile, "static source_of");
  std::int8_t s = source_[static_cast<std::size_t>(tile) * kPorts + static_cast<std::size_t>(output)];
  if (s < 0) return false;
  if (input) *input = static_cast<Dir>(s);
  return true;
}

std::vector<StaticArrival> StaticMesh::send_words(TileId root, std::uint32_t nwords, Cycle at) {
  const Topology& topo = chip_->topology();
  const Config& cfg = chip_->config();
  if (!cfg.static_network)
    throw std::invalid_argument("static network: disabled in this config (static_network=false)");
  check_tile(topo, root, "static send_words");
  if (at < chip_->now())
    throw std::invalid_argument("static send_words: cycle " + std::to_string(at) + " is before now() " +
                                std::to_string(chip_->now()));
  std::vector<StaticArrival> arrivals;
  if (nwords == 0) return arrivals;
  const Cycle hop = static_cast<Cycle>(cfg.static_hop_cycles);
  const Cycle n = nwords;

  // Walk the route tree breadth first: (tile, input port, first word there).
  struct Item {
    TileId tile;
    int input;
    Cycle first;
  };
  std::vector<Item> work{{root, static_cast<int>(Dir::Local), at}};
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(topo.num_tiles()) * kPorts, 0);
  seen[static_cast<std::size_t>(root) * kPorts + static_cast<std::size_t>(Dir::Local)] = 1;
  for (std::size_t k = 0; k < work.size(); ++k) {
    const Item it = work[k];
    // A word waits at a tile whose route is not configured yet.
    const Cycle start = std::max(it.first, ready_[static_cast<std::size_t>(it.tile)]);
    for (int o = 0; o < kPorts; ++o) {
      if (source_[static_cast<std::size_t>(it.tile) * kPorts + static_cast<std::size_t>(o)] != it.input) continue;
      if (o == static_cast<int>(Dir::Local)) {
        if (it.input == static_cast<int>(Dir::Local)) continue;  // core to itself: nothing to send
        arrivals.push_back(StaticArrival{it.tile, start, start + n - 1});
        continue;
      }
      Link l{it.tile, static_cast<Dir>(o)};
      TileId next = topo.neighbor(it.tile, l.dir);
      if (next == kNoTile) continue;
      const std::size_t li = static_cast<std::size_t>(Topology::link_index(l));
      // One word per cycle per link: a stream queues behind earlier ones.
      const Cycle go = std::max(start, link_free_[li]);
      link_free_[li] = go + n;
      link_stats_[li].flits += n;
      link_words_ += n;
      link_stats_[li].busy_cycles += n;
      link_stats_[li].blocked_cycles += go - start;
      const int in = static_cast<int>(opposite(l.dir));
      std::uint8_t& s = seen[static_cast<std::size_t>(next) * kPorts + static_cast<std::size_t>(in)];
      if (s) continue;
      s = 1;
      work.push_back(Item{next, in, go + hop});
    }
  }
  std::sort(arrivals.begin(), arrivals.end(),
            [](const StaticArrival& a, const StaticArrival& b) { return a.tile < b.tile; });
  return arrivals;
}

Cycle StaticMesh::configure_broadcast(TileId root, Cycle at) {
  const Topology& topo = chip_->topology();
  check_tile(topo, root, "static configure_broadcast");
  const Coord r = topo.coord(root);
  auto has = [&](TileId t, Dir d) {
    // Only links that lead away from the root without wrapping around.
    TileId nb = topo.neighbor(t, d);
    if (nb == kNoTile) return false;
    Coord a = topo.coord(t), b = topo.coord(nb);
    return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1;
  };
  Cycle ready = at;
  for (TileId t = 0; t < topo.num_tiles(); ++t) {
    clear(t);
    const Coord c = topo.coord(t);
    PortMask out = 0;
    Dir in;
    if (t == root) {
      // [Yagna 2013] §3.2.3: the root sends the core's words on all its links.
      in = Dir::Local;
      for (Dir d : {Dir::East, Dir::West, Dir::North, Dir::South})
        if (has(t, d)) out |= port_bit(d);
    } else if (c.x == r.x) {
      // The root's column receives along Y, forwards along Y and both X directions.
      in = c.y > r.y ? Dir::North : Dir::South;
      Dir onward = c.y > r.y ? Dir::South : Dir::North;
      out = port_bit(Dir::Local);
      if (has(t, onward)) out |= port_bit(onward);
      if (has(t, Dir::East)) out |= port_bit(Dir::East);
      if (has(t, Dir::West)) out |= port_bit(Dir::West);
    } else {
      // Everyone else receives along X and forwards along X.
      in = c.x > r.x ? Dir::West : Dir::East;
      Dir onward = c.x > r.x ? Dir::East : Dir::West;
      out = port_bit(Dir::Local);
      if (has(t, onward)) out |= port_bit(onward);
    }
    ready = std::max(ready, configure(t, in, out, at));
  }
  return ready;
}

}  // namespace tilempi::hwmodel
