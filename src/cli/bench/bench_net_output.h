// cli/bench/bench_net_output.h: how `brisk bench link|containers` hand their
// report over: a table or JSON on stdout, and the JSON, CSV and charts in --out.
#pragma once

#include <iostream>
#include <string>

#include "bench/net_plots.h"

namespace brisk::cli {

// stem names the files: DIR/<stem>.json and DIR/<stem>.csv. The report's
// to_json, format_table and write_outputs are found in its namespace.
template <class Report>
void print_net_report(const Report& report, bool json, const std::string& out, const std::string& stem) {
  if (json)
    std::cout << to_json(report).dump(2) << "\n";
  else
    std::cout << format_table(report);
  if (out.empty()) return;
  write_outputs(report, out);
  auto plots = write_plots(report, out);
  if (json) return;
  std::cout << "wrote " << out << "/" << stem << ".json and " << out << "/" << stem << ".csv";
  for (const auto& plot : plots) std::cout << ", " << plot;
  std::cout << "\n";
}

}  // namespace brisk::cli
