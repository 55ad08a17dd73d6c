#include "bench/link_raw.h"

#include <fcntl.h>
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/veth.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>

namespace brisk::bench {

RawNetlink::RawNetlink(int netns_fd) {
  std::thread([&] {
    if (::setns(netns_fd, CLONE_NEWNET) == 0)
      fd_.reset(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
  }).join();
  if (!fd_) throw std::runtime_error("raw netlink socket failed");
  int one = 1;
  ::setsockopt(fd_.get(), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof one);
}

RawNetlink::RawNetlink(UniqueFd socket) : fd_(std::move(socket)) {
  if (!fd_) throw std::runtime_error("raw netlink: no socket");
}

void RawNetlink::start(uint16_t type, uint16_t flags) {
  std::memset(buf_, 0, sizeof buf_);
  auto* h = header();
  h->nlmsg_len = NLMSG_HDRLEN;
  h->nlmsg_type = type;
  bool ack = !(quiet_ && window_ > 0);
  h->nlmsg_flags = static_cast<uint16_t>(NLM_F_REQUEST | (ack ? NLM_F_ACK : 0) | flags);
  h->nlmsg_seq = ++seq_;
}

void* RawNetlink::extra(std::size_t size) {
  void* at = buf_ + header()->nlmsg_len;
  header()->nlmsg_len += static_cast<uint32_t>(NLMSG_ALIGN(size));
  return at;
}

rtattr* RawNetlink::attr(uint16_t type, const void* data, std::size_t len) {
  auto* a = reinterpret_cast<rtattr*>(buf_ + header()->nlmsg_len);
  a->rta_type = type;
  a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
  if (len) std::memcpy(RTA_DATA(a), data, len);
  header()->nlmsg_len += RTA_ALIGN(a->rta_len);
  return a;
}

rtattr* RawNetlink::str(uint16_t type, const std::string& s) { return attr(type, s.c_str(), s.size() + 1); }

rtattr* RawNetlink::ipv4(uint16_t type, uint32_t addr) {
  uint8_t ip[4] = {static_cast<uint8_t>(addr >> 24), static_cast<uint8_t>(addr >> 16),
                   static_cast<uint8_t>(addr >> 8), static_cast<uint8_t>(addr)};
  return attr(type, ip, 4);
}

void RawNetlink::end(rtattr* nest) {
  nest->rta_len = static_cast<unsigned short>(buf_ + header()->nlmsg_len - reinterpret_cast<char*>(nest));
}

int RawNetlink::transact() {
  if (window_ > 0) {
    queue_.append(buf_, header()->nlmsg_len);
    if (++queued_ == window_) failures_ += send_queue();
    return 0;
  }
  if (::send(fd_.get(), buf_, header()->nlmsg_len, 0) < 0) return -errno;
  char reply[8192];
  for (;;) {
    ssize_t n = ::recv(fd_.get(), reply, sizeof reply, 0);
    if (n < 0) return -errno;
    for (auto* h = reinterpret_cast<nlmsghdr*>(reply); NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
      if (h->nlmsg_seq != seq_) continue;
      if (h->nlmsg_type == RTM_NEWLINK) last_ifindex_ = static_cast<ifinfomsg*>(NLMSG_DATA(h))->ifi_index;
      if (h->nlmsg_type == NLMSG_ERROR) return static_cast<nlmsgerr*>(NLMSG_DATA(h))->error;
    }
  }
}

void RawNetlink::pipeline(int window) { window_ = window; }

int RawNetlink::flush() {
  if (queued_) failures_ += send_queue();
  return std::exchange(failures_, 0);
}

// One send() for the window (NETLINK_CAP_ACK keeps each ACK at 36 bytes),
// then every ACK, in any order; when quiet, a NOOP fence goes last and only
// its ACK is waited for.
int RawNetlink::send_queue() {
  int expected = std::exchange(queued_, 0);
  std::string out = std::exchange(queue_, {});
  uint32_t fence = 0;
  if (quiet_) {
    nlmsghdr noop{.nlmsg_len = NLMSG_HDRLEN,
                  .nlmsg_type = NLMSG_NOOP,
                  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
                  .nlmsg_seq = fence = ++seq_,
                  .nlmsg_pid = 0};
    out.append(reinterpret_cast<const char*>(&noop), sizeof noop);
  }
  if (::send(fd_.get(), out.data(), out.size(), 0) < 0) return expected;
  int failed = 0;
  char reply[8192];
  bool waiting = true;
  while (waiting) {
    ssize_t n = ::recv(fd_.get(), reply, sizeof reply, 0);
    if (n < 0) return failed + (quiet_ ? 1 : expected);
    for (auto* h = reinterpret_cast<nlmsghdr*>(reply); NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
      if (h->nlmsg_type != NLMSG_ERROR) continue;
      if (quiet_ && h->nlmsg_seq == fence) {
        waiting = false;
        continue;
      }
      --expected;
      if (static_cast<nlmsgerr*>(NLMSG_DATA(h))->error) ++failed;
    }
    if (!quiet_ && expected <= 0) waiting = false;
  }
  return failed;
}

int RawNetlink::veth_add(const std::string& name, const std::string& peer) {
  return veth_add(RawVeth{.name = name, .peer = peer});
}

int RawNetlink::veth_add(const RawVeth& v) {
  start(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
  auto* ifi = static_cast<ifinfomsg*>(extra(sizeof(ifinfomsg)));
  ifi->ifi_index = v.index;
  if (v.up) ifi->ifi_flags = ifi->ifi_change = IFF_UP;
  str(IFLA_IFNAME, v.name);
  if (v.master) attr(IFLA_MASTER, &v.master, sizeof v.master);
  auto* info = attr(IFLA_LINKINFO, nullptr, 0);
  str(IFLA_INFO_KIND, "veth");
  auto* data = attr(IFLA_INFO_DATA, nullptr, 0);
  auto* p = attr(VETH_INFO_PEER, nullptr, 0);
  auto* peer = static_cast<ifinfomsg*>(extra(sizeof(ifinfomsg)));
  peer->ifi_index = v.peer_index;
  str(IFLA_IFNAME, v.peer);
  if (v.peer_netns_fd >= 0) attr(IFLA_NET_NS_FD, &v.peer_netns_fd, sizeof v.peer_netns_fd);
  end(p);
  end(data);
  end(info);
  return transact();
}

int RawNetlink::bridge_add(const std::string& name, int index, bool up) {
  start(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
  auto* ifi = static_cast<ifinfomsg*>(extra(sizeof(ifinfomsg)));
  ifi->ifi_index = index;
  if (up) ifi->ifi_flags = ifi->ifi_change = IFF_UP;
  str(IFLA_IFNAME, name);
  auto* info = attr(IFLA_LINKINFO, nullptr, 0);
  str(IFLA_INFO_KIND, "bridge");
  end(info);
  return transact();
}

int RawNetlink::set_up(const std::string& name) {
  start(RTM_NEWLINK, 0);
  auto* ifi = static_cast<ifinfomsg*>(extra(sizeof(ifinfomsg)));
  ifi->ifi_flags = ifi->ifi_change = IFF_UP;
  str(IFLA_IFNAME, name);
  return transact();
}

int RawNetlink::move_link(int index, int netns_fd, const std::string& new_name, const uint8_t (&mac)[6],
                          bool up) {
  start(RTM_NEWLINK, 0);
  auto* ifi = static_cast<ifinfomsg*>(extra(sizeof(ifinfomsg)));
  ifi->ifi_index = index;
  if (up) ifi->ifi_flags = ifi->ifi_change = IFF_UP;
  attr(IFLA_NET_NS_FD, &netns_fd, sizeof netns_fd);
  str(IFLA_IFNAME, new_name);
  attr(IFLA_ADDRESS, mac, sizeof mac);
  return transact();
}

int RawNetlink::index_by_name(const std::string& name) {
  // SIOCGIFINDEX on the socket, as the engine does: the kernel's name hash.
  ifreq request{};
  if (name.empty() || name.size() >= sizeof request.ifr_name) return 0;
  name.copy(request.ifr_name, name.size());
  return ::ioctl(fd_.get(), SIOCGIFINDEX, &request) == 0 ? request.ifr_ifindex : 0;
}

int RawNetlink::ifindex(const std::string& name) {
  int window = std::exchange(window_, 0);  // the answer is needed now, whatever the mode
  start(RTM_GETLINK, 0);
  extra(sizeof(ifinfomsg));
  str(IFLA_IFNAME, name);
  uint32_t mask = RTEXT_FILTER_SKIP_STATS;
  attr(IFLA_EXT_MASK, &mask, sizeof mask);
  int found = transact() == 0 ? last_ifindex_ : 0;
  window_ = window;
  return found;
}

int RawNetlink::addr_add(int ifindex, uint32_t addr, int prefix_len) {
  start(RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
  auto* ifa = static_cast<ifaddrmsg*>(extra(sizeof(ifaddrmsg)));
  ifa->ifa_family = AF_INET;
  ifa->ifa_prefixlen = static_cast<uint8_t>(prefix_len);
  ifa->ifa_index = static_cast<uint32_t>(ifindex);
  ipv4(IFA_LOCAL, addr);
  ipv4(IFA_ADDRESS, addr);
  return transact();
}

int RawNetlink::route_add(uint32_t dst, int prefix_len, uint32_t gateway, int ifindex) {
  start(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
  auto* rtm = static_cast<rtmsg*>(extra(sizeof(rtmsg)));
  rtm->rtm_family = AF_INET;
  rtm->rtm_dst_len = static_cast<uint8_t>(prefix_len);
  rtm->rtm_table = RT_TABLE_MAIN;
  rtm->rtm_protocol = RTPROT_BOOT;
  rtm->rtm_type = RTN_UNICAST;  // scope universe: 0, as extra() left it
  rtm->rtm_flags = RTNH_F_ONLINK;
  ipv4(RTA_DST, dst);
  ipv4(RTA_GATEWAY, gateway);
  attr(RTA_OIF, &ifindex, sizeof ifindex);
  return transact();
}

int RawNetlink::rule_add(uint32_t priority, uint32_t src, int prefix_len, uint32_t table) {
  start(RTM_NEWRULE, NLM_F_CREATE | NLM_F_EXCL);
  auto* frh = static_cast<fib_rule_hdr*>(extra(sizeof(fib_rule_hdr)));
  frh->family = AF_INET;
  frh->src_len = static_cast<uint8_t>(prefix_len);
  frh->action = FR_ACT_TO_TBL;
  frh->table = static_cast<uint8_t>(table < 256 ? table : RT_TABLE_UNSPEC);  // above 255: FRA_TABLE alone
  attr(FRA_PRIORITY, &priority, sizeof priority);
  ipv4(FRA_SRC, src);
  attr(FRA_TABLE, &table, sizeof table);
  return transact();
}

int RawNetlink::default_route_add(uint32_t gateway) {
  start(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
  auto* rtm = static_cast<rtmsg*>(extra(sizeof(rtmsg)));
  rtm->rtm_family = AF_INET;
  rtm->rtm_table = RT_TABLE_MAIN;
  rtm->rtm_protocol = RTPROT_BOOT;
  rtm->rtm_scope = RT_SCOPE_UNIVERSE;
  rtm->rtm_type = RTN_UNICAST;
  ipv4(RTA_GATEWAY, gateway);
  return transact();
}

int RawNetlink::remove(const std::string& name) {
  start(RTM_DELLINK, 0);
  extra(sizeof(ifinfomsg));
  str(IFLA_IFNAME, name);
  return transact();
}

bool raw_netns_enter_new(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
  if (fd < 0) return false;
  ::close(fd);
  return ::unshare(CLONE_NEWNET) == 0 &&
         ::mount("/proc/thread-self/ns/net", path.c_str(), "none", MS_BIND, nullptr) == 0;
}

bool raw_netns_add(const std::string& path, int home_fd) {
  bool made = raw_netns_enter_new(path);
  // The benchmark's thread must not stay in the new namespace.
  if (::setns(home_fd, CLONE_NEWNET) != 0)
    throw std::runtime_error("setns back to the bench's namespace failed");
  return made;
}

}  // namespace brisk::bench
