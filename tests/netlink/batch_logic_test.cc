// The batch engine against a scripted kernel (tests/support/fake_kernel.h):
// stop mode and undo, lost ACKs and their re-checks, delete coalescing and
// its fallback, window sizing, sequence wrap and malformed replies. No
// socket, no namespace, no privilege: ctest also runs these as an
// unprivileged user (netlink.batch_logic_unprivileged).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <climits>
#include <set>
#include <string>
#include <vector>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "netlink/internal/hooks.h"
#include "netlink/op.h"
#include "support/fake_kernel.h"

namespace brisk::netlink {
namespace {

using brisk::test::Datagram;
using brisk::test::FakeKernel;

// A request's rtattrs after its family header of `header` bytes.
std::vector<const rtattr*> attrs_of(const nlmsghdr& m, std::size_t header) {
  std::vector<const rtattr*> out;
  auto* a =
      reinterpret_cast<const rtattr*>(reinterpret_cast<const char*>(NLMSG_DATA(&m)) + NLMSG_ALIGN(header));
  int left = static_cast<int>(m.nlmsg_len) - static_cast<int>(NLMSG_HDRLEN + NLMSG_ALIGN(header));
  for (; RTA_OK(a, left); a = RTA_NEXT(a, left)) out.push_back(a);
  return out;
}

const rtattr* attr(const nlmsghdr& m, std::size_t header, uint16_t type) {
  for (auto* a : attrs_of(m, header))
    if (a->rta_type == type) return a;
  return nullptr;
}

std::optional<uint32_t> u32_attr(const nlmsghdr& m, std::size_t header, uint16_t type) {
  auto* a = attr(m, header, type);
  if (!a) return std::nullopt;
  uint32_t v;
  std::memcpy(&v, RTA_DATA(a), sizeof v);
  return v;
}

std::string string_attr(const nlmsghdr& m, std::size_t header, uint16_t type) {
  auto* a = attr(m, header, type);
  return a ? std::string(static_cast<const char*>(RTA_DATA(a))) : std::string();
}

const nlmsghdr& datagram_header(const Datagram& d) { return *reinterpret_cast<const nlmsghdr*>(d.data()); }

// IPv4 addresses on device 2 as a kernel keeps them: an exclusive add of
// one already there is EEXIST, a delete of one absent EADDRNOTAVAIL, and a
// dump lists them. `refuse` names addresses whose add fails with EINVAL;
// `lose` those whose ACK is lost, and `lose_unapplied` those whose ACK is
// lost and which the kernel did not apply either.
struct AddressKernel {
  std::set<std::string> present;
  std::set<std::string> refuse, lose, lose_unapplied, refuse_delete;

  static std::string address_of(const nlmsghdr& m) {
    auto* a = attr(m, sizeof(ifaddrmsg), IFA_LOCAL);
    char text[INET_ADDRSTRLEN] = "";
    if (a) ::inet_ntop(AF_INET, RTA_DATA(a), text, sizeof text);
    return text;
  }

  FakeKernel::Answer operator()(const nlmsghdr& m) {
    if (m.nlmsg_type == RTM_GETADDR) {
      std::vector<Datagram> parts;
      for (const auto& text : present) {
        Message reply(RTM_NEWADDR, 0);
        auto& ifa = reply.put_header<ifaddrmsg>();
        ifa.ifa_family = AF_INET;
        ifa.ifa_prefixlen = 24;
        ifa.ifa_index = 2;
        in_addr a{};
        ::inet_pton(AF_INET, text.c_str(), &a);
        reply.put_bytes(IFA_LOCAL, {reinterpret_cast<const uint8_t*>(&a), sizeof a});
        reply.put_bytes(IFA_ADDRESS, {reinterpret_cast<const uint8_t*>(&a), sizeof a});
        parts.push_back(brisk::test::reply_to(m, reply));
      }
      parts.push_back(brisk::test::done(m));
      return {.datagrams = {brisk::test::join(parts)}};
    }
    std::string a = address_of(m);
    if (m.nlmsg_type == RTM_NEWADDR) {
      if (refuse.count(a)) return {.datagrams = {brisk::test::ack(m, EINVAL)}};
      if (lose_unapplied.count(a)) return {.datagrams = {brisk::test::ack(m)}, .lose = true};
      bool exclusive = m.nlmsg_flags & NLM_F_EXCL;
      if (exclusive && present.count(a)) return {.datagrams = {brisk::test::ack(m, EEXIST)}};
      present.insert(a);
      return {.datagrams = {brisk::test::ack(m)}, .lose = lose.count(a) > 0};
    }
    if (m.nlmsg_type == RTM_DELADDR) {
      if (refuse_delete.count(a)) return {.datagrams = {brisk::test::ack(m, EBUSY)}};
      if (!present.erase(a)) return {.datagrams = {brisk::test::ack(m, EADDRNOTAVAIL)}};
      return {.datagrams = {brisk::test::ack(m)}};
    }
    return {.datagrams = {brisk::test::ack(m, EOPNOTSUPP)}};
  }
};

// Each change ACKed, for the tests of what an ACK-per-request window does
// with lost, forged and overrun replies.
const ConnectionOptions kAckEach{.ack_every_change = true};

// A connection over a fake kernel running `kernel`, with device d0 = 2.
struct LogicFixture {
  explicit LogicFixture(FakeKernel::Script script, ConnectionOptions options = {},
                        int receive_buffer = 1 << 20) {
    auto owned = std::make_unique<FakeKernel>(std::move(script), receive_buffer);
    fake = owned.get();
    fake->devices = {{"d0", 2}, {"d1", 3}};
    conn.emplace(Connection::over(std::move(owned), options));
  }
  // The requests of `type` the fake saw, by their IFA_LOCAL.
  std::vector<std::string> seen(uint16_t type) const {
    std::vector<std::string> out;
    for (const auto& d : fake->requests)
      if (datagram_header(d).nlmsg_type == type) out.push_back(AddressKernel::address_of(datagram_header(d)));
    return out;
  }
  FakeKernel* fake = nullptr;
  std::optional<Connection> conn;
};

std::string nth(int i) { return "10.0.0." + std::to_string(i); }

std::vector<NlResult<void>> add_addresses(Connection& conn, int count, BatchOptions options) {
  Batch batch(conn, options);
  for (int i = 1; i <= count; ++i) batch.add_address({.dev = "d0", .prefix = nth(i) + "/24"});
  return batch.flush();
}

// Stop mode: the failure is reported, what came before stays, what the
// kernel applied after it in the same window is deleted again (newest
// first), and every later op is ECANCELED.
class StopMode : public ::testing::TestWithParam<int> {};

TEST_P(StopMode, FailureEndsTheBatchAndWhatFollowedIsUndone) {
  const int count = 5, failing = GetParam();
  AddressKernel kernel;
  kernel.refuse = {nth(failing)};
  LogicFixture f(std::ref(kernel));
  auto results = add_addresses(*f.conn, count, {.stop_at_first_error = true});
  ASSERT_EQ(results.size(), 5u);
  for (int i = 1; i <= count; ++i) {
    const auto& r = results[i - 1];
    if (i < failing) {
      EXPECT_TRUE(r) << i << ": " << r.error().message();
    } else if (i == failing) {
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().code, EINVAL);
      EXPECT_EQ(r.error().object, nth(i) + "/24 dev d0");
    } else {
      ASSERT_FALSE(r) << i;
      EXPECT_EQ(r.error().code, ECANCELED);
      EXPECT_NE(r.error().detail.find("not applied"), std::string::npos) << r.error().detail;
    }
  }
  // One window: every add reached the kernel; those after the failure were undone, newest first.
  EXPECT_EQ(f.seen(RTM_NEWADDR).size(), 5u);
  std::vector<std::string> undone;
  for (int i = count; i > failing; --i) undone.push_back(nth(i));
  EXPECT_EQ(f.seen(RTM_DELADDR), undone);
  std::set<std::string> kept;
  for (int i = 1; i < failing; ++i) kept.insert(nth(i));
  EXPECT_EQ(kernel.present, kept);
}

INSTANTIATE_TEST_SUITE_P(FirstMiddleLast, StopMode, ::testing::Values(1, 3, 5));

TEST(BatchLogic, WithoutStopModeEveryOpIsAttempted) {
  AddressKernel kernel;
  kernel.refuse = {nth(2)};
  LogicFixture f(std::ref(kernel));
  auto results = add_addresses(*f.conn, 4, {});
  EXPECT_TRUE(results[0] && results[2] && results[3]);
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, EINVAL);
  EXPECT_TRUE(f.seen(RTM_DELADDR).empty());
  EXPECT_EQ(kernel.present.size(), 3u);
}

TEST(BatchLogic, AnUndoThatFailsIsReportedOnItsOp) {
  AddressKernel kernel;
  kernel.refuse = {nth(2)};
  kernel.refuse_delete = {nth(3)};
  LogicFixture f(std::ref(kernel));
  auto results = add_addresses(*f.conn, 4, {.stop_at_first_error = true});
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, EBUSY);
  EXPECT_NE(results[2].error().detail.find("undoing it failed"), std::string::npos)
      << results[2].error().detail;
  EXPECT_EQ(results[2].error().op, std::string("addr add"));
  ASSERT_FALSE(results[3]);
  EXPECT_EQ(results[3].error().code, ECANCELED);
  EXPECT_EQ(kernel.present, (std::set<std::string>{nth(1), nth(3)}));
}

// An op refused before sending (a missing device) ends a stopping batch
// too, after the requests already in flight are answered.
TEST(BatchLogic, StopModeFailureBeforeSending) {
  AddressKernel kernel;
  LogicFixture f(std::ref(kernel));
  Batch batch(*f.conn, {.stop_at_first_error = true});
  batch.add_address({.dev = "d0", .prefix = nth(1) + "/24"});
  batch.add_address({.dev = "nope", .prefix = nth(2) + "/24"});
  batch.add_address({.dev = "d0", .prefix = nth(3) + "/24"});
  auto results = batch.flush();
  EXPECT_TRUE(results[0]);
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, ENODEV);
  EXPECT_NE(results[1].error().detail.find("dev 'nope' does not exist"), std::string::npos);
  // Typed, for code that must tell which argument named nothing.
  EXPECT_EQ(results[1].error().missing, Argument::device);
  EXPECT_EQ(results[1].error().missing_name, "nope");
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, ECANCELED);
  EXPECT_NE(results[2].error().detail.find("not attempted"), std::string::npos);
  EXPECT_EQ(f.seen(RTM_NEWADDR), std::vector<std::string>{nth(1)});
}

// ENOBUFS: the ACK is gone, so each unanswered request is looked at again.
// One was applied (success), one was not (a clear ENOBUFS failure).
TEST(BatchLogic, LostAcksAreRecheckedWithBothOutcomes) {
  AddressKernel kernel;
  kernel.lose = {nth(2)};
  kernel.lose_unapplied = {nth(4)};
  LogicFixture f(std::ref(kernel), kAckEach);
  auto results = add_addresses(*f.conn, 5, {});
  EXPECT_TRUE(results[0] && results[2] && results[4]);
  EXPECT_TRUE(results[1]) << results[1].error().message();
  ASSERT_FALSE(results[3]);
  EXPECT_EQ(results[3].error().code, ENOBUFS);
  EXPECT_NE(results[3].error().detail.find("re-check found the change not in place"), std::string::npos)
      << results[3].error().detail;
  EXPECT_EQ(f.conn->stats().enobufs, 1u);
  EXPECT_EQ(f.conn->stats().rechecks, 2u);
  EXPECT_EQ(f.fake->dropped, 2u);
}

// Lost ACKs on a re-check that itself fails: the error says both.
TEST(BatchLogic, ARecheckThatFailsFailsTheRequest) {
  AddressKernel kernel;
  kernel.lose = {nth(1)};
  LogicFixture f(
      [&](const nlmsghdr& m) -> FakeKernel::Answer {
        if (m.nlmsg_type == RTM_GETADDR) return {.datagrams = {brisk::test::ack(m, EPERM)}};
        return kernel(m);
      },
      kAckEach);
  auto results = add_addresses(*f.conn, 1, {});
  ASSERT_FALSE(results[0]);
  EXPECT_EQ(results[0].error().code, ENOBUFS);
  EXPECT_NE(results[0].error().detail.find("re-check failed"), std::string::npos)
      << results[0].error().detail;
}

// Links for the delete tests: ifindex, name, kind, group.
struct LinkKernel {
  struct Dev {
    int ifindex;
    std::string name;
    uint32_t group = 0;
  };
  std::vector<Dev> devs{{10, "a0"}, {11, "a1"}, {12, "a2"}, {13, "a3"}};
  bool refuse_group_delete = false;
  std::vector<std::string> log;  // what the kernel was asked, in order

  FakeKernel::Answer operator()(const nlmsghdr& m) {
    auto& ifi = *reinterpret_cast<const ifinfomsg*>(NLMSG_DATA(&m));
    if (m.nlmsg_type == RTM_GETLINK) {
      std::vector<Datagram> parts;
      for (const auto& d : devs) {
        Message reply(RTM_NEWLINK, 0);
        reply.put_header<ifinfomsg>().ifi_index = d.ifindex;
        reply.put_string(IFLA_IFNAME, d.name);
        reply.put_u32(IFLA_GROUP, d.group);
        auto info = reply.begin_nest(IFLA_LINKINFO);
        reply.put_string(IFLA_INFO_KIND, "bridge");
        reply.end_nest(info);
        parts.push_back(brisk::test::reply_to(m, reply));
      }
      parts.push_back(brisk::test::done(m));
      log.push_back("dump");
      return {.datagrams = {brisk::test::join(parts)}};
    }
    auto group = u32_attr(m, sizeof(ifinfomsg), IFLA_GROUP);
    if (m.nlmsg_type == RTM_NEWLINK && group) {
      for (auto& d : devs)
        if (d.ifindex == ifi.ifi_index) d.group = *group;
      // bulk_delete's own groups are at 2^20 and above.
      log.push_back("move " + std::to_string(ifi.ifi_index) +
                    (*group >= (1u << 20) ? " away" : " to " + std::to_string(*group)));
      return {.datagrams = {brisk::test::ack(m)}};
    }
    if (m.nlmsg_type == RTM_DELLINK && group) {
      log.push_back("group delete");
      if (refuse_group_delete) return {.datagrams = {brisk::test::ack(m, EOPNOTSUPP)}};
      std::erase_if(devs, [&](const Dev& d) { return d.group == *group; });
      return {.datagrams = {brisk::test::ack(m)}};
    }
    if (m.nlmsg_type == RTM_DELLINK) {
      std::string name = string_attr(m, sizeof(ifinfomsg), IFLA_IFNAME);
      log.push_back("delete " + name);
      auto before = devs.size();
      std::erase_if(devs, [&](const Dev& d) { return d.name == name; });
      return {.datagrams = {brisk::test::ack(m, devs.size() == before ? ENODEV : 0)}};
    }
    return {.datagrams = {brisk::test::ack(m, EOPNOTSUPP)}};
  }
};

std::vector<NlResult<void>> delete_links(Connection& conn, std::vector<std::string> names) {
  Batch batch(conn, {});
  for (auto& n : names) batch.delete_link(n);
  return batch.flush();
}

TEST(BatchLogic, ARunOfDeletesIsOneGroupDelete) {
  LinkKernel kernel;
  LogicFixture f(std::ref(kernel));
  auto results = delete_links(*f.conn, {"a0", "a1", "a2", "gone"});
  EXPECT_TRUE(results[0] && results[1] && results[2]);
  ASSERT_FALSE(results[3]);
  EXPECT_EQ(results[3].error().code, ENODEV);
  EXPECT_EQ(kernel.log, (std::vector<std::string>{"dump", "move 10 away", "move 11 away", "move 12 away",
                                                  "group delete"}));
  ASSERT_EQ(kernel.devs.size(), 1u);
  EXPECT_EQ(kernel.devs[0].name, "a3");
  EXPECT_EQ(kernel.devs[0].group, 0u);
}

// A kernel that refuses the group delete: every device goes back to its own
// group first, then each is deleted on its own.
TEST(BatchLogic, CoalescedDeletesFallBackToOneByOne) {
  LinkKernel kernel;
  kernel.refuse_group_delete = true;
  kernel.devs[1].group = 7;
  LogicFixture f(std::ref(kernel));
  auto results = delete_links(*f.conn, {"a0", "a1", "a2", "a3"});
  for (std::size_t i = 0; i < results.size(); ++i)
    EXPECT_TRUE(results[i]) << i << ": " << results[i].error().message();
  EXPECT_EQ(kernel.log,
            (std::vector<std::string>{"dump", "move 10 away", "move 11 away", "move 12 away", "move 13 away",
                                      "group delete", "move 10 to 0", "move 11 to 7", "move 12 to 0",
                                      "move 13 to 0", "delete a0", "delete a1", "delete a2", "delete a3"}));
  EXPECT_TRUE(kernel.devs.empty());
}

TEST(BatchLogic, ShortRunsAndStopModeDeleteOneByOne) {
  for (bool stop : {false, true}) {
    LinkKernel kernel;
    LogicFixture f(std::ref(kernel));
    Batch batch(*f.conn, {.stop_at_first_error = stop});
    std::vector<std::string> names =
        stop ? std::vector<std::string>{"a0", "a1", "a2", "a3"} : std::vector<std::string>{"a0", "a1", "a2"};
    for (auto& n : names) batch.delete_link(n);
    for (auto& r : batch.flush()) EXPECT_TRUE(r) << r.error().message();
    std::vector<std::string> expected;
    for (auto& n : names) expected.push_back("delete " + n);
    EXPECT_EQ(kernel.log, expected) << "stop " << stop;
  }
}

// The window is what the receive buffer can hold replies for: a thousand
// adds into a 32 KiB buffer never overrun it. The same batch with the
// window unbounded overruns it, and every lost ACK is re-checked.
TEST(BatchLogic, WindowsFitTheReceiveBuffer) {
  constexpr int kBuffer = 32 * 1024;
  {
    AddressKernel kernel;
    LogicFixture f(std::ref(kernel), {}, kBuffer);
    auto results = add_addresses(*f.conn, 250, {});
    for (auto& r : results) ASSERT_TRUE(r) << r.error().message();
    std::size_t window = f.conn->window_requests(kAckBudget);
    EXPECT_EQ(window, kBuffer / 2 / kAckBudget);
    EXPECT_EQ(f.conn->stats().enobufs, 0u);
    EXPECT_EQ(f.fake->dropped, 0u);
    EXPECT_LE(f.fake->most_queued, static_cast<std::size_t>(kBuffer));
    EXPECT_EQ(f.fake->sends, (250 + window - 1) / window);
  }
  {
    AddressKernel kernel;
    LogicFixture f(std::ref(kernel), {.unbounded_window = true, .ack_every_change = true}, kBuffer);
    auto results = add_addresses(*f.conn, 250, {});
    for (auto& r : results)
      ASSERT_TRUE(r) << r.error().message();  // every add was applied: the re-checks say so
    EXPECT_GT(f.conn->stats().enobufs, 0u);
    EXPECT_GT(f.fake->dropped, 0u);
    EXPECT_EQ(f.conn->stats().rechecks, f.fake->dropped);
  }
  {
    // Quiet changes: only the fence is answered, so the same window fits.
    AddressKernel kernel;
    LogicFixture f(std::ref(kernel), {.unbounded_window = true}, kBuffer);
    auto results = add_addresses(*f.conn, 250, {});
    for (auto& r : results) ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(f.conn->stats().enobufs, 0u);
    EXPECT_EQ(f.fake->dropped, 0u);
    EXPECT_EQ(f.fake->fences, 1u);
    EXPECT_LE(f.fake->most_queued,
              FakeKernel::charge(Datagram(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nlmsgerr)))));
  }
}

// One sendmsg carries no more than the send buffer: the pipeline splits.
TEST(BatchLogic, SendsStayWithinTheSendBuffer) {
  AddressKernel kernel;
  auto owned = std::make_unique<FakeKernel>(std::ref(kernel), 1 << 20, 4096);
  FakeKernel* fake = owned.get();
  fake->devices = {{"d0", 2}};
  auto conn = Connection::over(std::move(owned));
  auto results = add_addresses(conn, 200, {});
  for (auto& r : results) ASSERT_TRUE(r) << r.error().message();
  std::size_t bytes = 0;
  for (auto& d : fake->requests) bytes += d.size();
  EXPECT_GE(fake->sends, bytes / 4096);
  EXPECT_GT(fake->sends, 1u);
}

TEST(BatchLogic, AFailedSendFailsEveryRequestOfItsDatagram) {
  AddressKernel kernel;
  LogicFixture f(std::ref(kernel));
  f.fake->fail_next_send = EPERM;
  auto results = add_addresses(*f.conn, 3, {});
  for (auto& r : results) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, EPERM);
  }
  EXPECT_TRUE(kernel.present.empty());
  // The connection is still usable.
  EXPECT_TRUE(add_addresses(*f.conn, 1, {})[0]);
}

// Sequence numbers go on past 2^32-1 to 1, never 0, and replies still find
// their requests.
TEST(BatchLogic, SequenceNumbersWrapPastZero) {
  AddressKernel kernel;
  LogicFixture f(std::ref(kernel), {.first_sequence = UINT32_MAX - 2});
  auto results = add_addresses(*f.conn, 6, {});
  for (auto& r : results) ASSERT_TRUE(r) << r.error().message();
  std::vector<uint32_t> seqs;
  for (auto& d : f.fake->requests) seqs.push_back(datagram_header(d).nlmsg_seq);
  EXPECT_EQ(seqs, (std::vector<uint32_t>{UINT32_MAX - 2, UINT32_MAX - 1, UINT32_MAX, 1, 2, 3}));
  EXPECT_EQ(kernel.present.size(), 6u);
}

// Replies the kernel never sends: a stale or unknown seq is ignored, an
// NLMSG_ERROR too short to hold its error fails its request (EBADMSG), a
// message whose length runs past its datagram ends that datagram's walk
// without completing anything, and an error value no errno can have is
// refused.
TEST(BatchLogic, ForgedAndTruncatedRepliesAreNotTakenForAnswers) {
  int index = 0;
  LogicFixture f(
      [&](const nlmsghdr& m) -> FakeKernel::Answer {
        ++index;
        nlmsghdr stale = m;
        stale.nlmsg_seq = m.nlmsg_seq + 1000;
        Datagram truncated = brisk::test::ack(m);
        reinterpret_cast<nlmsghdr*>(truncated.data())->nlmsg_len = NLMSG_HDRLEN + 4;
        Datagram runs_past = brisk::test::ack(m);
        reinterpret_cast<nlmsghdr*>(runs_past.data())->nlmsg_len = 4096;
        Datagram wild = brisk::test::ack(m);
        reinterpret_cast<nlmsgerr*>(wild.data() + NLMSG_HDRLEN)->error = INT_MIN;
        switch (index) {
          case 1:
            return {.datagrams = {brisk::test::ack(stale, EPERM),
                                  brisk::test::ack(m)}};  // the stale one changes nothing
          case 2:
            return {.datagrams = {truncated}};
          case 3:
            return {.datagrams = {runs_past, brisk::test::ack(m, EEXIST)}};  // the next datagram completes it
          default:
            return {.datagrams = {wild}};
        }
      },
      kAckEach);
  auto results = add_addresses(*f.conn, 4, {});
  EXPECT_TRUE(results[0]) << results[0].error().message();
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, EBADMSG);
  EXPECT_NE(results[1].error().detail.find("short NLMSG_ERROR"), std::string::npos);
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, EEXIST);
  ASSERT_FALSE(results[3]);
  EXPECT_EQ(results[3].error().code, EBADMSG);
}

// By default a change asks for no ACK: a success is silent, a failure is
// answered, and one NLMSG_NOOP asking for an ACK ends the window.
TEST(BatchLogic, QuietChangesAreEndedByOneFence) {
  AddressKernel kernel;
  kernel.refuse = {nth(3)};
  LogicFixture f(std::ref(kernel));
  auto results = add_addresses(*f.conn, 5, {});
  for (int i : {0, 1, 3, 4}) EXPECT_TRUE(results[i]) << i << ": " << results[i].error().message();
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, EINVAL);
  ASSERT_EQ(f.fake->requests.size(), 5u);
  for (const auto& d : f.fake->requests) EXPECT_FALSE(datagram_header(d).nlmsg_flags & NLM_F_ACK);
  EXPECT_EQ(f.fake->fences, 1u);
  EXPECT_EQ(f.fake->sends, 1u);
  EXPECT_EQ(f.conn->stats().fences, 1u);
  EXPECT_EQ(f.conn->stats().requests, 5u);
  EXPECT_EQ(kernel.present.size(), 4u);
}

// An overrun may have dropped a quiet change's failure, so after ENOBUFS no
// silence counts as success: every change without an answer is re-checked.
TEST(BatchLogic, AnOverrunMakesEveryUnansweredQuietChangeARecheck) {
  AddressKernel kernel;
  LogicFixture f([&](const nlmsghdr& m) -> FakeKernel::Answer {
    if (m.nlmsg_type == RTM_NEWADDR && AddressKernel::address_of(m) == nth(2))
      return {.datagrams = {brisk::test::ack(m, EINVAL)}, .lose = true};  // refused, and the refusal lost
    return kernel(m);
  });
  auto results = add_addresses(*f.conn, 4, {});
  for (int i : {0, 2, 3}) EXPECT_TRUE(results[i]) << i << ": " << results[i].error().message();
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, ENOBUFS);
  EXPECT_NE(results[1].error().detail.find("re-check found the change not in place"), std::string::npos)
      << results[1].error().detail;
  EXPECT_EQ(f.conn->stats().enobufs, 1u);
  EXPECT_EQ(f.conn->stats().rechecks, 4u);
}

// The fence's datagram fails to send: its changes fail with the send's
// error, and the earlier datagrams' changes are settled by what the kernel
// queued while taking them (rtnetlink answers within sendmsg), a refusal
// there included, without waiting for an ACK that will never come.
TEST(BatchLogic, AFenceThatIsNotSentLeavesTheEarlierSendsSettled) {
  AddressKernel kernel;
  kernel.refuse = {nth(5)};
  auto owned = std::make_unique<FakeKernel>(std::ref(kernel), 1 << 20, 4096);
  FakeKernel* fake = owned.get();
  fake->devices = {{"d0", 2}};
  auto conn = Connection::over(std::move(owned));
  Batch batch(conn);
  const int n = 200;
  for (int i = 1; i <= n; ++i) batch.add_address({.dev = "d0", .prefix = nth(i) + "/24"});
  fake->fail_send_number = 2;  // the window's last datagram, which holds the fence
  auto results = batch.flush();
  ASSERT_EQ(fake->sends, 2u) << "the window was expected to take two datagrams";
  std::size_t taken = fake->requests.size();
  ASSERT_GT(taken, 50u);
  ASSERT_LT(taken, static_cast<std::size_t>(n));
  EXPECT_EQ(fake->fences, 0u);
  for (std::size_t i = 0; i < taken; ++i) {
    if (i == 4) continue;
    EXPECT_TRUE(results[i]) << i << ": " << results[i].error().message();
  }
  ASSERT_FALSE(results[4]);
  EXPECT_EQ(results[4].error().code, EINVAL);
  for (std::size_t i = taken; i < static_cast<std::size_t>(n); ++i) {
    ASSERT_FALSE(results[i]) << i;
    EXPECT_EQ(results[i].error().code, EIO) << i;
  }
  EXPECT_EQ(conn.stats().rechecks, 0u);
}

// A window of one change asks for that change's own ACK rather than a
// fence: one message out, one answer back, its failure still its own.
TEST(BatchLogic, AWindowOfOneChangeIsAckedWithoutAFence) {
  for (bool refused : {false, true}) {
    AddressKernel kernel;
    if (refused) kernel.refuse = {nth(1)};
    LogicFixture f(std::ref(kernel));
    auto results = add_addresses(*f.conn, 1, {});
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(static_cast<bool>(results[0]), !refused);
    if (refused) {
      EXPECT_EQ(results[0].error().code, EINVAL);
    }
    ASSERT_EQ(f.fake->requests.size(), 1u);
    EXPECT_TRUE(datagram_header(f.fake->requests[0]).nlmsg_flags & NLM_F_ACK);
    EXPECT_EQ(f.fake->fences, 0u);
    EXPECT_EQ(f.conn->stats().fences, 0u);
    EXPECT_EQ(f.fake->sends, 1u);
  }
}

// A GET keeps its reply, and a request built with NLM_F_ACK keeps it when
// ACKs are asked for every change.
TEST(BatchLogic, EveryChangeIsAckedWhenAskedAndNoFenceIsSent) {
  AddressKernel kernel;
  LogicFixture f(std::ref(kernel), kAckEach);
  auto results = add_addresses(*f.conn, 3, {});
  for (auto& r : results) EXPECT_TRUE(r) << r.error().message();
  for (const auto& d : f.fake->requests) EXPECT_TRUE(datagram_header(d).nlmsg_flags & NLM_F_ACK);
  EXPECT_EQ(f.fake->fences, 0u);
  EXPECT_EQ(f.conn->stats().fences, 0u);
}

// A single-object GET completes on its one reply: no ACK is asked for, and
// its answer reaches the caller.
TEST(BatchLogic, AGetCompletesOnItsReply) {
  LogicFixture f([&](const nlmsghdr& m) -> FakeKernel::Answer {
    EXPECT_EQ(m.nlmsg_type, RTM_GETLINK);
    EXPECT_FALSE(m.nlmsg_flags & NLM_F_ACK);
    Message reply(RTM_NEWLINK, 0);
    reply.put_header<ifinfomsg>().ifi_index = 42;
    reply.put_string(IFLA_IFNAME, "x0");
    reply.put_u32(IFLA_MTU, 1500);
    return {.datagrams = {brisk::test::reply_to(m, reply)}};
  });
  auto link = get_link(*f.conn, "x0");
  ASSERT_TRUE(link) << link.error().message();
  EXPECT_EQ(link->ifindex, 42);
  EXPECT_EQ(link->name, "x0");
}

// A link-state sync is a GETLINK that goes out once every change before
// it is answered, alone, before any change after it; its answer is never
// the batch's failure, not even a missing device's.
TEST(BatchLogic, ALinkSyncGoesOutBetweenTheChangesAroundIt) {
  for (bool stop : {false, true}) {
    AddressKernel kernel;
    std::vector<std::size_t> send_of;  // the send() each request came in
    FakeKernel* fake = nullptr;
    LogicFixture f([&](const nlmsghdr& m) -> FakeKernel::Answer {
      send_of.push_back(fake->sends);
      if (m.nlmsg_type == RTM_GETLINK) return {.datagrams = {brisk::test::ack(m, ENODEV)}};
      return kernel(m);
    });
    fake = f.fake;
    Batch batch(*f.conn, {.stop_at_first_error = stop});
    batch.add_address({.dev = "d0", .prefix = nth(1) + "/24"});
    batch.add_address({.dev = "d0", .prefix = nth(2) + "/24"});
    std::size_t sync = batch.sync_link_state("gone0");
    batch.add_address({.dev = "d0", .prefix = nth(3) + "/24"});
    auto results = batch.flush();
    ASSERT_EQ(results.size(), 4u);
    for (const auto& r : results) EXPECT_TRUE(r) << r.error().message();
    EXPECT_TRUE(results[sync]);
    std::vector<uint16_t> types;
    for (const auto& d : f.fake->requests) types.push_back(datagram_header(d).nlmsg_type);
    ASSERT_EQ(types, (std::vector<uint16_t>{RTM_NEWADDR, RTM_NEWADDR, RTM_GETLINK, RTM_NEWADDR})) << stop;
    // The GETLINK shares no send with a change.
    EXPECT_NE(send_of[2], send_of[1]);
    EXPECT_NE(send_of[2], send_of[3]);
  }
}

// A batch long enough to overlap (a window in transit on the send thread
// while the next is built): the i-th of `count` addresses, 1-based.
std::string wide(int i) { return "10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256); }
constexpr int kLong = 600;

struct Overlapped {
  explicit Overlapped(AddressKernel& kernel, ConnectionOptions options = {}) : f(std::ref(kernel), options) {
    f.fake->concurrent = true;
  }
  std::vector<NlResult<void>> add(BatchOptions options) {
    Batch batch(*f.conn, options);
    for (int i = 1; i <= kLong; ++i) batch.add_address({.dev = "d0", .prefix = wide(i) + "/24"});
    return batch.flush();
  }
  LogicFixture f;
};

// Stop mode: what the kernel applied after the failure is undone, and no
// window goes out after the one that failed, though the next was built.
TEST(BatchLogic, OverlappedStopModeSendsNothingAfterTheWindowThatFailed) {
  AddressKernel kernel;
  const int failing = 100;
  kernel.refuse = {wide(failing)};
  Overlapped run(kernel);
  auto results = run.add({.stop_at_first_error = true});
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kLong));
  for (int i = 1; i < failing; ++i)
    EXPECT_TRUE(results[i - 1]) << i << ": " << results[i - 1].error().message();
  ASSERT_FALSE(results[failing - 1]);
  EXPECT_EQ(results[failing - 1].error().code, EINVAL);
  auto sent = run.f.seen(RTM_NEWADDR);
  ASSERT_GT(sent.size(), static_cast<std::size_t>(failing)) << "the failing window held later adds";
  EXPECT_LT(sent.size(), static_cast<std::size_t>(kLong)) << "windows went out after the failure";
  for (int i = failing + 1; i <= kLong; ++i) {
    const auto& r = results[i - 1];
    ASSERT_FALSE(r) << i;
    EXPECT_EQ(r.error().code, ECANCELED) << i;
    bool was_sent = static_cast<std::size_t>(i) <= sent.size();
    EXPECT_NE(r.error().detail.find(was_sent ? "not applied" : "not attempted"), std::string::npos)
        << i << ": " << r.error().detail;
  }
  std::vector<std::string> undone;
  for (int i = static_cast<int>(sent.size()); i > failing; --i) undone.push_back(wide(i));
  EXPECT_EQ(run.f.seen(RTM_DELADDR), undone);
  std::set<std::string> kept;
  for (int i = 1; i < failing; ++i) kept.insert(wide(i));
  EXPECT_EQ(kernel.present, kept);
}

// Without stop mode every op is attempted, over several windows, and each
// failure stays on its own op.
TEST(BatchLogic, OverlappedWithoutStopModeAttemptsEveryOp) {
  AddressKernel kernel;
  kernel.refuse = {wide(30), wide(450)};
  Overlapped run(kernel);
  auto results = run.add({});
  for (int i = 1; i <= kLong; ++i) {
    bool refused = i == 30 || i == 450;
    EXPECT_EQ(static_cast<bool>(results[i - 1]), !refused) << i;
  }
  EXPECT_EQ(kernel.present.size(), static_cast<std::size_t>(kLong - 2));
  EXPECT_EQ(run.f.seen(RTM_NEWADDR).size(), static_cast<std::size_t>(kLong));
  EXPECT_GE(run.f.fake->sends, 3u) << "one window: nothing overlapped";
}

// A reply lost in a window sent from the send thread is re-checked once it
// has landed (the re-check's dump runs on the caller's thread).
TEST(BatchLogic, OverlappedLostAcksAreRecheckedAfterTheyLand) {
  AddressKernel kernel;
  kernel.lose = {wide(300)};
  kernel.lose_unapplied = {wide(301)};
  Overlapped run(kernel, kAckEach);
  auto results = run.add({});
  EXPECT_TRUE(results[299]) << results[299].error().message();
  ASSERT_FALSE(results[300]);
  EXPECT_EQ(results[300].error().code, ENOBUFS);
  EXPECT_NE(results[300].error().detail.find("re-check found the change not in place"), std::string::npos)
      << results[300].error().detail;
  EXPECT_EQ(run.f.conn->stats().rechecks, 2u);
  EXPECT_EQ(kernel.present.size(), static_cast<std::size_t>(kLong - 1));
}

// A device missing from the start: its op fails before it is sent, in its
// place; the ops around it, sent from both threads, are unaffected.
TEST(BatchLogic, OverlappedMissingDeviceFailsOnlyItsOp) {
  AddressKernel kernel;
  Overlapped run(kernel);
  Batch batch(*run.f.conn);
  for (int i = 1; i <= kLong; ++i)
    batch.add_address({.dev = i == 400 ? "nosuch" : "d0", .prefix = wide(i) + "/24"});
  auto results = batch.flush();
  for (int i = 1; i <= kLong; ++i) {
    if (i != 400) {
      EXPECT_TRUE(results[i - 1]) << i << ": " << results[i - 1].error().message();
    }
  }
  ASSERT_FALSE(results[399]);
  EXPECT_EQ(results[399].error().code, ENODEV);
  EXPECT_EQ(kernel.present.size(), static_cast<std::size_t>(kLong - 1));
}

// A fed batch (Batch::flush with a feed): the ops the feed queues run in
// its order, and it is asked for more while earlier windows are with the
// kernel, not once up front for everything.
TEST(BatchLogic, AFedBatchQueuesWhileTheKernelWorks) {
  AddressKernel kernel;
  kernel.refuse = {wide(250)};
  Overlapped run(kernel);
  Batch batch(*run.f.conn);
  int next = 1;
  std::vector<std::size_t> seen_at_feed;  // requests the kernel had seen, at each call
  auto results = internal::BatchHooks::flush(
      batch,
      [&] {
        seen_at_feed.push_back(
            run.f.fake->received.load(std::memory_order_acquire));  // the send thread may be adding
        if (next > kLong) return false;
        EXPECT_EQ(batch.add_address({.dev = "d0", .prefix = wide(next) + "/24"}),
                  static_cast<std::size_t>(next - 1));
        ++next;
        return true;
      },
      kLong);
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kLong));
  for (int i = 1; i <= kLong; ++i) EXPECT_EQ(static_cast<bool>(results[i - 1]), i != 250) << i;
  std::vector<std::string> in_order;
  for (int i = 1; i <= kLong; ++i) in_order.push_back(wide(i));
  EXPECT_EQ(run.f.seen(RTM_NEWADDR), in_order);
  ASSERT_EQ(seen_at_feed.size(), static_cast<std::size_t>(kLong + 1))
      << "the feed is asked once per op, and once more";
  EXPECT_EQ(seen_at_feed.front(), 0u);
  EXPECT_GT(seen_at_feed[kLong / 2], 0u) << "every op was made before the first window went out";
  EXPECT_EQ(batch.size(), 0u);
}

// Stop mode, fed: the run stops at the failure as an unfed one does, and
// what the feed queues after it is cancelled, never sent.
TEST(BatchLogic, AFedBatchInStopModeCancelsWhatIsQueuedAfterTheFailure) {
  AddressKernel kernel;
  kernel.refuse = {wide(100)};
  Overlapped run(kernel);
  Batch batch(*run.f.conn, {.stop_at_first_error = true});
  int next = 1;
  auto results = internal::BatchHooks::flush(
      batch,
      [&] {
        if (next > kLong) return false;
        batch.add_address({.dev = "d0", .prefix = wide(next++) + "/24"});
        return true;
      },
      kLong);
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kLong));
  for (int i = 1; i < 100; ++i) EXPECT_TRUE(results[i - 1]) << i;
  EXPECT_EQ(results[99].error().code, EINVAL);
  for (int i = 101; i <= kLong; ++i) EXPECT_EQ(results[i - 1].error().code, ECANCELED) << i;
  EXPECT_LT(run.f.seen(RTM_NEWADDR).size(), static_cast<std::size_t>(kLong));
  EXPECT_EQ(kernel.present.size(), 99u);
}

// Deletes the feed queues one by one still coalesce: the lookahead for a
// run of deletes asks the feed too.
TEST(BatchLogic, AFedRunOfDeletesIsOneGroupDelete) {
  LinkKernel kernel;
  LogicFixture f(std::ref(kernel));
  Batch batch(*f.conn);
  std::vector<std::string> names{"a0", "a1", "a2", "a3"};
  std::size_t next = 0;
  auto results = internal::BatchHooks::flush(batch, [&] {
    if (next == names.size()) return false;
    batch.delete_link(names[next++]);
    return true;
  });
  ASSERT_EQ(results.size(), 4u);
  for (const auto& r : results) EXPECT_TRUE(r) << r.error().message();
  EXPECT_EQ(kernel.log, (std::vector<std::string>{"dump", "move 10 away", "move 11 away", "move 12 away",
                                                  "move 13 away", "group delete"}));
  EXPECT_TRUE(kernel.devs.empty());
}

// A feed that queues nothing on a call (a line that became no op) is asked
// again; one that has nothing at all leaves an empty result.
TEST(BatchLogic, AFeedMayQueueNothingOnACall) {
  AddressKernel kernel;
  LogicFixture f(std::ref(kernel));
  Batch batch(*f.conn);
  int calls = 0;
  auto results = internal::BatchHooks::flush(batch, [&] {
    ++calls;
    if (calls == 2) batch.add_address({.dev = "d0", .prefix = nth(1) + "/24"});
    return calls < 4;
  });
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0]);
  EXPECT_EQ(calls, 4);
  Batch empty(*f.conn);
  EXPECT_TRUE(internal::BatchHooks::flush(empty, [] { return false; }).empty());
}

// An add op for wide(i) whose state, once the op lets it go, counts itself
// in `released`.
detail::Op counted_add(int i, int& released) {
  struct Held {
    std::shared_ptr<const void> inner;
    int* released = nullptr;
    ~Held() { ++*released; }
  };
  auto op = detail::address_op({.dev = "d0", .prefix = wide(i) + "/24"}, detail::AddressWrite::add);
  auto held = std::make_shared<Held>();
  held->inner = std::move(op.state);
  held->released = &released;
  op.state = std::move(held);
  return op;
}

// A flushed batch lets go of each op once its result is settled, so a long
// run reuses that memory for the ops it makes later; a caller that keeps
// its ops (for an undo of its own) has them whole at the end.
TEST(BatchLogic, SettledOpsAreReleasedDuringTheRunWhenAsked) {
  // Long enough that the run dwarfs its two windows of 256 (one in
  // transit, one being built).
  constexpr int kRun = 3000;
  for (bool release : {true, false}) {
    AddressKernel kernel;
    Overlapped run(kernel);
    detail::IndexRing<detail::Op> ops;
    int released = 0, next = 1, released_when_fed_dry = -1;
    std::size_t most_live = 0;
    detail::RunMode mode{.more =
                             [&] {
                               most_live = std::max(most_live, ops.live());
                               if (next > kRun) {
                                 released_when_fed_dry = released;
                                 return false;
                               }
                               ops.push(counted_add(next++, released));
                               return true;
                             },
                         .expected = kRun,
                         .release_settled = release};
    std::vector<NlResult<void>> results;
    std::size_t expected_index = 0;
    detail::run_ops(*run.f.conn, ops, {}, mode, [&](std::size_t i, NlResult<void> r) {
      EXPECT_EQ(i, expected_index++) << "results come in index order";
      results.push_back(std::move(r));
    });
    ASSERT_EQ(results.size(), static_cast<std::size_t>(kRun));
    for (const auto& r : results) EXPECT_TRUE(r) << r.error().message();
    if (release) {
      EXPECT_GT(released_when_fed_dry, 0) << "no op was let go before the last was made";
      EXPECT_EQ(released, kRun);
      // What is held at once is the windows' ops, not the run's.
      EXPECT_LE(most_live, 2u * 256);
    } else {
      EXPECT_EQ(released, 0);
      EXPECT_EQ(most_live, static_cast<std::size_t>(kRun));
      auto kept = ops.take();
      ASSERT_EQ(kept.size(), static_cast<std::size_t>(kRun));
      EXPECT_TRUE(kept[0].undo) << "an op kept whole still has its undo";
    }
    ops = {};
    EXPECT_EQ(released, kRun);
  }
}

}  // namespace
}  // namespace brisk::netlink
