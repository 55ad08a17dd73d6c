// `brisk bench link`: ip, ip -batch, a raw netlink loop and brisk, side by side.
#include <iostream>
#include <memory>

#include "bench/link_bench.h"
#include "cli/commands.h"

namespace brisk::cli {

void add_bench_link(CLI::App& bench) {
  auto* link = bench.add_subcommand("link", "Configure veth pairs with ip, ip -batch, raw netlink and brisk");
  auto config = std::make_shared<bench::LinkBenchConfig>();
  auto json = std::make_shared<bool>(false);
  link->add_option("--n", config->n, "veth pairs for ip -batch, raw and brisk")->capture_default_str()
      ->check(CLI::PositiveNumber);
  link->add_option("--bucket", config->bucket, "veth adds per reported bucket")->capture_default_str()
      ->check(CLI::PositiveNumber);
  link->add_option("--ip-n", config->ip_n, "operations for ip, one process each (0 skips)")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--delete-n", config->delete_n, "one-by-one deletes for ip -batch and raw")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  link->add_option("--netns-n", config->netns_n, "namespaces created per method (0 skips)")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  link->add_option("--settle-ms", config->settle_ms, "pause before each phase for deferred kernel work")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  link->add_flag("--json", *json, "Print the report as JSON");
  link->callback([config, json] {
    try {
      auto report = bench::run_link_bench(*config);
      if (*json)
        std::cout << bench::to_json(report).dump(2) << "\n";
      else
        std::cout << bench::format_table(report);
    } catch (const std::exception& e) {
      std::cerr << "brisk bench link: " << e.what() << "\n";
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
