// bench/plot_detail.h: what plot.cc, plot_png.cc and plot_svg.cc share.
#pragma once

#include <string>

#include "bench/plot.h"

namespace brisk::bench::detail {

// Ten colours that stay apart on screen and paper, then dash patterns, so
// no two of up to 30 lines look alike (gnuplot's own cycle repeats at 8).
// Both renderers draw the same series in the same colours.
inline constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

// EINVAL with the reason when the spec cannot be drawn: no points, a
// non-finite value, or a value <= 0 on a log axis.
Result<void> check_spec(const PlotSpec& spec, const std::string& path);

}  // namespace brisk::bench::detail
