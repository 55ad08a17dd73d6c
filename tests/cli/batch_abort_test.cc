// Where ip -batch ends the whole batch with status 255 (an argument error,
// such as a master that does not exist, which ip looks up while parsing the
// line), brisk ends it at the same line, with -force too: the lines before
// stay applied, none after, and stderr and the status are ip's.
#include <gtest/gtest.h>

#include "cli_support.h"

namespace brisk::cli_test {
namespace {

std::string link_names(int ns) {
  std::string names;
  for (const auto& l : ip_json(ns, {"link", "show"})) names += l.value("ifname", "") + " ";
  return names;
}

TEST(BatchAbort, MissingMasterOrNexthopDevEndsTheBatchAsInIp) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  brisk::test::TempDir dir;
  const char* batches[] = {
      "link add x0 type bridge\nlink set x0 master nosuch\nlink add x1 type bridge\n",
      "link add x0 type bridge\nlink add x2 master nosuch type bridge\nlink add x1 type bridge\n",
      "link add x0 type veth peer name y0\nlink add br0 type bridge\nlink set y0 master br0\n"
      "link set x0 master nosuch up\nlink set br0 up\n",
      // A multipath route's nexthop dev, which ip looks up while parsing too.
      "link add r0 type veth peer name r1\nlink set r0 up\naddr add 10.9.0.1/24 dev r0\n"
      "route add 10.30.0.0/16 nexthop via 10.9.0.2 dev nosuch\nlink add x1 type bridge\n",
      // The master made earlier in the same batch is found.
      "link add br0 type bridge\nlink add x0 type veth peer name y0\nlink set x0 master br0\nlink add x1 "
      "type bridge\n",
  };
  int n = 0;
  for (const char* text : batches) {
    std::string file = dir.path() + "/b" + std::to_string(n++);
    write_file(file, text);
    for (bool force : {false, true}) {
      std::vector<std::string> args{"-batch", file};
      if (force) args.insert(args.begin(), "-force");
      UniqueFd ip_ns = brisk::test::make_netns(), brisk_ns = brisk::test::make_netns();
      auto theirs = ip_run(args, ip_ns.get());
      auto ours = brisk_run(args, brisk_ns.get());
      EXPECT_EQ(ours.code, theirs.code) << text << (force ? " -force" : "");
      EXPECT_EQ(ours.err, theirs.err) << text << (force ? " -force" : "");
      EXPECT_EQ(link_names(brisk_ns.get()), link_names(ip_ns.get())) << text << (force ? " -force" : "");
    }
  }
}

TEST(BatchAbort, MissingMasterOnOneCommandLine) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd ns = brisk::test::make_netns();
  ASSERT_EQ(ip_run({"link", "add", "x0", "type", "bridge"}, ns.get()).code, 0);
  auto theirs = ip_run({"link", "set", "x0", "master", "nosuch"}, ns.get());
  auto ours = brisk_run({"link", "set", "x0", "master", "nosuch"}, ns.get());
  EXPECT_EQ(ours.code, 255);
  EXPECT_EQ(ours.code, theirs.code);
  EXPECT_EQ(ours.err, theirs.err);
}

}  // namespace
}  // namespace brisk::cli_test
