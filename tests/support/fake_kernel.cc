#include "support/fake_kernel.h"

#include <cerrno>
#include <cstring>

namespace brisk::test {

Datagram ack(const nlmsghdr& request, int error) {
  Datagram d(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nlmsgerr)), 0);
  nlmsghdr h{.nlmsg_len = static_cast<uint32_t>(d.size()),
             .nlmsg_type = NLMSG_ERROR,
             .nlmsg_flags = NLM_F_CAPPED,
             .nlmsg_seq = request.nlmsg_seq,
             .nlmsg_pid = 0};
  nlmsgerr e{.error = -error, .msg = request};
  std::memcpy(d.data(), &h, sizeof h);
  std::memcpy(d.data() + NLMSG_HDRLEN, &e, sizeof e);
  return d;
}

Datagram done(const nlmsghdr& request) {
  Datagram d(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)), 0);
  nlmsghdr h{.nlmsg_len = static_cast<uint32_t>(d.size()),
             .nlmsg_type = NLMSG_DONE,
             .nlmsg_flags = NLM_F_MULTI,
             .nlmsg_seq = request.nlmsg_seq,
             .nlmsg_pid = 0};
  std::memcpy(d.data(), &h, sizeof h);
  return d;
}

Datagram reply_to(const nlmsghdr& request, const netlink::Message& reply) {
  auto bytes = reply.bytes();
  Datagram d(bytes.begin(), bytes.end());
  d.resize(NLMSG_ALIGN(d.size()), 0);
  auto* h = reinterpret_cast<nlmsghdr*>(d.data());
  h->nlmsg_seq = request.nlmsg_seq;
  h->nlmsg_pid = 0;
  h->nlmsg_flags |= NLM_F_MULTI;
  return d;
}

Datagram join(const std::vector<Datagram>& messages) {
  Datagram d;
  for (const auto& m : messages) d.insert(d.end(), m.begin(), m.end());
  return d;
}

namespace {

bool is_success_ack(const Datagram& d) {
  if (d.size() < NLMSG_HDRLEN + sizeof(nlmsgerr)) return false;
  nlmsghdr h;
  nlmsgerr e;
  std::memcpy(&h, d.data(), sizeof h);
  std::memcpy(&e, d.data() + NLMSG_HDRLEN, sizeof e);
  return h.nlmsg_type == NLMSG_ERROR && e.error == 0;
}

}  // namespace

netlink::NlResult<void> FakeKernel::send(std::span<const iovec> parts) {
  ++sends;
  if (fail_next_send) {
    int code = fail_next_send;
    fail_next_send = 0;
    return netlink::NetlinkError{.code = code, .op = "sendmsg"};
  }
  if (fail_send_number == sends) return netlink::NetlinkError{.code = fail_send_errno, .op = "sendmsg"};
  Datagram sent;
  for (const auto& part : parts) {
    const char* p = static_cast<const char*>(part.iov_base);
    sent.insert(sent.end(), p, p + part.iov_len);
  }
  if (sent.size() > static_cast<std::size_t>(send_buffer_))
    return netlink::NetlinkError{
        .code = EMSGSIZE, .op = "sendmsg", .detail = "datagram larger than the send buffer"};
  int left = static_cast<int>(sent.size());
  for (auto* nlh = reinterpret_cast<const nlmsghdr*>(sent.data()); NLMSG_OK(nlh, left);
       nlh = NLMSG_NEXT(nlh, left)) {
    const char* start = reinterpret_cast<const char*>(nlh);
    Answer answer;
    if (nlh->nlmsg_type < NLMSG_MIN_TYPE) {
      // A control message (a window's NLMSG_NOOP fence): the kernel ACKs it
      // if asked and hands it to no family, so neither does the fake.
      ++fences;
      if (nlh->nlmsg_flags & NLM_F_ACK) answer.datagrams.push_back(ack(*nlh));
    } else {
      requests.emplace_back(start, start + nlh->nlmsg_len);
      received.store(requests.size(), std::memory_order_release);
      answer = script_(*nlh);
      // As the kernel's netlink_rcv_skb: a success is ACKed only if asked.
      if (!(nlh->nlmsg_flags & NLM_F_ACK)) std::erase_if(answer.datagrams, is_success_ack);
    }
    for (auto& d : answer.datagrams) {
      if (answer.lose || queued_ + charge(d) > static_cast<std::size_t>(receive_buffer_)) {
        ++dropped;
        overrun_ = true;
        continue;
      }
      queued_ += charge(d);
      most_queued = std::max(most_queued, queued_);
      queue_.push_back(std::move(d));
    }
  }
  return {};
}

netlink::NlResult<std::size_t> FakeKernel::receive(std::span<char> buffer, bool wait) {
  if (overrun_) {
    overrun_ = false;
    return netlink::NetlinkError{.code = ENOBUFS, .op = "recvmsg"};
  }
  if (queue_.empty()) {
    if (!wait) return std::size_t{0};
    return netlink::NetlinkError{.code = EDEADLK,
                                 .op = "recvmsg",
                                 .detail = "fake kernel: nothing queued, the real one would block for ever"};
  }
  Datagram d = std::move(queue_.front());
  queue_.pop_front();
  queued_ -= charge(d);
  if (d.size() > buffer.size())
    return netlink::NetlinkError{
        .code = EMSGSIZE, .op = "recvmsg", .detail = "datagram larger than the receive buffer"};
  std::memcpy(buffer.data(), d.data(), d.size());
  return d.size();
}

netlink::NlResult<int> FakeKernel::interface_index(const std::string& name) {
  auto it = devices.find(name);
  if (it == devices.end())
    return netlink::NetlinkError{.code = ENODEV, .op = "ioctl(SIOCGIFINDEX)", .object = name};
  return it->second;
}

}  // namespace brisk::test
