// bench/link_bench.h: `brisk bench link`, rtnetlink methods side by side.
//
// The whole run happens inside the network benchmarks' sandbox (see
// net_sandbox.h): killed at any point, it leaves nothing on the host. Each
// method runs the same phases on its own throwaway network namespace (IPv6
// off, all kept until the run ends so no teardown overlaps a measurement):
//   ip           one `ip` process per operation       (subset: ~5 ms each)
//   brisk-cli    one `brisk` process per operation    (subset: ~5 ms each)
//   ip-batch     `ip -batch FILE`, one request at a time
//   brisk-batch  `brisk -batch FILE`, the same file
//   raw          a minimal raw-netlink loop (link_raw.h): one request per
//                send, wait for its ACK
//   brisk        the library: a pipelined Batch; deletes coalesced by group
// Phases: veth pair add, link set up, addr add, link delete, each split into
// rounds of `bucket` ops; every method does its share of a round back to
// back, in an order that rotates, so a noisy neighbour slows every method of
// a round alike. A method's figure is the median of its per-round µs/op, its
// ratio the median of per-round ratios to brisk. Every round is reported as
// a bucket, with the number of interfaces that existed when it began, to
// show whether the per-op cost grows as interfaces accumulate.
// One-by-one deletes wait ~16 ms each in rcu_barrier(), so ip-batch and raw
// delete only `delete_n` pairs; brisk and brisk-batch delete all N.
// Namespace creation compares `ip netns add`, `brisk netns add` and
// brisk::netlink::create_netns.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brisk::bench {

struct LinkBenchConfig {
  int n = 2000;          // veth pairs for the full-N methods (up to 10,000 and beyond)
  int bucket = 1000;     // ops per round, and per reported bucket
  int ip_n = 40;         // ops per phase for each one-process-per-op method (0 skips them)
  int delete_n = 80;     // one-by-one deletes for ip-batch and raw (~16 ms each in rcu_barrier)
  int netns_n = 50;      // namespaces created per method (0 skips)
  int settle_ms = 1500;  // pause before each phase, for work the kernel deferred (linkwatch runs within 1 s)
  std::string brisk_path{};  // the brisk CLI for brisk-cli and brisk-batch; empty: bench::brisk_cli()
  std::function<void(const std::string&)> progress{};  // told after each phase; may be empty
};

// One round of one method in one phase.
struct LinkBucket {
  int index = 0;              // round number
  int first_op = 0;           // the method's first operation in this round
  int ops = 0;                // operations timed
  int interfaces_before = 0;  // interfaces in the method's namespace when the round began (lo included)
  double us_per_op = 0;
};

struct LinkBenchRow {
  std::string phase{};                // "veth add", "set up", "addr add", "delete", "netns add"
  std::string method{};               // "ip", "brisk-cli", "ip-batch", "brisk-batch", "raw", "brisk"
  int count = 0;                      // operations timed
  double us_per_op = 0;               // median over rounds
  double ratio_to_brisk = 0;          // median of per-round ratios to brisk (same phase)
  int failures = 0;                   // operations that reported an error
  bool full_n = false;                // ran all N operations (not a subset)
  bool per_process = false;           // one process per operation
  std::vector<LinkBucket> buckets{};  // per round: the plot's series (µs/op against interfaces_before)
};

struct LinkBenchReport {
  LinkBenchConfig config;
  std::vector<LinkBenchRow> rows{};
  std::vector<std::string> notes{};  // what a reader must know to read the figures
};

// Throws std::runtime_error on bad counts, or when namespaces cannot be made.
LinkBenchReport run_link_bench(const LinkBenchConfig& config);
std::string format_table(const LinkBenchReport& report);
nlohmann::json to_json(const LinkBenchReport& report);
// One line per phase, method and bucket; the header names the units.
std::string to_csv(const LinkBenchReport& report);
// Writes DIR/link.json and DIR/link.csv (creating DIR); throws on failure.
void write_outputs(const LinkBenchReport& report, const std::string& dir);

}  // namespace brisk::bench
