// Figures (gnuplot: a data file and a script per figure, rendered as PNG and SVG) and tables in the
// manner of [Yagna 2013] chapter 4: time against rank count at one small size (Figures 4.1-4.5), time
// against message size on log scales per rank count (Figures 4.6-4.10), variances (Tables 4.1, 4.2).
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench.h"

namespace fs = std::filesystem;

namespace tilempi::bench {
namespace {

// The OperaMPI-like baseline of [Yagna 2013] §2.2 per collective (its allreduce is reduce + bcast,
// which no single registered algorithm is; its barrier is not described).

Metric g_metric = Metric::max;

// Whether the results mix adapters (one sweep per adapter, read back together with --from): then
// a line or a column is an algorithm on an adapter, "operampi (ilib)", because the same algorithm
// on two adapters is two different things to compare.
bool g_mixed_adapters = false;

void note_adapters(const std::vector<Result>& rs) {
  g_mixed_adapters = false;
  for (const Result& r : rs)
    if (r.adapter != rs.front().adapter) g_mixed_adapters = true;
}

std::string series(const Result& r) { return g_mixed_adapters ? r.algorithm + " (" + r.adapter + ")" : r.algorithm; }

// The algorithm a series names, for what the registry says of it (mesh algorithm, baseline).
std::string algorithm_of(const std::string& series_name) {
  const std::size_t p = series_name.find(" (");
  return p == std::string::npos ? series_name : series_name.substr(0, p);
}
bool is_mesh_series(const std::string& s) { return is_mesh_algorithm(algorithm_of(s)); }

// The time a figure or table shows: Yagna's per-trial maximum over ranks of each rank's own
// elapsed time, or the span from the first rank's start to the last rank's end.
// With --metric energy: the energy of one call alone (the conflict run's report), in uJ.
double value(const Result& r) {
  if (g_metric == Metric::energy) return r.energy_uj;
  return g_metric == Metric::span && r.span_us > 0 ? r.span_us : r.mean_us;
}
// The quantity and unit figures and tables show.
const char* quantity() { return g_metric == Metric::energy ? "energy" : "time"; }
const char* unit() { return g_metric == Metric::energy ? "uJ" : "us"; }

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string size_label(long b) {
  if (b >= (1L << 20) && b % (1L << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " B";
}

std::string us_label(double us) {
  if (us >= 100000) return fmt("%.0f", us);
  if (us >= 100) return fmt("%.1f", us);
  return fmt("%.2f", us);
}

std::vector<std::string> collectives_of(const std::vector<Result>& rs) {
  std::vector<std::string> out;
  for (const char* c : {"alltoall", "reduce", "allreduce", "barrier", "bcast", "allgather", "gather", "scatter"})
    for (const Result& r : rs)
      if (r.collective == c) {
        out.push_back(c);
        break;
      }
  return out;
}

// Algorithms of a collective, the mesh one first, then the baseline, then in order of appearance.
std::vector<std::string> algorithms_of(const std::vector<Result>& rs, const std::string& coll) {
  std::vector<std::string> out;
  for (const Result& r : rs)
    if (r.collective == coll && std::find(out.begin(), out.end(), series(r)) == out.end()) out.push_back(series(r));
  const std::string base = baseline_algorithm(coll);
  std::stable_sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    auto rank = [&](const std::string& x) {
      return is_mesh_series(x) ? 0 : (!base.empty() && algorithm_of(x) == base) ? 1 : 2;
    };
    return rank(a) < rank(b);
  });
  return out;
}

const Result* find(const std::vector<Result>& rs, const std::string& coll, const std::string& alg, int ranks, long bytes) {
  for (const Result& r : rs)
    if (r.ok && r.collective == coll && series(r) == alg && r.ranks == ranks && r.bytes == bytes) return &r;
  return nullptr;
}

// The size the rank-count figure and the variance table use: 8 B (one packet) if measured, else the smallest.
long small_size(const std::vector<Result>& rs, const std::string& coll) {
  std::set<long> sizes;
  for (const Result& r : rs)
    if (r.collective == coll) sizes.insert(r.bytes);
  if (sizes.empty()) return 0;
  return sizes.count(8) ? 8 : *sizes.begin();
}

std::vector<int> ranks_of(const std::vector<Result>& rs, const std::string& coll) {
  std::set<int> s;
  for (const Result& r : rs)
    if (r.collective == coll) s.insert(r.ranks);
  return {s.begin(), s.end()};
}

std::vector<long> sizes_of(const std::vector<Result>& rs, const std::string& coll, const std::string& alg) {
  std::set<long> s;
  for (const Result& r : rs)
    if (r.collective == coll && series(r) == alg) s.insert(r.bytes);
  return {s.begin(), s.end()};
}

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '\n') {
      o += "\\n";  // gnuplot's escape for a line break in a double-quoted string
      continue;
    }
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

std::string gp_text(std::string s) {
  // gnuplot's enhanced text treats _ ^ @ & as markup.
  std::string o;
  for (char c : s) {
    if (c == '_' || c == '^' || c == '@' || c == '&' || c == '{' || c == '}') o += '\\';
    o += c;
  }
  return o;
}

// Runs gnuplot on a script, in `dir` when given (figure scripts name their files relative to it).
bool run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& dir = "") {
  const std::string cmd =
      (dir.empty() ? "" : "cd " + quoted(dir) + " && ") + quoted(gnuplot) + " " + quoted(script) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char buf[512];
  std::string out;
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int st = pclose(p);
  if (!out.empty()) std::fprintf(stderr, "gnuplot (%s): %s", script.c_str(), out.c_str());
  return st == 0;
}

// Writes base.gp rendering `body` (plot commands) to base.png and base.svg.
bool render(const std::string& gnuplot, const std::string& base, const std::string& body, int w, int h) {
  const std::string dir = fs::path(base).parent_path().string();
  const std::string name = fs::path(base).filename().string();
  for (const char* kind : {"png", "svg"}) {
    const std::string script = base + "." + kind + ".gp";
    std::ofstream o(script);
    if (std::string(kind) == "png")
      o << "set terminal pngcairo size " << w << "," << h << " enhanced font 'Sans,10'\n";
    else
      o << "set terminal svg size " << w << "," << h << " enhanced font 'Sans,10' background rgb 'white'\n";
    o << "set output " << quoted(name + "." + kind) << "\n" << body;
    o.close();
    if (!run_gnuplot(gnuplot, name + "." + kind + ".gp", dir)) return false;
    fs::remove(script);
  }
  // Keep one script (PNG terminal) so the figure can be re-rendered by hand.
  std::ofstream o(base + ".gp");
  o << "# re-render: gnuplot " << fs::path(base).filename().string() << ".gp\n"
    << "set terminal pngcairo size " << w << "," << h << " enhanced font 'Sans,10'\n"
    << "set output " << quoted(fs::path(base).filename().string() + ".png") << "\n"
    << body;
  return true;
}

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

// Time against rank count at one size, one line per algorithm ([Yagna 2013] Figures 4.1-4.5).
// Writes a data file and returns the plot command.
std::string ranks_plot(const std::vector<Result>& rs, const std::string& coll, const std::string& dat_path,
                       const std::string& dat_name, const std::string& title) {
  const long b = small_size(rs, coll);
  const std::vector<std::string> algs = algorithms_of(rs, coll);
  const std::vector<int> ranks = ranks_of(rs, coll);
  std::ofstream d(dat_path);
  d << "# " << coll << ", " << size_label(b) << ": mean " << quantity() << " (" << unit() << ") per rank count; columns: ranks";
  for (const std::string& a : algs) d << ' ' << a;
  d << "\n";
  for (int n : ranks) {
    d << n;
    for (const std::string& a : algs) {
      const Result* r = find(rs, coll, a, n, b);
      d << ' ' << (r ? fmt("%.4f", value(*r)) : "NaN");
    }
    d << "\n";
  }
  std::ostringstream g;
  g << "set title " << quoted(gp_text(title)) << "\n"
    << "set xlabel 'tasks (ranks)'\nset ylabel '" << quantity() << " (" << unit() << ")'\nset logscale y\nset grid\n"
    << "set key top left\nset xtics (";
  for (std::size_t i = 0; i < ranks.size(); ++i) g << (i ? ", " : "") << ranks[i];
  g << ")\nset datafile missing 'NaN'\nplot ";
  for (std::size_t i = 0; i < algs.size(); ++i)
    g << (i ? ", \\\n     " : "") << quoted(dat_name) << " using 1:" << i + 2 << " with linespoints lw 2 pt "
      << (i % 7) + 1 << " dt " << (is_mesh_series(algs[i]) ? 1 : 2) << " lc rgb '" << kColors[i % 8] << "' title "
      << quoted(gp_text(algs[i]));
  g << "\n";
  return g.str();
}

}  // namespace

void set_metric(Metric m) { g_metric = m; }

const char* metric_label() {
  if (g_metric == Metric::energy) return "energy of one call alone: network, adapters, counted cores";
  return g_metric == Metric::span ? "first start to last end, mean over trials"
                                  : "slowest rank's own time, mean over trials";
}

std::vector<std::string> write_figures(const std::vector<Result>& rs, const PlotOptions& opt) {
  note_adapters(rs);
  std::vector<std::string> files;
  fs::create_directories(opt.dir);
  const fs::path dir(opt.dir);
  for (const std::string& coll : collectives_of(rs)) {
    // Time against rank count, single-packet size.
    {
      const std::string name = opt.prefix + "-ranks-" + coll;
      const std::string dat = name + ".dat";
      const long b = small_size(rs, coll);
      const std::string title = coll + (coll == "barrier" ? "" : ", " + size_label(b)) + " (" + opt.title + ")\n" +
                                metric_label();
      const std::string body = ranks_plot(rs, coll, (dir / dat).string(), dat, title);
      if (render(opt.gnuplot, (dir / name).string(), body, 800, 500)) {
        files.push_back((dir / (name + ".png")).string());
        files.push_back((dir / (name + ".svg")).string());
      }
    }
    // Time against message size, per rank count: only algorithms measured at several sizes.
    std::vector<std::string> algs;
    for (const std::string& a : algorithms_of(rs, coll))
      if (sizes_of(rs, coll, a).size() > 1) algs.push_back(a);
    if (algs.empty() || coll == "barrier") continue;
    const std::vector<int> ranks = ranks_of(rs, coll);
    const std::string name = opt.prefix + "-sizes-" + coll;
    const std::string dat = name + ".dat";
    std::ofstream d(dir / dat);
    d << "# " << coll << ": mean " << quantity() << " (" << unit() << ") per message size; one block per algorithm and rank count "
      << "(gnuplot index = block number)\n";
    std::ostringstream g;
    g << "set title " << quoted(gp_text(coll + ": " + quantity() + " against message size (" + opt.title + ")\n" + metric_label())) << "\n"
      << "set xlabel 'message size (bytes)'\nset ylabel '" << quantity() << " (" << unit() << ")'\n"
      << "set logscale xy 2\nset format x '2^{%L}'\n"
      << "set format y '10^{%T}'\nset logscale y 10\nset grid\nset key outside right top\nplot ";
    int block = 0;
    for (std::size_t ai = 0; ai < algs.size(); ++ai)
      for (std::size_t ni = 0; ni < ranks.size(); ++ni) {
        bool any = false;
        std::ostringstream blk;
        blk << "# " << algs[ai] << " " << ranks[ni] << " ranks\n";
        for (long b : sizes_of(rs, coll, algs[ai]))
          if (const Result* r = find(rs, coll, algs[ai], ranks[ni], b)) {
            blk << b << ' ' << fmt("%.4f", value(*r)) << "\n";
            any = true;
          }
        if (!any) continue;
        d << blk.str() << "\n\n";
        g << (block ? ", \\\n     " : "") << quoted(dat) << " index " << block << " using 1:2 with linespoints lw 2 pt "
          << (ai % 7) + 1 << " dt " << (ai == 0 ? 1 : static_cast<int>(ai) + 1) << " lc rgb '" << kColors[ni % 8]
          << "' title " << quoted(gp_text(algs[ai] + " " + std::to_string(ranks[ni])));
        ++block;
      }
    g << "\n";
    d.close();
    if (block > 0 && render(opt.gnuplot, (dir / name).string(), g.str(), 900, 550)) {
      files.push_back((dir / (name + ".png")).string());
      files.push_back((dir / (name + ".svg")).string());
    }
  }
  if (g_metric == Metric::max) {
    // The trials' variance is recorded for the slowest rank's time only: a span table would
    // repeat it under a wrong title.
    std::ofstream o(dir / (opt.prefix + "-variance.md"));
    o << variance_table(rs);
    files.push_back((dir / (opt.prefix + "-variance.md")).string());
  }
  {
    std::ofstream o(dir / (opt.prefix + "-comparison.md"));
    o << comparison_table(rs, true);
    files.push_back((dir / (opt.prefix + "-comparison.md")).string());
  }
  return files;
}

bool write_overview(const std::vector<Result>& rs, const std::string& png_path, const std::string& gnuplot,
                    const std::string& title) {
  note_adapters(rs);
  const std::vector<std::string> colls = collectives_of(rs);
  if (colls.empty()) return false;
  const fs::path out = fs::absolute(png_path);
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  const std::string tmp = out.string() + ".tmp";
  fs::create_directories(tmp);
  const int cols = colls.size() > 1 ? 2 : 1;
  const int rows = (static_cast<int>(colls.size()) + cols - 1) / cols;
  std::ostringstream g;
  g << "set terminal pngcairo size " << 560 * cols << "," << 380 * rows + 40 << " enhanced font 'Sans,9'\n"
    << "set output " << quoted(out.string()) << "\n"
    << "set multiplot layout " << rows << "," << cols << " title "
    << quoted(gp_text("tilempi-bench: " + title + "; time: " + metric_label()))
    << "\n";
  for (const std::string& coll : colls) {
    const std::string dat = (fs::path(tmp) / (coll + ".dat")).string();
    const long b = small_size(rs, coll);
    g << ranks_plot(rs, coll, dat, dat, coll + (coll == "barrier" ? "" : ", " + size_label(b)));
  }
  g << "unset multiplot\n";
  const std::string script = (fs::path(tmp) / "overview.gp").string();
  {
    std::ofstream o(script);
    o << g.str();
  }
  const bool ok = run_gnuplot(gnuplot, script);
  fs::remove_all(tmp);
  return ok;
}

std::string variance_table(const std::vector<Result>& rs) {
  note_adapters(rs);
  std::ostringstream o;
  for (const std::string& coll : collectives_of(rs)) {
    const long b = small_size(rs, coll);
    const std::vector<int> ranks = ranks_of(rs, coll);
    o << "\n**" << coll << (coll == "barrier" ? "" : ", " + size_label(b))
      << "**: variance (us^2) over trials of the slowest rank's time\n\n| algorithm |";
    for (int n : ranks) o << ' ' << n << " |";
    o << "\n|---|";
    for (std::size_t i = 0; i < ranks.size(); ++i) o << "---:|";
    o << "\n";
    for (const std::string& a : algorithms_of(rs, coll)) {
      o << "| " << a << " |";
      for (int n : ranks) {
        const Result* r = find(rs, coll, a, n, b);
        o << ' ' << (r ? (r->var_us2 < 1e-9 ? std::string("0") : fmt("%.2g", r->var_us2)) : "-") << " |";
      }
      o << "\n";
    }
  }
  return o.str();
}

std::string comparison_table(const std::vector<Result>& rs, bool markdown) {
  note_adapters(rs);
  std::ostringstream o;
  const bool sim = !rs.empty() && rs[0].transport == "sim";
  for (const std::string& coll : collectives_of(rs)) {
    const std::vector<std::string> algs = algorithms_of(rs, coll);
    std::string mesh;
    for (const std::string& a : algs)
      if (mesh.empty() && is_mesh_series(a)) mesh = a;
    const std::string base_alg = baseline_algorithm(coll);
    std::string base;
    for (const std::string& a : algs)
      if (base.empty() && !base_alg.empty() && algorithm_of(a) == base_alg) base = a;
    bool conflicts = false;
    for (const Result& r : rs)
      if (r.collective == coll && r.conflicts >= 0) conflicts = true;
    std::vector<std::string> head = {"ranks", "size"};
    for (const std::string& a : algs) head.push_back(a + " " + unit() + (conflicts ? " (confl.)" : ""));
    if (!mesh.empty() && !base.empty()) head.push_back(mesh + " vs " + base);
    if (!mesh.empty() && algs.size() > 1) head.push_back(mesh + " vs best classic");
    std::vector<std::vector<std::string>> rows;
    std::set<std::pair<int, long>> keys;
    for (const Result& r : rs)
      if (r.collective == coll) keys.insert({r.ranks, r.bytes});
    for (const auto& [n, b] : keys) {
      std::vector<std::string> row = {std::to_string(n), coll == "barrier" ? "-" : size_label(b)};
      double best_other = -1;
      for (const std::string& a : algs) {
        const Result* r = find(rs, coll, a, n, b);
        std::string cell = r ? us_label(value(*r)) : "-";
        if (r && sim && r->conflicts >= 0) cell += " (" + std::to_string(r->conflicts) + ")";
        row.push_back(cell);
        if (r && !is_mesh_series(a) && (best_other < 0 || value(*r) < best_other)) best_other = value(*r);
      }
      const Result* m = mesh.empty() ? nullptr : find(rs, coll, mesh, n, b);
      auto pct = [&](double other) {
        return m && other > 0 ? fmt("%+.0f%%", 100.0 * (value(*m) - other) / other) : std::string("-");
      };
      if (!mesh.empty() && !base.empty()) {
        const Result* br = find(rs, coll, base, n, b);
        row.push_back(pct(br ? value(*br) : -1));
      }
      if (!mesh.empty() && algs.size() > 1) row.push_back(pct(best_other));
      rows.push_back(row);
    }
    std::vector<std::size_t> width(head.size());
    for (std::size_t i = 0; i < head.size(); ++i) {
      width[i] = head[i].size();
      for (const auto& row : rows) width[i] = std::max(width[i], row[i].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
      std::string s = markdown ? "|" : "";
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string pad(width[i] - cells[i].size(), ' ');
        s += markdown ? " " + cells[i] + " |" : (i ? "  " : "") + (i < 2 ? cells[i] + pad : pad + cells[i]);
      }
      return s + "\n";
    };
    o << "\n" << (markdown ? "**" + coll + "**" : "== " + coll)
      << (g_metric == Metric::energy ? ": uJ (" : sim ? ": virtual us (" : ": wall us (") << metric_label() << ")" << (conflicts ? ", link conflicts of one call in ()" : "")
      << (mesh.empty() ? "" : "; negative % = " + mesh + (g_metric == Metric::energy ? " spends less" : " faster")) << "\n" << (markdown ? "\n" : "");
    o << line(head);
    if (markdown) {
      std::string sep = "|";
      for (std::size_t i = 0; i < head.size(); ++i) sep += i < 2 ? "---|" : "---:|";
      o << sep << "\n";
    }
    for (const auto& row : rows) o << line(row);
  }
  return o.str();
}

}  // namespace tilempi::bench
