// netlink/kernel_socket.h: the Transport that is a NETLINK_ROUTE socket.
#pragma once

#include <memory>

#include "brisk/fd.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/transport.h"

namespace brisk::netlink::detail {

class KernelSocket final : public Transport {
 public:
  // Takes a NETLINK_ROUTE socket already made in its namespace and sets it
  // up: extended and capped ACKs, strict dump checks, the buffer sizes the
  // options ask for, and the bind.
  static NlResult<std::unique_ptr<KernelSocket>> configure(UniqueFd socket, const ConnectionOptions& options);

  NlResult<void> send(std::span<const iovec> parts) override;
  NlResult<std::size_t> receive(std::span<char> buffer, bool wait) override;
  NlResult<int> interface_index(const std::string& name) override;
  int receive_buffer() const override { return receive_buffer_; }
  int send_buffer() const override { return send_buffer_; }
  int fd() const override { return fd_.get(); }
  bool concurrent_lookups() const override { return true; }  // an ioctl beside a sendmsg

 private:
  explicit KernelSocket(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;
  int receive_buffer_ = 0;
  int send_buffer_ = 0;
};

}  // namespace brisk::netlink::detail
