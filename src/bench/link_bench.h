// bench/link_bench.h: `brisk bench link`, rtnetlink methods side by side.
//
// Each method runs the same phases on its own throwaway network namespace
// (made on a helper thread, IPv6 off so no DAD/MLD work runs in the
// background, all kept until the run ends so no teardown overlaps a
// measurement, and gone when their fds close), in one run:
//   ip        one `ip` process per operation (a subset: it costs ~5 ms each)
//   ip-batch  `ip -batch`: one process, one request at a time
//   raw       a minimal raw-netlink loop written here: one request per
//             sendmsg, wait for its ACK
//   brisk     the library: a pipelined Batch; deletes coalesced by group
// Phases: veth pair add, link set up, addr add, link delete, each split into
// rounds of `bucket` brisk ops; every method does its share of a round back
// to back, in an order that rotates, and a method's figure is the median of
// its per-round µs/op, its ratio the median of per-round ratios to brisk.
// veth add is also reported per round, to show whether the per-op cost
// grows with the number of existing interfaces. Namespace creation
// compares `ip netns add` with brisk::netlink::create_netns, both inside a
// private mount namespace with its own /run, so the host is never touched.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brisk::bench {

struct LinkBenchConfig {
  int n = 2000;          // veth pairs for brisk, raw and ip-batch
  int bucket = 250;      // brisk ops per round (and per reported veth-add bucket)
  int ip_n = 40;         // operations for `ip`, one process per op (0 skips it)
  int delete_n = 80;     // one-by-one deletes for ip-batch and raw (~16 ms each in rcu_barrier)
  int netns_n = 50;      // namespaces created per method (0 skips)
  int settle_ms = 1500;  // pause before each phase, for work the kernel deferred (linkwatch runs within 1 s)
};

struct LinkBenchRow {
  std::string phase{};     // "veth add", "set up", "addr add", "delete", "netns add"
  std::string method{};    // "ip", "ip-batch", "raw", "brisk"
  int count = 0;           // operations timed
  double us_per_op = 0;      // median over rounds
  double ratio_to_brisk = 0; // median of per-round ratios to brisk (same phase)
  int failures = 0;          // operations that reported an error
};

struct LinkBenchReport {
  LinkBenchConfig config;
  std::vector<LinkBenchRow> rows{};
  std::vector<double> raw_add_buckets_us{};  // µs per veth add, per bucket
  std::vector<double> brisk_add_buckets_us{};  // same, through brisk
};

// Throws std::runtime_error when namespaces cannot be made or ip is missing.
LinkBenchReport run_link_bench(const LinkBenchConfig& config);
std::string format_table(const LinkBenchReport& report);
nlohmann::json to_json(const LinkBenchReport& report);

}  // namespace brisk::bench
