// The SVG back end, drawn directly: a frame with ticks and grid, one
// polyline with markers per series, axis titles and a legend on the right.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "bench/plot_detail.h"

namespace brisk::bench {
namespace {

constexpr double kWidth = 960, kHeight = 560;
constexpr double kLeft = 90, kRight = 700, kTop = 56, kBottom = 480;  // the plot area
// Beyond ten series, lines repeat colours with a dash pattern.
const char* const kDashes[] = {"", " stroke-dasharray=\"6,3\"", " stroke-dasharray=\"2,3\""};

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string tick_label(double v) {
  if (v == 0) return "0";
  double a = std::fabs(v);
  if (a >= 1e7 || a < 1e-3) return fmt::format("{:.0e}", v);
  if (a >= 1 && v == std::round(v)) return fmt::format("{:.0f}", v);  // 1000000, not 1e+06
  return fmt::format("{:g}", v);
}

// One axis: the data range mapped onto [0, 1], with its ticks.
struct Axis {
  bool log = false;
  double lo = 0, hi = 1;                              // in axis units (log10 of the value on a log axis)
  std::vector<std::pair<double, std::string>> major;  // value, label
  std::vector<double> minor;                          // values, unlabelled

  double fraction(double v) const {
    double t = log ? std::log10(v) : v;
    return (t - lo) / (hi - lo);
  }
};

double nice_step(double span) {
  double raw = span / 6;
  double decade = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (raw <= m * decade) return m * decade;
  return 10 * decade;
}

Axis make_axis(std::vector<double> values, bool log) {
  Axis axis;
  axis.log = log;
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  double lo = *mn, hi = *mx;
  if (log) {
    axis.lo = std::floor(std::log10(lo));
    axis.hi = std::ceil(std::log10(hi));
    if (axis.hi <= axis.lo) axis.hi = axis.lo + 1;
    for (int d = static_cast<int>(axis.lo); d <= static_cast<int>(axis.hi); ++d) {
      double base = std::pow(10, d);
      axis.major.emplace_back(base, tick_label(base));
      if (d == static_cast<int>(axis.hi)) break;
      for (int m = 2; m <= 9; ++m) axis.minor.push_back(m * base);
    }
    return axis;
  }
  if (lo >= 0) lo = 0;  // time and size axes start at zero
  if (hi <= lo) hi = lo + 1;
  double step = nice_step(hi - lo);
  axis.lo = std::floor(lo / step) * step;
  axis.hi = std::ceil(hi / step) * step;
  for (double v = axis.lo; v <= axis.hi + step / 2; v += step) axis.major.emplace_back(v, tick_label(v));
  return axis;
}

}  // namespace

Result<std::string> write_plot_svg(const PlotSpec& spec, const std::string& path) {
  BRISK_TRY(detail::check_spec(spec, path));
  std::vector<double> xs, ys;
  for (const auto& s : spec.series)
    for (auto [x, y] : s.points) xs.push_back(x), ys.push_back(y);
  Axis ax = make_axis(xs, spec.log_x), ay = make_axis(ys, spec.log_y);
  auto px = [&](double x) { return kLeft + ax.fraction(x) * (kRight - kLeft); };
  auto py = [&](double y) { return kBottom - ay.fraction(y) * (kBottom - kTop); };

  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"{2}\" y=\"30\" text-anchor=\"middle\" font-size=\"17\">{3}</text>\n",
      kWidth, kHeight, (kLeft + kRight) / 2, escaped(spec.title));

  // Grid and ticks.
  for (double v : ax.minor)
    svg += fmt::format(
        "<line class=\"grid-minor\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" "
        "stroke=\"#f0f0f0\"/>\n",
        px(v), kTop, kBottom);
  for (double v : ay.minor)
    svg += fmt::format(
        "<line class=\"grid-minor\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" "
        "stroke=\"#f0f0f0\"/>\n",
        kLeft, py(v), kRight);
  for (const auto& [v, label] : ax.major) {
    double x = px(v);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#d8d8d8\"/>\n", x,
                       kTop, kBottom);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"black\"/>\n", x,
                       kBottom, kBottom + 6);
    svg += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x,
                       kBottom + 22, escaped(label));
  }
  for (const auto& [v, label] : ay.major) {
    double y = py(v);
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#d8d8d8\"/>\n",
                       kLeft, y, kRight);
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"black\"/>\n",
                       kLeft - 6, y, kLeft);
    svg += fmt::format("<text class=\"ytick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
                       kLeft - 10, y + 4, escaped(label));
  }
  svg += fmt::format("<polyline points=\"{0},{1} {0},{2} {3},{2}\" fill=\"none\" stroke=\"black\"/>\n", kLeft,
                     kTop, kBottom, kRight);

  // Axis titles.
  svg += fmt::format(
      "<text class=\"xlabel\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
      (kLeft + kRight) / 2, kBottom + 50, escaped(spec.x_label + (spec.log_x ? ", log scale" : "")));
  svg += fmt::format(
      "<text class=\"ylabel\" x=\"0\" y=\"0\" text-anchor=\"middle\" font-size=\"14\" "
      "transform=\"translate(24 {}) rotate(-90)\">{}</text>\n",
      (kTop + kBottom) / 2, escaped(spec.y_label + (spec.log_y ? ", log scale" : "")));

  // Series and legend.
  double legend_y = kTop + 10;
  svg += fmt::format(
      "<rect class=\"legend\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\" "
      "stroke=\"#999\"/>\n",
      kRight + 20, kTop, kWidth - kRight - 30, 16 + 22 * static_cast<double>(spec.series.size()));
  auto color_of = [](std::size_t i) { return detail::kColors[i % std::size(detail::kColors)]; };
  auto dash_of = [](std::size_t i) { return kDashes[(i / std::size(detail::kColors)) % std::size(kDashes)]; };
  // Last to first, so the first series (brisk) lies on top of lines it overlaps.
  for (std::size_t i = spec.series.size(); i-- > 0;) {
    const auto& s = spec.series[i];
    std::string points;
    for (auto [x, y] : s.points) points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    svg += fmt::format("<g class=\"series\"><title>{}</title>\n", escaped(s.name));
    svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                       points, color_of(i), i ? 2 : 3.5, dash_of(i));
    for (auto [x, y] : s.points)
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/>\n", px(x), py(y),
                         color_of(i));
    svg += "</g>\n";
  }
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    double y = legend_y + 22 * static_cast<double>(i) + 8;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"3\"{}/>\n",
        kRight + 30, y, kRight + 60, y, color_of(i), dash_of(i));
    svg += fmt::format("<text class=\"legend-entry\" x=\"{}\" y=\"{:.1f}\">{}</text>\n", kRight + 68, y + 4,
                       escaped(spec.series[i].name));
  }
  svg += "</svg>\n";

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return SysError{.code = errno ? errno : EIO, .call = "open", .object = path};
  out << svg;
  out.close();
  if (!out) return SysError{.code = errno ? errno : EIO, .call = "write", .object = path};
  return path;
}

}  // namespace brisk::bench
