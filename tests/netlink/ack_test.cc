// parse_ack on hostile NLMSG_ERROR messages (found by fuzz/netlink_reply.cc).
#include <linux/netlink.h>

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "netlink/ack.h"

namespace brisk::netlink {
namespace {

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
  const char text[] = "real";
  nlattr attr{static_cast<uint16_t>(NLA_HDRLEN + sizeof text), NLMSGERR_ATTR_MSG};
  std::size_t at = m.size();
  m.resize(at + NLA_ALIGN(attr.nla_len), 0);
  std::memcpy(m.data() + at, &attr, sizeof attr);
  std::memcpy(m.data() + at + NLA_HDRLEN, text, sizeof text);
  nlmsghdr header{static_cast<uint32_t>(m.size()), NLMSG_ERROR, static_cast<uint16_t>(flags | NLM_F_ACK_TLVS), 1, 0};
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

}  // namespace
}  // namespace brisk::netlink
