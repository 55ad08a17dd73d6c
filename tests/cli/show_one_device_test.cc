// `link show DEV` and `addr show dev DEV` read that device and the links its
// record names, as ip does, not a dump of every link: on a node with
// thousands of veths the dump made one show cost 62 ms instead of 2.
#include <gtest/gtest.h>

#include "cli/ip/runner.h"
#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::run;

class ShowOneDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
    ASSERT_EQ(run({"ip", "netns", "add", ns_.name()}).code, 0);
    const std::vector<std::vector<std::string>> setup = {
        {"link", "add", "br0", "type", "bridge"},
        {"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
        {"link", "set", "v0", "master", "br0"},
        {"link", "add", "other0", "type", "bridge"},
        {"link", "add", "w0", "type", "veth", "peer", "name", "w1"},
        {"addr", "add", "10.7.0.1/24", "dev", "v0"},
        {"addr", "add", "10.8.0.1/24", "dev", "w0"},
    };
    for (auto words : setup) {
      words.insert(words.begin(), {"ip", "-n", ns_.name()});
      ASSERT_EQ(run(words).code, 0) << words[3];
    }
  }
  std::vector<std::string> names(const Links& links) {
    std::vector<std::string> out;
    for (const auto& [index, l] : links) out.push_back(l.name);
    std::sort(out.begin(), out.end());
    return out;
  }
  cli_test::NamedNetns ns_;
};

TEST_F(ShowOneDevice, ReadsTheDeviceAndTheLinksItNamesOnly) {
  Runner r(Globals{.netns = ns_.name()}, "");
  auto around = r.links_around("v0", false);
  ASSERT_TRUE(around) << around.error().message();
  EXPECT_EQ(names(*around), (std::vector<std::string>{"br0", "v0", "v1"}));  // itself, its master, its peer
  auto bridge = r.links_around("br0", false);
  ASSERT_TRUE(bridge) << bridge.error().message();
  EXPECT_EQ(names(*bridge), std::vector<std::string>{"br0"});
  auto missing = r.links_around("nosuch", false);
  ASSERT_TRUE(missing) << missing.error().message();
  EXPECT_TRUE(missing->empty());
}

// The same text and JSON as ip for the shows this path serves: recorded
// (recorded_cases.h's "one_device"), and compared without root.

}  // namespace
}  // namespace brisk::ipcli
