#include "brisk/netlink/connection.h"

#include <sys/uio.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <vector>

#include "netlink/ack.h"
#include "netlink/kernel_socket.h"
#include "netlink/reply_walk.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"
#include "sys/syscalls.h"

namespace brisk::netlink {
namespace {

constexpr std::size_t kReceiveBufferSize = 64 * 1024;  // > the 32 KiB the kernel puts in a dump datagram

// A window's requests that still wait for their answer, found by a reply's
// sequence number. stamp() numbers them consecutively (skipping 0 where the
// counter wraps), so a reply's place is its distance from the first stamp,
// confirmed against the stamp kept there; anything else is stale. Flat
// arrays: a window is up to a thousand requests, one per batch line.
class PendingReplies {
 public:
  explicit PendingReplies(std::size_t capacity) {
    seqs_.reserve(capacity);
    requests_.reserve(capacity);
    open_.reserve(capacity);
    quiet_.reserve(capacity);
  }
  // `quiet`: a change sent without NLM_F_ACK, answered only if it fails.
  void add(uint32_t seq, std::size_t request, bool quiet) {
    seqs_.push_back(seq);
    requests_.push_back(request);
    open_.push_back(true);
    quiet_.push_back(quiet);
    ++open_count_;
  }
  bool empty() const { return open_count_ == 0; }
  // The place of the open request stamped `seq`, if there is one.
  std::optional<std::size_t> find(uint32_t seq) const {
    if (seqs_.empty() || seq == 0) return std::nullopt;
    std::size_t place = seq - seqs_.front();
    if (seq < seqs_.front()) --place;  // past the wrap, which skipped 0
    if (place >= seqs_.size() || seqs_[place] != seq || !open_[place]) return std::nullopt;
    return place;
  }
  std::size_t request(std::size_t place) const { return requests_[place]; }
  void close(std::size_t place) {
    if (open_[place]) open_[place] = false, --open_count_;
  }
  // The quiet changes still open succeeded: the window's fence was answered.
  void close_quiet() {
    for (std::size_t place = 0; place < seqs_.size(); ++place)
      if (quiet_[place]) close(place);
  }
  // fn(window index) for each request still open, in the order sent.
  template <class Fn>
  void for_each_open(Fn&& fn) const {
    for (std::size_t place = 0; place < seqs_.size(); ++place)
      if (open_[place]) fn(requests_[place]);
  }

 private:
  std::vector<uint32_t> seqs_;
  std::vector<std::size_t> requests_;  // index in the window
  std::vector<bool> open_;
  std::vector<bool> quiet_;
  std::size_t open_count_ = 0;
};

// One window's exchange with the kernel: its requests stamped and sent,
// many per sendmsg, then replies matched to them until each has its answer.
//
// A quiet change asks for no ACK: only its failure is answered. The
// window's fence, a NLMSG_NOOP that asks for one, goes last; the kernel
// answers a socket's requests in the order sent, so once the fence's ACK is
// in, a quiet change still without an answer succeeded. A window of one
// change (each line of a batch that stops at its first failure and cannot
// undo it) asks for its own ACK: a fence there would only add a message to
// build, send and answer.
class WindowExchange {
 public:
  WindowExchange(std::span<Request> window, Transport& transport, ConnectionStats& stats,
                 bool ack_every_change)
      : window_(window),
        transport_(transport),
        stats_(stats),
        ack_every_change_(ack_every_change),
        pending_(window.size()),
        send_limit_(static_cast<std::size_t>(std::max(transport.send_buffer() - 32, 4096))) {}

  // Stamps each request with `stamp(Message&)` and sends them, the fence last.
  template <class Stamp>
  void send(Stamp&& stamp) {
    std::size_t quiet_count = 0;
    for (std::size_t k = 0; k < window_.size(); ++k) {
      Request& r = window_[k];
      if (r.message.overflowed()) {
        r.result = NetlinkError{
            .code = EMSGSIZE, .op = r.op, .object = r.object, .detail = "request does not fit its buffer"};
        continue;
      }
      const bool is_quiet = quiet(r);
      if (is_quiet) {
        r.message.header()->nlmsg_flags &= static_cast<uint16_t>(~NLM_F_ACK);
        r.message.add_flags(NLM_F_REQUEST);
        ++quiet_count;
      } else {
        r.message.add_flags(r.ack ? NLM_F_REQUEST | NLM_F_ACK : NLM_F_REQUEST);
      }
      stamp(r.message);
      r.result = {};
      pending_.add(r.message.seq(), k, is_quiet);
      put(r.message.bytes(), k);
    }
    if (quiet_count > 0) {
      fence_.emplace(NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, NLMSG_HDRLEN);
      stamp(*fence_);
      ++stats_.fences;
      fence_open_ = true;
      put(fence_->bytes(), kFence);
    }
    flush();
  }

  // Reads replies with `receive(bool wait)`, which fills `buffer`, until
  // every request has its answer; false when a receive failed (each
  // request still open then has that error). rtnetlink handles a sendmsg
  // synchronously, so once ENOBUFS is seen, whatever is not already queued
  // was dropped, and the requests left open lost their replies.
  template <class Receive>
  bool collect(Receive&& receive, const char* buffer) {
    while (!pending_.empty()) {
      auto n = receive(!lost_ && !fence_unsent_);
      if (!n) {
        if (n.error().code == ENOBUFS) {
          ++stats_.enobufs;
          lost_ = true;
          continue;
        }
        pending_.for_each_open([&](std::size_t k) { fail(window_[k], n.error()); });
        return false;
      }
      if (*n == 0) {
        // Drained. Without a fence, what the kernel queued within sendmsg is
        // every answer there will be: a quiet change without one succeeded,
        // unless an overrun may have dropped it.
        if (fence_unsent_ && !lost_) pending_.close_quiet();
        if (lost_ || fence_unsent_) break;  // the rest lost their replies
        continue;
      }
      detail::for_each_message({buffer, *n}, [&](const nlmsghdr& nlh) {
        on_message(nlh);
        return true;
      });
    }
    return true;
  }

  // fn(Request&) for each request left without an answer.
  template <class Fn>
  void for_each_unanswered(Fn&& fn) {
    pending_.for_each_open([&](std::size_t k) { fn(window_[k]); });
  }

 private:
  static constexpr std::size_t kFence = SIZE_MAX;  // the fence's place in chunk_

  bool quiet(const Request& r) const {
    return !ack_every_change_ && r.ack && !r.on_reply && window_.size() > 1;
  }

  static void fail(Request& r, NetlinkError e) {
    e.object = r.object;
    r.result = e;
  }

  // Adds a message to the next sendmsg, sending those before it first if it would not fit.
  void put(std::span<const char> bytes, std::size_t k) {
    if (chunk_bytes_ + bytes.size() > send_limit_ || iov_.size() >= IOV_MAX) flush();
    iov_.push_back({const_cast<char*>(bytes.data()), bytes.size()});
    chunk_.push_back(k);
    chunk_bytes_ += bytes.size();
  }

  // One sendmsg of what put() gathered.
  void flush() {
    if (iov_.empty()) return;
    ++stats_.sendmsg_calls;
    auto sent = transport_.send(iov_);
    if (!sent) {
      // Nothing of this datagram reached the kernel: its requests all fail.
      for (std::size_t k : chunk_) {
        if (k == kFence) {
          fence_open_ = false;
          fence_unsent_ = true;
          continue;
        }
        fail(window_[k], sent.error());
        if (auto place = pending_.find(window_[k].message.seq())) pending_.close(*place);
      }
    }
    stats_.requests += chunk_.size() - static_cast<std::size_t>(!chunk_.empty() && chunk_.back() == kFence);
    iov_.clear();
    chunk_.clear();
    chunk_bytes_ = 0;
  }

  // One reply: the fence's ACK, a request's ACK or error, or a GET's answer.
  void on_message(const nlmsghdr& nlh) {
    if (fence_open_ && nlh.nlmsg_seq == fence_->seq()) {
      if (nlh.nlmsg_type != NLMSG_ERROR) return;
      fence_open_ = false;
      // After an overrun, silence no longer means success.
      if (!lost_) pending_.close_quiet();
      return;
    }
    auto place = pending_.find(nlh.nlmsg_seq);
    if (!place) return;  // a stale reply from an earlier, lossy window
    Request& r = window_[pending_.request(*place)];
    if (nlh.nlmsg_type == NLMSG_ERROR) {
      NlResult<void> acked = parse_ack(nlh, r.message.bytes(), r.op, r.object);
      if (r.result) r.result = std::move(acked);  // a reply-parse error stays
      pending_.close(*place);
    } else if (nlh.nlmsg_type != NLMSG_DONE && nlh.nlmsg_type != NLMSG_NOOP && r.on_reply && r.result) {
      auto handled = r.on_reply(nlh);
      if (!handled) {
        handled.error().op = r.op;
        handled.error().object = r.object;
        r.result = std::move(handled).error();
      }
      if (!r.ack) pending_.close(*place);
    }
  }

  std::span<Request> window_;
  Transport& transport_;
  ConnectionStats& stats_;
  const bool ack_every_change_;
  PendingReplies pending_;
  const std::size_t send_limit_;    // bytes one sendmsg carries at most
  std::vector<iovec> iov_;          // the next sendmsg's messages
  std::vector<std::size_t> chunk_;  // their indexes in the window (kFence: the fence)
  std::size_t chunk_bytes_ = 0;     // their bytes
  std::optional<Message> fence_;
  bool fence_open_ = false;    // sent, and its ACK not yet in
  bool fence_unsent_ = false;  // its sendmsg failed: what is queued is all there is
  bool lost_ = false;          // the kernel reported ENOBUFS: replies were dropped
};

}  // namespace
// Out of line: the transport's destructor is virtual, and inlining the
// whole NlResult<Connection> teardown everywhere only grows the callers.
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

NlResult<Connection> Connection::open(const ConnectionOptions& options) { return create(-1, options); }

NlResult<Connection> Connection::open_in(int netns_fd, const ConnectionOptions& options) {
  if (netns_fd < 0)
    return invalid_argument("netlink open", std::to_string(netns_fd), "not a namespace fd", EBADF);
  return create(netns_fd, options);
}

NlResult<Connection> Connection::create(int netns_fd, const ConnectionOptions& options) {
  auto socket = sys::socket_in_netns(netns_fd, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
  if (!socket) return NetlinkError::from(socket.error());
  return finish_open(std::move(*socket), netns_fd, options);
}

std::vector<NlResult<Connection>> Connection::open_in_each(std::span<const int> netns_fds,
                                                           const ConnectionOptions& options) {
  std::vector<std::optional<Result<UniqueFd>>> sockets(netns_fds.size());
  auto made = sys::run_on_thread([&]() -> Result<void> {
    for (std::size_t i = 0; i < netns_fds.size(); ++i) {
      if (netns_fds[i] < 0) continue;
      auto entered = sys::setns(netns_fds[i], CLONE_NEWNET);
      sockets[i].emplace(entered ? sys::socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)
                                 : Result<UniqueFd>(entered.error()));
    }
    return {};
  });
  std::vector<NlResult<Connection>> conns;
  conns.reserve(netns_fds.size());
  for (std::size_t i = 0; i < netns_fds.size(); ++i) {
    int ns = netns_fds[i];
    if (ns < 0)
      conns.push_back(invalid_argument("netlink open", std::to_string(ns), "not a namespace fd", EBADF));
    else if (!made)
      conns.push_back(NetlinkError::from(made.error()));
    else if (!*sockets[i])
      conns.push_back(NetlinkError::from(sockets[i]->error()));
    else
      conns.push_back(finish_open(std::move(**sockets[i]), ns, options));
  }
  return conns;
}

NlResult<Connection> Connection::adopt(UniqueFd socket, int netns_fd, const ConnectionOptions& options) {
  auto domain = sys::getsockopt_int(socket.get(), SOL_SOCKET, SO_DOMAIN, "SO_DOMAIN");
  if (!domain) return NetlinkError::from(domain.error());
  auto protocol = sys::getsockopt_int(socket.get(), SOL_SOCKET, SO_PROTOCOL, "SO_PROTOCOL");
  if (!protocol) return NetlinkError::from(protocol.error());
  if (*domain != AF_NETLINK || *protocol != NETLINK_ROUTE)
    return invalid_argument("netlink adopt", std::to_string(socket.get()), "not a NETLINK_ROUTE socket",
                            EPROTOTYPE);
  return finish_open(std::move(socket), netns_fd, options);
}

NlResult<Connection> Connection::finish_open(UniqueFd socket, int netns_fd,
                                             const ConnectionOptions& options) {
  UniqueFd netns;
  if (netns_fd >= 0) {
    auto copy = sys::dup(netns_fd);
    if (!copy) return NetlinkError::from(copy.error());
    netns = std::move(*copy);
  }
  auto transport = detail::KernelSocket::configure(std::move(socket), options);
  if (!transport) return std::move(transport).error();
  Connection conn = over(std::move(*transport), options);
  conn.netns_ = std::move(netns);
  return conn;
}

Connection Connection::over(std::unique_ptr<Transport> transport, const ConnectionOptions& options) {
  Connection conn;
  conn.options_ = options;
  conn.transport_ = std::move(transport);
  conn.next_seq_ = options.first_sequence == 0 ? 1 : options.first_sequence;
  // Not zeroed: a reply touches only the pages it fills, where zeroing
  // 64 KiB cost a one-request process 16 page faults (~10% of its time).
  conn.buffer_ = std::make_unique_for_overwrite<char[]>(kReceiveBufferSize);
  return conn;
}

void Connection::stamp(Message& message) {
  message.set_seq(next_seq_++);
  if (next_seq_ == 0) next_seq_ = 1;
}

// Half the buffer: the kernel's own accounting overhead varies by skb.
std::size_t Connection::window_bytes() const {
  if (options_.unbounded_window) return SIZE_MAX;
  return static_cast<std::size_t>(transport_->receive_buffer()) / 2;
}

std::size_t Connection::window_requests(std::size_t reply_budget) const {
  std::size_t most = std::max<std::size_t>(options_.max_window, 1);
  return std::clamp<std::size_t>(window_bytes() / std::max<std::size_t>(reply_budget, 1), 1, most);
}

std::optional<int> Connection::cached_ifindex(const std::string& name) const {
  auto it = names_.find(name);
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

NlResult<std::size_t> Connection::receive(bool wait) {
  return transport_->receive({buffer_.get(), kReceiveBufferSize}, wait);
}

void Connection::execute(std::span<Request> requests) { windows(requests, true); }

void Connection::execute_unchecked(std::span<Request> requests) { windows(requests, false); }

void Connection::recheck_lost(std::span<Request> requests) {
  for (auto& r : requests)
    if (r.reply_lost) settle_lost(r);
}

void Connection::windows(std::span<Request> requests, bool recheck) {
  const std::size_t budget = window_bytes(), most = std::max<std::size_t>(options_.max_window, 1);
  std::size_t i = 0;
  while (i < requests.size()) {
    // The window: as many requests as the receive buffer can hold replies
    // for (window_requests() is this count for requests of one budget).
    std::size_t used = 0, count = 0;
    while (i + count < requests.size() && count < most) {
      std::size_t need = requests[i + count].reply_budget;
      if (count > 0 && used + need > budget) break;
      used += need;
      ++count;
    }
    execute_window(requests.subspan(i, count), recheck);
    i += count;
  }
}

NlResult<void> Connection::execute(Request request) {
  execute(std::span<Request>(&request, 1));
  return std::move(request.result);
}

void Connection::execute_window(std::span<Request> window, bool recheck) {
  WindowExchange exchange(window, *transport_, stats_, options_.ack_every_change);
  exchange.send([this](Message& message) { stamp(message); });
  if (!exchange.collect([this](bool wait) { return receive(wait); }, buffer_.get())) return;
  // Lost replies: look at the objects themselves (or leave that to recheck_lost()).
  exchange.for_each_unanswered([&](Request& r) {
    r.result = NetlinkError{
        .code = ENOBUFS, .op = r.op, .object = r.object, .detail = "reply lost (receive buffer overrun)"};
    r.reply_lost = true;
    if (recheck) settle_lost(r);
  });
}

void Connection::settle_lost(Request& r) {
  r.reply_lost = false;
  ++stats_.rechecks;
  if (!r.recheck) return;  // it stays failed: ENOBUFS
  NetlinkError lost_error = r.result.error();
  auto state = r.recheck(*this);
  if (!state) {
    lost_error.detail += "; re-check failed: " + state.error().message();
    r.result = lost_error;
  } else if (!*state) {
    lost_error.detail += "; re-check found the change not in place";
    r.result = lost_error;
  } else {
    r.result = {};
  }
}

NlResult<void> Connection::dump(Message request, const char* op, const std::string& object,
                                const std::function<NlResult<void>(const nlmsghdr&)>& on_message,
                                const std::function<void()>& on_restart) {
  request.add_flags(NLM_F_REQUEST | NLM_F_DUMP);
  for (int attempt = 0;; ++attempt) {
    if (attempt > 0) {
      ++stats_.dump_restarts;
      if (on_restart) on_restart();
    }
    stamp(request);
    auto bytes = request.bytes();
    iovec iov{const_cast<char*>(bytes.data()), bytes.size()};
    ++stats_.sendmsg_calls;
    ++stats_.requests;
    auto sent = transport_->send({&iov, 1});
    if (!sent) {
      NetlinkError e = std::move(sent).error();
      e.object = object;
      return e;
    }
    bool interrupted = false, done = false, overrun = false;
    std::optional<NetlinkError> failure;
    while (!done) {
      auto n = receive(true);
      if (!n) {
        if (n.error().code != ENOBUFS) {
          NetlinkError e = n.error();
          e.object = object;
          return e;
        }
        ++stats_.enobufs;
        overrun = true;  // part of the dump is gone; drain and start again
        break;
      }
      detail::for_each_message({buffer_.get(), *n}, [&](const nlmsghdr& nlh) {
        if (nlh.nlmsg_seq != request.seq()) return true;
        if (nlh.nlmsg_flags & NLM_F_DUMP_INTR) interrupted = true;
        if (nlh.nlmsg_type == NLMSG_DONE) {
          if (auto ended = parse_dump_done(nlh, op, object); !ended && !failure) {
            failure = std::move(ended).error();
            failure->dump = true;
          }
          done = true;
          return false;
        }
        if (nlh.nlmsg_type == NLMSG_ERROR) {
          auto acked = parse_ack(nlh, request.bytes(), op, object);
          if (!acked) {
            failure = std::move(acked).error();
            failure->dump = true;
          }
          done = true;
          return false;
        }
        if (!failure && !interrupted) {
          auto handled = on_message(nlh);
          if (!handled) {
            failure = std::move(handled).error();
            if (!*failure->op) failure->op = op;
            if (failure->object.empty()) failure->object = object;
          }
        }
        return true;
      });
    }
    if (overrun) {
      while (true) {  // drop what is left of the broken dump
        auto n = receive(false);
        if (!n || *n == 0) break;
      }
    }
    if (failure) return *failure;
    if (!interrupted && !overrun) return {};
    if (attempt >= options_.dump_retries)
      return NetlinkError{
          .code = EINTR,
          .op = op,
          .object = object,
          .detail = "dump interrupted by concurrent changes " + std::to_string(attempt + 1) + " times"};
  }
}

}  // namespace brisk::netlink
