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
#include "cli/ip/route/route_match.h"
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

const Verb kRefusedLine{.name = "refused line"};

int Runner::failure_status(const NetlinkError& e, const Verb& verb) const {
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
  } else if (cmds[i].verb->predicted_delete) {
    end = i + safe_delete_prefix(cmds, i);
  } else {
    stop_mode = true;
    while (end < cmds.size() && cmds[end].mutates() && !cmds[end].verb->predicted_delete) ++end;
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
      return cmds[k].held->verb->queue(*this, batch, *cmds[k].held);
    }
    auto again = parse_again(cmds[k], g_, words);
    if (!again) return netlink::invalid_argument("parse", "", again.error().message);
    if (auto found = names.take(k - i))
      netlink::internal::ConnectionHooks::remember_ifindex(c, std::string(found->name), found->ifindex);
    warn(*again);
    sync_named_devices(batch, *again);
    return again->verb->queue(*this, batch, *again);
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
    if (auto text = argument_error(*error, *cmds[k].verb)) {
      // ip reads the device's index while parsing the line, and a missing
      // one is an argument error: the whole batch ends there, -force or not.
      flush_out();
      print_error_line(*text);
      return kArgumentExit;
    }
    if (ends_on_refusal(*error, *cmds[k].verb)) {
      flush_out();
      print_error_line(runtime_message(*error));
      return 2;
    }
    report(cmds[k].line, runtime_message(*error));
    if (!failed) status = failure_status(*error, *cmds[k].verb);
    failed = true;
  }
  if (failed && !g_.force) return status;
  i = results.end;
  return std::nullopt;
}

std::optional<int> Runner::run_held(const IpCommand& cmd, int& status) {
  if (cmd.parse_error) {  // a line ip sends and the kernel refuses: a failed line
    const UsageError& e = *cmd.parse_error;
    flush_out();
    print_error_line(format_error(e.message, e.exact));
    if (!source_.empty()) print_error_line("Command failed " + source_ + ":" + std::to_string(cmd.line));
    status = 1;
    if (!g_.force) return status;
    return std::nullopt;
  }
  const Verb& verb = *cmd.verb;
  if (verb.run_to_exit) {  // ip ends after it, whatever follows in a batch
    flush_out();
    return verb.run_to_exit(*this, cmd, status);
  }
  warn(cmd);
  if (NlResult<void> result = verb.run(*this, cmd); !result) {
    if (auto exit = held_failed(cmd, result.error(), status)) return exit;
  }
  dump_json();
  write_out(out_);
  out_.clear();
  return std::nullopt;
}

std::optional<int> Runner::held_failed(const IpCommand& cmd, const NetlinkError& e, int& status) {
  const Verb& verb = *cmd.verb;
  if (verb.looks_up_devices) {
    if (auto text = argument_error(e, verb)) {  // monitor dev DEV, show master|vrf DEV: missing
      flush_out();
      print_error_line(*text);
      return kArgumentExit;
    }
  }
  if (verb.failure_exit) {
    if (auto exit = verb.failure_exit(*this, cmd, e)) return exit;
  }
  if (ends_on_refusal(e, verb)) {
    flush_out();  // ip's exit(2) after rtnl_talk: no "Command failed", -force or not
    print_error_line(runtime_message(e));
    return 2;
  }
  report(cmd.line, verb.failure_text ? verb.failure_text(e) : runtime_message(e) + dump_ended(e, verb));
  status = failure_status(e, verb);
  if (!g_.force) return status;
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
  while (first + names.size() < cmds.size() && cmds[first + names.size()].verb->predicted_delete)
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

}  // namespace brisk::ipcli
