// parse_ack on hostile NLMSG_ERROR messages (found by fuzz/netlink_reply.cc).
#include "netlink/ack.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace brisk::netlink {
namespace {

// Appends an NLMSGERR_ATTR_MSG carrying `text` to the message.
void append_text(std::vector<char>& m, const std::string& text) {
  nlattr attr{static_cast<uint16_t>(NLA_HDRLEN + text.size() + 1), NLMSGERR_ATTR_MSG};
  std::size_t at = m.size();
  m.resize(at + NLA_ALIGN(attr.nla_len), 0);
  std::memcpy(m.data() + at, &attr, sizeof attr);
  std::memcpy(m.data() + at + NLA_HDRLEN, text.c_str(), text.size() + 1);
}

// An NLMSG_ERROR with `error`, an echoed header of `echoed_len` and,
// after a full echo of that length, an NLMSGERR_ATTR_MSG "real".
std::vector<char> error_message(int error, uint32_t echoed_len, uint16_t flags) {
  std::vector<char> m(NLMSG_HDRLEN + sizeof(nlmsgerr));
  nlmsgerr err{};
  err.error = error;
  err.msg.nlmsg_len = echoed_len;
  std::memcpy(m.data() + NLMSG_HDRLEN, &err, sizeof err);
  std::size_t echoed_body = echoed_len >= sizeof(nlmsghdr) ? NLMSG_ALIGN(echoed_len) - sizeof(nlmsghdr) : 0;
  m.resize(m.size() + echoed_body, 0);
  append_text(m, "real");
  nlmsghdr header{static_cast<uint32_t>(m.size()), NLMSG_ERROR, static_cast<uint16_t>(flags | NLM_F_ACK_TLVS),
                  1, 0};
  std::memcpy(m.data(), &header, sizeof header);
  return m;
}

const nlmsghdr& header_of(const std::vector<char>& m) { return *reinterpret_cast<const nlmsghdr*>(m.data()); }

TEST(NetlinkAck, ReadsErrnoAndExtAckText) {
  auto m = error_message(-EEXIST, sizeof(nlmsghdr), NLM_F_CAPPED);
  auto r = parse_ack(header_of(m), {}, "link add", "x0");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, EEXIST);
  EXPECT_EQ(r.error().ext_ack, "real");
}

TEST(NetlinkAck, AnErrorNoErrnoCanHaveIsMalformed) {
  for (int bad : {INT_MIN, -4096, 4096, INT_MAX}) {
    auto m = error_message(bad, sizeof(nlmsghdr), NLM_F_CAPPED);
    auto r = parse_ack(header_of(m), {}, "link add", "x0");
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, EBADMSG) << bad;
    EXPECT_NE(r.error().detail.find(std::to_string(bad)), std::string::npos) << r.error().detail;
  }
}

TEST(NetlinkAck, AnEchoShorterThanAHeaderHidesNoTlvs) {
  // Uncapped, the TLVs are after the echo; an echo "shorter than its header"
  // used to wrap the offset back into the nlmsgerr itself.
  auto m = error_message(-EINVAL, 4, 0);
  // The echo's type, flags and seq as the wrapped offset would read them:
  // an NLMSGERR_ATTR_MSG of 8 bytes holding "A".
  nlmsghdr echo{4, 8, NLMSGERR_ATTR_MSG, 'A', 0};
  std::memcpy(m.data() + NLMSG_HDRLEN + offsetof(nlmsgerr, msg), &echo, sizeof echo);
  auto r = parse_ack(header_of(m), {}, "link add", "x0");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, EINVAL);
  EXPECT_EQ(r.error().ext_ack, "");
  auto full = error_message(-EINVAL, sizeof(nlmsghdr) + 8, 0);  // a real uncapped echo still works
  auto ok = parse_ack(header_of(full), {}, "link add", "x0");
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error().ext_ack, "real");
}

// An NLMSG_DONE ending a dump: `code` in its payload and, with TLVs, the
// kernel's text after it.
std::vector<char> done_message(int32_t code, bool tlvs) {
  std::vector<char> m(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof code));
  std::memcpy(m.data() + NLMSG_HDRLEN, &code, sizeof code);
  if (tlvs) append_text(m, "ipv4: FIB table does not exist");
  nlmsghdr header{static_cast<uint32_t>(m.size()), NLMSG_DONE,
                  static_cast<uint16_t>(NLM_F_MULTI | (tlvs ? NLM_F_ACK_TLVS : 0)), 1, 0};
  std::memcpy(m.data(), &header, sizeof header);
  return m;
}

TEST(NetlinkDumpDone, AnErrnoInTheDoneIsTheDumpsFailure) {
  EXPECT_TRUE(parse_dump_done(header_of(done_message(0, false)), "route list", ""));
  auto refused = parse_dump_done(header_of(done_message(-ENOENT, true)), "route list", "");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ENOENT);
  EXPECT_TRUE(refused.error().kernel);
  EXPECT_EQ(refused.error().ext_ack, "ipv4: FIB table does not exist");
  auto bare = parse_dump_done(header_of(done_message(-EINVAL, false)), "route list", "");
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().code, EINVAL);
  EXPECT_TRUE(bare.error().ext_ack.empty());
  auto hostile = parse_dump_done(header_of(done_message(INT_MIN, false)), "route list", "");
  ASSERT_FALSE(hostile);
  EXPECT_EQ(hostile.error().code, EBADMSG);
  // A DONE without a payload (very old kernels) ends the dump well.
  nlmsghdr bare_done{NLMSG_HDRLEN, NLMSG_DONE, NLM_F_MULTI, 1, 0};
  EXPECT_TRUE(parse_dump_done(bare_done, "route list", ""));
}

}  // namespace
}  // namespace brisk::netlink
