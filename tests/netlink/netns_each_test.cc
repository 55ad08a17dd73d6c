// The batch forms: create_netns_each and Connection::open_in_each do many
// namespaces on one helper thread, with one result per item. Each test runs
// inside the network benchmarks' sandbox (a private mount namespace with its
// own /run), so /run/netns is its own and the host is never touched.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "brisk/netlink/link.h"
#include "brisk/netlink/netns.h"
#include "sandbox/net_sandbox.h"
#include "support/test_support.h"

namespace brisk::netlink {
namespace {

class NetnsEach : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  }
};

ino_t inode(int fd) {
  struct stat st {};
  EXPECT_EQ(::fstat(fd, &st), 0);
  return st.st_ino;
}

TEST_F(NetnsEach, MakesDistinctNamespacesAndFailuresStayWithTheirName) {
  sandbox::run_in_net_sandbox([] {
    ASSERT_TRUE(create_netns("taken"));
    std::vector<std::string> names{"a", "b", "taken", "../escape", "c"};
    auto results = create_netns_each(names);
    ASSERT_EQ(results.size(), names.size());
    EXPECT_TRUE(results[0]) << results[0].error().message();
    EXPECT_TRUE(results[1]) << results[1].error().message();
    ASSERT_FALSE(results[2]);
    EXPECT_EQ(results[2].error().code, EEXIST);
    EXPECT_EQ(results[2].error().object, "taken");
    ASSERT_FALSE(results[3]);
    EXPECT_EQ(results[3].error().code, EINVAL);
    EXPECT_TRUE(results[4]) << results[4].error().message();
    EXPECT_EQ(*list_netns(), (std::vector<std::string>{"a", "b", "c", "taken"}));
    std::set<ino_t> seen;
    for (const char* name : {"a", "b", "c", "taken"}) {
      auto fd = open_netns(name);  // checks it is a network namespace
      ASSERT_TRUE(fd) << name << ": " << fd.error().message();
      seen.insert(inode(fd->get()));
    }
    EXPECT_EQ(seen.size(), 4u);
    for (const char* name : {"a", "b", "c", "taken"}) EXPECT_TRUE(delete_netns(name));
    EXPECT_TRUE(create_netns_each({}).empty());
  });
}

TEST_F(NetnsEach, OpenInEachBindsEveryConnectionToItsOwnNamespace) {
  std::vector<UniqueFd> owned;
  for (int k = 0; k < 3; ++k) owned.push_back(brisk::test::make_netns());
  std::vector<int> fds{owned[0].get(), -1, owned[1].get(), owned[2].get()};
  auto conns = Connection::open_in_each(fds);
  ASSERT_EQ(conns.size(), 4u);
  ASSERT_FALSE(conns[1]);
  EXPECT_EQ(conns[1].error().code, EBADF);
  for (std::size_t k : {0u, 2u, 3u}) {
    ASSERT_TRUE(conns[k]) << conns[k].error().message();
    EXPECT_EQ(inode(conns[k]->netns_fd()), inode(fds[k]));
    ASSERT_TRUE(add_link(*conns[k], {.name = "br" + std::to_string(k), .kind = BridgeOptions{}}));
  }
  // Each bridge exists in its own namespace and nowhere else.
  for (std::size_t k : {0u, 2u, 3u}) {
    auto check = Connection::open_in(fds[k]);
    ASSERT_TRUE(check);
    for (std::size_t other : {0u, 2u, 3u}) {
      auto found = get_link(*check, "br" + std::to_string(other));
      EXPECT_EQ(bool(found), k == other) << "br" << other << " seen from namespace " << k;
    }
  }
  EXPECT_TRUE(Connection::open_in_each({}).empty());
}

}  // namespace
}  // namespace brisk::netlink
