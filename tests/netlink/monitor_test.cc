// Monitor: joins the groups asked for, yields the kernel's notifications
// parsed, marks deletions, and survives an overflowed buffer (ENOBUFS).
#include "brisk/netlink/monitor.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/rtnetlink.h>
#include <poll.h>

#include <chrono>
#include <functional>

#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::NetnsTest;

class MonitorTest : public NetnsTest {
 protected:
  // Events until `done` says stop, or a few seconds pass.
  std::vector<MonitorEvent> collect(Monitor& mon, const std::function<bool(const MonitorEvent&)>& done) {
    std::vector<MonitorEvent> seen;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{.fd = mon.fd(), .events = POLLIN, .revents = 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      auto events = mon.receive(false);
      EXPECT_TRUE(events) << events.error().message();
      if (!events) return seen;
      for (auto& e : *events) {
        seen.push_back(std::move(e));
        if (done(seen.back())) return seen;
      }
    }
    ADD_FAILURE() << "the awaited event never came";
    return seen;
  }
};

const LinkInfo* link_named(const MonitorEvent& e, const std::string& name) {
  const auto* l = std::get_if<LinkInfo>(&e.object);
  return l && l->name == name ? l : nullptr;
}

TEST_F(MonitorTest, YieldsParsedLinkAndAddressEvents) {
  auto mon = Monitor::open({.groups = {RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR}, .netns_fd = ns()});
  ASSERT_TRUE(mon) << mon.error().message();
  EXPECT_TRUE(::fcntl(mon->fd(), F_GETFD) & FD_CLOEXEC);
  ASSERT_TRUE(add_link(conn(), {.name = "m0", .kind = VethOptions{.peer = "m1"}}));
  auto added = collect(*mon, [](const MonitorEvent& e) { return link_named(e, "m0") != nullptr; });
  ASSERT_FALSE(added.empty());
  EXPECT_EQ(added.back().type, RTM_NEWLINK);
  EXPECT_FALSE(added.back().deleted);
  ASSERT_TRUE(add_address(conn(), {.dev = "m0", .prefix = "10.7.0.1/24"}));
  auto addr =
      collect(*mon, [](const MonitorEvent& e) { return std::holds_alternative<AddressInfo>(e.object); });
  ASSERT_FALSE(addr.empty());
  const auto& a = std::get<AddressInfo>(addr.back().object);
  EXPECT_EQ(a.prefix.address.to_string(), "10.7.0.1");
  EXPECT_EQ(a.prefix.length, 24);
  EXPECT_EQ(addr.back().raw.size(), reinterpret_cast<const nlmsghdr*>(addr.back().raw.data())->nlmsg_len);
  ASSERT_TRUE(delete_link(conn(), "m0"));
  auto gone = collect(*mon, [](const MonitorEvent& e) { return e.deleted && link_named(e, "m0"); });
  ASSERT_FALSE(gone.empty());
  EXPECT_EQ(gone.back().type, RTM_DELLINK);
}

TEST_F(MonitorTest, OnlyTheGroupsJoined) {
  auto mon = Monitor::open({.groups = {RTNLGRP_IPV4_ROUTE}, .netns_fd = ns()});
  ASSERT_TRUE(mon) << mon.error().message();
  ASSERT_TRUE(add_link(conn(), {.name = "m0", .kind = VethOptions{.peer = "m1"}, .common = {.up = true}}));
  ASSERT_TRUE(add_address(conn(), {.dev = "m0", .prefix = "10.7.0.1/24"}));
  // The address's own routes arrive; no link or address event does.
  auto seen = collect(*mon, [](const MonitorEvent& e) {
    const auto* r = std::get_if<RouteInfo>(&e.object);
    return r && r->dst.to_string() == "10.7.0.0/24";
  });
  for (const auto& e : seen) EXPECT_TRUE(std::holds_alternative<RouteInfo>(e.object)) << e.type;
}

TEST_F(MonitorTest, NothingQueuedIsAnEmptyList) {
  auto mon = Monitor::open({.groups = {RTNLGRP_LINK}, .netns_fd = ns()});
  ASSERT_TRUE(mon) << mon.error().message();
  auto none = mon->receive(false);
  ASSERT_TRUE(none) << none.error().message();
  EXPECT_TRUE(none->empty());
}

TEST_F(MonitorTest, OverflowIsEnobufsThenEventsFlowAgain) {
  // The smallest buffer the kernel allows, and many events left unread.
  auto mon = Monitor::open({.groups = {RTNLGRP_LINK}, .netns_fd = ns(), .receive_buffer = 256});
  ASSERT_TRUE(mon) << mon.error().message();
  for (int i = 0; i < 40; ++i)
    ASSERT_TRUE(set_link(conn(), {.name = "lo", .mtu = static_cast<uint32_t>(60000 + i)}));
  bool overflowed = false;
  for (int i = 0; i < 100 && !overflowed; ++i) {
    auto events = mon->receive(false);
    if (!events) {
      EXPECT_EQ(events.error().code, ENOBUFS) << events.error().message();
      overflowed = true;
    } else if (events->empty()) {
      break;
    }
  }
  EXPECT_TRUE(overflowed);
  while (true) {  // drain what is left
    auto events = mon->receive(false);
    if (events && events->empty()) break;
  }
  ASSERT_TRUE(set_link(conn(), {.name = "lo", .mtu = 65536}));
  auto after = collect(*mon, [](const MonitorEvent& e) {
    const auto* l = link_named(e, "lo");
    return l && l->mtu == 65536;
  });
  EXPECT_FALSE(after.empty());
}

TEST_F(MonitorTest, RefusesAGroupTheKernelLacks) {
  auto mon = Monitor::open({.groups = {100000}, .netns_fd = ns()});
  ASSERT_FALSE(mon);
  EXPECT_EQ(mon.error().code, EINVAL);
  EXPECT_EQ(mon.error().object, "group 100000");
}

}  // namespace
}  // namespace brisk::netlink
