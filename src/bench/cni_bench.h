// bench/cni_bench.h: `brisk bench cni`, the CNI scenario of issue 14.
//
// The reference `bridge` plugin (execing `host-local`) and `brisk-bridge`
// run on the same network config (a bridge with a gateway, host-local on a
// /16, hairpin, ipMasq per pass), each side in its own throwaway host
// namespace inside the sandbox of net_sandbox.h, with its own dataDir. Pods
// accumulate to n by ADDs, then go by DELs, in reverse. The sides take turns
// pod by pod, in rotating order, so load from elsewhere hits them alike.
//
// Beside the two plugins runs the kernel's floor: the same ADD or DEL done
// by brisk::cni::run_plugin on the bench's own thread (the same netlink,
// sysctl, lease-file and nftables work, in its own host namespace and
// dataDir), plus one process start, measured as /bin/true spawned exactly
// as the plugins are (setns into the host namespace, the same environment,
// the config on stdin). floor = in-process + process start, pod by pod.
//
// Then `parallel` ADDs per plugin at once on fresh pods: the wall time until
// the last one exits, and a check that no two pods got the same address.
// Its floor runs the same number at once, each on its own thread doing what
// a plugin process does: a process start (/bin/true, as above), then
// run_plugin with its own netlink sockets. Rounds of the three alternate.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brisk::bench {

enum class CniMasq { off, on, both };

struct CniBenchConfig {
  int n = 200;                   // pods per side, accumulated by ADDs, then removed by DELs
  int buckets = 5;               // reported buckets per phase, n / buckets pods each
  CniMasq masq = CniMasq::both;  // the passes: ipMasq off, on, or one of each
  int parallel = 20;             // ADDs started at once per plugin and for the floor (0 skips)
  int parallel_repeats = 3;      // parallel rounds per plugin and floor, alternating; the median is reported
  std::string reference_dir = "/usr/lib/cni";  // the reference `bridge` and `host-local`; CNI_PATH
  std::string brisk_plugin{};                  // brisk-bridge; empty: default_brisk_plugin()
  // "portmap": each side runs a chain, its bridge then its portmap (two
  // host ports per pod), and DEL in reverse, timed as one; the in-process
  // side calls run_plugin then run_portmap_plugin, and the floor counts two
  // process starts. No parallel rounds. Empty: the bridge alone.
  std::string chain{};
  std::string brisk_portmap{};  // brisk-portmap for the chain; empty: beside brisk_plugin
  int timeout_ms = 30000;       // a plugin run taking longer is killed and counted as failed
  int settle_ms = 1000;         // pause before each pass, while the kernel frees the last one's namespaces
  std::function<void(const std::string&)> progress{};  // told after each bucket; may be empty
};

struct CniBucket {
  int index = 0;         // bucket number within the phase
  int pods_before = 0;   // the side's attached pods when the bucket began
  int ops = 0;           // runs in the bucket
  double us_per_op = 0;  // mean
};

// One side's figures for one phase. Sides: "reference", "brisk",
// "in-process" (run_plugin on the bench thread), "process start" (/bin/true)
// and "floor" (in-process + process start, pod by pod).
struct CniPhaseRow {
  std::string side{};
  std::string phase{};  // "ADD" or "DEL"
  int ops = 0;
  int failures = 0;
  double us_mean = 0;
  double us_median = 0;
  std::vector<CniBucket> buckets{};
  std::string first_error{};  // the first failure's exit status and output, for the report
};

struct CniParallelRow {
  std::string side{};  // "reference", "brisk" or "floor" (threads: process start + run_plugin each)
  int pods = 0;        // ADDs started at once
  std::vector<double> wall_ms{};  // per round: from the first start until the last exit
  double wall_ms_median = 0;
  int failures = 0;    // ADDs that did not succeed, over all rounds
  int duplicates = 0;  // addresses handed out twice within a round
  std::string first_error{};
};

// A figure beside the target for it.
struct CniTarget {
  std::string name{};  // "ADD speed-up vs reference"
  double value = 0;    // the measured ratio
  double target = 0;
  bool at_least = true;  // met when value >= target (else when value <= target)
  bool met() const { return at_least ? value >= target : value <= target; }
};

struct CniPass {
  bool masq = false;
  std::string chain{};              // the config's chain: "" or "portmap"
  std::vector<CniPhaseRow> rows{};  // every side's ADD, then every side's DEL
  std::vector<CniParallelRow> parallel{};
  std::vector<CniTarget> targets{};
};

struct CniBenchReport {
  CniBenchConfig config;
  std::string brisk_plugin{};   // the brisk-bridge that ran
  std::string brisk_portmap{};  // the brisk-portmap that ran, with --chain portmap
  std::vector<CniPass> passes{};
  std::vector<std::string> notes{};
  bool all_succeeded() const;  // every ADD and DEL succeeded, and no address was handed out twice
};

// brisk-bridge beside the brisk CLI (the build tree), or in ../lib/cni
// (an install); empty when neither exists.
std::string default_brisk_plugin();

// Checks the configuration and the plugins (throws std::runtime_error naming
// the problem) before anything is made.
void validate(const CniBenchConfig& config);
// Throws std::runtime_error on bad configuration or when namespaces cannot be made.
CniBenchReport run_cni_bench(const CniBenchConfig& config);

const CniPhaseRow* find_row(const CniPass& pass, const std::string& side, const std::string& phase);
const CniParallelRow* find_parallel(const CniPass& pass, const std::string& side);
std::string format_table(const CniBenchReport& report);
nlohmann::json to_json(const CniBenchReport& report);
// One line per pass, side, phase and bucket (us: the mean µs per run), and
// per parallel round (kind "parallel", us: its wall time).
std::string to_csv(const CniBenchReport& report);
// Writes DIR/cni.json and DIR/cni.csv (creating DIR); throws on failure.
void write_outputs(const CniBenchReport& report, const std::string& dir);

}  // namespace brisk::bench
