// bench/demo.h: `brisk demo`, a quick run of each bench that ends in one
// summary table. The demo is a list of sections; each runs its bench, adds
// rows to the summary and writes its files (JSON, CSV, plots) into the
// demo's directory. Sections for other benches plug in by being appended.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace brisk::bench {

struct LinkBenchReport;
struct ContainersBenchReport;

// One line of the summary: brisk against the tool people use today.
struct DemoRow {
  std::string operation;  // "spawn /bin/true, 1 GiB parent"
  std::string baseline;   // "fork + execve"
  double baseline_us = 0;
  double brisk_us = 0;
  // The median of per-round ratios, measured side by side, when the bench
  // has one (robust when a loaded machine slows whole rounds); 0 if not.
  double round_ratio = 0;
  double speedup() const { return round_ratio > 0 ? round_ratio : brisk_us > 0 ? baseline_us / brisk_us : 0; }
};

// Sizes, so tests can run the whole demo in seconds.
struct DemoSettings {
  std::string out_dir = "brisk-demo";
  int spawn_n = 200;  // calls per method and heap size
  std::vector<std::size_t> heaps_mb{10, 1024};
  int workload_n = 200;    // calls of the write-up's workload shape (0 skips)
  int link_n = 2000;       // veth pairs for the link section (0 skips)
  int containers_n = 200;  // containers for the containers section (0 skips)
  int cni_n = 40;          // pods per side for the CNI section, both ipMasq passes (0 skips)
};

struct DemoSectionResult {
  std::vector<DemoRow> rows;
  std::vector<std::string> files;  // written into out_dir
  std::vector<std::string> notes;  // skipped parts and why
};

struct DemoSection {
  std::string name;
  std::function<DemoSectionResult(const DemoSettings&,
                                  const std::function<void(const std::string&)>& progress)>
      run;
};

// The sections `brisk demo` runs, in order.
std::vector<DemoSection> demo_sections();

// A bench method's name ("ip-batch", "brisk-1core", "floor") as the
// summary shows it: the name the bench's own tables use.
std::string method_label(const std::string& method);
// The summary's rows of a link bench: ip and ip -batch against brisk, by phase.
std::vector<DemoRow> link_rows(const LinkBenchReport& report);
// The summary's rows of a containers bench: every other method against
// brisk (the floor, brisk-1core, ip -batch, ip per command), setup and teardown.
std::vector<DemoRow> container_rows(const ContainersBenchReport& report);

std::string format_summary(const std::vector<DemoRow>& rows);
// Writes summary.json and summary.csv; returns their paths.
std::vector<std::string> write_summary(const std::vector<DemoRow>& rows, const std::string& dir);

}  // namespace brisk::bench
