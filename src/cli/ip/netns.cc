// ip netns: add, delete, list and exec.

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "brisk/netlink/netns.h"
#include "brisk/spawn.h"
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


Parsed<IpCommand> parse_netns(Cursor& c, IpCommand&& cmd) {
  cmd.verb = Verb::netns_list;
  if (c.done()) return cmd;
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst")) {
    if (!c.done()) return garbage("list", c.peek());
    return cmd;
  }
  if (matches(verb, "add")) cmd.verb = Verb::netns_add;
  else if (matches(verb, "delete")) cmd.verb = Verb::netns_del;
  else if (matches(verb, "exec")) cmd.verb = Verb::netns_exec;
  else return unknown_command(verb, "netns");
  if (c.done()) return usage("no netns name specified");
  TRY_SET(cmd.name, netns_name(c.next()));
  if (cmd.verb == Verb::netns_exec) {
    while (!c.done()) cmd.exec_argv.push_back(c.next());
    if (cmd.exec_argv.empty()) return usage("no command specified");
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

NlResult<void> run_netns(Runner& r, const IpCommand& cmd) {
  const Globals& g = r.globals();
  switch (cmd.verb) {
    case Verb::netns_add:
      r.forget_netns_ids();  // a later line may name it
      return netlink::create_netns(cmd.name, {.on_calling_thread = r.own_process()});
    case Verb::netns_del:
      r.forget_netns_ids();
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
      // In a batch the CLI must survive the command: run this same binary for
      // that one line (it enters the namespace and execs, as below) and pass
      // the exit status on, as ip -batch forks for it.
      r.flush_out();
      SpawnOptions options{.argv = {"brisk", "netns", "exec", cmd.name}, .program = "/proc/self/exe",
                           .search_path = false};
      options.argv.insert(options.argv.end(), cmd.exec_argv.begin(), cmd.exec_argv.end());
      auto child = spawn(options);
      if (!child) return NetlinkError{.code = child.error().code, .op = "netns exec", .object = cmd.name,
                                      .detail = child.error().message()};
      auto status = child->wait();
      if (!status) return NetlinkError{.code = status.error().code, .op = "netns exec", .object = cmd.name};
      if (!status->success())
        return NetlinkError{.code = 0, .op = "netns exec", .object = cmd.name, .detail = status->to_string()};
      return {};
    }
    default: break;
  }
  return {};
}

}  // namespace brisk::ipcli
