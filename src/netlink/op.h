// netlink/op.h: one queued operation of a Batch, before it becomes a request.
//
// Building is deferred to flush time so that names created earlier in the
// same batch can be resolved, and a run of deletes can be coalesced.
#pragma once

#include <cerrno>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"
#include "netlink/index_ring.h"
#include "netlink/internal/hooks.h"

namespace brisk::netlink::detail {

// An error about a device the kernel looked up by the name in `object`:
// a bare ENODEV (no extended ACK, no detail of brisk's) says that device
// does not exist, and is marked so, typed.
inline void mark_missing_device(NetlinkError& e) {
  if (e.code != ENODEV || !e.ext_ack.empty() || !e.detail.empty() || e.object.empty() ||
      e.missing != Argument::none)
    return;
  e.missing = Argument::device;
  e.missing_name = e.object;
}

struct NameNeed {
  std::string name;  // a device name that must be resolved to an ifindex first
  Argument role;     // which argument named it: what a failure to find it reports
};

struct Op {
  const char* op = "";            // for errors
  std::string object{};           // for errors
  std::vector<NameNeed> needs{};  // resolved into the connection's cache before build
  // Builds the request(s), sent back to back; the first failure is the
  // op's result. Names in `needs` are in the cache by then.
  std::function<NlResult<std::vector<Request>>(Connection&)> build{};
  // Alternatively: runs synchronously, outside the pipeline (tun/tap).
  std::function<NlResult<void>(Connection&)> local{};
  // Keeps the name cache coherent once the result is known.
  std::function<void(Connection&, const NlResult<void>&)> after{};
  // Adds context to the op's error (e.g. the kind a kernel lacks).
  std::function<void(NetlinkError&)> explain{};
  std::string delete_name{};  // a plain delete by name: may be coalesced
  // `object` is a device the kernel looks up by name: its bare ENODEV (no
  // extended ACK, no detail of brisk's) means that device does not exist.
  bool object_is_device = false;
  bool changes_names = false;  // may rename or remove devices: resolve nothing until it is done
  // The op that puts back what this one did once it succeeded (a delete for
  // an exclusive add); empty when there is none. Lets a batch that stops at
  // its first error pipeline the op anyway.
  std::function<Op()> undo{};
  // Refused before sending (bad input): this is the op's result, and it
  // costs the pipeline nothing. Boxed: an error is 200 bytes, and a batch
  // holds an op per line that is almost never refused.
  std::unique_ptr<const NetlinkError> rejected{};
  // What the closures above (and the recheck of the requests they build)
  // point into, kept alive as long as the op. They capture a plain pointer:
  // std::function stores only trivially copyable callables without
  // allocating, and a batch holds an op per line.
  std::shared_ptr<const void> state{};
};

// An op refused before sending (bad input): `error` is its result.
Op failed_op(const char* op, std::string object, NetlinkError error);
// validate_link_ref() for the device an op names, the error naming the op's object.
NlResult<void> check_dev(const std::string& dev, const char* op, const std::string& object);

Op link_add_op(LinkAdd spec);
Op tun_add_op(LinkAdd spec);  // tun.cc: /dev/net/tun, then a set for the common options
Op link_set_op(LinkSet spec);
Op link_delete_op(std::string name);
Op link_group_delete_op(uint32_t group);
// RTM_NEWLINKPROP (add) or RTM_DELLINKPROP with the altnames.
Op link_property_op(AltnameChange change, bool add);
// An RTM_NEWADDR that must make the address (NLM_F_EXCL) or may replace it,
// or an RTM_DELADDR.
enum class AddressWrite { add, replace, change, del };
Op address_op(AddressSpec spec, AddressWrite write);
// An RTM_NEWROUTE meeting routes with its key as `merge` says, or (with
// `kind` RTM_DELROUTE) a delete.
Op route_op(RouteSpec spec, int kind, RouteMerge merge = RouteMerge::exclusive);
// How an RTM_NEWNEIGH meets an existing entry (NLM_F_EXCL, NLM_F_CREATE|NLM_F_REPLACE,
// NLM_F_REPLACE alone), or an RTM_DELNEIGH.
enum class NeighWrite { add, replace, change, del };
Op neighbour_op(NeighbourSpec spec, NeighWrite write);
Op fdb_op(FdbSpec spec, int kind);    // RTM_NEWNEIGH or RTM_DELNEIGH
Op rule_op(RuleSpec spec, int kind);  // RTM_NEWRULE (exclusive) or RTM_DELRULE
// Whether the kernel would take `spec` to name `rule` (every field it sets
// is equal); `add` applies an add's defaults (action, main table).
bool rule_matches(const RuleInfo& rule, const RuleSpec& spec, bool add);

// What a Batch queued, taken out of it (emptying it) to be run by
// run_ops, keeping each op's undo for setup_netns_many.
struct BatchAccess {
  static std::vector<Op> take(Batch& batch) { return batch.ops_->take(); }
  static const BatchOptions& options(const Batch& batch) { return batch.options_; }
  // Queues an op built outside libbrisk (the internal tier's nexthops, address labels).
  static std::size_t push(Batch& batch, Op op) { return batch.push(std::move(op)); }
};

// How run_ops takes its ops, beyond the batch's options.
struct RunMode {
  // Called whenever every op in `ops` has been taken up, to queue more,
  // until it returns false (Batch::flush's feed). Empty: ops is all.
  std::function<bool()> more{};
  // How many ops there will be in all, if known (0: ops.size()).
  std::size_t expected = 0;
  // Each op is let go once it is retired (its result final), so that a
  // long run reuses the memory of its settled ops for later ones. Off for
  // a caller that still needs the ops afterwards (setup_netns_many's undo).
  bool release_settled = false;
};

// Takes each op's result, by the op's index, in index order, once it is final.
// The same type as Batch::flush_each's callback, which is passed straight through.
using ResultSink = std::function<void(std::size_t, NlResult<void>)>;

// Runs the ops in order, pipelined, each result to `sink`.
void run_ops(Connection& conn, IndexRing<Op>& ops, const BatchOptions& options, const RunMode& mode,
             const ResultSink& sink);
// Runs ops (kept whole) in order, pipelined; results by position.
std::vector<NlResult<void>> run_ops(Connection& conn, std::vector<Op>& ops, const BatchOptions& options);
// Deletes the named links with one group delete; results by position.
std::vector<NlResult<void>> bulk_delete(Connection& conn, const std::vector<std::string>& names);

// Runs a single op.
NlResult<void> run_one(Connection& conn, Op op);

// resolve_link() without a request on the connection's socket: the cache,
// or the transport's lookup. Nothing when the name needs a GETLINK (an
// altname too long for SIOCGIFINDEX, or a lookup that failed otherwise).
std::optional<NlResult<int>> resolve_link_without_socket(Connection& conn, const std::string& name);
// The rest of resolve_link() when that gave nothing: one RTM_GETLINK.
NlResult<int> resolve_link_by_getlink(Connection& conn, const std::string& name);

// The cached ifindex for a name that run_ops resolved (0 if absent).
int cached(Connection& conn, const std::string& name);

// Names an existing device in a request: IFLA_IFNAME, or IFLA_ALT_IFNAME for
// an alternative name too long for IFLA_IFNAME (the kernel looks up both).
void put_link_ref(Message& m, const std::string& name);

}  // namespace brisk::netlink::detail
