// ip token: the IPv6 token of each device (list, get), and one device's
// set or taken away (set, del), as ip 6.1 reads and prints them.
#include <net/if.h>

#include "brisk/netlink/link.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"
#include "netlink/internal/ipv6_token.h"

namespace brisk::ipcli {

// `brisk token help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kTokenUsage =
    R"(Usage: brisk token [ list | set | del | get ] [ TOKEN ] [ dev DEV ]
TOKEN is an IPv6 address whose low 64 bits become the interface id of DEV's
SLAAC addresses; del (or ::) takes it away. list shows every device's but
loopback and NOARP ones.
)";

// token looks its `dev` up as it parses, with words of its own.
const Verb kTokenShow{.name = "token show",
                      .run = show_tokens,
                      .looks_up_devices = true,
                      .missing_device_words = "dev is invalid\n"};
const Verb kTokenSet{.name = "token set",
                     .run = change_token,
                     .looks_up_devices = true,
                     .missing_device_words = "dev is invalid\n"};

using netlink::NlResult;

namespace {

// ip's iptoken_set() words: `dev DEV` (the first kept), the first other
// word the token (none read for del), `help` anywhere the usage.
Parsed<IpCommand> parse_token_change(Cursor& c, IpCommand&& cmd, bool del) {
  cmd.verb = &kTokenSet;
  TokenChange& change = cmd.token();
  bool have_token = del, have_dev = false;
  while (!c.done()) {
    std::string word = c.next();
    if (word == "dev") {
      std::string dev;
      TRY_SET(dev, c.value(word));
      if (!have_dev) change.dev = dev;
      have_dev = true;
    } else if (matches(word, "help")) {
      return object_help(kTokenUsage);
    } else if (!have_token) {
      std::string token;
      TRY_SET(token, ip_prefix("token", word, AF_INET6));
      change.token = token.substr(0, token.find('/'));
      have_token = true;
    }
  }
  if (!have_token) return refused("Not enough information: token is required.");
  if (!have_dev) return refused("Not enough information: \"dev\" argument is required.");
  return std::move(cmd);
}

// The device a token line names, looked up as ip does while it parses: a
// missing one is its argument error "dev is invalid" (argument_error).
NlResult<int> token_device(netlink::Connection& conn, const std::string& dev) {
  auto index = netlink::resolve_link(conn, dev);
  if (!index && index.error().code == ENODEV)  // any other failure keeps its own errno and text
    return netlink::missing_argument("token dev", "", netlink::Argument::device, dev);
  return index;
}

}  // namespace

Parsed<IpCommand> parse_token(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kTokenShow;
  if (c.done()) return std::move(cmd);
  std::string verb = c.next();
  // In ip's order: "s" is show, "d" delete, "g" get.
  if (matches(verb, "list") || matches(verb, "lst") || matches(verb, "show") || matches(verb, "get")) {
    while (!c.done()) {  // as ip: up to `dev DEV`, other words passed over
      std::string word = c.next();
      if (word != "dev") continue;
      TRY_SET(cmd.filter().dev, c.value(word));
      break;
    }
    return std::move(cmd);
  }
  if (matches(verb, "set") || matches(verb, "add")) return parse_token_change(c, std::move(cmd), false);
  if (matches(verb, "delete")) return parse_token_change(c, std::move(cmd), true);
  if (matches(verb, "help")) return object_help(kTokenUsage);
  return unknown_command(verb, "token");
}

NlResult<void> show_tokens(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  int dev = cmd.filter().dev.empty() ? 0 : BRISK_TRY(token_device(*c, cmd.filter().dev));
  r.use_json();
  auto tokens = BRISK_TRY(netlink::list_ipv6_tokens(*c));
  const Links& all = BRISK_TRY(r.links_by_index(false));
  for (const auto& t : tokens) {
    if (!t.ifindex || (dev && t.ifindex != dev) || (t.flags & (IFF_LOOPBACK | IFF_NOARP)) || !t.token)
      continue;
    std::string token = t.token->to_string(), name = name_of(t.ifindex, all);
    if (r.globals().json)
      r.emit(Json{{"token", token}, {"ifname", name}});
    else
      r.out() += "token " + token + " dev " + name + "\n";
  }
  return {};
}

NlResult<void> change_token(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  int dev = BRISK_TRY(token_device(*c, cmd.token().dev));
  auto token = BRISK_TRY(netlink::IpAddress::parse(cmd.token().token));
  return netlink::set_ipv6_token(*c, dev, token);
}

const Verb* const kTokenVerbs[] = {&kTokenShow, &kTokenSet};
const IpObject kTokenObject{
    .name = {"token", 2},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_token(c, std::move(cmd)); },
    .verbs = kTokenVerbs,
    .usage = [] { return kTokenUsage; }};

}  // namespace brisk::ipcli
