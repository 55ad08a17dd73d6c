// Recorded kernel replies: what a command asked of rtnetlink and what the
// kernel answered, kept as text so that a test can replay it without root.
//
// A Recorder wraps a real connection's socket and notes each request, each
// reply datagram and each name lookup; replay() turns what it noted into a
// FakeKernel script that answers each request with the recorded reply. A
// request is matched on its bytes (type, flags and payload) with its
// sequence number and port id left out, which the replay rewrites.
//
// The file format, one record a line (tests/cli/recorded/README.md):
//   case ARGS...        a command's arguments, space separated
//   status N            ip's exit status, then its output as ip printed it:
//   out |TEXT           a line of stdout (its newline implied);
//   out-end |TEXT       the last, when it has no newline;
//   err |TEXT, err-end  the same for stderr
//   lookup NAME N       an interface-index lookup: the index, or -errno
//   send HEX            a request, sequence number and port id zero
//   recv HEX            a datagram answering the last send, likewise;
//   recv =N             the same as the file's Nth recv written in hex (from 0)
//   end
// Lines starting with '#' are comments.
#pragma once

#include <linux/netlink.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/transport.h"
#include "netlink/internal/hooks.h"
#include "support/fake_kernel.h"

namespace brisk::test {

// One request and the datagrams that answered it.
struct Exchange {
  Datagram request{};               // sequence number and port id zero
  std::vector<Datagram> replies{};  // likewise, in the order received
};

// One command's recording: ip's output, and brisk's talk with the kernel.
struct RecordedCase {
  std::vector<std::string> args{};       // the command line after `ip`
  int status = 0;                        // ip's exit status
  std::string out{};                     // ip's stdout
  std::string err{};                     // ip's stderr
  std::map<std::string, int> lookups{};  // name -> ifindex, or -errno
  std::vector<Exchange> exchanges{};     // in the order sent
};

// The cases of a fixture file, in order; a malformed line is an error
// that names it.
struct ParsedFixture {
  std::vector<RecordedCase> cases{};
  std::string error{};  // empty when the file was read whole
};
ParsedFixture read_fixture(const std::string& text);
// `header` (comment lines, without their '#') and the cases, as read_fixture reads them.
std::string write_fixture(const std::vector<std::string>& header, const std::vector<RecordedCase>& cases);

// A transport over a real connection's socket that notes what passes.
class Recorder final : public netlink::Transport {
 public:
  explicit Recorder(netlink::Connection inner) : inner_(std::move(inner)) {}

  netlink::NlResult<void> send(std::span<const iovec> parts) override;
  netlink::NlResult<std::size_t> receive(std::span<char> buffer, bool wait) override;
  netlink::NlResult<int> interface_index(const std::string& name) override;
  int receive_buffer() const override { return inner_transport().receive_buffer(); }
  int send_buffer() const override { return inner_transport().send_buffer(); }
  int fd() const override { return inner_transport().fd(); }

  // What was noted, shared with the test that made the recorder (the
  // Connection that owns it keeps it alive no longer than the command).
  struct Notes {
    std::vector<Exchange> exchanges{};
    std::map<std::string, int> lookups{};
    std::map<uint32_t, std::size_t> by_seq{};  // a request's sequence number -> its exchange
  };
  std::shared_ptr<Notes> notes() const { return notes_; }

 private:
  netlink::Transport& inner_transport() const {
    return netlink::internal::ConnectionHooks::transport(const_cast<netlink::Connection&>(inner_));
  }

  netlink::Connection inner_;
  std::shared_ptr<Notes> notes_ = std::make_shared<Notes>();
};

// What the replay met that was not recorded.
struct ReplayMisses {
  std::vector<std::string> requests{};  // hex of each request no exchange matched
};

// A FakeKernel answering from `recorded`: each request with the replies of
// the first unused exchange whose request is the same (or, when each such
// was used, of the last), rewritten to its sequence number. A request that
// none matches is noted in `misses` and refused with EOPNOTSUPP.
std::unique_ptr<FakeKernel> replay(const RecordedCase& recorded, std::shared_ptr<ReplayMisses> misses);

}  // namespace brisk::test
