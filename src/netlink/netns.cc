#include "brisk/netlink/netns.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <sched.h>
#include <sys/mount.h>

#include <algorithm>

#include "netlink/netns_internal.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"
#include "sys/syscalls.h"

namespace brisk::netlink {
namespace {

NetlinkError failed(const SysError& error, const char* op, const std::string& object) {
  NetlinkError e = NetlinkError::from(error);
  e.detail = error.call + std::string(error.object.empty() ? "" : " " + error.object);
  e.op = op;
  e.object = object;
  return e;
}

// A failed step on a namespace file, typed for callers that word it.
NetlinkError failed_step(NetlinkError e, FileStep step, std::string path) {
  e.file_step = step;
  e.path = std::move(path);
  return e;
}

// /run/netns must be a shared mount so that bind mounts made under it show
// up in other mount namespaces (what iproute2 does, step for step).
Result<void> prepare_dir() {
  auto made = sys::mkdir(kNetnsDir, 0755);
  if (!made && made.error().code != EEXIST) return made;
  auto shared = sys::mount("", kNetnsDir, "none", MS_SHARED | MS_REC);
  if (shared || shared.error().code != EINVAL) return shared;
  // Not a mount point yet: make it one, then shared.
  BRISK_TRY(sys::mount(kNetnsDir, kNetnsDir, "none", MS_BIND | MS_REC));
  return sys::mount("", kNetnsDir, "none", MS_SHARED | MS_REC);
}

NlResult<UniqueFd> checked(Result<UniqueFd> fd, const std::string& object) {
  if (!fd) return failed(fd.error(), "netns open", object);
  auto type = sys::namespace_type(fd->get());
  // ENOTTY: a regular file, a directory, a device or a FIFO, not a namespace.
  if (!type && type.error().code == ENOTTY)
    return invalid_argument("netns open", object,
                            "not a namespace file (/proc/PID/ns/net or a bind mount of it)", ENOTTY);
  if (!type) return failed(type.error(), "netns open", object);
  if (*type != CLONE_NEWNET) return invalid_argument("netns open", object, "not a network namespace");
  return std::move(*fd);
}

}  // namespace

NlResult<void> validate_netns_name(const std::string& name) {
  if (!is_netns_name(name))
    return invalid_argument("netns", name, "namespace names may not be empty, '.', '..' or contain '/'");
  if (name.size() > NAME_MAX) return invalid_argument("netns", name, "namespace name too long", ENAMETOOLONG);
  return {};
}

NlResult<void> create_netns(const std::string& name, const NetnsCreateOptions& options) {
  return std::move(create_netns_each(std::span<const std::string>(&name, 1), options)[0]);
}

std::vector<NlResult<void>> create_netns_each(std::span<const std::string> names,
                                              const NetnsCreateOptions& options) {
  return detail::create_netns_each_on(
      names, options.on_calling_thread ? detail::NetnsThread::calling : detail::NetnsThread::helper, nullptr);
}

namespace detail {

std::vector<NlResult<void>> create_netns_each_on(std::span<const std::string> names, NetnsThread thread,
                                                 std::vector<OpenedNetns>* opened) {
  std::vector<NlResult<void>> results(names.size());
  if (opened) {
    opened->clear();
    opened->resize(names.size());
  }
  std::vector<std::size_t> todo;  // names whose mount point was made
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (auto valid = validate_netns_name(names[i]); !valid) {
      valid.error().op = "netns add";
      results[i] = std::move(valid);
    } else {
      todo.push_back(i);
    }
  }
  if (todo.empty()) return results;
  if (auto ready = prepare_dir(); !ready) {
    for (std::size_t i : todo) results[i] = failed(ready.error(), "netns add", names[i]);
    return results;
  }
  // Built here: the helper thread below allocates nothing, so it never
  // creates a malloc arena (a fresh mapping, faulted in page by page).
  std::vector<std::string> paths(names.size());
  for (std::size_t i : todo) paths[i] = netns_path(names[i]);
  auto path = [&](std::size_t i) -> const std::string& { return paths[i]; };
  std::erase_if(todo, [&](std::size_t i) {
    // O_EXCL: the name is ours or the call fails; never reuse someone's mount point.
    auto file = sys::open(path(i), O_RDONLY | O_CREAT | O_EXCL, 0);
    if (!file)
      results[i] = failed_step(failed(file.error(), "netns add", names[i]), FileStep::create, path(i));
    return !file;
  });
  // Each unshare leaves the thread in a new namespace; the bind mount keeps
  // it alive once the thread moves on to the next one or exits. While the
  // thread is in it, the namespace's fd and netlink socket cost no setns.
  const std::string self = "/proc/thread-self/ns/net";  // too long for the small-string buffer
  std::vector<char> mounted(names.size(), 0);
  auto make_all = [&] {
    for (std::size_t i : todo) {
      auto fresh = sys::unshare(CLONE_NEWNET);
      if (!fresh) {
        results[i] = failed(fresh.error(), "netns add", names[i]);
        continue;
      }
      auto bound = sys::mount(self, path(i), "none", MS_BIND);
      if (!bound) {
        results[i] = failed_step(failed(bound.error(), "netns add", names[i]), FileStep::bind, self);
        continue;
      }
      mounted[i] = 1;
      if (opened) {
        auto ns = sys::open(self, O_RDONLY);
        auto rtnl = ns ? sys::socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE) : Result<UniqueFd>(ns.error());
        if (rtnl)
          (*opened)[i] = {std::move(*ns), std::move(*rtnl)};
        else
          results[i] = failed(rtnl.error(), "netns add", names[i]);  // made but not usable: undone below
      }
    }
  };
  // A thread of brisk's own says so to perf and top -H.
  auto name_thread = [] { (void)sys::name_thread("brisk-netns"); };  // a name is a courtesy
  Result<void> made;
  if (thread == NetnsThread::helper) {
    made = sys::run_on_thread([&]() -> Result<void> {
      name_thread();
      make_all();
      return {};
    });
  } else if (thread == NetnsThread::disposable) {
    name_thread();
    make_all();  // the thread ends in the last namespace; it is the caller's to end
  } else if (auto home = sys::open(self, O_RDONLY); !home) {
    made = home.error();
  } else {
    make_all();
    made = sys::setns(home->get(), CLONE_NEWNET);  // back where the caller was
  }
  for (std::size_t i : todo) {
    if (!made) results[i] = failed(made.error(), "netns add", names[i]);
    if (results[i]) continue;
    if (opened) (*opened)[i] = {};
    if (mounted[i]) (void)sys::umount2(path(i), MNT_DETACH);
    (void)sys::unlink(path(i));
  }
  return results;
}

}  // namespace detail

NlResult<void> attach_netns(const std::string& name, pid_t pid) {
  const char* op = "netns attach";
  if (auto valid = validate_netns_name(name); !valid) {
    valid.error().op = op;
    return valid;
  }
  // Opened first: a process that is gone (or whose namespace is not a
  // network one) leaves no file behind.
  const std::string proc = "/proc/" + std::to_string(pid) + "/ns/net";
  auto binding = [&](NetlinkError e) {
    e.op = op;
    e.object = name;
    e.detail = "bind " + proc;
    return failed_step(std::move(e), FileStep::bind, proc);
  };
  auto source = open_netns_pid(pid);
  if (!source) return binding(std::move(source).error());
  if (auto ready = prepare_dir(); !ready) return failed(ready.error(), op, name);
  std::string path = netns_path(name);
  auto file = sys::open(path, O_RDONLY | O_CREAT | O_EXCL, 0);
  if (!file) return failed_step(failed(file.error(), op, name), FileStep::create, path);
  auto bound = sys::mount("/proc/self/fd/" + std::to_string(source->get()), path, "none", MS_BIND);
  if (!bound) {
    (void)sys::unlink(path);
    return binding(failed(bound.error(), op, name));
  }
  return {};
}

NlResult<void> delete_netns(const std::string& name) {
  if (auto valid = validate_netns_name(name); !valid) {
    valid.error().op = "netns delete";
    return valid;
  }
  std::string path = netns_path(name);
  auto unmounted = sys::umount2(path, MNT_DETACH);
  auto removed = sys::unlink(path);
  if (!removed) return failed_step(failed(removed.error(), "netns delete", name), FileStep::remove, path);
  if (!unmounted && unmounted.error().code != EINVAL) return failed(unmounted.error(), "netns delete", name);
  return {};
}

NlResult<std::vector<std::string>> list_netns(NetnsOrder order) {
  auto names = sys::list_dir(kNetnsDir);
  if (!names) {
    if (names.error().code == ENOENT) return std::vector<std::string>{};
    return failed(names.error(), "netns list", kNetnsDir);
  }
  if (order == NetnsOrder::sorted) std::sort(names->begin(), names->end());
  return std::move(*names);
}

NlResult<UniqueFd> open_netns(const std::string& name) {
  if (auto valid = validate_netns_name(name); !valid) {
    valid.error().op = "netns open";
    return std::move(valid).error();
  }
  return checked(sys::open(netns_path(name), O_RDONLY | O_NONBLOCK), name);
}

// O_NONBLOCK: a FIFO where a namespace should be opens at once (and is
// then refused as no namespace), instead of waiting for a writer forever.
NlResult<UniqueFd> open_netns_path(const std::string& path) {
  return checked(sys::open(path, O_RDONLY | O_NONBLOCK), path);
}

NlResult<void> enter_netns(int netns_fd, const std::string& name) {
  auto entered = sys::setns(netns_fd, CLONE_NEWNET);
  if (!entered) return NetlinkError{.code = entered.error().code, .op = "setns", .object = name};
  return {};
}

NlResult<UniqueFd> open_netns_pid(pid_t pid) {
  if (pid <= 0) return invalid_argument("netns open", std::to_string(pid), "pid must be positive");
  return checked(sys::open("/proc/" + std::to_string(pid) + "/ns/net", O_RDONLY | O_NONBLOCK),
                 "pid " + std::to_string(pid));
}

}  // namespace brisk::netlink
