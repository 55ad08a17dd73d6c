// bench/stats.h: the summaries every benchmark reports over its repeats.
#pragma once

#include <string>
#include <vector>

namespace brisk::bench {

// The median of values (0 when empty).
double median(std::vector<double> values);

// One ratio measured once per repeat, side by side: what a report quotes
// instead of a single run's figure, which on a shared machine can land
// anywhere in the range.
struct Spread {
  std::string name{};            // what was divided by what, e.g. "setup brisk / floor"
  std::vector<double> values{};  // one per repeat, in run order
  double median = 0;
  double min = 0;
  double max = 0;
};

// The spread of values (all 0 when empty).
Spread spread(std::string name, std::vector<double> values);

}  // namespace brisk::bench
