// Runs parsed ip-grammar commands: one connection (in -n's namespace),
// changes scheduled into engine batches as ip -batch's semantics allow,
// and each show handed to its object's printer.
#include "cli/ip/runner.h"

#include <linux/rtnetlink.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "brisk/netlink/netns.h"
#include "cli/ip/batch_parse.h"
#include "cli/ip/batch_rules.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/json_layout.h"
#include "cli/ip/name_prefetch.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/route_match.h"
#include "netlink/internal/delete_prediction.h"
#include "netlink/internal/hooks.h"

namespace brisk::ipcli {

using netlink::Connection;
using netlink::NetlinkError;
using netlink::NlResult;

namespace {

void write_out(const std::string& text) {
  if (text.empty()) return;
  if (print_style().color) {  // only painted output is rewritten; the rest goes out as it is
    std::string settled = settle_painted(text);
    std::fwrite(settled.data(), 1, settled.size(), stdout);
    return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void print_error_line(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
}

// What ip prints to stderr as it reads the line (a deprecated keyword).
void warn(const IpCommand& cmd) {
  if (!cmd.warning.empty()) print_error_line(cmd.warning);
}

}  // namespace

int Runner::failure_status(const NetlinkError& e, Verb verb) const {
  return exit_status(e, verb, !source_.empty());
}

void Runner::dump_json() {
  if (!g_.json || !json_used_) return;
  out_ += ip_json_text(json_, g_.pretty) + "\n";
  json_ = Json::array();
  json_used_ = false;
}

void Runner::error_line(const std::string& text) {
  flush_out();
  print_error_line(text);
}

void Runner::flush_out() {
  write_out(out_);
  out_.clear();
  std::fflush(stdout);
}

NlResult<Connection*> Runner::conn() {
  if (conn_) return &*conn_;
  netlink::ConnectionOptions options;
  // -rc: ip's setsockopt(SO_RCVBUF), whose int takes the unsigned bits as they are.
  if (g_.rcvbuf) options.receive_buffer = static_cast<int>(*g_.rcvbuf);
  if (g_.netns) {
    auto fd = netlink::open_netns(*g_.netns);
    if (!fd) return std::move(fd).error();
    netns_fd_ = std::move(*fd);
    // The library never moves the caller's thread, so open_in() makes the
    // socket on a helper thread; for a one-command process that thread (its
    // stack, its malloc arena) cost more than the command. The CLI's own
    // process simply enters the namespace.
    if (own_process_) {
      BRISK_TRY(netlink::enter_netns(netns_fd_.get(), *g_.netns));
      netns_fd_.reset();
      auto c = Connection::open(options);
      if (!c) return std::move(c).error();
      conn_.emplace(std::move(*c));
      return &*conn_;
    }
    auto c = Connection::open_in(netns_fd_.get(), options);
    if (!c) return std::move(c).error();
    conn_.emplace(std::move(*c));
  } else {
    auto c = Connection::open(options);
    if (!c) return std::move(c).error();
    conn_.emplace(std::move(*c));
  }
  return &*conn_;
}

void Runner::report(int line, const std::string& message) {
  write_out(out_);
  out_.clear();
  if (!message.empty()) print_error_line(message);
  if (!source_.empty()) print_error_line("Command failed " + source_ + ":" + std::to_string(line));
}

NlResult<int> Runner::held_netns(const std::string& name_or_pid, const char* op) {
  // As ip's netns_get_fd(), then its PID reading: a name first, else a number.
  auto fd = netlink::open_netns(name_or_pid);
  if (!fd && !name_or_pid.empty() && name_or_pid.find_first_not_of("0123456789") == std::string::npos)
    fd = netlink::open_netns_pid(static_cast<pid_t>(std::stol(name_or_pid)));
  // Neither: ip's "Invalid "netns" value", an argument error (argument_error).
  if (!fd) return netlink::missing_argument(op, "", netlink::Argument::netns, name_or_pid);
  int raw = fd->get();
  held_fds_.push_back(std::move(*fd));
  return raw;
}

NlResult<void> Runner::check_vrfs(IpCommand& cmd) {
  if (cmd.vrfs.empty()) return {};
  auto* c = BRISK_TRY(conn());
  if (is_route_change(cmd.verb)) {
    // ip's ipvrf_get_table(): the route goes to the VRF's table.
    cmd.route().table = BRISK_TRY(vrf_table(*c, cmd.vrfs.back(), "route add"));
    return {};
  }
  for (const auto& name : cmd.vrfs) {  // ip's name_is_vrf(): a device of kind vrf
    auto link = netlink::get_link(*c, name);
    if (!link || link->kind != "vrf")
      return netlink::missing_argument("link set", name, netlink::Argument::vrf, name);
  }
  return {};
}

NlResult<int> Runner::link_netnsid(const std::string& name) {
  // ip's get_netnsid_from_name(), and set_netnsid_from_name() for a
  // namespace with no id here yet: the kernel assigns one.
  NetlinkError invalid = netlink::missing_argument("link set", name, netlink::Argument::link_netns, name);
  auto* c = BRISK_TRY(conn());
  auto fd = netlink::open_netns(name);
  if (!fd) return invalid;
  auto id = BRISK_TRY(netlink::netns_id(*c, fd->get()));
  if (!id && netlink::set_netns_id(*c, fd->get(), std::nullopt)) {
    forget_netns_ids();
    id = BRISK_TRY(netlink::netns_id(*c, fd->get()));
  }
  if (!id) return invalid;
  return *id;
}

NlResult<std::size_t> Runner::queue(netlink::Batch& batch, IpCommand& cmd) {
  BRISK_TRY(check_vrfs(cmd));
  switch (cmd.verb) {
    case Verb::link_add: {
      netlink::LinkAdd spec = std::move(cmd.link_add());
      if (!cmd.add_netns.empty()) spec.netns_fd = BRISK_TRY(held_netns(cmd.add_netns, "link add"));
      if (!cmd.link_netns.empty()) spec.common.tuning.link_netnsid = BRISK_TRY(link_netnsid(cmd.link_netns));
      if (auto* veth = std::get_if<netlink::VethOptions>(&spec.kind)) {
        if (!cmd.peer_netns.empty()) veth->peer_netns_fd = BRISK_TRY(held_netns(cmd.peer_netns, "link add"));
        if (!cmd.peer_link_netns.empty())
          veth->peer_common.tuning.link_netnsid = BRISK_TRY(link_netnsid(cmd.peer_link_netns));
      }
      return batch.add_link(std::move(spec));
    }
    case Verb::link_set: {
      netlink::LinkSet spec = std::move(cmd.link_set());
      if (!cmd.link_netns.empty()) spec.tuning.link_netnsid = BRISK_TRY(link_netnsid(cmd.link_netns));
      // `netns NAME`; the parser has already read a PID into netns_pid.
      if (!cmd.set_netns.empty() && !spec.netns_pid)
        spec.netns_fd = BRISK_TRY(held_netns(cmd.set_netns, "link set"));
      return batch.set_link(std::move(spec));
    }
    case Verb::link_del:
      return batch.delete_link(cmd.name);
    case Verb::link_del_group:
      return batch.delete_link_group(cmd.group);
    case Verb::link_prop_add:
      return batch.add_altnames(std::move(cmd.altnames()));
    case Verb::link_prop_del:
      return batch.delete_altnames(std::move(cmd.altnames()));
    case Verb::addr_add:
      return batch.add_address(std::move(cmd.addr()));
    case Verb::addr_replace:
      return batch.replace_address(std::move(cmd.addr()));
    case Verb::addr_change:
      return batch.change_address(std::move(cmd.addr()));
    case Verb::addr_del:
      return batch.delete_address(std::move(cmd.addr()));
    case Verb::route_add:
      return batch.add_route(std::move(cmd.route()));
    case Verb::route_replace:
      return batch.replace_route(std::move(cmd.route()));
    case Verb::route_change:
      return batch.put_route(std::move(cmd.route()), netlink::RouteMerge::change);
    case Verb::route_prepend:
      return batch.put_route(std::move(cmd.route()), netlink::RouteMerge::prepend);
    case Verb::route_append:
      return batch.put_route(std::move(cmd.route()), netlink::RouteMerge::append);
    case Verb::route_del:
      return batch.delete_route(std::move(cmd.route()));
    case Verb::rule_add:
      return batch.add_rule(std::move(cmd.rule()));
    case Verb::rule_del:
      return batch.delete_rule(std::move(cmd.rule()));
    case Verb::neigh_add:
      return batch.add_neighbour(std::move(cmd.neigh()));
    case Verb::neigh_replace:
      return batch.replace_neighbour(std::move(cmd.neigh()));
    case Verb::neigh_change:
      return batch.change_neighbour(std::move(cmd.neigh()));
    case Verb::neigh_del:
      return batch.delete_neighbour(std::move(cmd.neigh()));
    case Verb::fdb_add:
      return batch.add_fdb(std::move(cmd.fdb()));
    case Verb::fdb_del:
      return batch.delete_fdb(std::move(cmd.fdb()));
    case Verb::nexthop_add:
      return netlink::put_nexthop(batch, std::move(cmd.nexthop()), netlink::NexthopWrite::add);
    case Verb::nexthop_replace:
      return netlink::put_nexthop(batch, std::move(cmd.nexthop()), netlink::NexthopWrite::replace);
    case Verb::nexthop_del:
      return netlink::put_nexthop(batch, std::move(cmd.nexthop()), netlink::NexthopWrite::del);
    case Verb::addrlabel_add:
      return netlink::add_addrlabel(batch, std::move(cmd.addrlabel()));
    case Verb::addrlabel_del:
      return netlink::delete_addrlabel(batch, std::move(cmd.addrlabel()));
    default:
      break;
  }
  return netlink::invalid_argument("queue", "", "not a mutating command");
}

int Runner::run(std::vector<BatchCommand>& cmds) {
  set_print_style(style_of(g_));
  int status = 0;
  for (std::size_t i = 0; i < cmds.size();) {
    std::optional<int> exit;
    if (cmds[i].mutates()) {
      exit = run_changes(cmds, i, status);  // moves i past the run
    } else {
      exit = run_held(*cmds[i].held, status);  // what is not a change is held whole
      ++i;
    }
    if (exit) return *exit;
  }
  return status;
}

std::size_t Runner::change_run_end(const std::vector<BatchCommand>& cmds, std::size_t i, bool& stop_mode) {
  // With -force every line is attempted, so a whole run of changes goes
  // out as one pipeline. Without it a later line must not stay applied
  // once an earlier one failed: the engine's stop mode still pipelines
  // exclusive adds (undoing those sent past a failure) and sends the
  // rest one at a time. Deletes cannot be undone; a run of them goes
  // out coalesced as far as a replay on one dump predicts success.
  std::size_t end = i + 1;
  stop_mode = false;
  if (g_.force) {
    // A device that ip would not find while parsing, or the kernel refusing
    // an ip neigh line, ends even a -force batch (below): such a line goes
    // out alone, after what comes before it.
    auto ends = [](const BatchCommand& c) { return c.held && may_end_batch(*c.held); };  // plain: never
    if (!ends(cmds[i]))
      while (end < cmds.size() && cmds[end].mutates() && !ends(cmds[end])) ++end;
  } else if (cmds[i].verb == Verb::link_del) {
    end = i + safe_delete_prefix(cmds, i);
  } else {
    stop_mode = true;
    while (end < cmds.size() && cmds[end].mutates() && cmds[end].verb != Verb::link_del) ++end;
  }
  return end;
}

Runner::ChangeResults Runner::apply_changes(netlink::Connection& c, std::vector<BatchCommand>& cmds,
                                            std::size_t i, std::size_t end, bool stop_mode) {
  netlink::Batch batch(c, {.stop_at_first_error = stop_mode});
  ChangeResults out{.end = end, .slot = std::vector<std::optional<std::size_t>>(end - i)};
  // The lines are queued as the batch asks for them, so that making the
  // ops of later lines (a plain change is parsed again here) overlaps
  // the kernel's work on earlier ones.
  std::size_t next = i;
  BatchLine words;  // a plain change's, reused line to line
  NamePrefetch names(netlink::internal::ConnectionHooks::transport(c), std::span(cmds).subspan(i, end - i));
  auto queue_line = [&](std::size_t k) -> NlResult<std::size_t> {
    if (cmds[k].held) {
      warn(*cmds[k].held);
      sync_named_devices(batch, *cmds[k].held);
      return queue(batch, *cmds[k].held);
    }
    auto again = parse_again(cmds[k], g_, words);
    if (!again) return netlink::invalid_argument("parse", "", again.error().message);
    if (auto found = names.take(k - i))
      netlink::internal::ConnectionHooks::remember_ifindex(c, std::string(found->name), found->ifindex);
    warn(*again);
    sync_named_devices(batch, *again);
    return queue(batch, *again);
  };
  auto more = [&] {
    if (next >= out.end) return false;
    std::size_t k = next++;
    if (auto idx = queue_line(k)) {
      out.slot[k - i] = *idx;
    } else {
      out.prep_errors.push_back(std::move(idx).error());
      if (stop_mode) out.end = k + 1;  // nothing after it may be applied
    }
    return true;
  };
  netlink::internal::BatchHooks::flush_each(batch, more, end - i, [&](std::size_t op, NlResult<void> result) {
    if (!result) out.failures.emplace_back(op, std::move(result).error());
  });
  held_fds_.clear();
  return out;
}

std::optional<int> Runner::run_changes(std::vector<BatchCommand>& cmds, std::size_t& i, int& status) {
  auto c = conn();
  if (!c) {
    report(cmds[i].line, runtime_message(c.error()));
    return 1;
  }
  bool stop_mode = false;
  std::size_t end = change_run_end(cmds, i, stop_mode);
  ChangeResults results = apply_changes(**c, cmds, i, end, stop_mode);
  bool failed = false;
  std::size_t next_prep = 0;
  auto next_failure = results.failures.begin();  // ops are queued in line order, so their failures are
  for (std::size_t k = i; k < results.end; ++k) {
    // A line without a slot has the next of the errors, which are in line order.
    const NetlinkError* error = results.slot[k - i] ? nullptr : &results.prep_errors[next_prep++];
    if (!error) {
      // Skipping failures of ops no line owns (a sync queued before a line's op).
      while (next_failure != results.failures.end() && next_failure->first < *results.slot[k - i])
        ++next_failure;
      if (next_failure != results.failures.end() && next_failure->first == *results.slot[k - i])
        error = &(next_failure++)->second;
    }
    if (!error || (failed && stop_mode && error->code == ECANCELED)) continue;
    if (auto text = argument_error(*error, cmds[k].verb)) {
      // ip reads the device's index while parsing the line, and a missing
      // one is an argument error: the whole batch ends there, -force or not.
      flush_out();
      print_error_line(*text);
      return kArgumentExit;
    }
    if (ends_on_refusal(*error, cmds[k].verb)) {
      flush_out();
      print_error_line(runtime_message(*error));
      return 2;
    }
    report(cmds[k].line, runtime_message(*error));
    if (!failed) status = failure_status(*error);
    failed = true;
  }
  if (failed && !g_.force) return status;
  i = results.end;
  return std::nullopt;
}

std::optional<int> Runner::run_ending(const IpCommand& cmd, int status) {
  if (cmd.verb == Verb::rule_restore) {
    // ip's restore ends the process when it is done, batch or not:
    // exit(0), or exit(-1) at the first message that fails.
    flush_out();
    auto restored = restore_rules(*this, cmd);
    if (restored) return 0;
    const NetlinkError& e = restored.error();
    print_error_line(e.kernel || e.op != kRuleRestore ? runtime_message(e) : e.detail);
    return kArgumentExit;
  }
  if (cmd.verb == Verb::route_restore || cmd.verb == Verb::route_showdump) {
    // ip returns from these (-1 for a bad start of the stream, -2 past it);
    // in a batch they read the rest of it, so the batch ends here.
    bool restore = cmd.verb == Verb::route_restore;
    auto done = restore ? restore_routes(*this, cmd) : show_saved_routes(*this, cmd);
    dump_json();
    flush_out();
    if (done) return status;
    const NetlinkError& e = done.error();
    bool ours = !e.kernel && (e.op == kRouteRestore || e.op == kRouteShowdump);
    report(cmd.line, ours ? e.detail : runtime_message(e));
    if (!source_.empty()) return 1;
    return ours && e.code == EINVAL ? 1 : 2;  // ip's do_cmd negates the -1 (at the start) or -2
  }
  if (cmd.verb == Verb::maddr_add || cmd.verb == Verb::maddr_del) {
    // ip exits after the ioctl, 0 or 1, whatever follows in a batch.
    flush_out();
    auto changed = run_one(cmd);
    if (changed) return 0;
    const NetlinkError& e = changed.error();
    // The ioctl's refusal, as ip's perror("ioctl"); brisk's own check otherwise.
    print_error_line(e.detail.empty() ? std::string("ioctl: ") + std::strerror(e.code) : runtime_message(e));
    return 1;
  }
  return std::nullopt;
}

namespace {

// Commands that look their devices up as ip parses them: a missing one is
// ip's argument error.
bool parses_devices(Verb verb) {
  switch (verb) {
    case Verb::monitor:
    case Verb::link_show:
    case Verb::addr_show:
    case Verb::addr_flush:
    case Verb::neigh_show:
    case Verb::neigh_flush:
    case Verb::route_get:
    case Verb::route_show:
    case Verb::route_flush:
    case Verb::route_save:
    case Verb::nexthop_show:
    case Verb::nexthop_flush:
    case Verb::nexthop_bucket_show:
    case Verb::token_show:
    case Verb::token_set:
    case Verb::ntable_show:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<int> Runner::run_held(const IpCommand& cmd, int& status) {
  if (cmd.verb == Verb::unparsed) {  // a line ip sends and the kernel refuses: a failed line
    const UsageError& e = *cmd.parse_error;
    flush_out();
    print_error_line(format_error(e.message, e.exact));
    if (!source_.empty()) print_error_line("Command failed " + source_ + ":" + std::to_string(cmd.line));
    status = 1;
    if (!g_.force) return status;
    return std::nullopt;
  }
  if (auto exit = run_ending(cmd, status)) return exit;
  warn(cmd);
  NlResult<void> result = run_one(cmd);
  if (result && cmd.verb == Verb::tuntap_add) unsynced_.insert(cmd.name);
  if (!result) {
    const NetlinkError& e = result.error();
    if (parses_devices(cmd.verb)) {
      if (auto text = argument_error(e, cmd.verb)) {  // monitor dev DEV, show master|vrf DEV: missing
        flush_out();
        print_error_line(*text);
        return kArgumentExit;
      }
    }
    if (cmd.verb == Verb::netns_list_id && !cmd.nsid && e.kernel) {
      // ip exit(1)s when the kernel refuses list-id's dump, after closing its JSON array.
      dump_json();
      flush_out();
      print_error_line(runtime_message(e) + dump_ended(e, cmd.verb));
      return 1;
    }
    if (ends_on_refusal(e, cmd.verb)) {
      flush_out();  // ip's exit(2) after rtnl_talk: no "Command failed", -force or not
      print_error_line(runtime_message(e));
      return 2;
    }
    bool tuntap = cmd.verb == Verb::tuntap_add || cmd.verb == Verb::tuntap_del;
    report(cmd.line, tuntap ? tuntap_message(e) : runtime_message(e) + dump_ended(e, cmd.verb));
    status = failure_status(e, cmd.verb);
    if (!g_.force) return status;
  }
  dump_json();
  write_out(out_);
  out_.clear();
  return std::nullopt;
}

// ip resolves each device a line names with an RTM_GETLINK the first time,
// and that has the kernel apply the device's pending link-watch event there
// and then (its operstate, NO-CARRIER, its routes' linkdown); brisk's ioctl
// lookup does not, and linkwatch itself may wait up to a second. So that a
// batch leaves, and its shows print, what ip's would: a device this batch
// created is synced where a line first names it, and a single command syncs
// each device it names (one GETLINK beside a process start). A batch leaves
// devices made before it to linkwatch: a GETLINK per line would double the
// cost of an address or route line.
void Runner::sync_named_devices(netlink::Batch& batch, const IpCommand& cmd) {
  // A batch that has created nothing yet (a long run of address or route
  // lines) pays nothing per line here.
  if (source_.empty() || !unsynced_.empty()) {
    for (const auto& name : named_devices(cmd))
      if (source_.empty() || unsynced_.erase(name)) batch.sync_link_state(name);
  }
  if (cmd.verb == Verb::link_add)
    for (auto& name : created_devices(cmd)) unsynced_.insert(std::move(name));
}

// How many of the link deletes starting at `first` can be sent together
// (and coalesced into one group delete by the engine) without -force: the
// run up to, not including, the first line the engine's own prediction
// (replaying the deletes on one dump) does not see succeed. Each delete
// waits ~16 ms in rcu_barrier() when sent alone, so this is where a batch of
// deletes gains 50x. Should the kernel disagree anyway (a concurrent
// change), the real results are reported and the batch stops at the first
// failure as usual.
std::size_t Runner::safe_delete_prefix(const std::vector<BatchCommand>& cmds, std::size_t first) {
  std::vector<std::string> names;
  while (first + names.size() < cmds.size() && cmds[first + names.size()].verb == Verb::link_del)
    names.push_back(cmds[first + names.size()].held->name);
  if (names.size() < 2) return 1;
  auto c = conn();
  if (!c) return 1;
  auto links = netlink::list_links(**c);
  if (!links) return 1;
  auto outcomes = netlink::predict_link_deletes(*links, names);
  std::size_t safe = 0;
  while (safe < outcomes.size() && outcomes[safe] == netlink::DeleteOutcome::deleted) ++safe;
  return std::max<std::size_t>(safe, 1);
}

NlResult<Links> Runner::links_by_index(bool stats, bool details) {
  auto c = BRISK_TRY(conn());
  auto links = BRISK_TRY(netlink::list_links(*c, {.stats = stats, .details = details}));
  Links out;
  for (auto& l : links) out.emplace(l.ifindex, std::move(l));
  return out;
}

NlResult<Links> Runner::links_around(const std::string& dev, bool stats) {
  auto c = BRISK_TRY(conn());
  Links out;
  auto link = netlink::get_link(*c, dev, {.stats = stats});
  if (!link) {
    if (link.error().code == ENODEV) return out;
    return std::move(link).error();
  }
  std::vector<int> named{link->master};
  if (!link->link_netnsid) named.push_back(link->link);
  int index = link->ifindex;
  out.emplace(index, std::move(*link));
  for (int other : named) {
    if (other <= 0 || out.count(other)) continue;
    auto l = netlink::get_link(*c, other);
    if (l)
      out.emplace(other, std::move(*l));  // gone since: printed as "if<N>", as ip does
    else if (l.error().code != ENODEV)
      return std::move(l).error();
  }
  return out;
}

const std::map<int, std::string>& Runner::netns_by_id() {
  if (netns_by_id_) return *netns_by_id_;
  netns_by_id_.emplace();
  auto c = conn();
  auto names =
      netlink::list_netns(netlink::NetnsOrder::directory);  // the first name of a namespace wins, as in ip
  if (!c || !names) return *netns_by_id_;
  for (const auto& name : *names)
    if (auto id = named_netns_id(**c, name, !netns_map_built_)) netns_by_id_->emplace(*id, name);
  netns_map_built_ = true;
  return *netns_by_id_;
}

NsidNames& Runner::nsid_names() {
  if (!nsid_names_) {
    auto c = conn();
    nsid_names_.emplace(c ? *c : nullptr, netns_by_id());
  }
  return *nsid_names_;
}

NlResult<void> Runner::run_one(const IpCommand& cmd) {
  switch (cmd.verb) {
    case Verb::netns_add:
    case Verb::netns_del:
    case Verb::netns_list:
    case Verb::netns_exec:
    case Verb::netns_identify:
    case Verb::netns_pids:
    case Verb::netns_set:
    case Verb::netns_attach:
    case Verb::netns_list_id:
    case Verb::netns_monitor:
      return run_netns(*this, cmd);
    case Verb::addr_flush:
      return flush_addresses(*this, cmd);
    case Verb::link_show:
    case Verb::addr_show:
      return show_links(*this, cmd);
    case Verb::route_show:
      return show_routes(*this, cmd);
    case Verb::route_flush:
      return flush_routes(*this, cmd);
    case Verb::route_get:
      return get_route(*this, cmd);
    case Verb::rule_show:
      return show_rules(*this, cmd);
    case Verb::rule_flush:
      return flush_rules(*this, cmd);
    case Verb::rule_save:
      return save_rules(*this, cmd);
    case Verb::route_save:
      return save_routes(*this, cmd);
    case Verb::neigh_show:
      return show_neighbours(*this, cmd);
    case Verb::neigh_flush:
      return flush_neighbours(*this, cmd);
    case Verb::neigh_get:
      return get_neighbour(*this, cmd);
    case Verb::fdb_show:
      return show_fdb(*this, cmd);
    case Verb::nexthop_show:
      return show_nexthops(*this, cmd);
    case Verb::nexthop_flush:
      return flush_nexthops(*this, cmd);
    case Verb::nexthop_bucket_show:
      return show_nexthop_buckets(*this, cmd);
    case Verb::addrlabel_show:
      return show_addrlabels(*this, cmd);
    case Verb::netconf_show:
      return show_netconf(*this, cmd);
    case Verb::token_show:
      return show_tokens(*this, cmd);
    case Verb::token_set:
      return change_token(*this, cmd);
    case Verb::ntable_show:
      return show_ntables(*this, cmd);
    case Verb::ntable_change:
      return change_ntable(*this, cmd);
    case Verb::addrlabel_flush:
      return flush_addrlabels(*this, cmd);
    case Verb::maddr_add:
    case Verb::maddr_del:
      return change_maddr(*this, cmd);
    case Verb::maddr_show:
      return show_maddrs(*this, cmd);
    case Verb::tuntap_add:
    case Verb::tuntap_del:
      return run_tuntap(*this, cmd);
    case Verb::tuntap_show:
      return show_tuntaps(*this, cmd);
    case Verb::monitor:
      return run_monitor(*this, cmd);
    default:
      break;
  }
  return netlink::invalid_argument("run", "", "a change is run through a batch");
}

}  // namespace brisk::ipcli
