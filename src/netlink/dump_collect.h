// netlink/dump_collect.h: a dump's objects of one type, as a list.
#pragma once

#include <linux/netlink.h>

#include <string>
#include <utility>
#include <vector>

#include "brisk/netlink/connection.h"

namespace brisk::netlink::detail {

// Every message of `type` the dump of `request` returns, parsed by `parse`
// (const nlmsghdr& -> NlResult<T>) and kept where `keep` (T& -> bool, which
// may trim the object) says so. A dump restarted after concurrent changes
// starts the list again; the first parse error ends it.
template <class T, class Parse, class Keep>
NlResult<std::vector<T>> dump_collect(Connection& conn, Message request, const char* op, const std::string& object,
                                      uint16_t type, Parse&& parse, Keep&& keep) {
  std::vector<T> found;
  auto done = conn.dump(
      std::move(request), op, object,
      [&](const nlmsghdr& message) -> NlResult<void> {
        if (message.nlmsg_type != type) return {};
        NlResult<T> item = parse(message);
        if (!item) return std::move(item).error();
        if (keep(*item)) found.push_back(std::move(*item));
        return {};
      },
      [&] { found.clear(); });
  if (!done) return std::move(done).error();
  return found;
}

}  // namespace brisk::netlink::detail
