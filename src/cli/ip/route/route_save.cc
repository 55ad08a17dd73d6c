// ip route save, restore and showdump: the routes show would print, each
// message's bytes as the kernel dumped them after ip's magic word; that
// stream added back in ip's three passes, or printed as show prints. The
// format is ip's, so either tool reads a file the other wrote.
#include <linux/rtnetlink.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "cli/ip/ip_errors.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/route/route_match.h"
#include "cli/ip/runner.h"
#include "cli/ip/saved_stream.h"

namespace brisk::ipcli {
namespace {

using netlink::NlResult;

constexpr uint32_t kRouteDumpMagic = 0x45311224;  // ip's route_dump_magic
constexpr const char* kTerminal = "Can't restore route dump from a terminal";

// ip's restore order: routes to local addresses first (no gateway, and a
// source that is the destination or none), then the local networks (no
// gateway, another source), then the rest (a gateway).
int restore_pass(const netlink::RouteInfo& r) {
  if (r.gateway) return 2;
  bool own = !r.prefsrc || (r.dst.length && r.prefsrc->data().size() == r.dst.address.data().size() &&
                            std::memcmp(r.prefsrc->data().data(), r.dst.address.data().data(),
                                        r.prefsrc->data().size()) == 0);
  return own ? 0 : 1;
}

}  // namespace

NlResult<void> save_routes(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  auto selection = BRISK_TRY(route_selection(*c, cmd));
  netlink::Message m(RTM_GETROUTE, NLM_F_REQUEST);
  m.put_header<rtmsg>().rtm_family = static_cast<uint8_t>(selection.filter.family);
  std::string stream(reinterpret_cast<const char*>(&kRouteDumpMagic), sizeof kRouteDumpMagic);
  BRISK_TRY(c->dump(
      std::move(m), "route save", "",
      [&](const nlmsghdr& message) -> NlResult<void> {
        if (message.nlmsg_type != RTM_NEWROUTE) return {};
        auto route = BRISK_TRY(netlink::route_from_message(message));
        bool table = selection.filter.table == RT_TABLE_UNSPEC || route.table == selection.filter.table;
        if (table && (!selection.oif || route.oif == selection.oif) && !route.cloned &&
            selection.keeps(cmd, route))
          stream.append(reinterpret_cast<const char*>(&message), message.nlmsg_len);
        return {};
      },
      [&stream] { stream.resize(sizeof kRouteDumpMagic); }));
  r.out() += stream;
  return {};
}

NlResult<void> restore_routes(Runner& r, const IpCommand& cmd) {
  std::string storage;
  std::string_view data = BRISK_TRY(restore_input(cmd, kRouteRestoreOp, kTerminal, storage));
  for (int pass = 0; pass < 3; ++pass) {
    BRISK_TRY(each_saved_message(
        data, kRouteDumpMagic, kRouteRestoreOp, [&](const nlmsghdr& saved) -> NlResult<void> {
          auto route = netlink::route_from_message(saved);
          if (!route || restore_pass(*route) != pass) return {};
          auto c = BRISK_TRY(r.conn());
          auto message =
              netlink::Message::from_bytes({reinterpret_cast<const char*>(&saved), saved.nlmsg_len});
          message.add_flags(NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK);
          auto done = c->execute({.message = std::move(message), .op = kRouteRestoreOp});
          // As ip: one that is there is no failure, though its rtnl_talk says so.
          if (!done && done.error().code == EEXIST) {
            r.flush_out();
            std::fprintf(stderr, "%s\n", runtime_message(done.error()).c_str());
            return {};
          }
          return done;
        }));
  }
  return {};
}

NlResult<void> show_saved_routes(Runner& r, const IpCommand& cmd) {
  std::string storage;
  std::string_view data = BRISK_TRY(restore_input(cmd, kRouteShowdumpOp, kTerminal, storage));
  auto all = BRISK_TRY(r.links_by_index(false));
  return each_saved_message(
      data, kRouteDumpMagic, kRouteShowdumpOp, [&](const nlmsghdr& saved) -> NlResult<void> {
        auto route = netlink::route_from_message(saved);
        if (!route) return {};
        Json j;  // as ip: text even under -j, which showdump does not read
        r.out() += route_record(*route, RouteView{.globals = r.globals(), .all = all}, j);
        return {};
      });
}

}  // namespace brisk::ipcli
