// bench/plot.h: line charts of benchmark results, one line per method.
//
// write_plot() draws a PNG through gnuplot when it is on PATH (run through
// brisk::Command, the script fed on stdin, no shell), and otherwise writes an
// SVG itself. Both have axis titles with units, tick labels, a legend and
// optional log scales, so a reader can take figures off the chart.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "brisk/result.h"

namespace brisk::bench {

struct PlotSeries {
  std::string name;                               // legend entry
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in the given order
};

struct PlotSpec {
  std::string title, x_label, y_label;  // labels include units, e.g. "parent heap (MiB)"
  bool log_x = false, log_y = false;
  std::vector<PlotSeries> series;  // one line per method, with a legend; the first
                                   // (brisk) is drawn thicker and on top
};

// Writes <stem>.png through gnuplot when gnuplot is on PATH, else <stem>.svg
// drawn directly; returns the path written, or an error with context.
Result<std::string> write_plot(const PlotSpec& spec, const std::string& stem);

// The two back ends, for callers (and tests) that want one in particular.
// `path` is the full file name to write.
Result<std::string> write_plot_png(const PlotSpec& spec, const std::string& path);
Result<std::string> write_plot_svg(const PlotSpec& spec, const std::string& path);

// gnuplot's path when it is on PATH, else empty.
std::string find_gnuplot();

// True when the range of the positive values calls for a log scale (they
// span more than a factor of `spread`).
bool wants_log_scale(const std::vector<PlotSeries>& series, bool x_axis, double spread = 20);

}  // namespace brisk::bench
