// bench/net_plots.cc: flatness charts for the link and containers benches.
#include "bench/net_plots.h"

#include <stdexcept>

namespace brisk::bench {
namespace {

std::string file_stem(std::string phase) {
  for (char& c : phase)
    if (c == ' ') c = '-';
  return phase;
}

// brisk first: write_plot draws the first series on top.
template <class Item, class Name>
std::vector<const Item*> brisk_first(const std::vector<Item>& items, Name name_of) {
  std::vector<const Item*> ordered;
  for (const auto& item : items)
    if (name_of(item) == "brisk") ordered.push_back(&item);
  for (const auto& item : items)
    if (name_of(item) != "brisk") ordered.push_back(&item);
  return ordered;
}

std::string write_one(const PlotSpec& spec, const std::string& stem) {
  auto written = write_plot(spec, stem);
  if (!written) throw std::runtime_error("plot " + stem + ": " + written.error().message());
  return *written;
}

}  // namespace

PlotSpec link_phase_plot(const LinkBenchReport& report, const std::string& phase) {
  auto rows = brisk_first(report.rows, [](const LinkBenchRow& r) { return r.method; });
  std::vector<const LinkBenchRow*> plotted;
  for (const LinkBenchRow* row : rows)
    if (row->phase == phase && row->full_n && row->buckets.size() >= 2) plotted.push_back(row);
  // Phases that add no interfaces (set up, addr add) would put every point
  // at one x: plot them against the operations done instead.
  bool grows = false;
  for (const LinkBenchRow* row : plotted)
    for (const auto& b : row->buckets) grows |= b.interfaces_before != row->buckets.front().interfaces_before;
  std::string present =
      plotted.empty() ? ""
                      : std::to_string(plotted.front()->buckets.front().interfaces_before) + " interfaces";
  PlotSpec spec{
      .title = grows ? phase + ": cost per operation as interfaces accumulate"
                     : phase + ": cost per operation through the batch (" + present + ")",
      .x_label = grows ? "interfaces existing when the round began" : "operations done when the round began",
      .y_label = "time per " + phase + " (µs)",
      .series = {}};
  for (const LinkBenchRow* row : plotted) {
    PlotSeries series{row->method, {}};
    for (const auto& b : row->buckets)
      series.points.emplace_back(grows ? b.interfaces_before : b.first_op, b.us_per_op);
    spec.series.push_back(std::move(series));
  }
  spec.log_y = wants_log_scale(spec.series, false);
  return spec;
}

PlotSpec containers_plot(const ContainersBenchReport& report) {
  PlotSpec spec{.title = "containers: setup cost per container as containers accumulate",
                .x_label = "containers existing when the round began",
                .y_label = "time per container (µs)",
                .series = {}};
  auto methods = brisk_first(report.methods, [](const ContainersMethodResult& m) { return m.method; });
  for (const ContainersMethodResult* method : methods) {
    if (method->buckets.size() < 2) continue;
    PlotSeries series{method->method == "ip"      ? "ip, a process per command"
                      : method->method == "floor" ? "floor (raw rtnetlink, one thread)"
                                                  : method->method,
                      {}};
    for (const auto& b : method->buckets) series.points.emplace_back(b.containers_before, b.us_per_container);
    spec.series.push_back(std::move(series));
  }
  spec.log_y = wants_log_scale(spec.series, false);
  return spec;
}

PlotSpec cni_plot(const CniPass& pass, const std::string& phase) {
  std::string masq = pass.masq ? "ipMasq on" : "ipMasq off";
  PlotSpec spec{.title = "CNI " + phase + " (" + masq + "): cost per pod as pods accumulate",
                .x_label = "pods attached when the bucket began",
                .y_label = "time per " + phase + " (µs)",
                .series = {}};
  for (const char* side : {"brisk", "reference", "floor"}) {
    const CniPhaseRow* row = find_row(pass, side, phase);
    if (!row || row->buckets.size() < 2) continue;
    PlotSeries series{std::string(side) == "brisk"       ? "brisk-bridge"
                      : std::string(side) == "reference" ? "bridge + host-local (reference)"
                                                         : "floor (in-process + process start)",
                      {}};
    for (const auto& b : row->buckets) series.points.emplace_back(b.pods_before, b.us_per_op);
    spec.series.push_back(std::move(series));
  }
  spec.log_y = wants_log_scale(spec.series, false);
  return spec;
}

std::vector<std::string> write_plots(const LinkBenchReport& report, const std::string& dir) {
  std::vector<std::string> files;
  for (const char* phase : {"veth add", "set up", "addr add"}) {
    PlotSpec spec = link_phase_plot(report, phase);
    if (!spec.series.empty()) files.push_back(write_one(spec, dir + "/link-" + file_stem(phase)));
  }
  return files;
}

std::vector<std::string> write_plots(const ContainersBenchReport& report, const std::string& dir) {
  PlotSpec spec = containers_plot(report);
  if (spec.series.empty()) return {};
  return {write_one(spec, dir + "/containers")};
}

std::vector<std::string> write_plots(const CniBenchReport& report, const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& pass : report.passes)
    for (const char* phase : {"ADD", "DEL"}) {
      PlotSpec spec = cni_plot(pass, phase);
      std::string stem = std::string("cni-") + (phase[0] == 'A' ? "add" : "del") + (pass.masq ? "-masq" : "");
      if (!spec.series.empty()) files.push_back(write_one(spec, dir + "/" + stem));
    }
  return files;
}

}  // namespace brisk::bench
