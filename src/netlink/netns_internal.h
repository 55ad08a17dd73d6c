// netlink/netns_internal.h: namespace creation as setup_netns_many needs it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "brisk/fd.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink::detail {

// Which thread create_netns_each_on makes the namespaces on.
enum class NetnsThread {
  helper,      // a short-lived helper thread; the caller's never moves
  calling,     // the calling thread, which returns to its namespace afterwards
  disposable,  // the calling thread, left in the last namespace: a thread about to end
};

// A namespace just made, opened while the thread was inside it.
struct OpenedNetns {
  UniqueFd ns;    // the namespace (for IFLA_NET_NS_FD, and for tun/tap there)
  UniqueFd rtnl;  // a NETLINK_ROUTE socket made inside it
};

// create_netns_each on `thread`; with `opened`, also opens each namespace
// made and a netlink socket inside it (one entry per name, empty where it failed).
std::vector<NlResult<void>> create_netns_each_on(std::span<const std::string> names, NetnsThread thread,
                                                 std::vector<OpenedNetns>* opened);

}  // namespace brisk::netlink::detail
