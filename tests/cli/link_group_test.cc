// Device groups: named as /etc/iproute2/group names them, in set, add,
// delete and the new show filter, and printed as ip prints them.
#include <gtest/gtest.h>

#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(IpLinkGroup, NamesAndNumbers) {
  EXPECT_EQ(ok({"link", "set", "v0", "group", "default"}).link_set().group, 0u);
  EXPECT_EQ(ok({"link", "set", "v0", "group", "7"}).link_set().group, 7u);
  EXPECT_EQ(ok({"link", "show", "group", "7"}).filter().show_group, 7u);
  EXPECT_EQ(ok({"addr", "show", "group", "default"}).filter().show_group, 0u);
  EXPECT_EQ(ok({"link", "del", "group", "default"}).verb, verb_named("link del group"));
  auto bad = error_of({"link", "show", "group", "nosuch"});
  EXPECT_EQ(bad.message, "Error: argument \"nosuch\" is wrong: Invalid \"group\" value\n");
  EXPECT_EQ(bad.exit_code, 255);
  EXPECT_FALSE(parse_command(Words{"link", "set", "v0", "group", "4294967296"}, Globals{}));
  EXPECT_EQ(group_name(0), "default");
  EXPECT_EQ(group_number("default"), 0u);
}

class IpLinkGroupParity : public cli_test::CliNetnsTest {};

TEST_F(IpLinkGroupParity, ShowGroupAsIp) {
  ASSERT_EQ(cli_test::brisk_run({"link", "add", "g0", "group", "7", "type", "bridge"}, ns()).code, 0);
  ASSERT_EQ(cli_test::brisk_run({"link", "add", "g1", "type", "bridge"}, ns()).code, 0);
  ASSERT_EQ(cli_test::brisk_run({"link", "set", "g1", "group", "default"}, ns()).code, 0);
  for (const Words& show : std::vector<Words>{{"link", "show", "group", "7"},
                                              {"-j", "link", "show", "group", "default"},
                                              {"addr", "show", "group", "7"},
                                              {"-j", "addr", "show", "group", "7"},
                                              {"-br", "link", "show", "group", "0"}})
    cli_test::expect_same_output(show, ns());
  auto theirs = cli_test::ip_run({"link", "show", "group", "nosuch"}, ns());
  auto ours = cli_test::brisk_run({"link", "show", "group", "nosuch"}, ns());
  EXPECT_EQ(ours.err, theirs.err);
  EXPECT_EQ(ours.code, theirs.code);
}

}  // namespace
}  // namespace brisk::ipcli
