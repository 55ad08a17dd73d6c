// brisk/netlink/netns.h: network namespaces, named the iproute2 way.
//
// A named namespace is a bind mount of a namespace file on /run/netns/<name>,
// so `ip netns` sees the ones brisk creates and brisk sees theirs. Creation
// happens on a short-lived helper thread (unless asked otherwise): the
// calling thread never leaves its own namespace. Names are checked against path traversal before any path is
// built from them.
//
//   create_netns("blue").value();
//   UniqueFd blue = open_netns("blue").value();
//   auto conn = Connection::open_in(blue.get()).value();
#pragma once

#include <linux/netlink.h>
#include <sys/types.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/fd.h"
#include "brisk/netlink/error.h"
#include "brisk/netns_dir.h"  // kNetnsDir

namespace brisk::netlink {

class Connection;

// Refuses "", ".", "..", names with '/' and names longer than NAME_MAX.
BRISK_EXPORT NlResult<void> validate_netns_name(const std::string& name);

struct NetnsCreateOptions {
  // Make the namespaces on the calling thread, which enters each in turn and
  // then returns to its own, instead of on a helper thread. For
  // single-threaded programs (the brisk CLI): a helper thread costs a
  // wake-up, which a loaded host stretches to milliseconds. Should the
  // return fail, every result says so and the thread is left elsewhere.
  bool on_calling_thread = false;
};

// Like `ip netns add`: EEXIST when the name is taken; nothing is left behind on failure.
BRISK_EXPORT NlResult<void> create_netns(const std::string& name, const NetnsCreateOptions& options = {});
// create_netns for each name, all on one thread: a thread per namespace
// costs a context switch each. One result per name, in order; a failure
// affects only its name.
BRISK_EXPORT std::vector<NlResult<void>> create_netns_each(std::span<const std::string> names,
                                                           const NetnsCreateOptions& options = {});
// Like `ip netns attach NAME PID`: names the network namespace of process
// `pid` (/run/netns/NAME, bound to /proc/PID/ns/net). EEXIST when the name
// is taken; nothing is left behind on failure.
BRISK_EXPORT NlResult<void> attach_netns(const std::string& name, pid_t pid);
// Like `ip netns delete`: detaches the bind mount and removes the file.
BRISK_EXPORT NlResult<void> delete_netns(const std::string& name);
// How list_netns() orders the names.
enum class NetnsOrder {
  sorted,     // by name
  directory,  // as readdir() returns them, which `ip netns list` prints (newest first on tmpfs)
};
// The names under /run/netns (empty when the directory does not exist).
BRISK_EXPORT NlResult<std::vector<std::string>> list_netns(NetnsOrder order = NetnsOrder::sorted);

// The names under /run/netns bound to the namespace netns_fd refers to, in
// directory order (`ip netns identify` prints the last), and the processes
// in it, in /proc order (`ip netns pids`). Entries that vanish are skipped.
BRISK_EXPORT NlResult<std::vector<std::string>> netns_names_of(int netns_fd);
BRISK_EXPORT NlResult<std::vector<pid_t>> netns_pids(int netns_fd);

// Each checks that what it opened is a network namespace.
BRISK_EXPORT NlResult<UniqueFd> open_netns(const std::string& name);
BRISK_EXPORT NlResult<UniqueFd> open_netns_path(const std::string& path);
BRISK_EXPORT NlResult<UniqueFd> open_netns_pid(pid_t pid);

// Moves the calling thread into the network namespace netns_fd refers to
// (setns), for a program that would rather move than open its sockets there
// from a helper thread, as the single-threaded brisk CLI does; brisk itself
// always returns a thread it moves. `name` names the namespace in the error.
BRISK_EXPORT NlResult<void> enter_netns(int netns_fd, const std::string& name);

// The id the namespace netns_fd refers to has in conn's namespace (what a
// link's IFLA_LINK_NETNSID names); nullopt when none is assigned. Assigns none.
BRISK_EXPORT NlResult<std::optional<int>> netns_id(Connection& conn, int netns_fd);
// Gives that namespace the id `id` in conn's namespace (RTM_NEWNSID), or
// lets the kernel pick one (nullopt), as `ip netns set NAME NSID|auto`.
// EEXIST when it has an id already or `id` is another's.
BRISK_EXPORT NlResult<void> set_netns_id(Connection& conn, int netns_fd, std::optional<int> id);

// One namespace id, as RTM_GETNSID answers it.
struct NetnsIdEntry {
  int nsid = -1;  // NETNSA_NSID: the id (in the target namespace, when one is named); -1: none
  std::optional<int>
      current_nsid{};  // NETNSA_CURRENT_NSID: with a target, the same namespace's id here (-1: none)
};

// An RTM_NEWNSID or RTM_DELNSID message (an answer, or a notification).
BRISK_EXPORT NlResult<NetnsIdEntry> parse_netns_id(const nlmsghdr& message);

// Every id conn's namespace has given to another (RTM_GETNSID dump), or,
// with `target_nsid`, every id the namespace that has that id here has
// given, each with its id here too (`ip netns list-id [target-nsid N]`).
BRISK_EXPORT NlResult<std::vector<NetnsIdEntry>> list_netns_ids(
    Connection& conn, std::optional<int> target_nsid = std::nullopt);
// The namespace with id `nsid` here, as that dump would show it: its id in
// the target namespace when one is named (`ip netns list-id nsid N`).
// ENOENT when no namespace has that id.
BRISK_EXPORT NlResult<NetnsIdEntry> find_netns_id(Connection& conn, int nsid,
                                                  std::optional<int> target_nsid = std::nullopt);

}  // namespace brisk::netlink
