// IPv6 tokens: set through IFLA_AF_SPEC and read back from the AF_INET6
// link dump, with iproute2 as the oracle, in a throwaway namespace.
#include "netlink/internal/ipv6_token.h"

#include <gtest/gtest.h>
#include <net/if.h>

#include <algorithm>

#include "brisk/netlink/link.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;
using test::ip_run;

class Ipv6TokenTest : public test::NetnsTest {
 protected:
  std::optional<IpAddress> token_of(int ifindex) {
    auto all = list_ipv6_tokens(conn());
    EXPECT_TRUE(all) << all.error().message();
    if (!all) return std::nullopt;
    auto it =
        std::find_if(all->begin(), all->end(), [&](const Ipv6Token& t) { return t.ifindex == ifindex; });
    EXPECT_NE(it, all->end()) << "ifindex " << ifindex << " missing from the AF_INET6 dump";
    return it == all->end() ? std::nullopt : it->token;
  }
};

TEST_F(Ipv6TokenTest, SetReadBackAndTakenAway) {
  ASSERT_TRUE(add_link(conn(), {.name = "v0", .kind = VethOptions{.peer = "v1"}}));
  int v0 = *resolve_link(conn(), "v0"), lo = *resolve_link(conn(), "lo");
  EXPECT_EQ(token_of(v0), IpAddress::parse("::").value());  // the kernel reports :: for none
  auto set = set_ipv6_token(conn(), v0, IpAddress::parse("::1a:2b").value());
  ASSERT_TRUE(set) << set.error().message();
  EXPECT_EQ(token_of(v0), IpAddress::parse("::1a:2b").value());
  auto theirs = ip_json(ns(), {"token", "get", "dev", "v0"});  // what ip reads
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_EQ(theirs[0]["token"], "::0.26.0.43");
  ASSERT_TRUE(ip_run(ns(), {"token", "set", "::9", "dev", "v1"}));  // what ip set, read by brisk
  EXPECT_EQ(token_of(*resolve_link(conn(), "v1")), IpAddress::parse("::9").value());
  ASSERT_TRUE(set_ipv6_token(conn(), v0, IpAddress::parse("::").value()));
  EXPECT_EQ(token_of(v0), IpAddress::parse("::").value());
  // Refused with context: loopback by the kernel, IPv4 before anything is sent.
  auto on_lo = set_ipv6_token(conn(), lo, IpAddress::parse("::5").value());
  ASSERT_FALSE(on_lo);
  EXPECT_EQ(on_lo.error().code, EINVAL);
  EXPECT_STREQ(on_lo.error().op, "token set");
  auto v4 = set_ipv6_token(conn(), v0, IpAddress::parse("10.0.0.1").value());
  ASSERT_FALSE(v4);
  EXPECT_EQ(v4.error().code, EINVAL);
  EXPECT_EQ(set_ipv6_token(conn(), 99999, IpAddress::parse("::5").value()).error().code, ENODEV);
}

}  // namespace
}  // namespace brisk::netlink
