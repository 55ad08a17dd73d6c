// brisk/netlink/netns_setup.h: many containers' networks set up at once.
//
// What a container manager does per container: make a named network
// namespace, make or move its interfaces from the host side, then configure
// them inside. Done one container at a time, that is one round trip per
// step and one core. setup_netns_many() takes them all and:
//   - makes the namespaces a round ahead, on a second thread where that
//     pays (NetnsOverlap), overlapping the current round's netlink work;
//   - opens each container's netlink socket inside its namespace as it is
//     made, so no setns is spent on it later;
//   - sends a round's host-side operations as one pipelined Batch, and each
//     container's inside operations as one pipelined Batch on its socket.
// A container that fails is reported with its own error and undone (unless
// asked otherwise); the others are completed. A bad argument is refused
// before anything is made.
//
//   std::vector<NetnsSetup> fleet;
//   for (int i = 0; i < n; ++i)
//     fleet.push_back({.name = "c" + std::to_string(i),
//                      .host = [i](Batch& b, int ns) {
//                        b.add_link({.name = "h" + std::to_string(i),
//                                    .kind = VethOptions{.peer = "eth0", .peer_netns_fd = ns}});
//                      },
//                      .inside = [i](Batch& b) {
//                        b.add_address({.dev = "eth0", .prefix = address_of(i)});
//                        b.set_link({.name = "eth0", .up = true});
//                      }});
//   auto results = setup_netns_many(host_conn, fleet).value();  // one per container
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// One container's network. The callbacks run on the calling thread, in
// container order; any may be empty.
struct NetnsSetup {
  // The named namespace made for it, as `ip netns add NAME` (must not exist yet).
  std::string name{};
  // Host-side operations, queued on the round's host Batch; netns_fd is the
  // new namespace, for VethOptions::peer_netns_fd or LinkSet::netns_fd. It
  // is open until the round's host Batch has been flushed.
  std::function<void(Batch& host, int netns_fd)> host{};
  // More host-side operations, queued after every container's `host` in the
  // round: operations naming a device that `host` creates (an address, a
  // route) then find it made instead of waiting behind its creation.
  std::function<void(Batch& host)> host_after{};
  // Operations inside the namespace, on a connection made there; run after
  // the round's host side, so they can use what `host` moved or made in.
  std::function<void(Batch& inside)> inside{};
};

// Whether the next round's namespaces are made on a second thread while
// this round's operations run. Creating a namespace takes the RTNL lock,
// which every link and address change holds, for part of its work (the
// loopback device; per-namespace hooks such as vxlan's nexthop notifier),
// so the two threads contend on it, and the kernel spins the waiting one on
// its core. Measured on 2 cores at 1,000 containers: the overlap took 0.89x
// the time of one thread for 1.24x the CPU, and lost under load.
enum class NetnsOverlap {
  // Overlap while it can pay: at least 3 CPUs that this thread may run on,
  // at least 2 of them idle over the last rounds (from /proc/stat), and
  // rounds of at least 8 containers. Decided again as the rounds go, so a
  // machine that gets busy stops it.
  automatic,
  always,  // overlap every round after the first
  never,   // one thread makes the namespaces and waits; the caller's work stops meanwhile
};

struct NetnsSetupOptions {
  // Containers per round: the unit of pipelining, and of lookahead for the
  // namespace thread. At least 1.
  std::size_t round = 100;
  // Make the next round's namespaces on a second thread while this round's
  // operations run (see NetnsOverlap).
  NetnsOverlap overlap = NetnsOverlap::automatic;
  // At the first container that fails, stop: it and every container begun
  // after it are undone, and those not begun are not attempted (their
  // results are ECANCELED). false: every container is attempted.
  bool stop_on_error = false;
  // Undo a failed container: its host-side additions (links, addresses,
  // routes, neighbours, fdb entries, rules) are deleted, newest first, and
  // its namespace is deleted, which takes what is inside with it. Changes
  // that have no inverse (set_link: a device moved in goes back where the
  // kernel sends a deleted namespace's devices) stay. false: a failed
  // container is left as far as it got, for inspection.
  bool undo_failed = true;
  // For every connection made inside a namespace.
  ConnectionOptions inside_connection{};
  // Told, on the calling thread, after each round that ran to its end, how
  // many containers have been dealt with so far (progress). May be empty.
  std::function<void(std::size_t done)> on_round{};
};

// Sets up every container with `host` as the host side. The outer error is
// bad input (an invalid or repeated name, round 0), found before anything
// is made; otherwise one result per container, in order: its first failure
// (an "netns add" EEXIST when the name is taken, or the failed operation's
// error, its detail naming the container), or success.
BRISK_EXPORT NlResult<std::vector<NlResult<void>>> setup_netns_many(Connection& host,
                                                                    std::span<const NetnsSetup> containers,
                                                                    const NetnsSetupOptions& options = {});

}  // namespace brisk::netlink
