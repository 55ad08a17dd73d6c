// `brisk bench link`: ip, brisk's CLI, their -batch modes, a raw netlink loop
// and the brisk library, side by side, per op and per bucket of N.
#include <iostream>
#include <memory>

#include "bench/link_bench.h"
#include "cli/bench/bench_net_output.h"
#include "cli/bench/commands.h"

namespace brisk::cli {

void add_bench_link(CLI::App& bench) {
  auto* link = bench.add_subcommand(
      "link", "Configure veth pairs with ip, brisk, their -batch modes, raw netlink and the brisk library");
  auto config = std::make_shared<bench::LinkBenchConfig>();
  auto json = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  link->add_option("--n", config->n, "veth pairs for the batch, raw and library methods")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  link->add_option("--bucket", config->bucket, "ops per round and per reported bucket")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  link->add_option("--ip-n", config->ip_n, "ops per phase for ip and brisk, one process each (0 skips)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--delete-n", config->delete_n, "one-by-one deletes for ip -batch and raw")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--netns-n", config->netns_n, "namespaces created per method (0 skips)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--settle-ms", config->settle_ms, "pause before each phase for deferred kernel work")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--out", *out, "Write link.json and link.csv into this directory");
  link->add_flag("--json", *json, "Print the report as JSON");
  link->callback([config, json, out] {
    config->progress = [](const std::string& line) { std::cerr << line << std::endl; };
    try {
      auto report = bench::run_link_bench(*config);
      print_net_report(report, *json, *out, "link");
      for (const auto& row : report.rows)
        if (row.failures) set_exit_code(1);
    } catch (const std::exception& e) {
      std::cerr << "brisk bench link: " << e.what() << "\n";
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
