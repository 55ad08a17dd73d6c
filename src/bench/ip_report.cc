#include "bench/ip_report.h"

#include <fmt/format.h>

namespace brisk::bench {
namespace {

// The table's columns, in order; a row's methods fill the first of them.
constexpr const char* kColumns[] = {"ip", "brisk", "brisk -f", "floor"};
constexpr std::size_t kMethodColumns = std::size(kColumns);

double us_per_op(const IpBenchRow& row, std::size_t k) { return row.methods[k].seconds * 1e6 / row.ops; }
bool measured(const IpBenchRow& row, std::size_t k) {
  return k < row.methods.size() && row.methods[k].seconds > 0;
}

// The floor's column, and the brisk columns each is set against.
constexpr std::size_t kFloor = 3;
constexpr std::size_t kBriskColumns[] = {1, 2};

std::string over_floor_cell(const IpBenchRow& row, std::size_t k) {
  return measured(row, k) && measured(row, kFloor)
             ? fmt::format("{:.2f}x", row.methods[k].seconds / row.methods[kFloor].seconds)
             : "-";
}

}  // namespace

std::string format_header() {
  return fmt::format("{:<12} {:>6} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}   {}\n", "phase",
                     "ops", kColumns[0], kColumns[1], kColumns[2], kColumns[3], "ip/brisk", "ip/-f",
                     "ip/floor", "brisk/fl", "-f/fl", "target (us/op; ratios ip/method)");
}

std::string format_row(const IpBenchRow& row) {
  std::string line = fmt::format("{:<12} {:>6}", row.phase, row.ops);
  for (std::size_t k = 0; k < kMethodColumns; ++k)
    line += fmt::format(" {:>10}", measured(row, k) ? fmt::format("{:.1f}", us_per_op(row, k)) : "-");
  for (std::size_t k = 1; k < kMethodColumns; ++k)
    line +=
        fmt::format(" {:>9}", measured(row, k) && measured(row, 0)
                                  ? fmt::format("{:.2f}x", row.methods[0].seconds / row.methods[k].seconds)
                                  : "-");
  for (std::size_t k : kBriskColumns) line += fmt::format(" {:>9}", over_floor_cell(row, k));
  line += "   " + row.target;
  if (row.verified) line += *row.verified ? "; end state ok" : "; END STATE DIFFERS";
  return line + "\n";
}

nlohmann::json to_json(const IpBenchReport& report) {
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& row : report.rows) {
    nlohmann::json methods = nlohmann::json::array();
    for (std::size_t k = 0; k < row.methods.size(); ++k) {
      if (!measured(row, k)) continue;
      nlohmann::json m = {{"method", row.methods[k].method},
                          {"seconds", row.methods[k].seconds},
                          {"us_per_op", us_per_op(row, k)}};
      if (measured(row, 0)) m["ip_over_method"] = row.methods[0].seconds / row.methods[k].seconds;
      if (k != kFloor && measured(row, kFloor))
        m["over_floor"] = row.methods[k].seconds / row.methods[kFloor].seconds;
      methods.push_back(m);
    }
    nlohmann::json phase = {{"phase", row.phase},     {"ops", row.ops},       {"rounds", row.rounds},
                            {"repeats", row.repeats}, {"target", row.target}, {"methods", methods}};
    if (row.verified) phase["verified"] = *row.verified;
    phases.push_back(phase);
  }
  auto ratios = [](const std::vector<IpOverLookupFloor>& over) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& o : over) out.push_back({{"phase", o.phase}, {"method", o.method}, {"ratio", o.ratio}});
    return out;
  };
  return {{"bench", "ip"},
          {"n", report.n},
          {"single_n", report.single_n},
          {"version_n", report.version_n},
          {"settle_ms", report.settle_ms},
          {"repeats", report.repeats},
          {"floor_window", report.floor_window},
          {"failures", report.failures},
          {"phases", phases},
          {"over_floor_with_lookup", ratios(report.over_lookup_floor)},
          {"over_floor_with_parse", ratios(report.over_parse_floor)},
          {"over_floor_without_acks", ratios(report.over_quiet_floor)},
          {"over_floor_one_request_per_answer", ratios(report.over_alone_floor)},
          {"floor_with_lookup_over_floor", ratios(report.lookup_floor_over_floor)}};
}

namespace {

// `line`, then each ratio as "PHASE METHOD R.RRx" (without the method where
// every entry has the same one, named in `line`).
std::string ratio_line(std::string line, const std::vector<IpOverLookupFloor>& over,
                       bool with_method = true) {
  for (const auto& o : over)
    line += with_method ? fmt::format(" {} {} {:.2f}x;", o.phase, o.method, o.ratio)
                        : fmt::format(" {} {:.2f}x;", o.phase, o.ratio);
  if (!over.empty()) line.pop_back();
  return line + "\n";
}

}  // namespace

std::string format_over_lookup_floor(const std::vector<IpOverLookupFloor>& over) {
  return ratio_line("over floor + name lookup (the floor of a line naming its device):", over);
}

std::string format_over_parse_floor(const std::vector<IpOverLookupFloor>& over) {
  return ratio_line(
      "over floor + parse only (what brisk does before its first request, then the kernel's work):", over);
}

std::string format_over_quiet_floor(const std::vector<IpOverLookupFloor>& over) {
  return ratio_line("over the floor without ACKs (only failures answered, as brisk sends):", over);
}

std::string format_lookup_floor_over_floor(const std::vector<IpOverLookupFloor>& over) {
  return ratio_line(
      "the floor of a line naming its device, over the floor (the least any tool could reach):", over, false);
}

std::string format_over_alone_floor(const std::vector<IpOverLookupFloor>& over) {
  return ratio_line("over set up alone (one request per answer, as a batch without -force sends it):", over);
}

}  // namespace brisk::bench
