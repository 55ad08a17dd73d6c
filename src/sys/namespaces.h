// sys/namespaces.h: thin wrappers for the namespace and mount syscalls the
// netlink engine uses (same conventions as sys/syscalls.h). None of them
// block, so none sees EINTR.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

#include "brisk/fd.h"
#include "brisk/result.h"

namespace brisk::sys {

Result<void> setns(int fd, int nstype);
Result<void> unshare(int flags);
Result<void> mount(const std::string& source, const std::string& target, const char* fstype,
                   unsigned long flags);
Result<void> umount2(const std::string& target, int flags);
Result<void> mkdir(const std::string& path, mode_t mode);  // EEXIST is an error; callers decide
Result<void> unlink(const std::string& path);
// A fresh sysfs instance for the calling thread's network namespace, as a
// detached mount (fsopen/fsconfig/fsmount, Linux 5.2+): its class/net shows
// that namespace's devices without mounting anything anywhere.
Result<UniqueFd> open_sysfs();
// NS_GET_NSTYPE: the CLONE_NEW* type of a namespace fd (Linux 4.11+).
Result<int> namespace_type(int fd);

// Runs fn on a short-lived helper thread that first joins the network
// namespace netns_fd, so the calling thread never changes namespace.
// Sockets and /dev/net/tun devices made there stay bound to that namespace.
// netns_fd < 0 runs fn directly on the calling thread.
Result<void> run_in_netns(int netns_fd, const std::function<Result<void>()>& fn);
// socket() (SOCK_CLOEXEC) made in the namespace netns_fd, through run_in_netns.
Result<UniqueFd> socket_in_netns(int netns_fd, int domain, int type, int protocol);
// PR_SET_NAME: the calling thread's name, as perf, top -H and /proc show it
// (15 bytes are kept).
Result<void> name_thread(const char* name);
// Runs fn on a short-lived helper thread (which may unshare namespaces).
Result<void> run_on_thread(const std::function<Result<void>()>& fn);

}  // namespace brisk::sys
