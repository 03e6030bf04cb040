#include "sim/placement.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "tilempi/hwmodel/chip.h"

namespace tilempi::transport::sim {

namespace hw = ::tilempi::hwmodel;

std::vector<hw::TileId> place_ranks(const hw::Config& chip, int n, int grid_width, int grid_height,
                                    bool mapping_set) {
  std::vector<hw::TileId> tiles(static_cast<std::size_t>(n));
  if (mapping_set) {
    try {
      const hw::RankMap map = hw::make_rank_map(chip, n);
      for (int r = 0; r < n; ++r) tiles[static_cast<std::size_t>(r)] = map.tile_of(r);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string("config key 'mapping': ") + e.what());
    }
    return tiles;
  }
  const RankPlacement grid = default_placement(n, grid_width, grid_height);
  if (grid.width > chip.width || grid.height > chip.height)
    throw std::runtime_error("a " + std::to_string(grid.width) + "x" + std::to_string(grid.height) +
                             " rank grid does not fit the " + std::to_string(chip.width) + "x" +
                             std::to_string(chip.height) + " chip");
  for (int r = 0; r < n; ++r) {
    const Coord c = grid.coord[static_cast<std::size_t>(r)];
    tiles[static_cast<std::size_t>(r)] = c.y * chip.width + c.x;
  }
  return tiles;
}

RankPlacement placement_on_chip(const hw::Config& chip, std::span<const hw::TileId> tiles) {
  RankPlacement t;
  t.torus = chip.torus;
  t.coord.reserve(tiles.size());
  int max_x = 0, max_y = 0;
  for (hw::TileId tile : tiles) {
    const Coord c{tile % chip.width, tile / chip.width};
    max_x = std::max(max_x, c.x);
    max_y = std::max(max_y, c.y);
    t.coord.push_back(c);
  }
  t.width = chip.torus ? chip.width : max_x + 1;
  t.height = chip.torus ? chip.height : max_y + 1;
  return t;
}

std::shared_ptr<const RankPlacement> shared_placement_on_chip(const hw::Config& chip, std::span<const hw::TileId> tiles) {
  static std::mutex mutex;
  static std::weak_ptr<const RankPlacement> last;
  static std::vector<hw::TileId> last_tiles;
  static int last_width = 0;
  static bool last_torus = false;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<const RankPlacement> t = last.lock();
  if (t && last_width == chip.width && last_torus == chip.torus && std::ranges::equal(last_tiles, tiles)) return t;
  t = std::make_shared<const RankPlacement>(placement_on_chip(chip, tiles));
  last = t;
  last_tiles.assign(tiles.begin(), tiles.end());
  last_width = chip.width;
  last_torus = chip.torus;
  return t;
}

}  // namespace tilempi::transport::sim
