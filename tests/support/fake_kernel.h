// A scripted stand-in for the kernel behind a netlink Connection.
//
// Connection::over(std::make_unique<FakeKernel>(script)) runs the real
// request pipeline (windows, sequence numbers, reply matching, re-checks,
// batches) against a script that answers each request as the kernel would:
// no socket, no namespace, no privilege.
//
// Like rtnetlink, the fake handles every request of a datagram inside
// send(), queueing its answers; and like a socket's receive buffer, its
// queue is bounded: an answer that does not fit is dropped, and the next
// receive reports ENOBUFS once. As the kernel does, it ACKs a success only
// when the request asks for it (NLM_F_ACK), and ACKs a control message
// (NLMSG_NOOP) itself without showing it to the script.
#pragma once

#include <linux/netlink.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "brisk/netlink/message.h"
#include "brisk/netlink/transport.h"

namespace brisk::test {

using Datagram = std::vector<char>;

// An NLMSG_ERROR answering `request`: an ACK for error 0, else -error, capped
// (no echoed payload) as NETLINK_CAP_ACK asks.
Datagram ack(const nlmsghdr& request, int error = 0);
// The NLMSG_DONE that ends a dump.
Datagram done(const nlmsghdr& request);
// `reply` as one part of the answer to `request` (its seq, NLM_F_MULTI).
Datagram reply_to(const nlmsghdr& request, const netlink::Message& reply);
// Several messages in one datagram, as the kernel packs a dump.
Datagram join(const std::vector<Datagram>& messages);

class FakeKernel final : public netlink::Transport {
 public:
  struct Answer {
    std::vector<Datagram> datagrams{};  // queued in order
    bool lose = false;                  // dropped as on an overrun: the next receive says ENOBUFS
  };
  // Called once per request, in the order sent.
  using Script = std::function<Answer(const nlmsghdr& request)>;

  explicit FakeKernel(Script script, int receive_buffer = 1 << 20, int send_buffer = 1 << 20)
      : script_(std::move(script)), receive_buffer_(receive_buffer), send_buffer_(send_buffer) {}

  netlink::NlResult<void> send(std::span<const iovec> parts) override;
  // With nothing queued and `wait`, the kernel would block for ever: the
  // fake fails the receive instead (EDEADLK), so a test cannot hang.
  netlink::NlResult<std::size_t> receive(std::span<char> buffer, bool wait) override;
  netlink::NlResult<int> interface_index(const std::string& name) override;
  int receive_buffer() const override { return receive_buffer_; }
  int send_buffer() const override { return send_buffer_; }
  bool concurrent_lookups() const override { return concurrent; }

  // Bytes a queued datagram is charged, as an skb's truesize is: its size
  // and a fixed overhead.
  static std::size_t charge(const Datagram& d) { return d.size() + 576; }

  std::map<std::string, int> devices;    // what interface_index finds
  std::vector<Datagram> requests;        // every request received, in order (control messages aside)
  std::size_t fences = 0;                // control messages (NLMSG_NOOP) received, and ACKed if asked
  std::atomic<std::size_t> received{0};  // requests.size(), readable while send() runs on another thread
  std::size_t sends = 0;                 // send() calls
  std::size_t most_queued = 0;           // high-water mark of the queue, in charged bytes
  std::size_t dropped = 0;               // datagrams dropped for want of room, or lost by the script
  int fail_next_send = 0;                // an errno: the next send() takes nothing and fails with it
  std::size_t fail_send_number =
      0;  // with fail_send_errno: the send() of this number (1 = the first) fails so
  int fail_send_errno = EIO;
  // Let a long batch look names up (in `devices`, which the script must
  // then leave alone) while send() runs on its send thread.
  bool concurrent = false;

 private:
  Script script_;
  int receive_buffer_;
  int send_buffer_;
  std::deque<Datagram> queue_;
  std::size_t queued_ = 0;  // charged bytes in queue_
  bool overrun_ = false;    // report ENOBUFS at the next receive
};

}  // namespace brisk::test
