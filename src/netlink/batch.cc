// Running queued operations as a pipeline, and coalescing runs of deletes.
#include "brisk/netlink/batch.h"

#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <climits>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "netlink/op.h"

namespace brisk::netlink {
namespace detail {
namespace {

void finish(Connection& conn, Op& op, NlResult<void>& result) {
  if (!result && op.explain) op.explain(result.error());
  if (op.after) op.after(conn, result);
}

NetlinkError no_such_device(const std::string& name, std::string detail = {}) {
  return {.code = ENODEV, .op = "link del", .object = name, .detail = std::move(detail)};
}

Request group_move(int ifindex, uint32_t group, const std::string& name) {
  Message m(RTM_NEWLINK, 0);
  m.put_header<ifinfomsg>().ifi_index = ifindex;
  m.put_u32(IFLA_GROUP, group);
  return {.message = std::move(m), .op = "link del", .object = name};
}

}  // namespace

std::vector<NlResult<void>> run_ops(Connection& conn, std::vector<Op>& ops, const BatchOptions& options) {
  std::vector<NlResult<void>> results(ops.size());
  std::vector<Request> pending;
  std::vector<std::size_t> owner;  // op index of each pending request
  bool pending_changes_names = false;
  const std::size_t window = conn.window_requests(kAckBudget);
  const bool stop = options.stop_at_first_error;
  // Deletes cannot be undone, so a stopping batch sends them one at a time.
  const bool coalesce = options.coalesce_deletes && !stop;
  std::optional<std::size_t> first_failure;  // stop mode: the op that ended the batch
  auto cancelled = [&](std::size_t i, const char* what) {
    return NetlinkError{.code = ECANCELED, .op = ops[i].op, .object = ops[i].object,
                        .detail = std::string(what) + ": an earlier operation failed"};
  };

  // Stop mode: the kernel went on past the window's first failure; put back
  // what the ops after it did, newest first.
  auto undo_after = [&](std::size_t failed, std::span<const std::size_t> window_ops) {
    std::vector<Op> undo;
    std::vector<std::size_t> undone;
    for (auto it = window_ops.rbegin(); it != window_ops.rend() && *it > failed; ++it) {
      if (!results[*it]) {
        results[*it] = cancelled(*it, "not applied");  // its own failure changed nothing, and comes second
        continue;
      }
      undo.push_back(ops[*it].undo());
      undone.push_back(*it);
    }
    auto reverted = run_ops(conn, undo, {.coalesce_deletes = true});
    for (std::size_t k = 0; k < undone.size(); ++k) {
      NetlinkError e = cancelled(undone[k], "not applied");
      if (!reverted[k]) {
        e = std::move(reverted[k]).error();
        e.detail = "applied after an earlier operation failed, and undoing it failed" +
                   (e.detail.empty() ? std::string() : ": " + e.detail);
        e.op = ops[undone[k]].op;
        e.object = ops[undone[k]].object;
      }
      results[undone[k]] = std::move(e);
    }
  };

  auto drain = [&] {
    if (pending.empty()) return;
    conn.execute(pending);
    for (std::size_t k = 0; k < pending.size(); ++k) {
      auto& result = results[owner[k]];
      if (result && !pending[k].result) result = std::move(pending[k].result);
    }
    std::vector<std::size_t> window_ops;
    for (std::size_t k = 0; k < owner.size(); ++k) {
      if (k + 1 != owner.size() && owner[k + 1] == owner[k]) continue;
      finish(conn, ops[owner[k]], results[owner[k]]);
      window_ops.push_back(owner[k]);
    }
    pending.clear();
    owner.clear();
    pending_changes_names = false;
    if (!stop) return;
    for (std::size_t i : window_ops) {
      if (results[i]) continue;
      first_failure = i;
      undo_after(i, window_ops);
      break;
    }
  };
  // Stop mode: an op failed before it was sent. Earlier ops still in flight
  // come first; if none of them failed, this one ends the batch.
  auto failed_unsent = [&](std::size_t i) {
    if (!stop) return;
    NlResult<void> mine = std::move(results[i]);
    drain();
    if (first_failure) {
      results[i] = cancelled(i, "not attempted");
    } else {
      first_failure = i;
      results[i] = std::move(mine);
    }
  };

  for (std::size_t i = 0; i < ops.size(); ++i) {
    Op& op = ops[i];
    if (first_failure) {
      results[i] = cancelled(i, "not attempted");
      continue;
    }
    if (op.rejected) {
      results[i] = *op.rejected;
      failed_unsent(i);
      continue;
    }
    if (coalesce && !op.delete_name.empty()) {
      std::size_t end = i;
      while (end < ops.size() && !ops[end].delete_name.empty() && !ops[end].rejected) ++end;
      if (end - i >= std::max<std::size_t>(options.coalesce_min, 2)) {
        drain();
        std::vector<std::string> names;
        for (std::size_t k = i; k < end; ++k) names.push_back(ops[k].delete_name);
        auto deleted = bulk_delete(conn, names);
        for (std::size_t k = i; k < end; ++k) results[k] = std::move(deleted[k - i]);
        conn.forget_all_names();
        i = end - 1;
        continue;
      }
    }
    // What cannot be undone goes alone once everything before it is known.
    bool alone = stop && !op.undo;
    if (op.local || alone) drain();
    if (first_failure) {  // found by that drain, in an earlier op
      results[i] = cancelled(i, "not attempted");
      continue;
    }
    if (op.local) {
      results[i] = op.local(conn);
      finish(conn, op, results[i]);
      if (stop && !results[i]) first_failure = i;
      continue;
    }
    if (!op.needs.empty() && pending_changes_names) drain();
    bool resolved = true;
    for (const auto& need : op.needs) {
      auto index = resolve_link(conn, need.name);
      if (!index && index.error().code == ENODEV && !pending.empty()) {
        drain();  // a request still in flight may create it
        index = resolve_link(conn, need.name);
      }
      if (!index) {
        NetlinkError e = std::move(index).error();
        e.detail = std::string(need.role) + " '" + need.name + "'" +
                   (e.code == ENODEV ? " does not exist" : ": " + e.message());
        e.op = op.op;
        e.object = op.object;
        e.ext_ack.clear();
        results[i] = std::move(e);
        resolved = false;
        break;
      }
    }
    if (first_failure) {  // a drain above found an earlier failure
      results[i] = cancelled(i, "not attempted");
      continue;
    }
    if (!resolved) {
      finish(conn, op, results[i]);
      failed_unsent(i);
      continue;
    }
    auto built = op.build(conn);
    if (!built) {
      NetlinkError e = std::move(built).error();
      if (!*e.op) e.op = op.op;
      if (e.object.empty()) e.object = op.object;
      results[i] = std::move(e);
      finish(conn, op, results[i]);
      failed_unsent(i);
      continue;
    }
    for (auto& request : *built) {
      request.message.shrink();
      pending.push_back(std::move(request));
      owner.push_back(i);
    }
    pending_changes_names |= op.changes_names;
    if (pending.size() >= window || alone) drain();
  }
  drain();
  return results;
}

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
      case DeleteOutcome::missing: results[k] = no_such_device(names[k]); break;
      case DeleteOutcome::gone_earlier:
        results[k] = no_such_device(names[k], "deleted with its peer or lower device earlier in the batch");
        break;
      // No rtnl_link_ops: a group delete would refuse the whole group.
      case DeleteOutcome::unpredictable: one_by_one.push_back(k); break;
      case DeleteOutcome::deleted: movers.push_back(k); break;
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
    auto deleted = conn.execute(Request{.message = std::move(m), .op = "link del",
                                        .object = "group " + std::to_string(group)});
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

Batch::Batch(Connection& conn, BatchOptions options) : conn_(conn), options_(options) {}
Batch::~Batch() = default;

std::size_t Batch::size() const { return ops_.size(); }

void Batch::reserve(std::size_t count) { ops_.reserve(count); }

std::size_t Batch::push(detail::Op op) {
  ops_.push_back(std::move(op));
  return ops_.size() - 1;
}

std::size_t Batch::add_link(LinkAdd spec) { return push(detail::link_add_op(std::move(spec))); }
std::size_t Batch::set_link(LinkSet spec) { return push(detail::link_set_op(std::move(spec))); }
std::size_t Batch::delete_link(std::string name) { return push(detail::link_delete_op(std::move(name))); }
std::size_t Batch::delete_link_group(uint32_t group) { return push(detail::link_group_delete_op(group)); }
std::size_t Batch::add_altnames(AltnameChange change) { return push(detail::link_property_op(std::move(change), true)); }
std::size_t Batch::delete_altnames(AltnameChange change) {
  return push(detail::link_property_op(std::move(change), false));
}
std::size_t Batch::add_address(AddressSpec spec) { return push(detail::address_op(std::move(spec), RTM_NEWADDR)); }
std::size_t Batch::replace_address(AddressSpec spec) {
  return push(detail::address_op(std::move(spec), -RTM_NEWADDR));
}
std::size_t Batch::delete_address(AddressSpec spec) { return push(detail::address_op(std::move(spec), RTM_DELADDR)); }

std::size_t Batch::add_route(RouteSpec spec) { return push(detail::route_op(std::move(spec), RTM_NEWROUTE)); }
std::size_t Batch::put_route(RouteSpec spec, RouteMerge merge) {
  return push(detail::route_op(std::move(spec), RTM_NEWROUTE, merge));
}
std::size_t Batch::replace_route(RouteSpec spec) {
  return push(detail::route_op(std::move(spec), RTM_NEWROUTE, RouteMerge::replace));
}
std::size_t Batch::delete_route(RouteSpec spec) { return push(detail::route_op(std::move(spec), RTM_DELROUTE)); }
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

std::vector<NlResult<void>> Batch::flush() {
  auto results = detail::run_ops(conn_, ops_, options_);
  ops_.clear();
  return results;
}

}  // namespace brisk::netlink
