// IPv6 address labels made and deleted by brisk and read back by ip (the
// oracle), and brisk's own dump of the table.
#include "netlink/internal/addrlabel.h"

#include <gtest/gtest.h>

#include "brisk/netlink/link.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

class AddrLabels : public test::NetnsTest {};

TEST_F(AddrLabels, AddedListedAndDeleted) {
  ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}}));
  auto added = add_addrlabel(conn(), {.prefix = "2001:db8::/32", .label = 99});
  ASSERT_TRUE(added) << added.error().message();
  ASSERT_TRUE(add_addrlabel(conn(), {.prefix = "2001:db9::/48", .dev = "d0", .label = 7}));
  auto twice = add_addrlabel(conn(), {.prefix = "2001:db8::/32", .label = 5});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().code, EEXIST);
  auto seen = test::ip_json(ns(), {"addrlabel"});
  bool found = false;
  for (const auto& l : seen)
    if (l["address"] == "2001:db9::") {
      found = true;
      EXPECT_EQ(l["prefixlen"], 48);
      EXPECT_EQ(l["ifname"], "d0");
      EXPECT_EQ(l["label"], 7);
    }
  EXPECT_TRUE(found);

  auto table = list_addrlabels(conn());
  ASSERT_TRUE(table) << table.error().message();
  EXPECT_EQ(table->size(), seen.size());
  bool ours = false;
  for (const auto& l : *table) ours |= l.prefix.to_string() == "2001:db8::/32" && l.label == 99 && !l.ifindex;
  EXPECT_TRUE(ours);

  EXPECT_FALSE(add_addrlabel(conn(), {.prefix = "2001:dba::/32", .dev = "nope0", .label = 1}));
  EXPECT_EQ(add_addrlabel(conn(), {.prefix = "zz", .label = 1}).error().code, EINVAL);
  ASSERT_TRUE(delete_addrlabel(conn(), {.prefix = "2001:db8::/32"}));
  EXPECT_EQ(delete_addrlabel(conn(), {.prefix = "2001:db8::/32"}).error().code, ESRCH);
  EXPECT_EQ(list_addrlabels(conn())->size(), table->size() - 1);
  EXPECT_FALSE(list_addrlabels(conn(), AF_INET)) << "the kernel keeps IPv6's table alone";
}

}  // namespace
}  // namespace brisk::netlink
