#include "tilempi/hwmodel/heatmap.h"

#include "tilempi/hwmodel/energy.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace tilempi::hwmodel {

#ifndef TILEMPI_GNUPLOT
#define TILEMPI_GNUPLOT ""
#endif

const settings::Setting& gnuplot_variable() {
  static const settings::Setting s = settings::text(
      "TILEMPI_GNUPLOT", settings::Source::environment, "a path to gnuplot",
      "the gnuplot found at build time, else PATH",
      "the gnuplot program that draws link-utilization heatmaps (write_heatmap)");
  return s;
}

std::string gnuplot_executable() {
  if (auto env = settings::env_text(gnuplot_variable())) return *env;
  std::string built = TILEMPI_GNUPLOT;
  if (built.find("NOTFOUND") != std::string::npos) return {};
  if (built.empty()) return "gnuplot";  // rely on PATH
  return built;
}

namespace {
std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else out += c;
  }
  return out + "'";
}
}  // namespace

namespace {

// Draws one value per link (`value` of its statistics), with `unit` on the colour bar and in the
// data file's header.
void draw_heatmap(const Stats& stats, const Topology& topo, int network, const std::string& path,
                  const std::string& title, const std::string& quantity, const std::string& unit,
                  const std::function<double(const LinkStats&)>& value) {
  namespace fs = std::filesystem;
  fs::path out(path);
  std::string ext = out.extension().string();
  std::string terminal;
  if (ext == ".png") terminal = "pngcairo size 900,820 noenhanced";
  else if (ext == ".svg") terminal = "svg size 900,820 noenhanced";
  else throw std::runtime_error("heatmap: '" + path + "' must end in .png or .svg");
  const std::vector<LinkStats>* links = nullptr;
  if (network < 0) links = &stats.static_links;
  else if (network < static_cast<int>(stats.networks.size()))
    links = &stats.networks[static_cast<std::size_t>(network)].links;
  else throw std::runtime_error("heatmap: no network " + std::to_string(network));

  // Each tile is a 3x3 block of cells: its four outgoing links sit on the
  // side they leave from, the centre and corners stay empty.
  const int w = topo.width(), h = topo.height();
  const int cols = 3 * w, rows = 3 * h;
  std::vector<double> grid(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows), NAN);
  double vmax = 0;
  for (int i = 0; i < static_cast<int>(links->size()); ++i) {
    Link l = Topology::link_at(i);
    if (!topo.link_exists(l)) continue;
    Coord c = topo.coord(l.tile);
    int cx = 3 * c.x + 1, cy = 3 * c.y + 1;
    switch (l.dir) {
      case Dir::East: ++cx; break;
      case Dir::West: --cx; break;
      case Dir::North: --cy; break;
      case Dir::South: ++cy; break;
      case Dir::Local: break;
    }
    double u = value((*links)[static_cast<std::size_t>(i)]);
    grid[static_cast<std::size_t>(cy) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(cx)] = u;
    vmax = std::max(vmax, u);
  }

  fs::path stem = out;
  stem.replace_extension();
  const std::string dat = stem.string() + ".dat";
  const std::string gp = stem.string() + ".gp";
  {
    std::ofstream d(dat);
    if (!d) throw std::runtime_error("heatmap: cannot write '" + dat + "'");
    d << "# link " << quantity << " (" << unit << "), 3x3 cells per tile: N above, S below, W left, E right; -1: no link\n";
    for (int y = 0; y < rows; ++y) {
      for (int x = 0; x < cols; ++x) {
        double v = grid[static_cast<std::size_t>(y) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(x)];
        if (x) d << ' ';
        if (std::isnan(v)) d << "-1";  // no link here
        else d << v;
      }
      d << '\n';
    }
  }
  {
    std::ofstream g(gp);
    if (!g) throw std::runtime_error("heatmap: cannot write '" + gp + "'");
    std::string t = title.empty() ? (network < 0 ? std::string("static network") : "network " + std::to_string(network)) +
                                        " link " + quantity + " (" + unit + ")"
                                  : title;
    g << "set terminal " << terminal << "\n"
      << "set output " << quote(out.string()) << "\n"
      << "set title " << quote(t) << "\n"
      << "set size ratio " << static_cast<double>(rows) / cols << "\n"
      << "set xrange [-0.5:" << cols - 0.5 << "]\n"
      << "set yrange [" << rows - 0.5 << ":-0.5]\n"
      << "set cbrange [0:" << (vmax > 0 ? vmax : 1.0) << "]\n"
      << "set cblabel " << quote(unit) << "\n"
      << "set palette rgbformulae 22,13,-31\n"
      << "set xtics (";
    for (int x = 0; x < w; ++x) g << (x ? ", " : "") << "'" << x << "' " << 3 * x + 1;
    g << ")\nset ytics (";
    for (int y = 0; y < h; ++y) g << (y ? ", " : "") << "'" << y << "' " << 3 * y + 1;
    g << ")\nset xlabel 'x'\nset ylabel 'y'\n";
    for (int x = 0; x < w; ++x)
      for (int y = 0; y < h; ++y)
        g << "set object rectangle from " << 3 * x + 0.5 << "," << 3 * y + 0.5 << " to " << 3 * x + 1.5 << ","
          << 3 * y + 1.5 << " fillstyle empty border lc rgb 'gray40' front\n";
    g << "plot " << quote(dat) << " matrix using 1:2:($3 < 0 ? NaN : $3) with image notitle\n";
  }
  std::string exe = gnuplot_executable();
  if (exe.empty()) throw std::runtime_error("heatmap: gnuplot not found (set TILEMPI_GNUPLOT)");
  std::vector<char*> argv{exe.data(), const_cast<char*>(gp.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("heatmap: cannot run '" + exe + "'");
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("heatmap: gnuplot failed on '" + gp + "'");
}

}  // namespace

void write_heatmap(const Stats& stats, const Topology& topo, int network, const std::string& path,
                   const std::string& title) {
  const double cycles = static_cast<double>(stats.cycles());
  draw_heatmap(stats, topo, network, path, title, "utilization", "flits/cycle", [cycles](const LinkStats& l) {
    return cycles > 0 ? static_cast<double>(l.busy_cycles) / cycles : 0.0;
  });
}

void write_energy_heatmap(const Stats& stats, const Topology& topo, const Config& config, int network,
                          const std::string& path, const std::string& title) {
  const EnergyCosts k = energy_costs(config);
  const double cycles = static_cast<double>(stats.cycles());
  draw_heatmap(stats, topo, network, path, title, "energy", "uJ", [&](const LinkStats& l) {
    return 1e6 * (static_cast<double>(l.flits) * (k.wire_per_flit + k.retiming_per_flit) +
                  cycles * (k.channel_clock_per_cycle + k.channel_leakage_per_cycle));
  });
}

}  // namespace tilempi::hwmodel
