// One dump of the family's conntrack table, then a delete per entry whose
// original tuple is UDP to the port, naming it by that tuple.
#include "cni/conntrack.h"

#include <arpa/inet.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "brisk/fd.h"
#include "cni/files.h"

namespace brisk::cni::detail {
namespace {

constexpr auto kType = static_cast<uint16_t>(NLA_TYPE_MASK);

// The attribute of `type` among [begin, end); nullptr when absent.
const nlattr* find_attr(const char* begin, const char* end, uint16_t type) {
  while (begin + sizeof(nlattr) <= end) {
    const auto* a = reinterpret_cast<const nlattr*>(begin);
    if (a->nla_len < sizeof(nlattr) || begin + a->nla_len > end) return nullptr;
    if ((a->nla_type & kType) == type) return a;
    begin += NLA_ALIGN(a->nla_len);
  }
  return nullptr;
}

const char* payload(const nlattr* a) { return reinterpret_cast<const char*>(a) + NLA_HDRLEN; }
const char* payload_end(const nlattr* a) { return reinterpret_cast<const char*>(a) + a->nla_len; }

// The message: nlmsghdr, nfgenmsg, then `attr` (already an attribute) if any.
std::string message(uint16_t type, uint16_t flags, int family, const std::string& attr) {
  std::string m(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nfgenmsg)), '\0');
  m += attr;
  auto* h = reinterpret_cast<nlmsghdr*>(m.data());
  h->nlmsg_len = static_cast<uint32_t>(m.size());
  h->nlmsg_type = static_cast<uint16_t>((NFNL_SUBSYS_CTNETLINK << 8) | type);
  h->nlmsg_flags = flags;
  auto* g = reinterpret_cast<nfgenmsg*>(m.data() + NLMSG_HDRLEN);
  g->nfgen_family = static_cast<uint8_t>(family);
  g->version = NFNETLINK_V0;
  return m;
}

bool send_all(int fd, const std::string& m) {
  return ::send(fd, m.data(), m.size(), 0) == static_cast<ssize_t>(m.size());
}

// The CTA_TUPLE_ORIG attributes (whole, ready to send back) of UDP entries to `port`.
std::vector<std::string> matching_tuples(int fd, uint16_t port) {
  std::vector<std::string> out;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return out;
    for (auto* h = reinterpret_cast<nlmsghdr*>(buffer.data()); NLMSG_OK(h, static_cast<unsigned>(n));
         h = NLMSG_NEXT(h, n)) {
      if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) return out;
      const char* begin = reinterpret_cast<const char*>(NLMSG_DATA(h)) + NLMSG_ALIGN(sizeof(nfgenmsg));
      const char* end = reinterpret_cast<const char*>(h) + h->nlmsg_len;
      const nlattr* orig = find_attr(begin, end, CTA_TUPLE_ORIG);
      if (!orig) continue;
      const nlattr* proto = find_attr(payload(orig), payload_end(orig), CTA_TUPLE_PROTO);
      if (!proto) continue;
      const nlattr* num = find_attr(payload(proto), payload_end(proto), CTA_PROTO_NUM);
      const nlattr* dport = find_attr(payload(proto), payload_end(proto), CTA_PROTO_DST_PORT);
      if (!num || !dport || num->nla_len < NLA_HDRLEN + 1 || dport->nla_len < NLA_HDRLEN + 2) continue;
      uint16_t be;
      std::memcpy(&be, payload(dport), 2);
      if (static_cast<uint8_t>(*payload(num)) == IPPROTO_UDP && ntohs(be) == port)
        out.emplace_back(reinterpret_cast<const char*>(orig), NLA_ALIGN(orig->nla_len));
    }
  }
}

}  // namespace

int delete_udp_conntrack(int family, uint16_t port) {
  // The dump walks the whole host's conntrack table (28 ms measured under
  // load); a namespace without entries, or without conntrack, has none to drop.
  std::optional<std::string> count = read_sysctl("net/netfilter/nf_conntrack_count");
  if (!count || *count == "0") return 0;
  UniqueFd fd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER));
  if (!fd) return -1;
  timeval limit{.tv_sec = 1, .tv_usec = 0};  // a reply the kernel owes us; never wait forever
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  sockaddr_nl kernel{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = 0, .nl_groups = 0};
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) != 0) return -1;
  if (!send_all(fd.get(), message(IPCTNL_MSG_CT_GET, NLM_F_REQUEST | NLM_F_DUMP, family, ""))) return -1;
  int deleted = 0;
  std::vector<char> ack(4096);
  for (const std::string& tuple : matching_tuples(fd.get(), port)) {
    if (!send_all(fd.get(), message(IPCTNL_MSG_CT_DELETE, NLM_F_REQUEST | NLM_F_ACK, family, tuple))) break;
    ssize_t n = ::recv(fd.get(), ack.data(), ack.size(), 0);
    const auto* h = reinterpret_cast<const nlmsghdr*>(ack.data());
    if (n >= static_cast<ssize_t>(NLMSG_HDRLEN + sizeof(nlmsgerr)) && h->nlmsg_type == NLMSG_ERROR &&
        reinterpret_cast<const nlmsgerr*>(NLMSG_DATA(h))->error == 0)
      ++deleted;
  }
  return deleted;
}

}  // namespace brisk::cni::detail
