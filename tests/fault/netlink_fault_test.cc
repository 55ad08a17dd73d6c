// Netlink replies that are not what they seem: forged by another socket
// (port id not 0), oversized, truncated; and replies lost to ENOBUFS while
// creating interfaces (tests/netlink covers lost ACKs of set, delete, routes
// and neighbours, and interrupted dumps; this adds creation and dumps).
#include <linux/rtnetlink.h>

#include <cstring>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "fault/fault_support.h"
#include "netlink/ack.h"
#include "netlink/netns_fixture.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"

namespace brisk::fault_test {
namespace {

using netlink::test::ip_link;
using netlink::test::ip_link_names;

class Forgery : public netlink::test::NetnsTest {
 protected:
  // A second NETLINK_ROUTE socket in the same namespace: another process's
  // view of things, with a port id of its own (never 0).
  UniqueFd forger() {
    UniqueFd fd;
    auto made = sys::run_in_netns(ns(), [&]() -> Result<void> {
      auto s = sys::socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
      if (!s) return s.error();
      fd = std::move(*s);
      return {};
    });
    EXPECT_TRUE(made);
    int big = 1 << 20;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big);
    sockaddr_nl self{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = 0, .nl_groups = 0};
    EXPECT_EQ(::bind(fd.get(), reinterpret_cast<sockaddr*>(&self), sizeof self), 0);
    return fd;
  }
  uint32_t victim_port(const netlink::Connection& conn) {
    sockaddr_nl addr{};
    socklen_t len = sizeof addr;
    ::getsockname(conn.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
    return addr.nl_pid;
  }
  // One datagram of NLMSG_ERROR messages, one per seq in [1, count], each
  // saying `error` (0: an ACK), sent to `port` as if from the kernel.
  ssize_t forge_acks(int fd, uint32_t port, uint32_t count, int error) {
    std::vector<char> datagram;
    for (uint32_t seq = 1; seq <= count; ++seq) {
      struct {
        nlmsghdr header;
        nlmsgerr err;
      } msg{};
      msg.header.nlmsg_len = sizeof msg;
      msg.header.nlmsg_type = NLMSG_ERROR;
      msg.header.nlmsg_flags = NLM_F_CAPPED;
      msg.header.nlmsg_seq = seq;
      msg.header.nlmsg_pid = port;
      msg.err.error = -error;
      msg.err.msg.nlmsg_seq = seq;
      msg.err.msg.nlmsg_pid = port;
      const char* bytes = reinterpret_cast<const char*>(&msg);
      datagram.insert(datagram.end(), bytes, bytes + sizeof msg);
    }
    return send_to(fd, port, datagram);
  }
  ssize_t send_to(int fd, uint32_t port, const std::vector<char>& datagram) {
    sockaddr_nl to{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = port, .nl_groups = 0};
    return ::sendto(fd, datagram.data(), datagram.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
  }
};

// A forged ACK for a request the kernel refuses, and a forged EPERM for one
// it accepts: brisk must report the kernel's answer both times.
TEST_F(Forgery, RepliesFromAnotherSocketAreIgnored) {
  UniqueFd fake = forger();
  for (int forged_error : {0, EPERM}) {
    auto conn = netlink::Connection::open_in(ns());  // fresh: its first seq is 1
    ASSERT_TRUE(conn) << conn.error().message();
    ASSERT_GT(forge_acks(fake.get(), victim_port(*conn), 64, forged_error), 0) << strerror(errno);
    if (forged_error == 0) {
      auto deleted = netlink::delete_link(*conn, "ghost");
      ASSERT_FALSE(deleted) << "a forged ACK was believed";
      EXPECT_EQ(deleted.error().code, ENODEV);
    } else {
      auto added = netlink::add_link(*conn, {.name = "real0", .kind = netlink::VethOptions{.peer = "real1"}});
      ASSERT_TRUE(added) << "a forged error was believed: " << added.error().message();
      EXPECT_FALSE(ip_link(ns(), "real0").is_null());
    }
  }
}

// A forged datagram larger than brisk's receive buffer must not fail the
// request (the size check comes after the sender check).
TEST_F(Forgery, AnOversizedForeignDatagramIsDroppedNotAnError) {
  UniqueFd fake = forger();
  auto conn = netlink::Connection::open_in(ns());
  ASSERT_TRUE(conn) << conn.error().message();
  std::vector<char> huge(200 * 1024, 'x');
  ASSERT_GT(send_to(fake.get(), victim_port(*conn), huge), 0) << strerror(errno);
  auto links = netlink::list_links(*conn);
  ASSERT_TRUE(links) << links.error().message();
  EXPECT_EQ(links->size(), 1u);
}

// Truncated replies: an NLMSG_ERROR too short for its nlmsgerr, and one whose
// extended-ACK area points past its end. Typed errors, nothing read out of bounds.
TEST(TruncatedReply, ShortErrorMessagesGiveTypedErrors) {
  struct {
    nlmsghdr header;
    nlmsgerr err;
    char tail[8];
  } reply{};
  reply.header.nlmsg_type = NLMSG_ERROR;
  std::vector<char> request(sizeof(nlmsghdr), 0);
  for (uint32_t len :
       {0u, 4u, static_cast<uint32_t>(NLMSG_HDRLEN), static_cast<uint32_t>(NLMSG_HDRLEN + 4)}) {
    reply.header.nlmsg_len = len;
    auto acked = netlink::parse_ack(reply.header, request, "test", "obj");
    ASSERT_FALSE(acked) << len;
    EXPECT_EQ(acked.error().code, EBADMSG) << len;
  }
  // An error whose TLVs claim to follow an echoed request longer than the reply.
  reply.header.nlmsg_len = sizeof reply;
  reply.header.nlmsg_flags = NLM_F_ACK_TLVS;
  reply.err.error = -EINVAL;
  reply.err.msg.nlmsg_len = 100000;
  auto acked = netlink::parse_ack(reply.header, request, "test", "obj");
  ASSERT_FALSE(acked);
  EXPECT_EQ(acked.error().code, EINVAL);
  EXPECT_TRUE(acked.error().ext_ack.empty());
}

class Enobufs : public netlink::test::NetnsTest {};

// Creations whose ACKs are lost: each is re-checked, and every pair is whole
// or absent (no half-created veth).
TEST_F(Enobufs, LostAcksOfCreationsLeaveNoHalfCreatedPair) {
  auto small = netlink::Connection::open_in(
      ns(), {.receive_buffer = 1, .max_window = 100000, .unbounded_window = true});
  ASSERT_TRUE(small) << small.error().message();
  netlink::Batch batch(*small);
  constexpr int kPairs = 200;
  for (int i = 0; i < kPairs; ++i)
    batch.add_link(
        {.name = "c" + std::to_string(i), .kind = netlink::VethOptions{.peer = "d" + std::to_string(i)}});
  batch.add_link({.name = "c0", .kind = netlink::VethOptions{.peer = "dup"}});  // EEXIST, maybe lost
  auto results = batch.flush();
  EXPECT_GT(small->stats().enobufs, 0u) << "the buffer was not overrun; the test proves nothing";
  auto names = ip_link_names(ns());
  std::set<std::string> present(names.begin(), names.end());
  for (int i = 0; i < kPairs; ++i) {
    std::string c = "c" + std::to_string(i), d = "d" + std::to_string(i);
    EXPECT_EQ(present.count(c), present.count(d)) << "half-created pair " << i;
    EXPECT_EQ(static_cast<bool>(results[static_cast<std::size_t>(i)]), present.count(c) == 1)
        << i << ": the result does not match the kernel";
  }
  EXPECT_EQ(present.count("dup"), 0u);
}

// One injected ENOBUFS in the middle of a dump: it restarts and completes.
TEST_F(Enobufs, AnInjectedEnobufsRestartsTheDump) {
  FaultGuard guard;
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(netlink::add_link(conn(), {.name = "e" + std::to_string(i),
                                           .kind = netlink::VethOptions{.peer = "f" + std::to_string(i)}}));
  uint64_t restarts = conn().stats().dump_restarts;
  sys::testing::inject("recvmsg", ENOBUFS, 1);
  auto links = netlink::list_links(conn());
  ASSERT_TRUE(links) << links.error().message();
  EXPECT_EQ(links->size(), 11u);
  EXPECT_EQ(conn().stats().dump_restarts - restarts, 1u);
  // And on every attempt: a typed error once the retries are spent.
  sys::testing::inject("recvmsg", ENOBUFS, 1, 1000);
  auto failed = netlink::list_links(conn());
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, EINTR) << failed.error().message();
}

}  // namespace
}  // namespace brisk::fault_test
