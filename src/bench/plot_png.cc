// The PNG back end: a gnuplot script fed on stdin to gnuplot, run through
// brisk::Command (no shell), data inline so no temp file is left behind.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "bench/plot_detail.h"
#include "brisk/command.h"

namespace brisk::bench {
namespace {

// A gnuplot double-quoted string: backslash and quote escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Ticks at the data's own x values when there are few of them (10, 1024,
// 4096 MiB), so each point can be read off the axis.
std::string data_xtics(const PlotSpec& spec) {
  std::vector<double> xs;
  for (const auto& series : spec.series)
    for (auto [x, y] : series.points)
      if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
  if (xs.size() > 8) return {};
  std::sort(xs.begin(), xs.end());
  std::string tics = "set xtics (";
  for (std::size_t i = 0; i < xs.size(); ++i)
    tics += fmt::format("{}\"{:g}\" {:.9g}", i ? ", " : "", xs[i], xs[i]);
  return tics + ")\n";
}

std::string script_for(const PlotSpec& spec, const std::string& path) {
  std::string s;
  s += "set encoding utf8\n";
  s += "set terminal pngcairo size 1100,640 font \",12\" noenhanced\n";
  s += "set output " + quoted(path) + "\n";
  s += "set title " + quoted(spec.title) + " font \",14\"\n";
  s += "set xlabel " + quoted(spec.x_label) + "\n";
  s += "set ylabel " + quoted(spec.y_label) + "\n";
  s += "set grid xtics ytics mxtics mytics lw 1 lc rgb '#c8c8c8', lw 1 lc rgb '#e4e4e4'\n";
  s += "set key outside right top box opaque spacing 1.3\n";
  s += "set border 3\nset tics nomirror\n";
  if (spec.log_x) s += "set logscale x 10\nset mxtics 10\n";
  if (spec.log_y) s += "set logscale y 10\nset mytics 10\n";
  if (!spec.log_y) s += "set yrange [0:*]\n";
  s += "set format x \"%.10g\"\nset format y \"%.10g\"\n";
  s += "set autoscale xfix\nset offsets graph 0.04, graph 0.04, 0, 0\n";
  s += data_xtics(spec);
  // Drawn last to first, so the first series (brisk) lies on top of lines
  // it overlaps; `set key invert` keeps the legend in the given order.
  s += "set key invert\nplot ";
  std::vector<std::size_t> order;
  for (std::size_t i = spec.series.size(); i-- > 0;)
    if (!spec.series[i].points.empty()) order.push_back(i);
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::size_t i = order[k];
    s += k ? ", " : "";
    s += fmt::format("'-' using 1:2 with linespoints lw {} pt {} ps 1.2 lc rgb '{}' dt {} title {}",
                     i ? 2 : 3.5, 5 + 2 * (i % 4), detail::kColors[i % std::size(detail::kColors)],
                     1 + i / std::size(detail::kColors), quoted(spec.series[i].name));
  }
  s += "\n";
  for (std::size_t i : order) {
    for (auto [x, y] : spec.series[i].points) s += fmt::format("{:.9g} {:.9g}\n", x, y);
    s += "e\n";
  }
  return s;
}

bool has_png_magic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  return in && std::string_view(magic, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8);
}

}  // namespace

Result<std::string> write_plot_png(const PlotSpec& spec, const std::string& path) {
  BRISK_TRY(detail::check_spec(spec, path));
  std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    return SysError{.code = ENOENT, .call = "plot", .object = path, .detail = "gnuplot is not on PATH"};
  try {
    Output out = Command({gnuplot})
                     .stdin_from(Input::data(script_for(spec, path)))
                     .stdout_to(Sink::capture())
                     .stderr_to(Sink::capture())
                     .check(false)
                     .output();
    if (!out.status.success()) {
      return SysError{.code = 0,
                      .call = "gnuplot",
                      .object = path,
                      .detail = out.status.to_string() + ": " + out.err.substr(0, 400)};
    }
  } catch (const std::exception& e) {
    return SysError{.code = 0, .call = "gnuplot", .object = path, .detail = e.what()};
  }
  if (!has_png_magic(path))
    return SysError{.code = 0, .call = "gnuplot", .object = path, .detail = "did not write a PNG file"};
  return path;
}

}  // namespace brisk::bench
