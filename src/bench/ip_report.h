// bench/ip_report.h: what `brisk bench ip` measured, one row per phase:
// printed as a table line as soon as the phase ends, and as JSON (--json).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace brisk::bench {

struct IpMethodTime {
  std::string method{};  // "ip", "brisk", "brisk -force", "floor"
  double seconds = -1;   // the method's total for the phase; negative: not measured
};

struct IpBenchRow {
  std::string phase{};                  // "veth add", "route add", "delete", ...
  int ops = 0;                          // operations per method
  int rounds = 1;                       // runs per method the ops were split into
  int repeats = 1;                      // timed runs per method of all the ops; seconds are their median
  std::vector<IpMethodTime> methods{};  // ip first: every ratio is ip's time over the method's
  std::string target{};                 // what the phase should show
  std::optional<bool> verified{};  // every method reached the same, expected end state; unset: not checked
};

// A brisk method's time for a phase whose lines name their device, over
// the floor's plus the name lookups' (the floor of such a line).
struct IpOverLookupFloor {
  std::string phase{};   // "addr add", "route add"
  std::string method{};  // "brisk", "brisk -force"
  double ratio = 0;
};

struct IpBenchReport {
  int n = 0;             // veth pairs, routes and rules per batch phase
  int single_n = 0;      // one-process-per-op runs per method
  int version_n = 0;     // `-V` runs per method
  int settle_ms = 0;     // pause before each timed run
  int repeats = 1;       // timed runs per method of addr, route and rule add
  int floor_window = 0;  // the floor's requests per send()
  std::vector<IpBenchRow> rows{};
  std::vector<IpOverLookupFloor> over_lookup_floor{};
  // A brisk method's time over the floor's plus brisk's "parse only" run
  // of the same file (the process, reading and parsing every line, which
  // a brisk batch does before it sends anything).
  std::vector<IpOverLookupFloor> over_parse_floor{};
  // A brisk method's time over the floor's when the floor, like brisk's
  // engine, asks for no ACK of a success (one NLMSG_NOOP fence per send).
  std::vector<IpOverLookupFloor> over_quiet_floor{};
  // A brisk method's time over the floor's sending one request per answer
  // ("set up alone"): the floor of a change that cannot be undone, which a
  // batch without -force must send that way.
  std::vector<IpOverLookupFloor> over_alone_floor{};
  // The floor's time plus the name lookups', over the floor's alone (method
  // "floor + name lookup"): the least a tool handed `dev NAME` lines could
  // reach, as a ratio of the floor, beside the 1.25x the phases aim at.
  std::vector<IpOverLookupFloor> lookup_floor_over_floor{};
  int failures = 0;  // runs (or floor requests) that failed
};

// The table's header line, and one row of it.
std::string format_header();
std::string format_row(const IpBenchRow& row);
nlohmann::json to_json(const IpBenchReport& report);
// The figures of `over`, one line for the table.
std::string format_over_lookup_floor(const std::vector<IpOverLookupFloor>& over);
std::string format_over_parse_floor(const std::vector<IpOverLookupFloor>& over);
std::string format_over_quiet_floor(const std::vector<IpOverLookupFloor>& over);
std::string format_over_alone_floor(const std::vector<IpOverLookupFloor>& over);
std::string format_lookup_floor_over_floor(const std::vector<IpOverLookupFloor>& over);

}  // namespace brisk::bench
