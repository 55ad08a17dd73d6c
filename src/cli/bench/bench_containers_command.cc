// `brisk bench containers`: N LXC-style containers made by an ip script, by
// ip -batch, by the brisk library and by the kernel's floor, side by side.
#include <iostream>
#include <map>
#include <memory>

#include "bench/containers_bench.h"
#include "cli/bench/bench_net_output.h"
#include "cli/bench/commands.h"

namespace brisk::cli {

void add_bench_containers(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("containers",
                                   "Make N containers' networks (netns, veth, addresses, route, bridge) with "
                                   "ip, ip -batch, brisk and the raw floor");
  auto config = std::make_shared<bench::ContainersBenchConfig>();
  auto json = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  auto methods = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--n", config->n, "containers per method")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--shape", config->shape,
                  "veth: a veth pair made per container; phys: 2 existing host interfaces moved into each "
                  "(LXC's phys)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, bench::ContainersShape>{
          {"veth", bench::ContainersShape::veth}, {"phys", bench::ContainersShape::phys}}))
      ->capture_default_str();
  cmd->add_option("--bucket", config->bucket, "containers per round and per reported bucket")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--bridge-ports", config->bridge_ports, "containers per host bridge (at most 1024)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--bridges-up", config->bridges_up,
                "Bring the host bridges up (floods every container's IPv6 start-up traffic to every port)");
  cmd->add_option("--settle-ms", config->settle_ms, "pause before each teardown, method and run")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option(
         "--quiet-ms", config->quiet_ms,
         "after each pause, wait at most this long for the CPUs to be 90% idle (the kernel's cleanup)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option(
         "--methods", *methods,
         "only these besides brisk: ip, ip-batch, floor, brisk-1core (never overlaps), brisk-2core (always)")
      ->delimiter(',')
      ->check(CLI::IsMember({"ip", "ip-batch", "brisk", "brisk-1core", "brisk-2core", "floor"}));
  cmd->add_option("--brisk-round", config->brisk_round,
                  "containers per setup_netns_many round in brisk's methods (0: a quarter of --bucket)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--schedule", config->schedule,
                  "interleaved: methods take turns per round; sequential: one after another; "
                  "auto: interleaved when memory allows")
      ->transform(CLI::CheckedTransformer(std::map<std::string, bench::ContainersSchedule>{
          {"auto", bench::ContainersSchedule::automatic},
          {"interleaved", bench::ContainersSchedule::interleaved},
          {"sequential", bench::ContainersSchedule::sequential}}));
  cmd->add_option("--repeat", config->repeat,
                  "runs of every method, their order rotated; figures are medians, ratios median and range")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", *out, "Write containers.json and containers.csv into this directory");
  cmd->add_flag("--json", *json, "Print the report as JSON");
  cmd->callback([config, json, out, methods] {
    config->methods = *methods;
    config->progress = [](const std::string& line) { std::cerr << line << std::endl; };
    try {
      auto report = bench::run_containers_bench(*config);
      print_net_report(report, *json, *out, "containers");
      for (const auto& m : report.methods)
        if (m.failures || !m.verified) set_exit_code(1);
    } catch (const std::exception& e) {
      std::cerr << "brisk bench containers: " << e.what() << "\n";
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
