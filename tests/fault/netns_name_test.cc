// Namespace names are path components under /run/netns: everything that
// could leave that directory or name something else is refused before any
// syscall. (tests/netlink/netns_test.cc covers create/open/delete with
// "", ".", "..", "../etc", "a/b", "/abs" and a 300-byte name; this adds the
// NUL byte and the exact length boundary.)
#include <gtest/gtest.h>

#include <climits>

#include "brisk/netlink/netns.h"

namespace brisk::fault_test {
namespace {

TEST(NetnsNames, NulAndLengthBoundaryAreChecked) {
  using netlink::validate_netns_name;
  auto nul = validate_netns_name(std::string("ok\0/../etc", 10));
  ASSERT_FALSE(nul);
  EXPECT_EQ(nul.error().code, EINVAL);
  for (const char* bad : {"..", ".", "", "../x", "a/b", "x/..", "/"}) {
    auto refused = validate_netns_name(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().code, EINVAL) << bad;
  }
  EXPECT_TRUE(validate_netns_name(std::string(NAME_MAX, 'n')));
  auto too_long = validate_netns_name(std::string(NAME_MAX + 1, 'n'));
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, ENAMETOOLONG);
  EXPECT_TRUE(validate_netns_name("...")) << "three dots is an ordinary file name";
  EXPECT_TRUE(validate_netns_name(".hidden"));
  // open_netns refuses without touching the filesystem.
  auto opened = netlink::open_netns("../../proc/1/ns/net");
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, EINVAL);
}

}  // namespace
}  // namespace brisk::fault_test
