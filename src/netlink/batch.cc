// Running queued operations as a pipeline, and coalescing runs of deletes.
#include "brisk/netlink/batch.h"

#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <climits>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "netlink/internal/delete_prediction.h"
#include "netlink/op.h"

namespace brisk::netlink {
namespace detail {
namespace {

NetlinkError no_such_device(const std::string& name, std::string detail = {}) {
  NetlinkError e{.code = ENODEV, .op = "link del", .object = name, .detail = std::move(detail)};
  mark_missing_device(e);  // only when there is no detail: gone with its peer is no argument error
  return e;
}

Request group_move(int ifindex, uint32_t group, const std::string& name) {
  Message m(RTM_NEWLINK, 0);
  m.put_header<ifinfomsg>().ifi_index = ifindex;
  m.put_u32(IFLA_GROUP, group);
  return {.message = std::move(m), .op = "link del", .object = name};
}

}  // namespace

std::vector<NlResult<void>> bulk_delete(Connection& conn, const std::vector<std::string>& names) {
  std::vector<NlResult<void>> results(names.size());
  auto sequential = [&](const std::vector<std::size_t>& which) {
    std::vector<Op> ops;
    for (std::size_t k : which) ops.push_back(link_delete_op(names[k]));
    auto done = run_ops(conn, ops, {.coalesce_deletes = false});
    for (std::size_t j = 0; j < which.size(); ++j) results[which[j]] = std::move(done[j]);
  };
  std::vector<std::size_t> all(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) all[k] = k;

  // One dump shows every device's group (to pick an unused one) and parent.
  auto links = list_links(conn);
  if (!links) {
    sequential(all);
    return results;
  }
  std::unordered_map<std::string, const LinkInfo*> by_name;
  std::unordered_set<uint32_t> used_groups;
  for (const auto& link : *links) {
    by_name[link.name] = &link;
    used_groups.insert(link.group);
  }
  std::random_device seed;
  std::mt19937 random(seed());
  std::uniform_int_distribution<uint32_t> pick(1u << 20, INT_MAX);
  uint32_t group = pick(random);
  while (used_groups.count(group)) group = pick(random);

  // Replay the deletes in order, to give each the result it would have had.
  auto outcomes = predict_link_deletes(*links, names);
  std::vector<std::size_t> movers, one_by_one;
  for (std::size_t k = 0; k < names.size(); ++k) {
    switch (outcomes[k]) {
      case DeleteOutcome::missing:
        results[k] = no_such_device(names[k]);
        break;
      case DeleteOutcome::gone_earlier:
        results[k] = no_such_device(names[k], "deleted with its peer or lower device earlier in the batch");
        break;
      // No rtnl_link_ops: a group delete would refuse the whole group.
      case DeleteOutcome::unpredictable:
        one_by_one.push_back(k);
        break;
      case DeleteOutcome::deleted:
        movers.push_back(k);
        break;
    }
  }

  // Move the targets into the fresh group, pipelined.
  std::vector<Request> moves;
  for (std::size_t k : movers) moves.push_back(group_move(by_name[names[k]]->ifindex, group, names[k]));
  conn.execute(moves);
  std::vector<std::size_t> moved;
  for (std::size_t j = 0; j < movers.size(); ++j) {
    if (moves[j].result) {
      moved.push_back(movers[j]);
    } else {
      results[movers[j]] = std::move(moves[j].result);
    }
  }
  if (!moved.empty()) {
    Message m(RTM_DELLINK, 0);
    m.put_header<ifinfomsg>();
    m.put_u32(IFLA_GROUP, group);
    auto deleted = conn.execute(
        Request{.message = std::move(m), .op = "link del", .object = "group " + std::to_string(group)});
    if (!deleted) {
      // Put every device back in its own group, then delete them one by one.
      std::vector<Request> restore;
      for (std::size_t k : moved) {
        const LinkInfo* link = by_name[names[k]];
        restore.push_back(group_move(link->ifindex, link->group, names[k]));
      }
      conn.execute(restore);
      sequential(moved);
    }
  }
  sequential(one_by_one);
  conn.forget_all_names();
  return results;
}

NlResult<void> run_one(Connection& conn, Op op) {
  std::vector<Op> ops;
  ops.push_back(std::move(op));
  return std::move(run_ops(conn, ops, {.coalesce_deletes = false})[0]);
}

}  // namespace detail

Batch::Batch(Connection& conn, BatchOptions options)
    : conn_(conn), options_(options), ops_(std::make_unique<detail::IndexRing<detail::Op>>()) {}
Batch::~Batch() = default;

std::size_t Batch::size() const { return ops_->end(); }

void Batch::reserve(std::size_t count) { ops_->reserve(count); }

std::size_t Batch::push(detail::Op op) { return ops_->push(std::move(op)); }

std::size_t Batch::add_link(LinkAdd spec) { return push(detail::link_add_op(std::move(spec))); }
std::size_t Batch::set_link(LinkSet spec) { return push(detail::link_set_op(std::move(spec))); }
std::size_t Batch::delete_link(std::string name) { return push(detail::link_delete_op(std::move(name))); }
std::size_t Batch::delete_link_group(uint32_t group) { return push(detail::link_group_delete_op(group)); }
std::size_t Batch::sync_link_state(std::string name) {
  // Local: the window before it is sent and answered first.
  detail::Op op{.op = "link sync", .object = name};
  op.local = [name = std::move(name)](Connection& conn) { return netlink::sync_link_state(conn, name); };
  return push(std::move(op));
}
std::size_t Batch::add_altnames(AltnameChange change) {
  return push(detail::link_property_op(std::move(change), true));
}
std::size_t Batch::delete_altnames(AltnameChange change) {
  return push(detail::link_property_op(std::move(change), false));
}
std::size_t Batch::add_address(AddressSpec spec) {
  return push(detail::address_op(std::move(spec), detail::AddressWrite::add));
}
std::size_t Batch::replace_address(AddressSpec spec) {
  return push(detail::address_op(std::move(spec), detail::AddressWrite::replace));
}
std::size_t Batch::change_address(AddressSpec spec) {
  return push(detail::address_op(std::move(spec), detail::AddressWrite::change));
}
std::size_t Batch::delete_address(AddressSpec spec) {
  return push(detail::address_op(std::move(spec), detail::AddressWrite::del));
}

std::size_t Batch::add_route(RouteSpec spec) { return push(detail::route_op(std::move(spec), RTM_NEWROUTE)); }
std::size_t Batch::put_route(RouteSpec spec, RouteMerge merge) {
  return push(detail::route_op(std::move(spec), RTM_NEWROUTE, merge));
}
std::size_t Batch::replace_route(RouteSpec spec) {
  return push(detail::route_op(std::move(spec), RTM_NEWROUTE, RouteMerge::replace));
}
std::size_t Batch::delete_route(RouteSpec spec) {
  return push(detail::route_op(std::move(spec), RTM_DELROUTE));
}
std::size_t Batch::add_neighbour(NeighbourSpec spec) {
  return push(detail::neighbour_op(std::move(spec), detail::NeighWrite::add));
}
std::size_t Batch::replace_neighbour(NeighbourSpec spec) {
  return push(detail::neighbour_op(std::move(spec), detail::NeighWrite::replace));
}
std::size_t Batch::change_neighbour(NeighbourSpec spec) {
  return push(detail::neighbour_op(std::move(spec), detail::NeighWrite::change));
}
std::size_t Batch::delete_neighbour(NeighbourSpec spec) {
  return push(detail::neighbour_op(std::move(spec), detail::NeighWrite::del));
}
std::size_t Batch::add_fdb(FdbSpec spec) { return push(detail::fdb_op(std::move(spec), RTM_NEWNEIGH)); }
std::size_t Batch::delete_fdb(FdbSpec spec) { return push(detail::fdb_op(std::move(spec), RTM_DELNEIGH)); }
std::size_t Batch::add_rule(RuleSpec spec) { return push(detail::rule_op(std::move(spec), RTM_NEWRULE)); }
std::size_t Batch::delete_rule(RuleSpec spec) { return push(detail::rule_op(std::move(spec), RTM_DELRULE)); }
std::vector<NlResult<void>> Batch::flush() { return flush({}); }

std::vector<NlResult<void>> Batch::flush(const std::function<bool()>& more, std::size_t expected) {
  std::vector<NlResult<void>> results;
  results.reserve(std::max(ops_->live(), expected));
  flush_each(more, expected,
             [&](std::size_t, NlResult<void> result) { results.push_back(std::move(result)); });
  return results;
}

void Batch::flush_each(const std::function<bool()>& more, std::size_t expected,
                       const std::function<void(std::size_t, NlResult<void>)>& on_result) {
  // ops_ itself is run, so that what `more` queues lands where the run reads.
  detail::run_ops(conn_, *ops_, options_, {.more = more, .expected = expected, .release_settled = true},
                  on_result);
  *ops_ = {};
}

}  // namespace brisk::netlink
