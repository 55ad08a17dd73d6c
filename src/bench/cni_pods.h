// bench/cni_pods.h: one side of `brisk bench cni`: a simulated host
// network namespace, its pods, its lease directory, and the ways a CNI
// plugin is run against them.
//
// Each side has its own named host namespace and pod namespaces (in the
// sandbox's private /run/netns, sandbox/net_sandbox.h) and its own dataDir, so
// the reference and brisk never see each other's bridge, rules or leases.
// A plugin is run the way a runtime does it: the binary spawned directly
// with setns into the host namespace (brisk::Command::netns), the CNI_*
// variables in an otherwise fixed environment, the config on stdin. The
// in-process side calls brisk::cni::run_plugin on the bench's own thread,
// entered into the host namespace, which is the work without a process.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "brisk/command.h"
#include "brisk/fd.h"

namespace brisk::bench {

struct CniOp {
  bool ok = false;
  double us = 0;          // the plugin's run, process start included (for a process)
  std::string address{};  // ADD: the pod's first address, "10.88.0.2/16"
  std::string result{};   // ADD: the result the plugin printed
  std::string error{};    // why it failed: exit status and the plugin's output
};

struct CniSideConfig {
  std::string tag{};       // unique per side: names its namespaces and lease directory
  std::string plugin{};    // the plugin executable; empty: run_plugin in-process
  std::string type{};      // the config's "type"
  std::string cni_path{};  // CNI_PATH (where the reference bridge finds host-local)
  bool masq = false;       // the config's ipMasq
  // Chained after the plugin: a portmap executable, or with an in-process
  // side, run_portmap_plugin. ADD runs both, DEL both in reverse, as one op.
  bool chain = false;
  std::string portmap{};
  int timeout_ms = 30000;  // a plugin run taking longer is killed and counted as failed
};

class CniSide {
 public:
  // Makes the host namespace (IPv6 off, as on every namespace the bench
  // makes) and the lease directory; throws std::runtime_error.
  explicit CniSide(CniSideConfig config);
  // Deletes every pod namespace and the host namespace (with them the
  // bridge, veths and masquerade rules) and the lease directory.
  ~CniSide();
  CniSide(const CniSide&) = delete;
  CniSide& operator=(const CniSide&) = delete;

  const CniSideConfig& config() const { return config_; }
  const std::string& conf() const { return conf_; }  // the network config given on stdin

  // Pod namespaces for indexes [begin, end); throws when one cannot be made.
  void make_pods(int begin, int end);
  void delete_pods(int begin, int end);

  CniOp add(int pod) const { return run("ADD", pod); }
  CniOp del(int pod) const { return run("DEL", pod); }
  // A trivial process (/bin/true) started exactly as the plugin is: the
  // process-start part of a run.
  CniOp start_trivial_process() const;
  // The plugin run for `pod`, not started: for runs in parallel.
  Command command(const char* cni_command, int pod) const;
  // Reads a finished run of command().
  static CniOp result_of(const Output& output, double us, bool wants_address);

 private:
  CniOp run(const char* cni_command, int pod) const;
  // One plugin of the chain: the bridge (portmap false) or the portmap, with `conf` on stdin.
  CniOp run_one(const char* cni_command, int pod, bool portmap, const std::string& conf) const;
  // The portmap's config: two host ports for the pod, after `prev_result` (none for DEL).
  std::string portmap_conf(int pod, const std::string& prev_result) const;
  static CniOp timed(const Command& command, bool wants_address);
  // PATH and the CNI_* variables of a run: the whole environment.
  std::map<std::string, std::string> environment(const char* cni_command, int pod) const;
  CniOp run_in_process(const char* cni_command, int pod, bool portmap, const std::string& conf) const;
  Command prepared(const std::string& program, const char* cni_command, int pod,
                   const std::string& conf) const;
  std::string pod_name(int pod) const;

  CniSideConfig config_;
  std::string host_;      // the host namespace's name
  std::string data_dir_;  // host-local's dataDir
  std::string conf_;
  UniqueFd host_fd_;
  std::vector<int> pods_;  // indexes of pod namespaces made and not yet deleted
};

}  // namespace brisk::bench
