// `brisk demo`: what `make demo` shows. A quick run of each bench section
// (spawn at a small and a large parent heap, the YaST write-up's workload,
// link operations, containers, the CNI plugin), then one summary table; files go to ./brisk-demo/.
#include <chrono>
#include <filesystem>
#include <iostream>

#include "bench/demo.h"
#include "bench/interrupt.h"
#include "cli/bench/commands.h"
#include "cli/handover.h"

namespace brisk::cli {
namespace {

void run_demo(const bench::DemoSettings& settings) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::cout << "brisk demo: brisk against the ways programs are started and links are made today,\n"
               "side by side in one run on this machine. This takes a minute or two.\n"
            << std::flush;
  std::vector<bench::DemoRow> rows;
  std::vector<std::string> files, notes;
  {
    bench::InterruptScope interrupts;  // Ctrl-C unwinds, so ballast and temp dirs are removed
    for (const auto& section : bench::demo_sections()) {
      auto result = section.run(settings, [&](const std::string& line) {
        std::cout << "  [" << static_cast<int>(elapsed()) << " s] " << line << "\n" << std::flush;
      });
      rows.insert(rows.end(), result.rows.begin(), result.rows.end());
      files.insert(files.end(), result.files.begin(), result.files.end());
      notes.insert(notes.end(), result.notes.begin(), result.notes.end());
    }
  }
  auto summary = bench::write_summary(rows, settings.out_dir);
  files.insert(files.end(), summary.begin(), summary.end());
  std::cout << "\n" << bench::format_summary(rows) << "\n";
  for (const auto& note : notes) std::cout << "note: " << note << "\n";
  std::cout << "µs per operation: medians of rounds run side by side. Speed-up: the median of the per-round\n"
               "ratios baseline/brisk, so a busy neighbour that slows one round slows both sides of it.\n"
            << "Plots, JSON and CSV in " << std::filesystem::absolute(settings.out_dir).string() << "/:";
  for (const auto& file : files) std::cout << " " << std::filesystem::path(file).filename().string();
  std::cout << "\nDemo took " << static_cast<int>(elapsed() + 0.5) << " s. Full sweeps: `make bench`.\n";
}

}  // namespace

void add_demo(CLI::App& app) {
  auto* demo = app.add_subcommand("demo", kDemoSummary);
  auto settings = std::make_shared<bench::DemoSettings>();
  demo->add_option("--out", settings->out_dir, "Directory for plots, JSON and CSV")->capture_default_str();
  // Sizes, for tests and slow machines.
  demo->add_option("--spawn-n", settings->spawn_n)->group("")->check(CLI::PositiveNumber);
  demo->add_option("--heaps", settings->heaps_mb)->group("")->delimiter(',');
  demo->add_option("--workload-n", settings->workload_n)->group("");
  demo->add_option("--link-n", settings->link_n)->group("");
  demo->add_option("--containers-n", settings->containers_n)->group("");
  demo->add_option("--cni-n", settings->cni_n)->group("");
  demo->callback([settings] { run_interruptible("brisk demo", [&] { run_demo(*settings); }); });
}

}  // namespace brisk::cli
