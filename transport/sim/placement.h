// Where the ranks of a sim job sit on the chip: decided once, by the job, and read by everyone.
//
// The job places the ranks (place_ranks) and writes the tile of each rank into the job's header;
// the engine times messages between those tiles, and every rank builds the RankPlacement it
// reports to the layers above (placement_on_chip) from the same list, so the collectives'
// geometry, static routes and MPI_Get_processor_name name the tiles the engine models.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/topology.h"
#include "tilempi/transport/rank_placement.h"

namespace tilempi::transport::sim {

/// The tile of each of n ranks. Without an explicit `mapping` key the ranks fill a rank grid
/// (grid_width x grid_height, 0 = near-square, as default_placement) from the chip's North-West
/// corner; with one, the chip's rank map places them (row_major, col_major, list:...).
/// Throws std::runtime_error naming the mapping when it does not fit.
std::vector<hwmodel::TileId> place_ranks(const hwmodel::Config& chip, int n, int grid_width, int grid_height,
                                         bool mapping_set);

/// The mesh the ranks see: coord[r] is the chip coordinate of rank r's tile. On a mesh the shape
/// is the smallest box from the chip's corner that holds every rank (XY routes between tiles in
/// it stay in it); on a torus it is the whole chip, whose wrap-around links the routes use.
RankPlacement placement_on_chip(const hwmodel::Config& chip, std::span<const hwmodel::TileId> tiles);

/// placement_on_chip, one copy for every rank that asks with the same chip and tiles: ranks as
/// contexts share one process, and a copy per rank (N coordinates each) was N^2 in all, 2 GiB at
/// 16384 ranks.
std::shared_ptr<const RankPlacement> shared_placement_on_chip(const hwmodel::Config& chip,
                                                              std::span<const hwmodel::TileId> tiles);

}  // namespace tilempi::transport::sim
