// ip netns: add, attach, delete, list, exec, identify, pids and set.

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "brisk/netlink/netns.h"
#include "brisk/spawn.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

using netlink::NetlinkError;
using netlink::NlResult;

Parsed<std::string> netns_name(const std::string& text) {
  if (text.empty() || text == "." || text == ".." || text.find('/') != std::string::npos || text.size() > NAME_MAX)
    return usage("invalid netns name \"" + text + "\"");
  return text;
}


Parsed<IpCommand> parse_netns(Cursor& c, IpCommand&& cmd, bool all) {
  cmd.verb = Verb::netns_list;
  if (c.done()) return cmd;
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst")) {
    if (!c.done()) return garbage("list", c.peek());
    return cmd;
  }
  // As ip: the word after the verb must be a valid name, whatever the verb
  // (unless -all, where exec's is the program).
  if (!c.done() && !all) TRY_SET(std::ignore, netns_name(c.peek()));
  // ip's own checks of these fail the line (status 1), not the command line.
  auto args = [&c] {
    std::vector<std::string> rest;
    while (!c.done()) rest.push_back(c.next());
    return rest;
  };
  if (matches(verb, "identify")) {
    cmd.verb = Verb::netns_identify;
    auto rest = args();
    if (rest.size() > 1) return refused("extra arguments specified");
    if (!rest.empty()) {
      auto pid = rest[0].find_first_not_of("0123456789") == std::string::npos ? number<uint32_t>("pid", rest[0], INT_MAX)
                                                                               : Parsed<uint32_t>(usage(""));
      if (!pid) return refused("Specified string '" + rest[0] + "' is not a pid");
      cmd.pid = static_cast<pid_t>(*pid);
    }
    return cmd;
  }
  if (matches(verb, "pids")) {
    cmd.verb = Verb::netns_pids;
    auto rest = args();
    if (rest.empty()) return refused("No netns name specified");
    if (rest.size() > 1) return refused("extra arguments specified");
    cmd.name = rest[0];
    return cmd;
  }
  if (matches(verb, "set")) {
    cmd.verb = Verb::netns_set;
    auto rest = args();
    if (rest.empty()) return refused("No netns name specified");
    if (rest.size() < 2) return refused("No nsid specified");
    cmd.name = rest[0];
    if (rest[1] != "auto") {
      auto id = int_any_base(rest[1]);
      if (!id) return invarg("Invalid \"netnsid\" value", rest[1]);
      if (*id < 0) return invarg("\"netnsid\" value should be >= 0", rest[1]);
      cmd.nsid = *id;
    }
    return cmd;
  }
  if (matches(verb, "attach")) {
    cmd.verb = Verb::netns_attach;
    auto rest = args();
    if (rest.size() < 2) return refused("No netns name and PID specified");
    cmd.name = rest[0];
    auto pid = int_any_base(rest[1]);
    if (!pid || *pid == 0) return refused("Invalid PID: " + rest[1]);
    cmd.pid = *pid;
    return cmd;
  }
  if (matches(verb, "add")) cmd.verb = Verb::netns_add;
  else if (matches(verb, "delete")) cmd.verb = Verb::netns_del;
  else if (matches(verb, "exec")) cmd.verb = Verb::netns_exec;
  else return unknown_command(verb, "netns");
  // -all: exec and delete go through every named namespace (ip's netns_foreach).
  cmd.every_netns = all && cmd.verb != Verb::netns_add;
  if (!cmd.every_netns) {
    if (c.done()) return refused("No netns name specified");
    TRY_SET(cmd.name, netns_name(c.next()));
  }
  if (cmd.verb == Verb::netns_exec) {
    while (!c.done()) cmd.exec_argv.push_back(c.next());
    if (cmd.exec_argv.empty()) return refused("No command specified");
  } else if (!c.done()) {
    return garbage("name", c.peek());
  }
  return cmd;
}

// What `ip netns exec` does before exec: enter the namespace, then the
// library's NetnsView, the same steps a spawned child with Command::netns
// runs. In place: the CLI then becomes the program.
NlResult<void> enter_netns_for_exec(const std::string& name) {
  auto fd = BRISK_TRY(netlink::open_netns(name));
  BRISK_TRY(netlink::enter_netns(fd.get(), name));
  NetnsView view = NetnsView::of(name);
  view.skip_failed_binds = true;  // as ip: say so and go on
  auto applied = apply_netns_view(view);
  if (!applied) {
    const SpawnError& e = applied.error();
    return NetlinkError{.code = e.code, .op = to_string(e.step), .object = e.object};
  }
  for (const SpawnError& skipped : *applied)
    std::fprintf(stderr, "Bind %s failed: %s\n", skipped.object.c_str(), std::strerror(skipped.code));
  return {};
}

namespace {

// Runs `argv` in the named namespace through this same binary (it enters
// the namespace and execs, as a single `netns exec` does), for a batch line
// or -all, where the CLI must survive the program as ip's fork does. Its
// failure is an error with code 0 and the status as detail.
NlResult<void> exec_in_netns(Runner& r, const std::string& name, const std::vector<std::string>& argv) {
  r.flush_out();
  SpawnOptions options{.argv = {"brisk", "netns", "exec", name}, .program = "/proc/self/exe", .search_path = false};
  options.argv.insert(options.argv.end(), argv.begin(), argv.end());
  auto child = spawn(options);
  if (!child)
    return NetlinkError{.code = child.error().code, .op = "netns exec", .object = name, .detail = child.error().message()};
  auto status = child->wait();
  if (!status) return NetlinkError{.code = status.error().code, .op = "netns exec", .object = name};
  if (!status->success()) return NetlinkError{.code = 0, .op = "netns exec", .object = name, .detail = status->to_string()};
  return {};
}

// -all netns delete: each named namespace; as ip, the first that cannot be
// removed is reported and ends the walk, and the command still succeeds.
NlResult<void> delete_every_netns(Runner& r) {
  for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
    if (auto deleted = netlink::delete_netns(name); !deleted) {
      r.error_line("Cannot remove namespace file \"" + std::string(kNetnsDir) + "/" + name +
                   "\": " + std::strerror(deleted.error().code));
      break;
    }
  }
  return {};
}

}  // namespace

NlResult<void> run_netns(Runner& r, const IpCommand& cmd) {
  const Globals& g = r.globals();
  switch (cmd.verb) {
    case Verb::netns_add:
      r.forget_netns_ids();  // a later line may name it
      return netlink::create_netns(cmd.name, {.on_calling_thread = r.own_process()});
    case Verb::netns_del:
      r.forget_netns_ids();
      if (cmd.every_netns) return delete_every_netns(r);
      return netlink::delete_netns(cmd.name);
    case Verb::netns_list: {
      r.use_json();
      // Like ip: "(id: N)" for a namespace that has an id here.
      std::map<std::string, int> ids;
      for (const auto& [id, name] : r.netns_by_id()) ids.emplace(name, id);
      for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
        auto id = ids.find(name);
        if (g.json) {
          Json j{{"name", name}};
          if (id != ids.end()) j["id"] = id->second;
          r.emit(std::move(j));
        } else {
          r.out() += name + (id != ids.end() ? " (id: " + std::to_string(id->second) + ")" : "") + "\n";
        }
      }
      return {};
    }
    case Verb::netns_exec: {
      if (!cmd.every_netns) return exec_in_netns(r, cmd.name, cmd.exec_argv);
      // As ip -all: each namespace under a "netns: NAME" heading, whatever
      // the program's status there.
      for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
        r.out() += "\nnetns: " + name + "\n";
        auto ran = exec_in_netns(r, name, cmd.exec_argv);
        if (!ran && ran.error().code != 0) return ran;  // the program could not be started
      }
      return {};
    }
    case Verb::netns_identify: {
      // ip reads /proc/self after -n moved it: that namespace, then.
      auto fd = cmd.pid ? netlink::open_netns_pid(cmd.pid)
                : g.netns.empty() ? netlink::open_netns_path("/proc/self/ns/net")
                                  : netlink::open_netns(g.netns);
      if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen};
      auto names = BRISK_TRY(netlink::netns_names_of(fd->get()));
      r.out() += (names.empty() ? std::string() : names.back()) + "\n";  // ip keeps the last it reads
      return {};
    }
    case Verb::netns_pids: {
      auto fd = netlink::open_netns(cmd.name);
      if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen};
      for (pid_t pid : BRISK_TRY(netlink::netns_pids(fd->get()))) r.out() += std::to_string(pid) + "\n";
      return {};
    }
    case Verb::netns_set: {
      auto fd = netlink::open_netns(cmd.name);
      if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen, .object = cmd.name};
      auto c = BRISK_TRY(r.conn());
      r.forget_netns_ids();
      return netlink::set_netns_id(*c, fd->get(), cmd.nsid);
    }
    case Verb::netns_attach:
      r.forget_netns_ids();
      return netlink::attach_netns(cmd.name, cmd.pid);
    default: break;
  }
  return {};
}

}  // namespace brisk::ipcli
