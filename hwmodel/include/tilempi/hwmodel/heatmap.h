// Heatmap of link utilization over the mesh, drawn by gnuplot.
#pragma once

#include <string>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/settings.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

// Writes <path-without-extension>.dat and .gp next to `path` and runs gnuplot
// to produce `path`, whose extension (.png or .svg) picks the terminal.
// network < 0 plots the static network. Throws std::runtime_error if gnuplot
// is missing or fails.
void write_heatmap(const Stats& stats, const Topology& topo, int network, const std::string& path,
                   const std::string& title = "");

// The same picture coloured by each link's energy in uJ: its channel's own (the flits over its wire
// and through its retiming flip-flops, its clock and leakage over the statistics' cycles; energy.h).
void write_energy_heatmap(const Stats& stats, const Topology& topo, const Config& config, int network,
                          const std::string& path, const std::string& title = "");

// The gnuplot executable used (found at build time, overridable by the
// TILEMPI_GNUPLOT environment variable); empty if none.
std::string gnuplot_executable();
// Its declaration (environment variable TILEMPI_GNUPLOT).
const settings::Setting& gnuplot_variable();

}  // namespace tilempi::hwmodel
