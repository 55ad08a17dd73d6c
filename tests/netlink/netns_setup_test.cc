// setup_netns_many: many containers' networks at once, each container's
// failure its own. Every test runs in the network sandbox (a private /run,
// so /run/netns is its own, and a fresh network namespace as the "host"),
// so neither the host's namespaces nor its links are touched.
#include "brisk/netlink/netns_setup.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/route.h"
#include "sandbox/net_sandbox.h"
#include "support/test_support.h"

namespace brisk::netlink {
namespace {

std::string name_of(int i) { return "c" + std::to_string(i); }
std::string host_end(int i) { return "h" + std::to_string(i); }
std::string host_ip(int i) { return "10.0.0." + std::to_string(2 * i); }
std::string inside_ip(int i) { return "10.0.0." + std::to_string(2 * i + 1); }

// The veth shape: host end h<i> with its /31, eth0 inside with the other
// address, up, and a default route via the host end.
std::vector<NetnsSetup> fleet(int n) {
  std::vector<NetnsSetup> all;
  for (int i = 0; i < n; ++i)
    all.push_back(
        {.name = name_of(i),
         .host =
             [i](Batch& b, int ns) {
               b.add_link({.name = host_end(i),
                           .kind = VethOptions{.peer = "eth0", .peer_netns_fd = ns},
                           .common = {.up = true}});
             },
         .host_after = [i](Batch& b) { b.add_address({.dev = host_end(i), .prefix = host_ip(i) + "/31"}); },
         .inside =
             [i](Batch& b) {
               b.add_address({.dev = "eth0", .prefix = inside_ip(i) + "/31"});
               b.set_link({.name = "eth0", .up = true});
               b.add_route({.prefix = "default", .via = host_ip(i)});
             }});
  return all;
}

std::vector<std::string> host_links(Connection& host) {
  std::vector<std::string> names;
  auto links = list_links(host).value();
  for (const auto& l : links)
    if (l.name[0] == 'h') names.push_back(l.name);  // not lo, nor the fallback tunnels a module adds
  std::sort(names.begin(), names.end());
  return names;
}

// Container i is complete: its host end has its address, and inside eth0
// is up with its own and the default route.
void expect_complete(Connection& host, int i) {
  SCOPED_TRACE(name_of(i));
  auto addrs = list_addresses(host, {.dev = host_end(i), .family = AF_INET});
  ASSERT_TRUE(addrs) << addrs.error().message();
  ASSERT_EQ(addrs->size(), 1u);
  EXPECT_EQ((*addrs)[0].prefix.to_string(), host_ip(i) + "/31");
  auto ns = open_netns(name_of(i));
  ASSERT_TRUE(ns) << ns.error().message();
  auto inside = Connection::open_in(ns->get()).value();
  auto eth0 = get_link(inside, "eth0");
  ASSERT_TRUE(eth0) << eth0.error().message();
  EXPECT_TRUE(eth0->up());
  auto in_addrs = list_addresses(inside, {.dev = "eth0", .family = AF_INET}).value();
  ASSERT_EQ(in_addrs.size(), 1u);
  EXPECT_EQ(in_addrs[0].prefix.to_string(), inside_ip(i) + "/31");
  auto routes = list_routes(inside).value();
  EXPECT_TRUE(std::any_of(routes.begin(), routes.end(), [&](const RouteInfo& r) {
    return r.dst.length == 0 && r.gateway && r.gateway->to_string() == host_ip(i);
  }));
}

std::vector<std::string> names_but(int n, std::vector<int> gone) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    if (std::find(gone.begin(), gone.end(), i) == gone.end()) out.push_back(name_of(i));
  std::sort(out.begin(), out.end());
  return out;
}

class NetnsSetupMany : public ::testing::TestWithParam<NetnsOverlap> {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  }
  NetnsSetupOptions options(std::size_t round) const { return {.round = round, .overlap = GetParam()}; }
};

// The calling thread's network namespace, by inode.
ino_t own_netns() {
  struct stat st {};
  EXPECT_EQ(::stat("/proc/thread-self/ns/net", &st), 0);
  return st.st_ino;
}

TEST_P(NetnsSetupMany, SetsUpEveryContainerAndLeaksNoFd) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    auto containers = fleet(7);
    auto fds_before = brisk::test::open_fds();
    ino_t home = own_netns();
    auto results = setup_netns_many(host, containers, options(3));  // rounds of 3, 3 and 1
    EXPECT_EQ(brisk::test::open_fds(), fds_before);
    // Made on this thread or another, the namespaces leave it where it was.
    EXPECT_EQ(own_netns(), home);
    ASSERT_TRUE(results) << results.error().message();
    ASSERT_EQ(results->size(), 7u);
    for (int i = 0; i < 7; ++i) {
      EXPECT_TRUE((*results)[i]) << (*results)[i].error().message();
      expect_complete(host, i);
    }
    EXPECT_EQ(*list_netns(), names_but(7, {}));
    EXPECT_TRUE(setup_netns_many(host, {}, options(3)).value().empty());
  });
}

TEST_P(NetnsSetupMany, ANameTakenHalfwayFailsOnlyThatContainer) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    ASSERT_TRUE(create_netns(name_of(3)));  // someone else's
    auto results = setup_netns_many(host, fleet(7), options(2)).value();
    ASSERT_FALSE(results[3]);
    EXPECT_EQ(results[3].error().code, EEXIST);
    EXPECT_EQ(results[3].error().object, name_of(3));
    for (int i : {0, 1, 2, 4, 5, 6}) {
      EXPECT_TRUE(results[i]) << results[i].error().message();
      expect_complete(host, i);
    }
    // The taken name is still someone else's: nothing was put in it, nor on the host for it.
    EXPECT_EQ(*list_netns(), names_but(7, {}));
    auto theirs = Connection::open_in(open_netns(name_of(3)).value().get()).value();
    EXPECT_FALSE(get_link(theirs, "eth0"));
    EXPECT_FALSE(get_link(host, host_end(3)));
  });
}

TEST_P(NetnsSetupMany, AFailedHostOperationUndoesItsContainerAlone) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    // h4 exists: container 4's veth cannot be made, and its address would
    // land on this bridge; undoing the container takes the address off again.
    ASSERT_TRUE(add_link(host, {.name = host_end(4), .kind = BridgeOptions{}}));
    auto results = setup_netns_many(host, fleet(6), options(4)).value();
    ASSERT_FALSE(results[4]);
    EXPECT_EQ(results[4].error().code, EEXIST);
    EXPECT_EQ(results[4].error().object, host_end(4));
    EXPECT_NE(results[4].error().message().find("in container c4"), std::string::npos)
        << results[4].error().message();
    for (int i : {0, 1, 2, 3, 5}) {
      EXPECT_TRUE(results[i]) << results[i].error().message();
      expect_complete(host, i);
    }
    EXPECT_EQ(*list_netns(), names_but(6, {4}));
    EXPECT_TRUE(list_addresses(host, {.dev = host_end(4), .family = AF_INET}).value().empty());
  });
}

TEST_P(NetnsSetupMany, StopOnErrorLeavesNothingOfTheFailedContainerOrAnyAfter) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    ASSERT_TRUE(create_netns(name_of(3)));
    auto opts = options(2);
    opts.stop_on_error = true;
    auto fds_before = brisk::test::open_fds();
    auto results = setup_netns_many(host, fleet(8), opts).value();
    EXPECT_EQ(brisk::test::open_fds(), fds_before);
    for (int i : {0, 1, 2}) {
      EXPECT_TRUE(results[i]) << results[i].error().message();
      expect_complete(host, i);
    }
    ASSERT_FALSE(results[3]);
    EXPECT_EQ(results[3].error().code, EEXIST);
    for (int i = 4; i < 8; ++i) {
      ASSERT_FALSE(results[i]);
      EXPECT_EQ(results[i].error().code, ECANCELED);
      EXPECT_NE(results[i].error().message().find("container c3 failed first"), std::string::npos)
          << results[i].error().message();
    }
    // c4 and c5 were made ahead (with overlap) and deleted again; c3 is someone else's.
    EXPECT_EQ(*list_netns(), (std::vector<std::string>{"c0", "c1", "c2", "c3"}));
    EXPECT_EQ(host_links(host), (std::vector<std::string>{"h0", "h1", "h2"}));
  });
}

TEST_P(NetnsSetupMany, StopOnErrorInsideUndoesTheRoundAfterIt) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    auto containers = fleet(7);
    // Container 2's default route names a gateway it cannot reach.
    containers[2].inside = [](Batch& b) { b.add_route({.prefix = "default", .via = "192.0.2.1"}); };
    auto opts = options(4);
    opts.stop_on_error = true;
    auto results = setup_netns_many(host, containers, opts).value();
    EXPECT_TRUE(results[0]);
    EXPECT_TRUE(results[1]);
    ASSERT_FALSE(results[2]);
    EXPECT_EQ(results[2].error().code, ENETUNREACH) << results[2].error().message();
    ASSERT_FALSE(results[3]);  // its host side was applied in the same round, then undone
    EXPECT_NE(results[3].error().message().find("not applied"), std::string::npos)
        << results[3].error().message();
    for (int i = 4; i < 7; ++i)
      EXPECT_NE(results[i].error().message().find("not attempted"), std::string::npos);
    expect_complete(host, 0);
    expect_complete(host, 1);
    EXPECT_EQ(*list_netns(), (std::vector<std::string>{"c0", "c1"}));
    // A veth goes with its peer's namespace asynchronously; the undo deleted h2 and h3 at once.
    EXPECT_EQ(host_links(host), (std::vector<std::string>{"h0", "h1"}));
  });
}

TEST_P(NetnsSetupMany, WithoutUndoAFailedContainerStaysAsFarAsItGot) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    auto containers = fleet(3);
    containers[1].inside = [](Batch& b) { b.add_route({.prefix = "default", .via = "192.0.2.1"}); };
    auto opts = options(3);
    opts.undo_failed = false;
    auto results = setup_netns_many(host, containers, opts).value();
    EXPECT_TRUE(results[0]);
    EXPECT_FALSE(results[1]);
    EXPECT_TRUE(results[2]);
    EXPECT_EQ(*list_netns(), names_but(3, {}));
    EXPECT_EQ(host_links(host), (std::vector<std::string>{"h0", "h1", "h2"}));
  });
}

TEST_P(NetnsSetupMany, BadInputIsRefusedBeforeAnythingIsMade) {
  sandbox::run_in_net_sandbox([&] {
    auto host = Connection::open().value();
    auto twice = fleet(3);
    twice[2].name = name_of(0);
    auto refused = setup_netns_many(host, twice, options(2));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().object, "c0");
    EXPECT_NE(refused.error().message().find("two containers have this name"), std::string::npos);
    auto bad_name = fleet(3);
    bad_name[1].name = "../etc";
    refused = setup_netns_many(host, bad_name, options(2));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, EINVAL);
    EXPECT_EQ(refused.error().object, "../etc");
    refused = setup_netns_many(host, fleet(3), options(0));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("at least one container"), std::string::npos);
    EXPECT_TRUE(list_netns().value().empty());
    EXPECT_TRUE(host_links(host).empty());
  });
}

// automatic: what a caller gets by default; on this machine's CPUs it may
// take either way, and every result must be the same.
INSTANTIATE_TEST_SUITE_P(Overlap, NetnsSetupMany,
                         ::testing::Values(NetnsOverlap::always, NetnsOverlap::never,
                                           NetnsOverlap::automatic),
                         [](const auto& info) {
                           switch (info.param) {
                             case NetnsOverlap::always:
                               return "Overlapped";
                             case NetnsOverlap::never:
                               return "OneThread";
                             case NetnsOverlap::automatic:
                               break;
                           }
                           return "Automatic";
                         });

}  // namespace
}  // namespace brisk::netlink
