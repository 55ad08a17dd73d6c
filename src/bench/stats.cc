#include "bench/stats.h"

#include <algorithm>

namespace brisk::bench {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

Spread spread(std::string name, std::vector<double> values) {
  Spread s{.name = std::move(name), .values = std::move(values)};
  if (s.values.empty()) return s;
  auto [lo, hi] = std::minmax_element(s.values.begin(), s.values.end());
  s.min = *lo;
  s.max = *hi;
  s.median = median(s.values);
  return s;
}

}  // namespace brisk::bench
