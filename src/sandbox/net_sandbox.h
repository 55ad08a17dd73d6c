// sandbox/net_sandbox.h: the cleanup guard of the network benchmarks and of
// the tests that need a host of their own.
//
// run_in_net_sandbox() runs a benchmark on a thread that has its own mount
// namespace (everything private, a tmpfs on /run, so /run/netns and
// /var/run/netns are its own) and its own network namespace (IPv6 off), the
// benchmark's "host". Threads and processes started from that thread
// inherit both, so every namespace, interface, mount and scratch file a run
// makes hangs off namespaces only this process (and its children) hold: if
// the process dies, even by SIGKILL, the kernel frees all of it, and the real
// host never sees any of it. Children are spawned with parent_death_signal
// SIGKILL, so they do not outlive the benchmark either.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "brisk/fd.h"

namespace brisk::sandbox {

// Scratch directory inside the sandbox's private /run (batch files).
inline constexpr const char* kSandboxScratch = "/run/brisk-bench";

// Runs fn inside the sandbox and waits for it; rethrows what fn threw.
// Throws std::runtime_error when the namespaces cannot be made (not root).
void run_in_net_sandbox(const std::function<void()>& fn);

// A thread of its own in a private copy of the sandbox's mount namespace,
// with an empty tmpfs on /run/netns: a method's named namespaces are its
// alone, so one method's mounts never slow another's (`ip -n` copies the
// whole mount table; `ip netns add` re-marks every mount under /run/netns).
// Processes and threads started from run() inherit it.
class NetnsDirThread {
 public:
  // name: the thread's, as perf and top -H show it (15 bytes at most are
  // kept). Throws std::runtime_error when the mount namespace cannot be made.
  explicit NetnsDirThread(const std::string& name = "netns-dir");
  ~NetnsDirThread();
  NetnsDirThread(const NetnsDirThread&) = delete;
  NetnsDirThread& operator=(const NetnsDirThread&) = delete;
  // Runs fn on the thread and waits; rethrows what fn threw.
  void run(const std::function<void()>& fn);

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::thread thread_;
};

// Turns IPv6 off (all and default) in the calling thread's network
// namespace: no DAD/MLD work in the background. /proc/sys/net follows the
// namespace of the thread that opens it.
void disable_ipv6_here();

// Puts back the kernel's own defaults for the settings a new network
// namespace copies from the host's. A new namespace takes IPv4's conf/all
// and conf/default from the initial one (net.core.devconf_inherit_init_net
// = 0, the default), so on a host that runs containers (ip_forward=1,
// systemd's rp_filter=2 and promote_secondaries=1) routes, netconf and
// address deletes behave otherwise than on a bare host. IPv6 forwarding is
// written too, for hosts with devconf_inherit_init_net = 1. Knobs the kernel
// lacks are passed over; returns false when one that exists could not be set.
bool reset_inherited_net_settings_here();

// A fresh network namespace with IPv6 off (no DAD/MLD work in the
// background) and the kernel's defaults for what it would otherwise inherit
// from the host, made on a helper thread; gone when its last fd closes.
UniqueFd fresh_netns();

}  // namespace brisk::sandbox
