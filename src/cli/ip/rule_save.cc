// ip rule save and restore: the rules as the kernel dumps them, each
// message's bytes as received after ip's magic word, and that stream sent
// back one message at a time. The format is ip's, so either tool reads a
// file the other wrote.
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/ip/objects.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {
namespace {

using netlink::NetlinkError;
using netlink::NlResult;

constexpr uint32_t kRuleDumpMagic = 0x71706986;  // ip's rule_dump_magic
constexpr std::size_t kLargestMessage = 16384;   // ip's rtnl_from_file() buffer

// A stream ip's restore would refuse, with ip's words for why.
NetlinkError bad_stream(std::string text) {
  return NetlinkError{.code = EINVAL, .op = kRuleRestore, .detail = std::move(text)};
}

NlResult<std::string> read_all(int fd) {
  std::string data;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return bad_stream(std::string("rtnl_from_file: fread: ") + std::strerror(errno));
    if (n == 0) return data;
    data.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

Parsed<IpCommand> parse_rule_save(Cursor& c, IpCommand&& cmd) {
  cmd.verb = Verb::rule_save;
  if (!c.done()) return refused("\"ip rule save\" does not take any arguments.");
  if (::isatty(STDOUT_FILENO)) return refused("Not sending a binary stream to stdout");
  return cmd;
}

Parsed<IpCommand> parse_rule_restore(Cursor&, IpCommand&& cmd) {
  cmd.verb = Verb::rule_restore;  // as ip, any words after it are ignored
  return cmd;
}

NlResult<void> save_rules(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  netlink::Message m(RTM_GETRULE, NLM_F_REQUEST);
  // ip saves IPv4's rules unless -6 is given.
  m.put_header<fib_rule_hdr>().family = static_cast<uint8_t>(cmd.family == AF_UNSPEC ? AF_INET : cmd.family);
  std::string stream(reinterpret_cast<const char*>(&kRuleDumpMagic), sizeof kRuleDumpMagic);
  BRISK_TRY(c->dump(
      std::move(m), "rule save", "",
      [&stream](const nlmsghdr& message) -> NlResult<void> {
        if (message.nlmsg_type == RTM_NEWRULE)
          stream.append(reinterpret_cast<const char*>(&message), message.nlmsg_len);
        return {};
      },
      [&stream] { stream.resize(sizeof kRuleDumpMagic); }));
  r.out() += stream;
  return {};
}

NlResult<void> restore_rules(Runner& r, const IpCommand& cmd) {
  std::string from_stdin;
  if (!cmd.restore_input().from_batch) {
    if (::isatty(STDIN_FILENO)) return bad_stream("Can't restore rule dump from a terminal");
    from_stdin = BRISK_TRY(read_all(STDIN_FILENO));
  }
  std::string_view data = cmd.restore_input().from_batch ? std::string_view(cmd.restore_input().text) : from_stdin;
  uint32_t magic = 0;
  std::memcpy(&magic, data.data(), std::min(data.size(), sizeof magic));
  if (data.size() < sizeof magic || magic != kRuleDumpMagic) {
    char text[64];
    std::snprintf(text, sizeof text, "Magic mismatch (%d elems, %x magic)",
                  data.size() >= sizeof magic ? 1 : 0, magic);
    return bad_stream(text);
  }
  auto c = BRISK_TRY(r.conn());
  std::size_t at = sizeof magic;
  while (at < data.size()) {
    if (data.size() - at < sizeof(nlmsghdr)) return bad_stream("rtnl-from_file: truncated message");
    nlmsghdr header;
    std::memcpy(&header, data.data() + at, sizeof header);
    if (header.nlmsg_len < sizeof(nlmsghdr) || header.nlmsg_len > kLargestMessage)
      return bad_stream("!!!malformed message: len=" + std::to_string(int(header.nlmsg_len)) + " @" +
                        std::to_string(at + sizeof header));
    std::size_t length = header.nlmsg_len, padded = NLMSG_ALIGN(length);
    if (data.size() - at < padded) return bad_stream("rtnl-from_file: truncated message");
    auto message = netlink::Message::from_bytes({data.data() + at, length});
    message.add_flags(NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK);
    // As ip: a rule that is there already is no failure (without
    // NLM_F_EXCL the kernel adds most rules again anyway).
    auto done = c->execute({.message = std::move(message), .op = kRuleRestore});
    if (!done && done.error().code != EEXIST) return done;
    at += padded;
  }
  return {};
}

}  // namespace brisk::ipcli
