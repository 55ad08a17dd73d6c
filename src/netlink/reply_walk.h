// netlink/reply_walk.h: the messages of one received datagram, in order.
#pragma once

#include <linux/netlink.h>

#include <span>

namespace brisk::netlink::detail {

// Calls visit(const nlmsghdr&) for each whole message in `datagram`, until
// it returns false. A message whose length runs past the datagram (a
// truncated or forged one) ends the walk: nothing after it can be trusted.
template <class Visit>
void for_each_message(std::span<const char> datagram, Visit&& visit) {
  int left = static_cast<int>(datagram.size());
  for (auto* nlh = reinterpret_cast<const nlmsghdr*>(datagram.data()); NLMSG_OK(nlh, left);
       nlh = NLMSG_NEXT(nlh, left)) {
    if (!visit(*nlh)) return;
  }
}

}  // namespace brisk::netlink::detail
