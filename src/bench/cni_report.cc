// bench/cni_report.cc: the table, JSON and CSV of `brisk bench cni`.
#include <fmt/format.h>

#include "bench/cni_bench.h"
#include "bench/report_files.h"

namespace brisk::bench {
namespace {

const char* const kTableSides[] = {"reference", "brisk", "in-process", "process start", "floor"};

std::string pass_label(const CniPass& pass) {
  return std::string(pass.masq ? "ipMasq on" : "ipMasq off") +
         (pass.chain.empty() ? "" : ", chain bridge + " + pass.chain);
}

std::string rows_table(const CniPass& pass) {
  std::string out = fmt::format("{:<5} {:<13} {:>6} {:>9} {:>11} {:>11} {:>13}\n", "phase", "side", "runs",
                                "failures", "mean µs", "median µs", "mean / brisk");
  for (const char* phase : {"ADD", "DEL"}) {
    const CniPhaseRow* brisk = find_row(pass, "brisk", phase);
    for (const char* side : kTableSides) {
      const CniPhaseRow* row = find_row(pass, side, phase);
      if (!row) continue;
      double ratio = brisk && brisk->us_mean > 0 ? row->us_mean / brisk->us_mean : 0;
      out += fmt::format("{:<5} {:<13} {:>6} {:>9} {:>11.0f} {:>11.0f} {:>12.2f}x\n", phase, side, row->ops,
                         row->failures, row->us_mean, row->us_median, ratio);
    }
  }
  return out;
}

std::string buckets_table(const CniPass& pass) {
  std::string out = fmt::format("{:<5} {:>6}", "phase", "pods");
  for (const char* side : kTableSides) out += fmt::format(" {:>13}", side);
  out += "\n";
  for (const char* phase : {"ADD", "DEL"}) {
    const CniPhaseRow* brisk = find_row(pass, "brisk", phase);
    if (!brisk) continue;
    for (std::size_t b = 0; b < brisk->buckets.size(); ++b) {
      out += fmt::format("{:<5} {:>6}", phase, brisk->buckets[b].pods_before);
      for (const char* side : kTableSides) {
        const CniPhaseRow* row = find_row(pass, side, phase);
        out += row && b < row->buckets.size() ? fmt::format(" {:>13.0f}", row->buckets[b].us_per_op)
                                              : fmt::format(" {:>13}", "-");
      }
      out += "\n";
    }
  }
  return out;
}

std::string parallel_table(const CniPass& pass) {
  std::string out;
  for (const auto& row : pass.parallel) {
    std::string rounds;
    for (double ms : row.wall_ms) rounds += fmt::format("{}{:.1f}", rounds.empty() ? "" : " ", ms);
    out += fmt::format("  {:<10} {:>9.1f} ms median ({}), failures {}, duplicate addresses {}\n", row.side,
                       row.wall_ms_median, rounds, row.failures, row.duplicates);
  }
  // What the floor's ADDs would take one at a time, from the sequential
  // floor: against its parallel wall time, how much running at once gains.
  const CniPhaseRow* floor = find_row(pass, "floor", "ADD");
  if (floor && !pass.parallel.empty())
    out +=
        fmt::format("  (floor one at a time: {} x {:.0f} µs mean = {:.1f} ms)\n", pass.parallel.front().pods,
                    floor->us_mean, pass.parallel.front().pods * floor->us_mean / 1000);
  return out;
}

std::string errors_of(const CniPass& pass) {
  std::string out;
  for (const auto& row : pass.rows)
    if (!row.first_error.empty())
      out += fmt::format("  first {} {} failure: {}\n", row.side, row.phase, row.first_error);
  for (const auto& row : pass.parallel)
    if (!row.first_error.empty())
      out += fmt::format("  first {} parallel failure: {}\n", row.side, row.first_error);
  return out;
}

}  // namespace

std::string format_table(const CniBenchReport& report) {
  const auto& c = report.config;
  bool chain = !c.chain.empty();
  std::string parallel = chain ? std::string("no parallel rounds (a chain)")
                               : fmt::format("{} parallel ADDs x {} rounds", c.parallel, c.parallel_repeats);
  std::string out = fmt::format(
      "brisk bench cni: {} pods per side, buckets of {}, {}\n"
      "reference: {}/bridge + host-local{}; brisk: {}\n"
      "floor = in-process ({} on the bench thread) + process start (/bin/true, started as the "
      "plugins are{})\n",
      c.n, (c.n + c.buckets - 1) / c.buckets, parallel, c.reference_dir, chain ? " + " + c.chain : "",
      report.brisk_plugin + (chain ? " + " + report.brisk_portmap : ""),
      chain ? "run_plugin, then run_portmap_plugin" : "run_plugin", chain ? "; two per chain" : "");
  if (!chain)
    out +=
        "parallel floor = one thread per ADD, each a process start and then run_plugin with its own netlink "
        "sockets\n";
  for (const auto& pass : report.passes) {
    out += fmt::format("\n== {} ==\n", pass_label(pass));
    out += rows_table(pass);
    out += "\nµs per run, per bucket (pods attached when the bucket began; flat means no slowdown)\n";
    out += buckets_table(pass);
    if (!pass.parallel.empty())
      out += fmt::format("\n{} ADDs started at once on fresh pods, wall time until the last exits:\n",
                         pass.parallel.front().pods) +
             parallel_table(pass);
    out += fmt::format("\ntargets ({}, ratios of means):\n", pass_label(pass));
    for (const auto& t : pass.targets)
      out += fmt::format("  {:<46} {:>7.2f}x   target {} {:<4}  {}\n", t.name, t.value,
                         t.at_least ? ">=" : "<=", t.target, t.met() ? "met" : "MISSED");
    out += errors_of(pass);
  }
  out += fmt::format("\nevery ADD and DEL succeeded, no duplicate address: {}\n",
                     report.all_succeeded() ? "yes" : "NO");
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json to_json(const CniBenchReport& report) {
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& pass : report.passes) {
    nlohmann::json rows = nlohmann::json::array(), parallel = nlohmann::json::array(),
                   targets = nlohmann::json::array();
    for (const auto& r : pass.rows) {
      nlohmann::json buckets = nlohmann::json::array();
      for (const auto& b : r.buckets)
        buckets.push_back(
            {{"index", b.index}, {"pods_before", b.pods_before}, {"ops", b.ops}, {"us_per_op", b.us_per_op}});
      rows.push_back({{"side", r.side},
                      {"phase", r.phase},
                      {"ops", r.ops},
                      {"failures", r.failures},
                      {"us_mean", r.us_mean},
                      {"us_median", r.us_median},
                      {"buckets", buckets},
                      {"first_error", r.first_error}});
    }
    for (const auto& r : pass.parallel)
      parallel.push_back({{"side", r.side},
                          {"pods", r.pods},
                          {"wall_ms", r.wall_ms},
                          {"wall_ms_median", r.wall_ms_median},
                          {"failures", r.failures},
                          {"duplicates", r.duplicates},
                          {"first_error", r.first_error}});
    for (const auto& t : pass.targets)
      targets.push_back({{"name", t.name},
                         {"value", t.value},
                         {"target", t.target},
                         {"at_least", t.at_least},
                         {"met", t.met()}});
    passes.push_back({{"masq", pass.masq},
                      {"chain", pass.chain},
                      {"rows", rows},
                      {"parallel", parallel},
                      {"targets", targets}});
  }
  const auto& c = report.config;
  return {{"bench", "cni"},
          {"units",
           {{"us_mean", "microseconds per plugin run, mean"},
            {"us_median", "microseconds per plugin run, median"},
            {"us_per_op", "microseconds per plugin run, mean over the bucket"},
            {"wall_ms", "milliseconds from the first start until the last exit"},
            {"value", "ratio of means (or of parallel medians)"}}},
          {"config",
           {{"n", c.n},
            {"buckets", c.buckets},
            {"parallel", c.parallel},
            {"parallel_repeats", c.parallel_repeats},
            {"reference_dir", c.reference_dir},
            {"timeout_ms", c.timeout_ms},
            {"settle_ms", c.settle_ms}}},
          {"brisk_plugin", report.brisk_plugin},
          {"brisk_portmap", report.brisk_portmap},
          {"passes", passes},
          {"all_succeeded", report.all_succeeded()},
          {"notes", report.notes}};
}

std::string to_csv(const CniBenchReport& report) {
  std::string out = csv_row({"masq", "side", "phase", "kind", "bucket", "pods_before", "ops", "us"});
  for (const auto& pass : report.passes) {
    std::string masq = pass.masq ? "on" : "off";
    for (const auto& r : pass.rows)
      for (const auto& b : r.buckets)
        out +=
            csv_row({masq, r.side, r.phase, "bucket", std::to_string(b.index), std::to_string(b.pods_before),
                     std::to_string(b.ops), fmt::format("{:.1f}", b.us_per_op)});
    for (const auto& r : pass.parallel)
      for (std::size_t k = 0; k < r.wall_ms.size(); ++k)
        out += csv_row({masq, r.side, "ADD", "parallel", std::to_string(k), "0", std::to_string(r.pods),
                        fmt::format("{:.1f}", r.wall_ms[k] * 1000)});
  }
  return out;
}

void write_outputs(const CniBenchReport& report, const std::string& dir) {
  write_text_file(dir, "cni.json", to_json(report).dump(2) + "\n");
  write_text_file(dir, "cni.csv", to_csv(report));
}

}  // namespace brisk::bench
