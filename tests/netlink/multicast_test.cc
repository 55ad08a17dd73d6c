// Link-layer multicast addresses added and deleted through the
// connection's socket, in its namespace, read back by ip (the oracle).
#include "netlink/internal/multicast.h"

#include <gtest/gtest.h>

#include "brisk/netlink/link.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

class LinkMulticast : public test::NetnsTest {};

bool listed(int ns, const std::string& dev, const std::string& mac) {
  for (const auto& device : test::ip_json(ns, {"maddr", "show", "dev", dev}))
    for (const auto& m : device["maddr"])
      if (m.value("link", "") == mac) return m.value("features", "") == "static";
  return false;
}

TEST_F(LinkMulticast, AddedAndDeletedInTheConnectionsNamespace) {
  ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}}));
  const std::vector<uint8_t> group{0x01, 0x00, 0x5e, 0x00, 0x00, 0x05};
  auto added = add_link_multicast(conn(), "d0", group);
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_TRUE(listed(ns(), "d0", "01:00:5e:00:00:05"));
  EXPECT_TRUE(add_link_multicast(conn(), "d0", group)) << "a second add changes nothing";
  ASSERT_TRUE(delete_link_multicast(conn(), "d0", group));
  EXPECT_FALSE(listed(ns(), "d0", "01:00:5e:00:00:05"));
  auto again = delete_link_multicast(conn(), "d0", group);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ENOENT);
  EXPECT_EQ(add_link_multicast(conn(), "nope0", group).error().code, ENODEV);
  EXPECT_EQ(add_link_multicast(conn(), "d0", {}).error().code, EINVAL);
}

}  // namespace
}  // namespace brisk::netlink
