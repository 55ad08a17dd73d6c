// EINTR on every call where brisk blocks: injected through the seam at each
// wrapper, then for real from a signal storm without SA_RESTART.
#include <signal.h>
#include <sys/time.h>

#include <atomic>

#include "brisk/command.h"
#include "brisk/netlink/link.h"
#include "brisk/spawn.h"
#include "fault/fault_support.h"
#include "netlink/netns_fixture.h"

namespace brisk::fault_test {
namespace {

using sys::testing::faults_fired;
using sys::testing::inject;

// Each blocking wrapper a captured run goes through: the run must not notice.
TEST(Eintr, EveryBlockingCallOfACapturedRunIsRetried) {
  for (const char* call : {"read", "poll", "waitid"}) {
    FaultGuard guard;
    LeakCheck leaks;
    inject(call, EINTR, 1, 3);  // three in a row
    Output out = Command({"/bin/sh", "-c", "echo out; echo err >&2"}).output();
    EXPECT_EQ(out.out, "out\n") << call;
    EXPECT_EQ(out.err, "err\n") << call;
    EXPECT_TRUE(out.status.success()) << call;
    EXPECT_EQ(faults_fired(), 3u) << call << ": the fault was not reached";
    leaks.expect_clean(call);
  }
}

TEST(Eintr, TeeForwardingWriteIsRetried) {
  FaultGuard guard;
  LeakCheck leaks;
  // tee writes what it captured to our stdout through sys::write.
  inject("write", EINTR, 1, 2);
  Output out = Command({"echo", "teed"}).stdout_to(Sink::tee()).output();
  EXPECT_EQ(out.out, "teed\n");
  EXPECT_EQ(faults_fired(), 2u);
  leaks.expect_clean("tee");
}

TEST(Eintr, ChildWaitAndWaitForAreRetried) {
  FaultGuard guard;
  LeakCheck leaks;
  {
    auto child = spawn({.argv = {"/bin/sh", "-c", "exit 3"}});
    ASSERT_TRUE(child) << child.error().message();
    inject("waitid", EINTR, 1, 2);
    auto status = child->wait();
    ASSERT_TRUE(status) << status.error().message();
    EXPECT_EQ(status->code().value_or(-1), 3);
    EXPECT_EQ(faults_fired(), 2u);
  }
  {
    auto child = spawn({.argv = {"/bin/sh", "-c", "exit 4"}});
    ASSERT_TRUE(child) << child.error().message();
    inject("poll", EINTR, 1, 2);
    std::optional<ExitStatus> status;
    while (!status) {
      auto waited = child->wait_for(std::chrono::seconds(30));
      ASSERT_TRUE(waited) << waited.error().message();
      status = *waited;
    }
    EXPECT_EQ(status->code().value_or(-1), 4);
  }
  leaks.expect_clean("wait");
}

class NetlinkEintr : public netlink::test::NetnsTest {};

TEST_F(NetlinkEintr, SendAndReceiveAreRetriedForRequestsAndDumps) {
  FaultGuard guard;
  LeakCheck leaks;
  inject("sendmsg", EINTR, 1, 2);
  inject("recvmsg", EINTR, 1, 2);
  auto added = netlink::add_link(conn(), {.name = "v0", .kind = netlink::VethOptions{.peer = "v1"}});
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_EQ(faults_fired(), 4u);
  inject("sendmsg", EINTR, 1, 1);
  inject("recvmsg", EINTR, 2, 1);  // in the middle of the dump
  auto links = netlink::list_links(conn());
  ASSERT_TRUE(links) << links.error().message();
  EXPECT_EQ(links->size(), 3u);  // lo, v0, v1
  EXPECT_EQ(faults_fired(), 6u);
  EXPECT_EQ(netlink::test::ip_link_names(ns()).size(), 3u);
  leaks.expect_clean("netlink");
}

// Real signals: an interval timer fires SIGALRM every 200 µs into a handler
// installed without SA_RESTART, so that any blocking call can return EINTR.
class SignalStorm {
 public:
  SignalStorm() {
    struct sigaction action {};
    action.sa_handler = [](int) { hits.fetch_add(1, std::memory_order_relaxed); };
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART
    sigaction(SIGALRM, &action, &old_);
    itimerval every{{0, 200}, {0, 200}};
    setitimer(ITIMER_REAL, &every, nullptr);
  }
  ~SignalStorm() {
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &old_, nullptr);
  }
  static inline std::atomic<unsigned> hits{0};

 private:
  struct sigaction old_ {};
};

TEST_F(NetlinkEintr, ASignalStormChangesNoOutcome) {
  LeakCheck leaks;
  unsigned before = SignalStorm::hits.load();
  {
    SignalStorm storm;
    for (int i = 0; i < 30; ++i) {
      Output out = Command({"/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; sleep 0.01"}).output();
      ASSERT_EQ(out.out.size(), 100000u) << "run " << i;
      std::string name = "s" + std::to_string(i);
      auto added =
          netlink::add_link(conn(), {.name = name, .kind = netlink::VethOptions{.peer = name + "p"}});
      ASSERT_TRUE(added) << added.error().message();
      auto links = netlink::list_links(conn());
      ASSERT_TRUE(links) << links.error().message();
      ASSERT_EQ(links->size(), 1u + 2u * static_cast<unsigned>(i + 1));
    }
  }
  EXPECT_GT(SignalStorm::hits.load() - before, 30u) << "the storm did not happen";
  leaks.expect_clean("storm");
}

}  // namespace
}  // namespace brisk::fault_test
