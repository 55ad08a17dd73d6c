// ip netns: add, delete, list and exec.
#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

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


Parsed<Command> parse_netns(Cursor& c, Command cmd) {
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

// What `ip netns exec` does before exec: enter the namespace, take a private
// mount namespace so nothing leaks back, show the namespace's own /sys, and
// bind /etc/netns/NAME/* over /etc/*. Runs in the CLI process itself, which
// is single-threaded here (unshare(CLONE_NEWNS) refuses a shared fs).
NlResult<void> enter_netns_for_exec(const std::string& name) {
  auto fd = BRISK_TRY(netlink::open_netns(name));
  auto sys_error = [&](const char* call, std::string object) {
    return NetlinkError{.code = errno, .op = call, .object = std::move(object)};
  };
  if (::setns(fd.get(), CLONE_NEWNET) != 0) return sys_error("setns", name);
  if (::unshare(CLONE_NEWNS) != 0) return sys_error("unshare", "mount namespace");
  if (::mount("", "/", "none", MS_SLAVE | MS_REC, nullptr) != 0) return sys_error("mount", "/ (rslave)");
  unsigned long flags = 0;
  if (::umount2("/sys", MNT_DETACH) != 0) {
    // Could not detach it: a read-only /sys cannot be shadowed read-write.
    struct statvfs st {};
    if (::statvfs("/sys", &st) == 0 && (st.f_flag & ST_RDONLY)) flags = MS_RDONLY;
  }
  if (::mount(name.c_str(), "/sys", "sysfs", flags, nullptr) != 0) return sys_error("mount", "/sys");
  std::string dir = "/etc/netns/" + name;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      std::string from = dir + "/" + e->d_name, to = std::string("/etc/") + e->d_name;
      // As ip: a file without a counterpart in /etc cannot be bound; say so and go on.
      if (::mount(from.c_str(), to.c_str(), "none", MS_BIND, nullptr) != 0)
        std::fprintf(stderr, "Bind %s -> %s failed: %s\n", from.c_str(), to.c_str(), std::strerror(errno));
    }
    ::closedir(d);
  }
  return {};
}

NlResult<void> run_netns(Runner& r, const Command& cmd) {
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
      for (const auto& name : BRISK_TRY(netlink::list_netns())) {
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
