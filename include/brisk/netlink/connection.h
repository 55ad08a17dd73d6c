// brisk/netlink/connection.h: one NETLINK_ROUTE socket bound to one network
// namespace, and the request pipeline over it.
//
// The socket is created in its namespace on a short-lived helper thread, so
// the calling thread never switches namespace; it stays bound there for
// life. It asks for extended ACKs (the kernel's error text and offending
// attribute), capped ACKs (errors do not echo the request) and strict
// checking of dump requests (kernel-side filters), and its receive buffer is
// enlarged with SO_RCVBUFFORCE, falling back to SO_RCVBUF.
//
// execute() sends many requests per sendmsg, never more in flight than the
// receive buffer can hold replies for, stamps each with a sequence number
// and matches every reply to its request by seq, accepting replies only from
// the kernel (nl_pid 0). Each request gets its own result. When the kernel
// reports ENOBUFS, ACKs were lost: every unanswered request is re-checked
// with its own recheck callback, never assumed done.
//
//   auto conn = Connection::open_in(netns_fd).value();
//   std::vector<Request> batch = ...;
//   conn.execute(batch);
//   for (auto& r : batch) if (!r.result) log(r.result.error().message());
//
// The socket sits behind a Transport (brisk/netlink/transport.h): over()
// runs a connection on any other, such as a test's scripted fake.
//
// A Connection is not thread-safe; use one per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "brisk/export.h"
#include "brisk/fd.h"
#include "brisk/netlink/error.h"
#include "brisk/netlink/message.h"
#include "brisk/netlink/transport.h"

namespace brisk::netlink {

class Connection;
namespace internal {
struct ConnectionHooks;
}  // namespace internal

struct ConnectionOptions {
  // Receive buffer asked for, in bytes; the kernel doubles it for overhead.
  int receive_buffer = 4 << 20;
  // Send buffer asked for; one sendmsg carries at most this much.
  int send_buffer = 1 << 20;
  // Most requests in flight at once; the receive buffer may bound it lower.
  std::size_t max_window = 1024;
  // Ignore the receive buffer when sizing the window (tests use it to force ENOBUFS).
  bool unbounded_window = false;
  // How many times a dump interrupted by concurrent changes is restarted before EINTR.
  int dump_retries = 8;
  // The first sequence number stamped (tests start near the wrap; 0 is never used).
  uint32_t first_sequence = 1;
  // Ask the kernel to ACK every change that succeeds (NLM_F_ACK), as ip does.
  // Off, a change is answered only if it fails, and one NLMSG_NOOP asking for
  // an ACK ends each window: the kernel answers in order, so that ACK says
  // the rest succeeded. An ACK costs the kernel and us ~1.5 us per change.
  bool ack_every_change = false;
};

// Receive-buffer bytes a reply can take, counted as the kernel counts them
// (skb truesize): an ACK, and a single object's reply to a GET.
inline constexpr std::size_t kAckBudget = 1024;
inline constexpr std::size_t kGetBudget = 16384;

struct Request {
  Message message;                        // the request; execute() stamps its seq and NLM_F_ACK
  const char* op = "";                    // e.g. "link add", for errors; static storage
  std::string object{};                   // what it acts on, for errors
  std::size_t reply_budget = kAckBudget;  // receive-buffer bytes its replies may take
  // Ask for an ACK. A single-object GET turns it off: its one reply (or its
  // error) completes it, so reply and ACK never compete for a small buffer.
  // A change without a reply handler is acknowledged by its window's fence
  // instead, unless ConnectionOptions::ack_every_change.
  bool ack = true;
  // Called for each reply that is not the final ACK (a GET's answer).
  std::function<NlResult<void>(const nlmsghdr&)> on_reply{};
  // After ENOBUFS lost its ACK: is the requested state in place? true means
  // success; false or an error fails the request. Without it the request
  // fails with ENOBUFS.
  std::function<NlResult<bool>(Connection&)> recheck{};
  NlResult<void> result{};      // filled in by execute()
  std::vector<UniqueFd> fds{};  // descriptors the message names (IFLA_NET_NS_FD), open until sent
  // Set when a sender on a helper thread found the reply lost and left the
  // re-check to the owning thread (netlink/internal/hooks.h).
  bool reply_lost = false;
};

struct ConnectionStats {
  uint64_t sendmsg_calls = 0;  // sendmsg system calls made
  uint64_t requests = 0;       // requests sent
  uint64_t enobufs = 0;        // times the kernel reported lost replies
  uint64_t rechecks = 0;       // requests whose outcome was re-checked after ENOBUFS
  uint64_t dump_restarts = 0;  // dumps restarted after NLM_F_DUMP_INTR or ENOBUFS
  uint64_t link_lookups = 0;   // names resolved outside the cache (SIOCGIFINDEX or GETLINK)
  uint64_t fences = 0;         // NLMSG_NOOPs sent to end a window of unacknowledged changes
};

class BRISK_EXPORT Connection {
 public:
  // A socket in the calling thread's network namespace.
  static NlResult<Connection> open(const ConnectionOptions& options = {});
  // A socket in the namespace netns_fd refers to (not owned; a duplicate is
  // kept for operations that must run there, such as tun/tap creation).
  static NlResult<Connection> open_in(int netns_fd, const ConnectionOptions& options = {});
  // open_in for each namespace, every socket made on one helper thread (a
  // thread each costs a context switch, milliseconds on a loaded host).
  // One result per fd, in order.
  static std::vector<NlResult<Connection>> open_in_each(std::span<const int> netns_fds,
                                                        const ConnectionOptions& options = {});
  // A connection over a NETLINK_ROUTE socket the caller made inside the
  // namespace netns_fd refers to (not owned, duplicated; -1: the caller's
  // own), configured as open() configures its own: for a socket made while
  // the thread was in a namespace, which saves open_in's setns. EPROTOTYPE
  // when the socket is not a NETLINK_ROUTE socket.
  static NlResult<Connection> adopt(UniqueFd socket, int netns_fd, const ConnectionOptions& options = {});
  // A connection over another transport; netns_fd() is -1. Options that
  // size the socket's buffers are the transport's business.
  static Connection over(std::unique_ptr<Transport> transport, const ConnectionOptions& options = {});

  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;
  ~Connection();

  // Sends every request, pipelined, and fills in each one's result.
  void execute(std::span<Request> requests);
  // One request on its own.
  NlResult<void> execute(Request request);
  // A dump: on_message sees every object; on_restart is called before a
  // restart after NLM_F_DUMP_INTR, so partial results can be dropped.
  NlResult<void> dump(Message request, const char* op, const std::string& object,
                      const std::function<NlResult<void>(const nlmsghdr&)>& on_message,
                      const std::function<void()>& on_restart);

  // The name→ifindex cache, kept coherent by our own changes.
  std::optional<int> cached_ifindex(const std::string& name) const;
  void forget_name(const std::string& name) { names_.erase(name); }
  void forget_all_names() { names_.clear(); }
  std::size_t cached_names() const { return names_.size(); }

  int fd() const { return transport_->fd(); }
  int netns_fd() const { return netns_.get(); }  // -1: the caller's own namespace
  int receive_buffer() const {
    return transport_->receive_buffer();
  }  // actual bytes, as the kernel reports it
  // Requests of `reply_budget` bytes each that one window may hold.
  std::size_t window_requests(std::size_t reply_budget) const;
  const ConnectionStats& stats() const { return stats_; }
  ConnectionStats& stats() { return stats_; }
  const ConnectionOptions& options() const { return options_; }

 private:
  // brisk's own programs reach the hooks below through it (netlink/internal/hooks.h).
  friend struct internal::ConnectionHooks;
  Connection() = default;
  void remember_ifindex(const std::string& name, int ifindex) { names_[name] = ifindex; }
  Transport& transport() { return *transport_; }
  BRISK_HIDDEN void execute_unchecked(std::span<Request> requests);
  BRISK_HIDDEN void recheck_lost(std::span<Request> requests);
  static NlResult<Connection> create(int netns_fd, const ConnectionOptions& options);
  // Options, buffers and bind for a socket already made in its namespace.
  static NlResult<Connection> finish_open(UniqueFd socket, int netns_fd, const ConnectionOptions& options);
  // Receive-buffer bytes one window's replies may take.
  std::size_t window_bytes() const;
  void execute_window(std::span<Request> window, bool recheck);
  void windows(std::span<Request> requests, bool recheck);
  // A request whose reply was lost: is what it asked for in place?
  void settle_lost(Request& request);
  // Stamps the next sequence number (skipping 0) into `message`.
  void stamp(Message& message);
  // Reads one datagram into buffer_; returns its length, 0 for "nothing" when !wait.
  NlResult<std::size_t> receive(bool wait);

  std::unique_ptr<Transport> transport_;
  UniqueFd netns_;
  ConnectionOptions options_{};
  uint32_t next_seq_ = 1;
  std::unique_ptr<char[]> buffer_;  // a datagram read, 64 KiB
  std::unordered_map<std::string, int> names_;
  ConnectionStats stats_{};
};

}  // namespace brisk::netlink
