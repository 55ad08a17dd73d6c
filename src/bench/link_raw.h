// bench/link_raw.h: the "raw" method of `brisk bench link`, a minimal
// rtnetlink loop written for the benchmark: one request per send, then wait
// for its ACK. It is the floor any library adds its cost to. Pipelined
// (`brisk bench ip`'s floor), requests are queued and sent a window at a
// time, their ACKs read afterwards: the kernel's work and nothing else.
#pragma once

#include <linux/rtnetlink.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "brisk/fd.h"

namespace brisk::bench {

class RawNetlink {
 public:
  // A NETLINK_ROUTE socket in the namespace netns_fd refers to.
  explicit RawNetlink(int netns_fd);

  // Sends and waits for the ACK; returns 0 or the negative errno.
  int veth_add(const std::string& name, const std::string& peer);
  int set_up(const std::string& name);
  // What ip does for `dev NAME`: one RTM_GETLINK by name; 0 when missing.
  // Never queued.
  int ifindex(const std::string& name);
  // addr is the IPv4 address in host order, added as a /32.
  int addr_add(int ifindex, uint32_t addr);
  // What `ip route add DST/LEN via GW dev DEV onlink` sends (main table,
  // protocol boot); addresses in host order.
  int route_add(uint32_t dst, int prefix_len, uint32_t gateway, int ifindex);
  // What `ip rule add pref P from SRC/LEN lookup T` sends.
  int rule_add(uint32_t priority, uint32_t src, int prefix_len, uint32_t table);
  int remove(const std::string& name);

  // From now on the calls above queue their request and return 0; every
  // `window` requests go out in one send() and their ACKs are read.
  void pipeline(int window);
  // Sends what is queued, reads the ACKs; returns how many requests failed
  // since the last flush.
  int flush();

 private:
  void start(uint16_t type, uint16_t flags);
  void* extra(std::size_t size);
  rtattr* attr(uint16_t type, const void* data, std::size_t len);
  rtattr* str(uint16_t type, const std::string& s);
  rtattr* ipv4(uint16_t type, uint32_t addr);  // addr in host order, sent in network order
  void end(rtattr* nest);
  int transact();
  int send_queue();
  nlmsghdr* header() { return reinterpret_cast<nlmsghdr*>(buf_); }

  UniqueFd fd_;
  uint32_t seq_ = 0;
  int last_ifindex_ = 0;  // from the RTM_NEWLINK answering a GETLINK
  alignas(nlmsghdr) char buf_[4096];
  int window_ = 0;        // 0: one request at a time
  std::string queue_;     // requests not sent yet
  int queued_ = 0;
  int failures_ = 0;      // failed requests since the last flush()
};

// The floor of `netns add`: the mount point, unshare(CLONE_NEWNET) and the
// bind mount that keeps the namespace, on the calling thread, which then
// returns to `home_fd`'s namespace. True when the namespace was made.
bool raw_netns_add(const std::string& path, int home_fd);

}  // namespace brisk::bench
