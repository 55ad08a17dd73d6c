// bench/plot_detail.h: what plot.cc, plot_png.cc and plot_svg.cc share.
#pragma once

#include <string>

#include "bench/plot.h"

namespace brisk::bench::detail {

// EINVAL with the reason when the spec cannot be drawn: no points, a
// non-finite value, or a value <= 0 on a log axis.
Result<void> check_spec(const PlotSpec& spec, const std::string& path);

}  // namespace brisk::bench::detail
