// write_plot(): picks the back end; the checks both back ends share.
#include "bench/plot.h"

#include <cmath>

#include "bench/plot_detail.h"
#include "brisk/spawn.h"

namespace brisk::bench {

std::string find_gnuplot() { return find_program("gnuplot").value_or(""); }

bool wants_log_scale(const std::vector<PlotSeries>& series, bool x_axis, double spread) {
  double lo = INFINITY, hi = 0;
  for (const auto& s : series)
    for (auto [x, y] : s.points) {
      double v = x_axis ? x : y;
      if (v > 0 && std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
  return hi > 0 && hi / lo > spread;
}

namespace detail {

Result<void> check_spec(const PlotSpec& spec, const std::string& path) {
  auto bad = [&](std::string why) {
    return SysError{.code = EINVAL, .call = "plot", .object = path, .detail = why};
  };
  bool any = false;
  for (const auto& s : spec.series) {
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y))
        return bad("series '" + s.name + "' has a non-finite value");
      if (spec.log_x && x <= 0) return bad("series '" + s.name + "' has x <= 0 on a log x axis");
      if (spec.log_y && y <= 0) return bad("series '" + s.name + "' has y <= 0 on a log y axis");
      any = true;
    }
  }
  if (!any) return bad("no data points to draw");
  return {};
}

}  // namespace detail

Result<std::string> write_plot(const PlotSpec& spec, const std::string& stem) {
  if (!find_gnuplot().empty()) return write_plot_png(spec, stem + ".png");
  return write_plot_svg(spec, stem + ".svg");
}

}  // namespace brisk::bench
