// tilempi-bench: shared types of the sweep driver (driver.cpp) and its plots and tables (plots.cpp).
#pragma once

#include <string>
#include <vector>

namespace tilempi::bench {

/// One configuration of a sweep and, once run, its measurement.
struct Result {
  // Parameters.
  std::string transport;  // sim | host
  std::string preset;     // sim: chip preset; host: "-"
  std::string adapter;    // sim: from the run report; host: "-"
  std::string compute;    // sim: --compute mode; host: "-"
  int ranks = 0;
  std::string mesh;        // WxH as the library reports it
  std::string collective;  // alltoall, barrier, ...
  std::string algorithm;   // as requested (e.g. ktree:3)
  std::string selected;    // what the library ran (may differ when it falls back)
  long bytes = 0;          // per rank pair (alltoall, allgather, gather, scatter) or per rank; 0 for barrier
  int trials = 0;
  int warmup = 0;
  // Measurement: per trial the maximum over ranks, then statistics over the trials.
  bool ok = false;
  std::string error;  // why a configuration failed
  double mean_us = 0, min_us = 0, max_us = 0, var_us2 = 0;
  double span_us = 0;       // mean over trials of (last rank's end - first rank's start), one job clock
  double clock_hz = 0;      // sim: the preset's clock; cycles = us * clock_hz / 1e6
  long long conflicts = -1;  // sim: link conflicts of one call alone (-1: not measured)
  double energy_uj = -1;     // sim: the job's energy for one call alone, in uJ (-1: not measured)
  double run_seconds = 0;   // wall time the configuration took to run
};

/// Whether an algorithm is one of Yagna's NoCMsg mesh algorithms (the library's registry says).
bool is_mesh_algorithm(const std::string& alg);
/// The OperaMPI-like baseline Yagna compares a collective's mesh algorithm with, from the
/// library's registry ("" if it has none).
std::string baseline_algorithm(const std::string& coll);

/// What tables and figures show: Yagna's statistic (per trial the slowest rank's own elapsed
/// time) or the span of each trial (first rank's start to last rank's end on the job's clock).
enum class Metric { max, span, energy };
void set_metric(Metric m);
const char* metric_label();

/// Plots (PNG and SVG through gnuplot) and markdown tables of a sweep's results.
struct PlotOptions {
  std::string gnuplot = "gnuplot";
  std::string dir;      // where figures and tables go
  std::string prefix;   // file name prefix, e.g. "sim"
  std::string title;    // e.g. "sim, tilepro64 preset, udn adapter"
};
/// Every figure of the [Yagna 2013] chapter 4 shape that the results allow; returns the files written.
std::vector<std::string> write_figures(const std::vector<Result>& results, const PlotOptions& opt);
/// One overview figure (a panel per collective, time against rank count at the smallest size).
bool write_overview(const std::vector<Result>& results, const std::string& png_path, const std::string& gnuplot,
                    const std::string& title);
/// Markdown: per collective and algorithm, the variance over trials per rank count at one size.
std::string variance_table(const std::vector<Result>& results);
/// Markdown: per collective, rank count and size, each algorithm's mean time.
std::string comparison_table(const std::vector<Result>& results, bool markdown);

}  // namespace tilempi::bench
