// tun/tap flags, ip tuntap's calls (add_tun, delete_tun, list_tuns), with the
// kernel's sysfs tun_flags as the oracle: read by `cat` in a private mount
// namespace whose /sys is remounted inside the test's network namespace.
#include "brisk/netlink/tun.h"

#include <gtest/gtest.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <unistd.h>

#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

class Tun : public test::NetnsTest {
 protected:
  void SetUp() override {
    if (::access("/dev/net/tun", R_OK | W_OK) != 0) GTEST_SKIP() << "no /dev/net/tun";
    NetnsTest::SetUp();
  }
  // The kernel's tun_flags for `dev`, or -1 when it has none.
  long sysfs_flags(const std::string& dev) {
    auto run = brisk::test::run_capture(
        {.argv = {"unshare", "-m", "sh", "-c",
                  "mount -t sysfs sysfs /sys && cat /sys/class/net/" + dev + "/tun_flags"},
         .namespaces = {{.type = CLONE_NEWNET, .fd = ns()}}});
    if (!run.status.success() || run.out.empty()) return -1;
    return std::stol(run.out, nullptr, 0);
  }
};

TEST_F(Tun, EveryOptionReachesTunFlags) {
  struct Case {
    const char* name;
    TunOptions options;
    long flags;
  };
  const std::vector<Case> cases = {
      {"tun0", {}, IFF_TUN | IFF_NO_PI | IFF_PERSIST},
      {"tap0", {.tap = true}, IFF_TAP | IFF_NO_PI | IFF_PERSIST},
      {"tun1", {.pi = true}, IFF_TUN | IFF_PERSIST},
      {"tap1", {.tap = true, .vnet_hdr = true}, IFF_TAP | IFF_NO_PI | IFF_VNET_HDR | IFF_PERSIST},
      {"tap2", {.tap = true, .multi_queue = true}, IFF_TAP | IFF_NO_PI | IFF_MULTI_QUEUE | IFF_PERSIST},
      {"tun2", {.one_queue = true}, IFF_TUN | IFF_NO_PI | IFF_ONE_QUEUE | IFF_PERSIST},
      {"tap3",
       {.tap = true, .pi = true, .vnet_hdr = true, .multi_queue = true, .one_queue = true},
       IFF_TAP | IFF_VNET_HDR | IFF_MULTI_QUEUE | IFF_ONE_QUEUE | IFF_PERSIST},
  };
  for (const auto& c : cases) {
    // Through add_link (the Batch path) and through add_tun alike.
    auto added = add_link(conn(), {.name = c.name, .kind = c.options});
    ASSERT_TRUE(added) << added.error().message();
    EXPECT_EQ(sysfs_flags(c.name), c.flags) << c.name;
    std::string other = std::string("x") + c.name;
    auto made = add_tun(conn(), other, c.options);
    ASSERT_TRUE(made) << made.error().message();
    EXPECT_EQ(*made, other);
    EXPECT_EQ(sysfs_flags(other), c.flags) << other;
  }
  auto listed = list_tuns(conn());
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 2 * cases.size());
  for (const auto& t : *listed) EXPECT_EQ(long(t.flags), sysfs_flags(t.name)) << t.name;
}

TEST_F(Tun, AddTunLetsTheKernelNameAndReportsTheIoctl) {
  auto named = add_tun(conn(), "", {.tap = true, .owner = 4000, .group = 4001});
  ASSERT_TRUE(named) << named.error().message();
  EXPECT_EQ(*named, "tap0");
  auto listed = list_tuns(conn());
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].name, "tap0");
  EXPECT_EQ((*listed)[0].owner, 4000u);
  EXPECT_EQ((*listed)[0].group, 4001u);
  auto dup = add_tun(conn(), "tap0", {.tap = true});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, EBUSY);
  EXPECT_STREQ(dup.error().op, "ioctl(TUNSETIFF)");
  EXPECT_EQ(dup.error().object, "tap0");
}

TEST_F(Tun, DeleteTunNeedsTheModeAndMultiQueue) {
  ASSERT_TRUE(add_tun(conn(), "tap0", {.tap = true, .multi_queue = true}));
  auto wrong_mode = delete_tun(conn(), "tap0", {.multi_queue = true});
  ASSERT_FALSE(wrong_mode);
  EXPECT_EQ(wrong_mode.error().code, EINVAL);
  EXPECT_FALSE(delete_tun(conn(), "tap0", {.tap = true}));
  EXPECT_TRUE(delete_tun(conn(), "nosuch0", {.tap = true}));  // a transient device, as ip's del
  auto deleted = delete_tun(conn(), "tap0", {.tap = true, .multi_queue = true});
  ASSERT_TRUE(deleted) << deleted.error().message();
  EXPECT_EQ(sysfs_flags("tap0"), -1);
  auto listed = list_tuns(conn());
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_TRUE(listed->empty());
}

}  // namespace
}  // namespace brisk::netlink
