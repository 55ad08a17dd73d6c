// Address lifetimes and the IPv6 home/mngtmpaddr flags, with ip as the oracle.
#include <gtest/gtest.h>
#include <linux/if_addr.h>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/link.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;

class AddrLifetime : public test::NetnsTest {
 protected:
  void SetUp() override {
    NetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}}));
  }
  nlohmann::json ip_addr(const std::string& local) {
    auto links = ip_json(ns(), {"addr", "show", "dev", "d0"});  // kept: the loop reads into it
    for (const auto& a : links[0]["addr_info"])
      if (a["local"] == local) return a;
    return {};
  }
};

TEST_F(AddrLifetime, LifetimesAreSentAndReadBack) {
  auto added = add_address(
      conn(), {.dev = "d0", .prefix = "10.3.0.3/24", .valid_lifetime = 100, .preferred_lifetime = 50});
  ASSERT_TRUE(added) << added.error().message();
  auto a = ip_addr("10.3.0.3");
  EXPECT_EQ(a["dynamic"], true);
  EXPECT_LE(a["valid_life_time"].get<int>(), 100);
  EXPECT_GT(a["valid_life_time"].get<int>(), 90);
  EXPECT_LE(a["preferred_life_time"].get<int>(), 50);
  auto listed = list_addresses(conn(), {.dev = "d0", .family = AF_INET});
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_FALSE((*listed)[0].flags & IFA_F_PERMANENT);
  EXPECT_LE((*listed)[0].valid_lifetime, 100u);

  // Only a preferred lifetime: valid stays forever (so the kernel reports the
  // address permanent, both lifetimes forever); 0 makes it deprecated.
  ASSERT_TRUE(add_address(conn(), {.dev = "d0", .prefix = "10.3.0.4/24", .preferred_lifetime = 0}));
  auto b = ip_addr("10.3.0.4");
  EXPECT_EQ(b["valid_life_time"], AddressInfo::kForever);
  EXPECT_EQ(b["deprecated"], true);
  EXPECT_FALSE(b.contains("dynamic"));
}

TEST_F(AddrLifetime, HomeAndMngtmpaddrFlags) {
  auto added = add_address(
      conn(), {.dev = "d0", .prefix = "fd00::5/64", .nodad = true, .home = true, .mngtmpaddr = true});
  ASSERT_TRUE(added) << added.error().message();
  auto a = ip_addr("fd00::5");
  EXPECT_EQ(a["home"], true);
  EXPECT_EQ(a["mngtmpaddr"], true);
}

TEST_F(AddrLifetime, BadLifetimesAreRefusedBeforeSending) {
  auto zero = add_address(conn(), {.dev = "d0", .prefix = "10.3.0.5/24", .valid_lifetime = 0});
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, EINVAL);
  EXPECT_NE(zero.error().message().find("valid_lft is zero"), std::string::npos) << zero.error().message();
  auto longer = add_address(
      conn(), {.dev = "d0", .prefix = "10.3.0.5/24", .valid_lifetime = 10, .preferred_lifetime = 100});
  ASSERT_FALSE(longer);
  EXPECT_NE(longer.error().message().find("preferred_lft is greater"), std::string::npos);
  EXPECT_TRUE(ip_addr("10.3.0.5").is_null()) << "nothing was added";
}

}  // namespace
}  // namespace brisk::netlink
