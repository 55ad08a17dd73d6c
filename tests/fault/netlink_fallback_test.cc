// The netlink engine's fallbacks, reachable only when the kernel refuses
// something that normally works: the ioctl that resolves device names, and
// the group delete that coalesces a run of link deletes.
#include <linux/rtnetlink.h>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "fault/fault_support.h"
#include "netlink/netns_fixture.h"

namespace brisk::fault_test {
namespace {

using netlink::test::ip_link;
using netlink::test::ip_link_names;

class NetlinkFallback : public netlink::test::NetnsTest {};

// A policy that refuses ioctl(SIOCGIFINDEX): names still resolve, with one
// RTM_GETLINK each, and a missing name is still ENODEV.
TEST_F(NetlinkFallback, NameResolutionFallsBackToGetlink) {
  FaultGuard guard;
  ASSERT_TRUE(netlink::add_link(conn(), {.name = "r0", .kind = netlink::VethOptions{.peer = "r1"}}));
  auto fresh = netlink::Connection::open_in(ns());  // an empty name cache
  ASSERT_TRUE(fresh) << fresh.error().message();
  sys::testing::inject("ioctl", ENOTTY, 1, 2);
  auto index = netlink::resolve_link(*fresh, "r1");
  ASSERT_TRUE(index) << index.error().message();
  EXPECT_EQ(*index, ip_link(ns(), "r1")["ifindex"]);
  auto missing = netlink::resolve_link(*fresh, "nosuch0");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENODEV) << missing.error().message();
  EXPECT_EQ(sys::testing::faults_fired(), 2u) << "the ioctl was not the first choice";
}

// The group RTM_DELLINK fails: every device goes back to its own group and
// is deleted one by one, with the results and end state of the fast path.
TEST_F(NetlinkFallback, AFailedGroupDeleteFallsBackToOneByOne) {
  FaultGuard guard;
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(netlink::add_link(conn(), {.name = "g" + std::to_string(i),
                                           .kind = netlink::VethOptions{.peer = "h" + std::to_string(i)}}));
  ASSERT_TRUE(netlink::add_link(
      conn(), {.name = "keep0", .kind = netlink::VethOptions{.peer = "keep1"}, .common = {.group = 7}}));
  netlink::Batch batch(conn());
  for (int i = 0; i < 4; ++i) batch.delete_link("g" + std::to_string(i));
  batch.delete_link("h0");  // gone with its peer g0: ENODEV, as one by one
  // sendmsg 1 is the link dump, 2 the moves into the fresh group, 3 the group delete.
  sys::testing::inject("sendmsg", EPERM, 3);
  auto results = batch.flush();
  EXPECT_EQ(sys::testing::faults_fired(), 1u) << "the group delete was not where the test expects";
  ASSERT_EQ(results.size(), 5u);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(results[static_cast<std::size_t>(i)])
        << results[static_cast<std::size_t>(i)].error().message();
  ASSERT_FALSE(results[4]);
  EXPECT_EQ(results[4].error().code, ENODEV);
  EXPECT_EQ(ip_link_names(ns()), (std::vector<std::string>{"lo", "keep1", "keep0"}));
  EXPECT_EQ(ip_link(ns(), "keep0")["group"], "7") << "a device outside the batch changed group";
}

}  // namespace
}  // namespace brisk::fault_test
