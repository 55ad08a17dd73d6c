// bench/containers_bench.h: `brisk bench containers`, the LXC scenario.
//
// N containers per method, each with: a named network namespace; a veth
// pair whose peer ("eth0") is created directly inside it; an address on each
// end (a /31 per container); both ends up; a default route inside via the
// host end; the host end enslaved to a host bridge (a bridge takes at most
// 1024 ports, so container i goes to bridge i / bridge_ports). Four ways:
//   ip        `ip` processes, as a shell script does it (7 per container)
//   ip-batch  one `ip -batch` per round for the host side (netns add, link
//             add ... netns, master, host address), then `ip -n NAME -batch`
//             per container for the inside: batch mode cannot switch
//             namespace between lines, so this is what a script author does
//   brisk     the library's netlink::setup_netns_many: per round, one
//             pipelined Batch on the host connection (veth with
//             IFLA_NET_NS_FD on the peer, master and up at creation, then
//             the addresses), then one Batch per container on the socket
//             made in its namespace (address, up, default route); the next
//             round's namespaces are made meanwhile on a second thread
//             where the library judges that it pays (NetnsOverlap::automatic)
//   brisk-1core  the same calls, never overlapped (NetnsOverlap::never)
//   brisk-2core  the same calls, always overlapped: with brisk-1core, what
//             the library's choice gained or saved, measured side by side
//   floor     the kernel's floor: raw rtnetlink from the bench thread, every
//             ifindex chosen beforehand, pipelined (see Floor in the .cc);
//             what any tool's cost, and its growth, must be measured against
// Each method has its own "host" network namespace and its own /run/netns
// (one method's mounts would slow another's `ip -n` and `netns add`), inside
// the sandbox of net_sandbox.h: a run killed at any point leaves nothing on
// the real host.
// The containers are made in rounds of `bucket`; by default the methods
// take turns round by round, in rotating order, so load from elsewhere hits
// them alike; when memory is short for every method's containers at once
// (~1 MB per namespace) the methods run one after another instead.
// Teardown (timed per method): ip deletes each namespace and bridge with a
// process, ip-batch with one batch, brisk through the library; "settled" is
// when the kernel's asynchronous namespace cleanup has removed every host end.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/stats.h"

namespace brisk::bench {

enum class ContainersSchedule { automatic, interleaved, sequential };

// veth: the container's veth pair is made for it, as above. phys: LXC's
// `lxc.network.type = phys`: two existing host interfaces per container
// (veth ends stand in for VLANs, which this kernel lacks; their peers stay
// on the host) are moved in, each renamed (eth0, eth1) with its MAC, address
// and up, and the default route added. See containers_phys.cc.
enum class ContainersShape { veth, phys };

struct ContainersBenchConfig {
  int n = 1000;                                   // containers per method (4000 works)
  ContainersShape shape = ContainersShape::veth;  // what a container's network is
  int bucket = 100;                               // containers per round, and per reported bucket
  int bridge_ports = 1000;                        // containers per host bridge (the kernel's limit is 1024)
  // The host bridges stay down by default: up, every container's IPv6
  // start-up traffic (DAD, MLD, router solicitations) is flooded to every
  // other port, O(N^2) kernel work that no tool causes and that lands on
  // whichever method runs next. The ports are enslaved either way.
  bool bridges_up = false;
  // Pause before each teardown, between sequential methods and between
  // runs; then the bench waits, at most quiet_ms, for the CPUs to be 90%
  // idle. settle_ms 0: no pause and no wait.
  int settle_ms = 1500;
  int quiet_ms = 5000;
  std::vector<std::string> methods{};  // "ip", "ip-batch", "floor", "brisk-1core", "brisk-2core" to include;
                                       // empty: all (brisk always runs)
  // Containers per setup_netns_many round in the brisk methods (the lookahead
  // of its namespace thread); 0: a quarter of `bucket`.
  int brisk_round = 0;
  ContainersSchedule schedule = ContainersSchedule::automatic;
  // Runs of every method, each in a fresh sandbox, the methods' order
  // rotated each time: a method's figures are then its medians, and each
  // ratio is quoted as its median and range over the repeats. One run per
  // method is what once gave 0.79x and 0.92x for the same command.
  int repeat = 1;
  std::function<void(const std::string&)> progress{};  // told after each round; may be empty
  // Tests: called with the method's name and its first container's namespace
  // name on the method's thread (where that name resolves), just before the
  // end state is verified, to break it. May be empty.
  std::function<void(const std::string& method, const std::string& first_netns)> before_verify{};
};

struct ContainersBucket {
  int index = 0;              // round number
  int first = 0;              // first container of the round
  int containers = 0;         // containers made in it
  int containers_before = 0;  // the method's containers that already existed
  double us_per_container = 0;
  long rss_kb = 0;  // this process's resident memory after the round (VmRSS)
};

struct ContainersMethodResult {
  std::string method{};  // "ip", "ip-batch", "brisk", "brisk-1core", "brisk-2core", "floor"
  int containers = 0;
  int processes = 0;   // processes started for the setup
  double total_s = 0;  // setup, summed over rounds
  double containers_per_s = 0;
  double us_per_container = 0;  // total / containers
  double ratio_to_brisk = 0;    // total / brisk's total
  // CPU time (user + system) of this process and its children during the
  // setup, kernel work done on their behalf included; work the kernel
  // defers to its own threads is not. Shows how much of each method's time
  // is the kernel's floor, the same for every method, and how much is its own.
  double cpu_s = 0;
  double cpu_user_s = 0;          // the user-space part of cpu_s: what is the tool's own
  long context_switches = 0;      // voluntary and involuntary, this process's, during the setup
  double teardown_s = 0;          // until the teardown commands returned
  double teardown_settled_s = 0;  // until the kernel had removed every host end
  // Other methods' containers still there during the teardown: a dying
  // namespace's cleanup walks every live namespace (its ids there), so a
  // teardown is only comparable to one with the same background.
  int teardown_background = 0;
  int failures = 0;                         // operations that failed
  bool verified = false;                    // the end state was checked and is right
  double growth = 0;                        // last bucket's µs per container / the first's (0: one bucket)
  std::vector<ContainersBucket> buckets{};  // the plot's series: µs per container against containers_before
};

struct ContainersBenchReport {
  ContainersBenchConfig config;
  bool interleaved = true;  // the schedule actually used
  // brisk first, then the floor when it ran. Over repeats, each figure is
  // the method's median (a bucket's, per bucket), ratio_to_brisk the median
  // of the per-run ratios, failures their sum, verified whether every run was.
  std::vector<ContainersMethodResult> methods{};
  // Every run's results, methods in the order of `methods`.
  std::vector<std::vector<ContainersMethodResult>> runs{};
  // brisk against the floor, brisk-1core, brisk-2core, ip-batch and ip, one value per run
  // (see ratio_names in the .cc); only those whose methods ran.
  std::vector<Spread> ratios{};
  // How much of brisk's growth the floor shows too: (floor growth - 1) /
  // (brisk growth - 1); unset when either did not run in 2+ buckets or brisk did not grow.
  std::optional<double> floor_share_of_growth{};
  std::vector<std::string> notes{};
};

// Throws std::runtime_error on bad configuration or when namespaces cannot be made.
ContainersBenchReport run_containers_bench(const ContainersBenchConfig& config);
std::string format_table(const ContainersBenchReport& report);
nlohmann::json to_json(const ContainersBenchReport& report);
// One line per method and bucket (teardown as bucket "teardown"); the header names the units.
std::string to_csv(const ContainersBenchReport& report);
// Writes DIR/containers.json and DIR/containers.csv (creating DIR); throws on failure.
void write_outputs(const ContainersBenchReport& report, const std::string& dir);

}  // namespace brisk::bench
