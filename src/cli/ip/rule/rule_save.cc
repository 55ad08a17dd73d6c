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

#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"
#include "cli/ip/saved_stream.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

namespace {

// ip's restore ends the process when it is done, batch or not: exit(0),
// or exit(-1) at the first message that fails.
int restore_rules_and_exit(Runner& r, const IpCommand& cmd, int) {
  auto restored = restore_rules(r, cmd);
  if (restored) return 0;
  const netlink::NetlinkError& e = restored.error();
  r.error_line(e.kernel || e.op != kRuleRestoreOp ? runtime_message(e) : e.detail);
  return kArgumentExit;
}

}  // namespace

extern const Verb kRuleSave, kRuleRestore;  // listed with rule.cc's verbs

const Verb kRuleSave{.name = "rule save", .run = save_rules};
const Verb kRuleRestore{
    .name = "rule restore", .run_to_exit = restore_rules_and_exit, .reads_rest_of_batch = true};

namespace {

using netlink::NetlinkError;
using netlink::NlResult;

constexpr uint32_t kRuleDumpMagic = 0x71706986;  // ip's rule_dump_magic

}  // namespace

Parsed<IpCommand> parse_rule_save(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kRuleSave;
  if (!c.done()) return refused("\"ip rule save\" does not take any arguments.");
  if (::isatty(STDOUT_FILENO)) return refused("Not sending a binary stream to stdout");
  return cmd;
}

Parsed<IpCommand> parse_rule_restore(Cursor&, IpCommand&& cmd) {
  cmd.verb = &kRuleRestore;  // as ip, any words after it are ignored
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
  std::string storage;
  std::string_view data =
      BRISK_TRY(restore_input(cmd, kRuleRestoreOp, "Can't restore rule dump from a terminal", storage));
  return each_saved_message(
      data, kRuleDumpMagic, kRuleRestoreOp, [&](const nlmsghdr& saved) -> NlResult<void> {
        auto c = BRISK_TRY(r.conn());
        auto message = netlink::Message::from_bytes({reinterpret_cast<const char*>(&saved), saved.nlmsg_len});
        message.add_flags(NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK);
        // As ip: a rule that is there already is no failure (without
        // NLM_F_EXCL the kernel adds most rules again anyway).
        auto done = c->execute({.message = std::move(message), .op = kRuleRestoreOp});
        if (!done && done.error().code != EEXIST) return done;
        return {};
      });
}

}  // namespace brisk::ipcli
