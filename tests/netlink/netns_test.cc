// Named namespaces. Each test runs on a helper thread in a private mount
// namespace with a tmpfs on /run, so /run/netns is its own and the host's
// mounts are never touched; `ip netns` run from that thread sees the same.
#include "brisk/netlink/netns.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <thread>

#include "brisk/netlink/link.h"
#include "netns_fixture.h"
#include "support/test_support.h"

namespace brisk::netlink {
namespace {

// Runs body on a thread with a private mount namespace and an empty /run.
void in_private_run(const std::function<void()>& body) {
  std::string failure;
  std::thread([&] {
    if (::unshare(CLONE_NEWNS) != 0) {
      failure = "unshare(CLONE_NEWNS) failed";
      return;
    }
    if (::mount("", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") != 0) {
      failure = "private /run mount failed";
      return;
    }
    body();
  }).join();
  ASSERT_TRUE(failure.empty()) << failure;
}

std::string ip_out(std::vector<std::string> args) {
  args.insert(args.begin(), "ip");
  return brisk::test::run_capture({.argv = args}).out;
}

class Netns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  }
};

TEST_F(Netns, OursAreVisibleToIpAndTheirsToUs) {
  in_private_run([] {
    ASSERT_TRUE(create_netns("brisk-a")) << "create";
    auto listed = ip_out({"-j", "netns", "list"});
    EXPECT_NE(listed.find("\"brisk-a\""), std::string::npos) << listed;
    // ip can act in it, and what ip creates there we see.
    ASSERT_TRUE(brisk::test::run_capture({.argv = {"ip", "-n", "brisk-a", "link", "add", "x0", "type", "veth",
                                                   "peer", "name", "x1"}})
                    .status.success());
    auto fd = open_netns("brisk-a");
    ASSERT_TRUE(fd) << fd.error().message();
    auto conn = Connection::open_in(fd->get());
    ASSERT_TRUE(conn);
    EXPECT_TRUE(get_link(*conn, "x0"));
    ASSERT_TRUE(brisk::test::run_capture({.argv = {"ip", "netns", "add", "theirs"}}).status.success());
    auto names = list_netns();
    ASSERT_TRUE(names);
    EXPECT_EQ(*names, (std::vector<std::string>{"brisk-a", "theirs"}));
    EXPECT_TRUE(open_netns("theirs"));
    ASSERT_TRUE(delete_netns("theirs"));
    ASSERT_TRUE(delete_netns("brisk-a"));
    EXPECT_EQ(ip_out({"netns", "list"}), "");
    EXPECT_TRUE(list_netns()->empty());
  });
}

TEST_F(Netns, CreateRefusesDuplicatesAndLeavesNothingBehind) {
  in_private_run([] {
    ASSERT_TRUE(create_netns("dup"));
    auto again = create_netns("dup");
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, EEXIST);
    EXPECT_EQ(again.error().object, "dup");
    EXPECT_EQ(*list_netns(), std::vector<std::string>{"dup"});
    // The first one is still a working namespace.
    auto fd = open_netns("dup");
    ASSERT_TRUE(fd) << fd.error().message();
    ASSERT_TRUE(delete_netns("dup"));
    auto missing = delete_netns("dup");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_EQ(missing.error().object, "dup");
  });
}

// For single-threaded tools: no helper thread, and the caller comes back.
TEST_F(Netns, OnTheCallingThreadTheCallerReturnsToItsNamespace) {
  in_private_run([] {
    auto inode = [](const std::string& path) {
      struct stat st {};
      return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
    };
    auto home = inode("/proc/thread-self/ns/net");
    ASSERT_NE(home, 0u);
    std::vector<std::string> names{"here-a", "here-b"};
    for (auto& r : create_netns_each(names, {.on_calling_thread = true}))
      ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(inode("/proc/thread-self/ns/net"), home) << "the thread stayed in a new namespace";
    auto a = inode("/run/netns/here-a"), b = inode("/run/netns/here-b");
    EXPECT_NE(a, home);
    EXPECT_NE(b, home);
    EXPECT_NE(a, b);
    auto again = create_netns("here-a", {.on_calling_thread = true});
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, EEXIST);
    EXPECT_EQ(inode("/proc/thread-self/ns/net"), home);
    EXPECT_EQ(*list_netns(), names);
    for (auto& name : names) ASSERT_TRUE(delete_netns(name));
  });
}

TEST_F(Netns, NamesThatWouldEscapeTheDirectoryAreRefused) {
  for (const char* bad : {"", ".", "..", "../etc", "a/b", "/abs"}) {
    auto made = create_netns(bad);
    ASSERT_FALSE(made) << bad;
    EXPECT_EQ(made.error().code, EINVAL) << bad;
    EXPECT_EQ(made.error().object, bad);
    EXPECT_FALSE(open_netns(bad));
    EXPECT_FALSE(delete_netns(bad));
  }
  EXPECT_EQ(create_netns(std::string(300, 'n')).error().code, ENAMETOOLONG);
  auto missing = open_netns("no-such-namespace-here");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENOENT);
  EXPECT_EQ(missing.error().object, "no-such-namespace-here");
}

TEST_F(Netns, OpensByPidAndByPathAndChecksTheType) {
  UniqueFd ns = brisk::test::make_netns();
  auto child = spawn({.argv = {"sleep", "10"}, .namespaces = {{.type = CLONE_NEWNET, .fd = ns.get()}}});
  ASSERT_TRUE(child);
  auto by_pid = open_netns_pid(child->pid());
  ASSERT_TRUE(by_pid) << by_pid.error().message();
  struct stat a {
  }, b{};
  ::fstat(ns.get(), &a);
  ::fstat(by_pid->get(), &b);
  EXPECT_EQ(a.st_ino, b.st_ino);
  auto by_path = open_netns_path("/proc/" + std::to_string(child->pid()) + "/ns/net");
  ASSERT_TRUE(by_path);
  (void)child->kill();
  (void)child->wait();
  auto not_net = open_netns_path("/proc/self/ns/uts");
  ASSERT_FALSE(not_net);
  EXPECT_EQ(not_net.error().code, EINVAL);
  auto not_ns = open_netns_path("/dev/null");
  ASSERT_FALSE(not_ns);
  EXPECT_EQ(not_ns.error().code, ENOTTY);
  EXPECT_NE(not_ns.error().message().find("not a namespace file"), std::string::npos)
      << not_ns.error().message();
  EXPECT_FALSE(open_netns_pid(-1));
}

// A FIFO where a namespace should be is refused at once: opening it for
// reading would otherwise wait for a writer that never comes.
TEST(NetnsOpen, AFifoIsRefusedWithoutWaiting) {
  brisk::test::TempDir dir;
  std::string fifo = dir.path() + "/ns";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto opened = open_netns_path(fifo);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ENOTTY) << opened.error().message();  // NS_GET_NSTYPE on a FIFO
}

// The thread moves and stays: what the CLI does instead of a helper thread.
TEST_F(Netns, EnterMovesTheCallingThreadAndNamesTheNamespaceOnFailure) {
  UniqueFd ns = brisk::test::make_netns();
  std::thread([&] {
    ASSERT_TRUE(enter_netns(ns.get(), "blue"));
    struct stat want {
    }, now{};
    ::fstat(ns.get(), &want);
    ::stat("/proc/thread-self/ns/net", &now);
    EXPECT_EQ(now.st_ino, want.st_ino);
  }).join();
  UniqueFd uts(::open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC));
  auto wrong = enter_netns(uts.get(), "blue");  // a namespace, not a network one
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, EINVAL);
  EXPECT_STREQ(wrong.error().op, "setns");
  EXPECT_EQ(wrong.error().object, "blue");
  EXPECT_EQ(enter_netns(-1, "x").error().code, EBADF);
}

TEST_F(Netns, LinkSetMovesADeviceIntoANamedNamespace) {
  in_private_run([] {
    UniqueFd ns = brisk::test::make_netns();
    auto conn = Connection::open_in(ns.get());
    ASSERT_TRUE(conn);
    ASSERT_TRUE(create_netns("target"));
    ASSERT_TRUE(add_link(*conn, {.name = "mv0", .kind = VethOptions{.peer = "mv1"}}));
    auto moved = set_link(*conn, {.name = "mv1", .netns_name = "target"});
    ASSERT_TRUE(moved) << moved.error().message();
    EXPECT_FALSE(get_link(*conn, "mv1"));
    EXPECT_NE(ip_out({"-n", "target", "link", "show", "mv1"}).find("mv1"), std::string::npos);
    auto missing = set_link(*conn, {.name = "mv0", .netns_name = "nowhere"});
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_EQ(missing.error().object, "mv0");
    EXPECT_NE(missing.error().message().find("nowhere"), std::string::npos);
    EXPECT_TRUE(get_link(*conn, "mv0")) << "nothing moved";
    ASSERT_TRUE(delete_netns("target"));
  });
}

}  // namespace
}  // namespace brisk::netlink

namespace brisk::netlink {
namespace {

// netns_id() reads the id a namespace has here: none until something
// (a veth peer there) makes the kernel assign one, then the very id the
// link reports as IFLA_LINK_NETNSID.
TEST(NetnsId, NoneUntilAPeerLivesThereThenTheLinksId) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd here = brisk::test::make_netns(), there = brisk::test::make_netns();
  ASSERT_TRUE(here.valid() && there.valid());
  auto conn = Connection::open_in(here.get());
  ASSERT_TRUE(conn) << conn.error().message();
  auto before = netns_id(*conn, there.get());
  ASSERT_TRUE(before) << before.error().message();
  EXPECT_FALSE(before->has_value());
  ASSERT_TRUE(
      add_link(*conn, {.name = "p0", .kind = VethOptions{.peer = "p1", .peer_netns_fd = there.get()}}));
  auto link = get_link(*conn, "p0");
  ASSERT_TRUE(link) << link.error().message();
  ASSERT_TRUE(link->link_netnsid.has_value());
  auto after = netns_id(*conn, there.get());
  ASSERT_TRUE(after) << after.error().message();
  ASSERT_TRUE(after->has_value());
  EXPECT_EQ(**after, *link->link_netnsid);
  // Not a namespace: the kernel refuses the fd.
  EXPECT_FALSE(netns_id(*conn, conn->fd()));
}

TEST(NetnsId, SetGivesTheIdAskedForOrTheKernelsAndRefusesASecond) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd here = brisk::test::make_netns(), a = brisk::test::make_netns(), b = brisk::test::make_netns();
  auto conn = Connection::open_in(here.get());
  ASSERT_TRUE(conn) << conn.error().message();
  ASSERT_TRUE(set_netns_id(*conn, a.get(), 7));
  EXPECT_EQ(*netns_id(*conn, a.get()), std::optional<int>(7));
  ASSERT_TRUE(set_netns_id(*conn, b.get(), std::nullopt));
  auto picked = netns_id(*conn, b.get());
  ASSERT_TRUE(picked && picked->has_value());
  EXPECT_NE(**picked, 7);
  auto again = set_netns_id(*conn, a.get(), 8);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, EEXIST);
  EXPECT_FALSE(set_netns_id(*conn, a.get(), -2));
}

// list_netns_ids() lists the ids given here, in id order, or those the
// target gave with each one's id here; find_netns_id() one by its id.
TEST(NetnsId, ListsAndFindsIdsHereAndInATarget) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd here = brisk::test::make_netns(), a = brisk::test::make_netns(), b = brisk::test::make_netns();
  auto conn = Connection::open_in(here.get());
  auto in_a = Connection::open_in(a.get());
  ASSERT_TRUE(conn && in_a);
  ASSERT_TRUE(set_netns_id(*conn, a.get(), 4));
  ASSERT_TRUE(set_netns_id(*conn, b.get(), 2));
  ASSERT_TRUE(set_netns_id(*in_a, b.get(), 30));
  auto listed = list_netns_ids(*conn);
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].nsid, 2);
  EXPECT_EQ((*listed)[1].nsid, 4);
  EXPECT_FALSE((*listed)[0].current_nsid);
  auto of_a = list_netns_ids(*conn, 4);  // a's list: b only (30 there, 2 here)
  ASSERT_TRUE(of_a) << of_a.error().message();
  ASSERT_EQ(of_a->size(), 1u);
  EXPECT_EQ(of_a->front().nsid, 30);
  EXPECT_EQ(of_a->front().current_nsid, std::optional<int>(2));
  auto found = find_netns_id(*conn, 2, 4);
  ASSERT_TRUE(found) << found.error().message();
  EXPECT_EQ(found->nsid, 30);
  EXPECT_EQ(found->current_nsid, std::optional<int>(2));
  EXPECT_EQ(find_netns_id(*conn, 4)->nsid, 4);
  auto missing = find_netns_id(*conn, 99);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENOENT);
  auto bad_target = list_netns_ids(*conn, 99);
  ASSERT_FALSE(bad_target);
  EXPECT_EQ(bad_target.error().code, EINVAL);
}

// attach_netns names a process's namespace; netns_names_of and netns_pids
// find names and processes by the namespace's inode.
TEST_F(Netns, AttachNamesAProcesssNamespaceFoundByNameAndPid) {
  UniqueFd ns = brisk::test::make_netns();
  auto child = spawn({.argv = {"sleep", "10"}, .namespaces = {{.type = CLONE_NEWNET, .fd = ns.get()}}});
  ASSERT_TRUE(child);
  in_private_run([&] {
    ASSERT_TRUE(attach_netns("byname", child->pid())) << "attach";
    auto fd = open_netns("byname");
    ASSERT_TRUE(fd) << fd.error().message();
    auto names = netns_names_of(ns.get());
    ASSERT_TRUE(names) << names.error().message();
    EXPECT_EQ(*names, std::vector<std::string>{"byname"});
    auto pids = netns_pids(fd->get());
    ASSERT_TRUE(pids) << pids.error().message();
    EXPECT_EQ(*pids, std::vector<pid_t>{child->pid()});
    auto taken = attach_netns("byname", child->pid());
    ASSERT_FALSE(taken);
    EXPECT_EQ(taken.error().code, EEXIST);
    // A process that is gone leaves no file behind.
    auto gone = attach_netns("ghost", 999999999);
    ASSERT_FALSE(gone);
    EXPECT_FALSE(open_netns("ghost"));
    ASSERT_TRUE(delete_netns("byname"));
    EXPECT_TRUE(netns_names_of(ns.get())->empty());
  });
  (void)child->kill();
  (void)child->wait();
}

}  // namespace
}  // namespace brisk::netlink
