// netlink/internal/hooks.h: the parts of Connection and Batch that only
// brisk's own programs use, kept out of the public classes so that changing
// them breaks no ABI (docs/api.md). Each is a private member reached
// through a friend, inline: no call or allocation beyond the member's own.
// The members are libbrisk's, hidden: a static libbrisk has them, a shared
// one does not export them.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"

namespace brisk::netlink::internal {

struct ConnectionHooks {
  // Puts a name the caller resolved itself (NamePrefetch) into the cache.
  static void remember_ifindex(Connection& conn, const std::string& name, int ifindex) {
    conn.remember_ifindex(name, ifindex);
  }
  // The transport, for name lookups on another thread while it sends.
  static Transport& transport(Connection& conn) { return conn.transport(); }
  // execute() for a sender on a helper thread: it touches neither the name
  // cache nor anything a request's callbacks might, so the owning thread
  // may use cached_ifindex()/remember_ifindex() and transport lookups
  // meanwhile. Requests with on_reply are not allowed (it runs here). A
  // request whose reply was lost is left failed with reply_lost set;
  // recheck_lost(), on the owning thread afterwards, settles it as
  // execute() would have.
  static void execute_unchecked(Connection& conn, std::span<Request> requests) {
    conn.execute_unchecked(requests);
  }
  static void recheck_lost(Connection& conn, std::span<Request> requests) { conn.recheck_lost(requests); }
};

struct BatchHooks {
  // flush(), with the batch fed while it runs: each time every operation
  // queued so far has been taken up, `more` is called (on this thread) to
  // queue further ones on this batch, and returns false once it has none.
  // A front end that turns its input into operations one by one does so
  // while the kernel works on the windows already sent. `expected`: how
  // many operations there will be in all (0: not known), by which a long
  // batch is overlapped from its start.
  static std::vector<NlResult<void>> flush(Batch& batch, const std::function<bool()>& more,
                                           std::size_t expected = 0) {
    return batch.flush(more, expected);
  }
  // flush(more, expected), with each result handed to `on_result` (its
  // index, the result) as soon as it is final, in index order, instead of
  // in one vector at the end: a long fed batch then keeps no memory per
  // operation beyond its windows in flight. Results are final when every
  // earlier one is, so a caller may act on a failure before the batch ends.
  static void flush_each(Batch& batch, const std::function<bool()>& more, std::size_t expected,
                         const std::function<void(std::size_t, NlResult<void>)>& on_result) {
    batch.flush_each(more, expected, on_result);
  }
};

}  // namespace brisk::netlink::internal
