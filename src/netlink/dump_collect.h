// netlink/dump_collect.h: a dump's objects of one type, as a list; a get's
// one object.
#pragma once

#include <linux/netlink.h>

#include <cerrno>
#include <optional>
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
NlResult<std::vector<T>> dump_collect(Connection& conn, Message request, const char* op,
                                      const std::string& object, uint16_t type, Parse&& parse, Keep&& keep) {
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

// The object a get (`request`, op and object filled in) is answered with:
// its message of `type`, parsed by `parse`. A get's reply stands for its
// ACK. No such message is the error `missing_code` with `missing`.
template <class T, class Parse>
NlResult<T> single_reply(Connection& conn, Request request, uint16_t type, Parse&& parse, const char* missing,
                         int missing_code = EBADMSG) {
  std::optional<T> found;
  request.reply_budget = kGetBudget;
  request.ack = false;
  request.on_reply = [&](const nlmsghdr& reply) -> NlResult<void> {
    if (reply.nlmsg_type != type) return {};
    NlResult<T> item = parse(reply);
    if (!item) return std::move(item).error();
    found = std::move(*item);
    return {};
  };
  const char* op = request.op;
  std::string object = request.object;
  if (auto done = conn.execute(std::move(request)); !done) return std::move(done).error();
  if (!found)
    return NetlinkError{.code = missing_code, .op = op, .object = std::move(object), .detail = missing};
  return std::move(*found);
}

}  // namespace brisk::netlink::detail
