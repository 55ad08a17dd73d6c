// The benchmarks' raw rtnetlink floor, pipelined: queued requests reach the
// kernel, and flush() counts the ones it refused.
#include "bench/link_raw.h"

#include <gtest/gtest.h>
#include <net/if.h>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

TEST(RawNetlink, PipelinedRequestsAreSentAndTheirFailuresCounted) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create a network namespace";
  UniqueFd ns = brisk::test::make_netns();
  ASSERT_TRUE(ns.valid());
  RawNetlink raw(ns.get());
  raw.pipeline(4);  // 10 requests: two full windows and a partial one
  for (int i = 0; i < 10; ++i) raw.veth_add("a" + std::to_string(i), "b" + std::to_string(i));
  EXPECT_EQ(raw.flush(), 0);
  for (int i = 0; i < 10; ++i) raw.set_up("a" + std::to_string(i));
  raw.set_up("missing");
  EXPECT_EQ(raw.flush(), 1);
  // ifindex() answers at once even while pipelining.
  int a3 = raw.ifindex("a3");
  EXPECT_GT(a3, 0);
  EXPECT_EQ(raw.addr_add(a3, 0x0a000001), 0);  // queued
  EXPECT_EQ(raw.addr_add(a3, 0x0a000001), 0);  // queued; the kernel will refuse it
  EXPECT_EQ(raw.flush(), 1);
  EXPECT_EQ(raw.flush(), 0);  // counted once

  auto conn = netlink::Connection::open_in(ns.get());
  ASSERT_TRUE(conn) << conn.error().message();
  auto links = netlink::list_links(*conn);
  ASSERT_TRUE(links) << links.error().message();
  int veths = 0, up = 0;
  for (const auto& link : *links) {
    if (link.kind != "veth") continue;
    ++veths;
    if (link.name[0] == 'a' && (link.flags & IFF_UP)) ++up;
  }
  EXPECT_EQ(veths, 20);
  EXPECT_EQ(up, 10);
}

// A container's pair in one request: chosen indexes on both ends, the peer
// made up inside another namespace, the host end up and enslaved; then the
// address and default route inside, by the index chosen for the peer.
TEST(RawNetlink, VethWithChosenIndexesMasterAndPeerInAnotherNamespace) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create a network namespace";
  UniqueFd host = brisk::test::make_netns(), inside = brisk::test::make_netns();
  ASSERT_TRUE(host.valid() && inside.valid());
  RawNetlink raw(host.get());
  raw.pipeline(8);
  raw.bridge_add("br0", 40, false);
  raw.veth_add({.name = "h0",
                .index = 50,
                .master = 40,
                .up = true,
                .peer = "eth0",
                .peer_index = 7,
                .peer_netns_fd = inside.get()});
  raw.addr_add(50, 0x0a000000, 31);
  EXPECT_EQ(raw.flush(), 0);
  RawNetlink in(inside.get());
  EXPECT_EQ(in.addr_add(7, 0x0a000001, 31), 0);
  EXPECT_EQ(in.set_up("eth0"), 0);
  EXPECT_EQ(in.default_route_add(0x0a000000), 0);
  EXPECT_EQ(in.default_route_add(0x0a000000), -EEXIST);

  auto hc = netlink::Connection::open_in(host.get());
  ASSERT_TRUE(hc) << hc.error().message();
  auto h0 = netlink::get_link(*hc, "h0");
  ASSERT_TRUE(h0) << h0.error().message();
  EXPECT_EQ(h0->ifindex, 50);
  EXPECT_EQ(h0->master, 40);
  EXPECT_TRUE(h0->up());
  auto ic = netlink::Connection::open_in(inside.get());
  ASSERT_TRUE(ic) << ic.error().message();
  auto eth0 = netlink::get_link(*ic, "eth0");
  ASSERT_TRUE(eth0) << eth0.error().message();
  EXPECT_EQ(eth0->ifindex, 7);
  EXPECT_TRUE(eth0->up());
}

}  // namespace
}  // namespace brisk::bench
