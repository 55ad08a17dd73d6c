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

// A veth pair made in one request, as a container's is: every index chosen
// by the caller (0: the kernel picks), so nothing needs looking up later.
struct RawVeth {
  std::string name;        // the end in the socket's namespace
  int index = 0;           // its ifindex; the peer's is only honoured when this is set
  int master = 0;          // ifindex of its bridge; 0: none
  bool up = false;         // up at creation
  std::string peer;        // the other end's name
  int peer_index = 0;      // its ifindex in its namespace
  int peer_netns_fd = -1;  // the namespace it is created in; -1: this one
  // No peer_up: the kernel configures the peer before pairing the two, so
  // an IFF_UP there fails (veth_open: ENOTCONN); it is set afterwards.
};

class RawNetlink {
 public:
  // A NETLINK_ROUTE socket in the namespace netns_fd refers to.
  explicit RawNetlink(int netns_fd);
  // Adopts a NETLINK_ROUTE socket already made in the right namespace.
  explicit RawNetlink(UniqueFd socket);

  // Sends and waits for the ACK; returns 0 or the negative errno.
  int veth_add(const std::string& name, const std::string& peer);
  int veth_add(const RawVeth& veth);
  // A bridge with the chosen ifindex (0: the kernel picks).
  int bridge_add(const std::string& name, int index, bool up);
  int set_up(const std::string& name);
  // Device `index` moved into netns_fd's namespace, renamed, with its new
  // MAC and up, in one RTM_NEWLINK (the kernel keeps the index when free).
  int move_link(int index, int netns_fd, const std::string& new_name, const uint8_t (&mac)[6], bool up);
  // What ip does for `dev NAME`: one RTM_GETLINK by name; 0 when missing.
  // Never queued.
  int ifindex(const std::string& name);
  // What brisk does for `dev NAME`: one ioctl(SIOCGIFINDEX) on this socket,
  // the cheapest way to learn the index a request must carry; 0 when missing.
  int index_by_name(const std::string& name);
  // addr is the IPv4 address in host order.
  int addr_add(int ifindex, uint32_t addr, int prefix_len = 32);
  // The IPv4 default route of the main table via gateway (host order).
  int default_route_add(uint32_t gateway);
  // What `ip route add DST/LEN via GW dev DEV onlink` sends (main table,
  // protocol boot); addresses in host order.
  int route_add(uint32_t dst, int prefix_len, uint32_t gateway, int ifindex);
  // What `ip rule add pref P from SRC/LEN lookup T` sends.
  int rule_add(uint32_t priority, uint32_t src, int prefix_len, uint32_t table);
  int remove(const std::string& name);

  // From now on the calls above queue their request and return 0; every
  // `window` requests go out in one send() and their ACKs are read.
  void pipeline(int window);
  // Pipelined requests ask for no ACK: only a failure is answered, and a
  // NLMSG_NOOP asking for an ACK ends each send (what brisk's engine sends
  // unless told to ACK every change).
  void quiet(bool on) { quiet_ = on; }
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
  int window_ = 0;     // 0: one request at a time
  std::string queue_;  // requests not sent yet
  int queued_ = 0;
  int failures_ = 0;    // failed requests since the last flush()
  bool quiet_ = false;  // see quiet()
};

// The floor of `netns add`: the mount point, unshare(CLONE_NEWNET) and the
// bind mount that keeps the namespace, on the calling thread, which then
// returns to `home_fd`'s namespace. True when the namespace was made.
bool raw_netns_add(const std::string& path, int home_fd);
// The same without the way back: the calling thread stays in the new
// namespace (when true), so a caller making many can return once. Whatever
// the result, the thread may have left its namespace.
bool raw_netns_enter_new(const std::string& path);

}  // namespace brisk::bench
