// `brisk bench cni`: the reference bridge + host-local CNI plugins and
// brisk-bridge, side by side, beside the kernel's floor.
#include <iostream>
#include <map>
#include <memory>

#include "bench/cni_bench.h"
#include "cli/bench/bench_net_output.h"
#include "cli/bench/commands.h"

namespace brisk::cli {

void add_bench_cni(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("cni",
                                   "Run the reference bridge+host-local CNI plugins and brisk-bridge per "
                                   "pod, side by side, against the floor");
  auto config = std::make_shared<bench::CniBenchConfig>();
  auto json = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  cmd->add_option("--n", config->n, "pods per side, added one by one, then deleted")
      ->capture_default_str()
      ->check(CLI::Range(1, 5000));
  cmd->add_option("--buckets", config->buckets, "reported buckets per phase (n / buckets pods each)")
      ->capture_default_str()
      ->check(CLI::Range(1, 5000));
  cmd->add_option("--masq", config->masq,
                  "ipMasq in the config: off, on, or both (a pass each; default both)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, bench::CniMasq>{
          {"off", bench::CniMasq::off}, {"on", bench::CniMasq::on}, {"both", bench::CniMasq::both}}));
  cmd->add_option("--parallel", config->parallel,
                  "ADDs started at once per plugin and for the floor (0 skips)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--parallel-repeats", config->parallel_repeats,
                  "rounds of parallel ADDs per plugin and for the floor")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->add_option("--reference-dir", config->reference_dir, "where the reference bridge and host-local are")
      ->capture_default_str()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--brisk-plugin", config->brisk_plugin,
                  "brisk-bridge to run (default: beside the brisk CLI)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--chain", config->chain,
                  "run a chain per pod: portmap (bridge then portmap, DEL in reverse; no parallel rounds)")
      ->check(CLI::IsMember({"portmap"}));
  cmd->add_option("--brisk-portmap", config->brisk_portmap,
                  "brisk-portmap to run with --chain portmap (default: beside brisk-bridge)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--timeout-ms", config->timeout_ms, "kill a plugin run after this long (counted as failed)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--settle-ms", config->settle_ms, "pause before each pass")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--out", *out, "Write cni.json, cni.csv and the charts into this directory");
  cmd->add_flag("--json", *json, "Print the report as JSON");
  cmd->callback([config, json, out] {
    config->progress = [](const std::string& line) { std::cerr << line << std::endl; };
    run_interruptible("brisk bench cni", [&] {
      bench::validate(*config);  // before anything is made
      auto report = bench::run_cni_bench(*config);
      print_net_report(report, *json, *out, "cni");
      if (!report.all_succeeded()) set_exit_code(1);
    });
  });
}

}  // namespace brisk::cli
