// brisk/netlink/batch.h: many operations, flushed as one pipeline.
//
// Operations are queued in order and run in that order by flush(), many per
// sendmsg, with at most a window of requests in memory and in flight.
// Each queued operation gets its own result, at the index queue returned.
// By default a failure does not stop the batch: later operations still run
// (like `ip -batch -force`), and names a failed operation would have created
// are simply not there for the next ones. BatchOptions::stop_at_first_error
// gives `ip -batch`'s behaviour without -force instead.
//
// A run of link deletes is coalesced into a group delete: the targets are
// moved to a fresh unused device group and deleted with one RTM_DELLINK, so
// deleting N links waits for one rcu_barrier instead of N. Results and end
// state are the same as deleting them one by one (a veth whose peer was
// deleted earlier in the run reports ENODEV, as it would have).
//
//   Batch batch(conn);
//   for (auto& name : names) batch.set_link({.name = name, .up = true});
//   auto results = batch.flush();
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/addr.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"

namespace brisk::netlink {

namespace detail {
struct Op;
template <class T>
class IndexRing;
struct BatchAccess;  // setup_netns_many runs a batch's operations itself
}  // namespace detail
namespace internal {
struct BatchHooks;
}  // namespace internal

struct BatchOptions {
  // Coalesce runs of link deletes into one group delete.
  bool coalesce_deletes = true;
  // Shortest run of deletes worth coalescing (it costs one link dump).
  std::size_t coalesce_min = 4;
  // Stop at the first failed operation, as `ip -batch` without -force does:
  // nothing after it stays applied. Exclusive adds (links, addresses,
  // routes, neighbours, fdb entries, rules with a priority, nexthops with an id, address labels) are still
  // pipelined: should one fail, the kernel has already applied the ones
  // sent after it, and those are undone, newest first. Everything else (set, replace, delete, tun/tap)
  // is sent alone once the operations before it have succeeded; so are
  // link deletes, which are then not coalesced. Operations after the
  // failure report ECANCELED ("not attempted" or "not applied"); one that
  // could not be undone reports that failure instead.
  bool stop_at_first_error = false;
};

class BRISK_EXPORT Batch {
 public:
  explicit Batch(Connection& conn, BatchOptions options = {});
  // Operations never flushed are dropped: nothing is sent from a destructor.
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // Each returns the index of the operation's result in flush()'s answer.
  std::size_t add_link(LinkAdd spec);
  std::size_t set_link(LinkSet spec);
  std::size_t delete_link(std::string name);
  std::size_t delete_link_group(uint32_t group);
  // sync_link_state(): once the operations before it are done, before any after it.
  std::size_t sync_link_state(std::string name);
  std::size_t add_altnames(AltnameChange change);
  std::size_t delete_altnames(AltnameChange change);
  std::size_t add_address(AddressSpec spec);
  std::size_t replace_address(AddressSpec spec);
  std::size_t change_address(AddressSpec spec);
  std::size_t delete_address(AddressSpec spec);
  std::size_t add_route(RouteSpec spec);
  std::size_t put_route(RouteSpec spec, RouteMerge merge);
  std::size_t replace_route(RouteSpec spec);
  std::size_t delete_route(RouteSpec spec);
  std::size_t add_neighbour(NeighbourSpec spec);
  std::size_t replace_neighbour(NeighbourSpec spec);
  std::size_t change_neighbour(NeighbourSpec spec);
  std::size_t delete_neighbour(NeighbourSpec spec);
  std::size_t add_fdb(FdbSpec spec);
  std::size_t delete_fdb(FdbSpec spec);
  std::size_t add_rule(RuleSpec spec);
  std::size_t delete_rule(RuleSpec spec);

  // How many operations were queued since the last flush.
  std::size_t size() const;
  // Makes room for `count` operations queued before flush(), as
  // std::vector::reserve does. A fed flush holds only the operations of
  // its windows at once, and needs none.
  void reserve(std::size_t count);
  // Runs every queued operation and empties the batch.
  std::vector<NlResult<void>> flush();

 private:
  friend struct detail::BatchAccess;
  // brisk's own programs reach the hooks below through it (netlink/internal/hooks.h).
  friend struct internal::BatchHooks;
  BRISK_HIDDEN std::size_t push(detail::Op op);
  // Fed flushes, for brisk's own programs (netlink/internal/hooks.h).
  BRISK_HIDDEN std::vector<NlResult<void>> flush(const std::function<bool()>& more, std::size_t expected = 0);
  BRISK_HIDDEN void flush_each(const std::function<bool()>& more, std::size_t expected,
                               const std::function<void(std::size_t, NlResult<void>)>& on_result);
  Connection& conn_;
  BatchOptions options_;
  std::unique_ptr<detail::IndexRing<detail::Op>> ops_;  // queued, numbered from 0 at each flush
};

}  // namespace brisk::netlink
