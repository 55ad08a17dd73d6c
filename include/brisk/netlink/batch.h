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
#include "brisk/netlink/addrlabel.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/nexthop.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"

namespace brisk::netlink {

namespace detail {
struct Op;
template <class T>
class IndexRing;
struct BatchAccess;  // setup_netns_many runs a batch's operations itself
}  // namespace detail

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

// What deleting links by name, in order, does to each, replayed on one
// dump of the namespace (list_links): the prediction a batch coalesces
// deletes by, for a front end that schedules them too.
enum class DeleteOutcome : uint8_t {
  deleted,        // it exists, and goes with its peer and what is stacked on it
  missing,        // no such device: ENODEV
  gone_earlier,   // removed by an earlier delete of the run (its peer or lower device): ENODEV
  unpredictable,  // a device without rtnl_link_ops (lo, hardware): the kernel may refuse
};
BRISK_EXPORT std::vector<DeleteOutcome> predict_link_deletes(std::span<const LinkInfo> links,
                                                             std::span<const std::string> names);

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
  std::size_t put_nexthop(NexthopObjectSpec spec, NexthopWrite write);
  std::size_t add_addrlabel(AddrLabelSpec spec);
  std::size_t delete_addrlabel(AddrLabelSpec spec);

  // How many operations were queued since the last flush.
  std::size_t size() const;
  // Makes room for `count` operations queued before flush(), as
  // std::vector::reserve does. A fed flush holds only the operations of
  // its windows at once, and needs none.
  void reserve(std::size_t count);
  // Runs every queued operation and empties the batch.
  std::vector<NlResult<void>> flush();
  // flush(), with the batch fed while it runs: each time every operation
  // queued so far has been taken up, `more` is called (on this thread) to
  // queue further ones on this batch, and returns false once it has none.
  // A front end that turns its input into operations one by one does so
  // while the kernel works on the windows already sent. `expected`: how
  // many operations there will be in all (0: not known), by which a long
  // batch is overlapped from its start.
  std::vector<NlResult<void>> flush(const std::function<bool()>& more, std::size_t expected = 0);
  // flush(more, expected), with each result handed to `on_result` (its
  // index, the result) as soon as it is final, in index order, instead of
  // in one vector at the end: a long fed batch then keeps no memory per
  // operation beyond its windows in flight. Results are final when every
  // earlier one is, so a caller may act on a failure before the batch ends.
  void flush_each(const std::function<bool()>& more, std::size_t expected,
                  const std::function<void(std::size_t, NlResult<void>)>& on_result);

 private:
  friend struct detail::BatchAccess;
  BRISK_HIDDEN std::size_t push(detail::Op op);
  Connection& conn_;
  BatchOptions options_;
  std::unique_ptr<detail::IndexRing<detail::Op>> ops_;  // queued, numbered from 0 at each flush
};

}  // namespace brisk::netlink
