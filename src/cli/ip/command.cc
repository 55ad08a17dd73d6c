// The ip command line: global options, the object (with ip's
// abbreviations), and the dispatch to that object's parser.
#include <climits>
#include <cstdlib>

#include "cli/ip/names.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {

std::optional<Object> object_of(std::string_view word) {
  // In ip's table order, so an abbreviation picks what ip picks ("n" is neigh).
  if (matches(word, "address")) return Object::address;
  if (matches(word, "addrlabel")) return Object::addrlabel;
  if (matches(word, "maddress")) return Object::maddr;
  if (matches(word, "route")) return Object::route;
  if (matches(word, "rule")) return Object::rule;
  if (matches(word, "neighbor") || matches(word, "neighbour")) return Object::neigh;
  if (matches(word, "ntable") || matches(word, "ntbl")) return Object::ntable;
  if (matches(word, "link")) return Object::link;
  if (matches(word, "netns")) return Object::netns;
  if (matches(word, "netconf")) return Object::netconf;
  if (word == "fdb") return Object::fdb;
  // ip's table has neigh ("n", "ne") and netns before nexthop ("nex"...).
  if (word.size() > 2 && matches(word, "nexthop")) return Object::nexthop;
  // ip's "t", "tu" and "tun" are its tunnel object, which brisk lacks.
  if ((word.size() >= 4 && matches(word, "tuntap")) || (word.size() >= 2 && matches(word, "tap")))
    return Object::tuntap;
  if (word.size() >= 2 && matches(word, "token")) return Object::token;
  // "m" is maddress, which comes first in ip's table.
  if (word.size() > 1 && matches(word, "monitor")) return Object::monitor;
  return std::nullopt;
}

}  // namespace

bool IpCommand::mutates() const {
  switch (verb) {
    case Verb::link_show:
    case Verb::addr_show:
    case Verb::route_show:
    case Verb::route_flush:
    case Verb::route_get:
    case Verb::route_save:
    case Verb::route_restore:
    case Verb::route_showdump:
    case Verb::rule_show:
    case Verb::rule_flush:
    case Verb::rule_save:
    case Verb::rule_restore:
    case Verb::neigh_show:
    case Verb::neigh_flush:
    case Verb::neigh_get:
    case Verb::fdb_show:
    case Verb::monitor:
    case Verb::netns_add:
    case Verb::netns_del:
    case Verb::netns_list:
    case Verb::netns_exec:
    case Verb::netns_identify:
    case Verb::netns_pids:
    case Verb::netns_set:
    case Verb::netns_attach:
    case Verb::netns_list_id:
    case Verb::netns_monitor:
    case Verb::addr_flush:
    case Verb::unparsed:
    // /dev/net/tun, not rtnetlink: run one at a time, outside a batch.
    case Verb::tuntap_add:
    case Verb::tuntap_del:
    case Verb::tuntap_show:
    case Verb::nexthop_show:
    case Verb::nexthop_flush:
    case Verb::nexthop_bucket_show:
    case Verb::addrlabel_show:
    case Verb::addrlabel_flush:
    // ioctls, after which ip exits: run alone, and the batch ends there.
    case Verb::maddr_add:
    case Verb::maddr_del:
    case Verb::maddr_show:
    case Verb::netconf_show:
    // One device's setting, sent alone (as ip's RTM_SETLINK), outside a batch.
    case Verb::token_show:
    case Verb::token_set:
    // Likewise one table's (RTM_SETNEIGHTBL), in its place in the batch.
    case Verb::ntable_show:
    case Verb::ntable_change:
      return false;
    default:
      return true;
  }
}

Parsed<IpCommand> parse_command(std::span<const std::string> args, const Globals& globals) {
  if (args.empty()) return usage("no object given, try \"brisk help\"");
  auto object = object_of(args[0]);
  // Words of ip's own objects that are not ip-only abbreviations of ours.
  if (!object)
    return fail(UsageError{.message = "Object \"" + args[0] + "\" is unknown, try \"brisk help\".",
                           .exact = true,
                           .exit_code = 1,
                           .line_failure = true});
  if (args.size() >= 2 && matches(args[1], "help")) return object_help(*object);
  IpCommand cmd;
  cmd.family = globals.family;
  Cursor c(args.subspan(1));
  switch (*object) {
    case Object::link:
      return parse_link(c, std::move(cmd));
    case Object::address:
      return parse_address(c, std::move(cmd), globals.family);
    case Object::route:
      return parse_route(c, std::move(cmd), globals.family);
    case Object::rule:
      return parse_rule(c, std::move(cmd), globals.family);
    case Object::neigh:
      return parse_neigh(c, std::move(cmd), globals.family);
    case Object::netns:
      return parse_netns(c, std::move(cmd), globals.all);
    case Object::fdb:
      return parse_fdb(c, std::move(cmd));
    case Object::tuntap:
      return parse_tuntap(c, std::move(cmd));
    case Object::monitor:
      return parse_monitor(c, std::move(cmd));
    case Object::nexthop:
      return parse_nexthop(c, std::move(cmd), globals.family);
    case Object::addrlabel:
      return parse_addrlabel(c, std::move(cmd), globals.family);
    case Object::maddr:
      return parse_maddr(c, std::move(cmd), globals.family);
    case Object::netconf:
      return parse_netconf(c, std::move(cmd));
    case Object::token:
      return parse_token(c, std::move(cmd));
    case Object::ntable:
      return parse_ntable(c, std::move(cmd), globals.family);
  }
  return usage("object \"" + args[0] + "\" is unknown");
}

namespace {

// ip's global options, by the prefixes ip's matches() accepts.
enum class GlobalOption {
  loops,
  family,
  v4,
  v6,
  packet,
  mpls,
  bridge,
  human,
  iec,
  stats,
  details,
  oneline,
  timestamp,
  tshort,
  version,
  force,
  batch,
  brief,
  json,
  pretty,
  rcvbuf,
  color,
  help,
  netns,
  numeric,
  all,
  none
};

// ip's read_family(): -f's names.
std::optional<int> family_number(std::string_view name) {
  if (name == "inet") return AF_INET;
  if (name == "inet6") return AF_INET6;
  if (name == "link") return AF_PACKET;
  if (name == "mpls") return AF_MPLS;
  if (name == "bridge") return AF_BRIDGE;
  return std::nullopt;
}

// ip's matches_color(): "-color", or an abbreviation, with "=always",
// "=auto", "=never" or nothing (always) after it.
std::optional<ColorMode> color_option(std::string_view word) {
  auto eq = word.find('=');
  std::string_view name = word.substr(0, eq);
  if (name.size() > 5 || std::string_view("color").substr(0, name.size()) != name) return std::nullopt;
  std::string_view when = eq == std::string_view::npos ? std::string_view() : word.substr(eq + 1);
  if (when.empty() || when == "always") return ColorMode::always;
  if (when == "auto") return ColorMode::automatic;
  if (when == "never") return ColorMode::never;
  return std::nullopt;
}

// Tried in ip's order (ip.c's main), so an abbreviation means what it
// means to ip: "-h" is -human, "-r" -resolve, "-f" -family, "-b" -batch.
// An option without its dash, or its two: ip accepts --json as well.
std::string_view option_word(std::string_view arg) {
  std::string_view word = arg.substr(1);
  if (!word.empty() && word[0] == '-') word.remove_prefix(1);
  return word;
}

GlobalOption global_of(std::string_view arg) {
  if (arg.empty() || arg[0] != '-') return GlobalOption::none;
  std::string_view word = option_word(arg);
  // matches() with ip's empty-word rule: "-" alone is a prefix of the first.
  auto is_prefix = [word](std::string_view of) {
    return word.size() <= of.size() && of.substr(0, word.size()) == word;
  };
  if (is_prefix("loops")) return GlobalOption::loops;
  if (is_prefix("family")) return GlobalOption::family;
  if (word == "4") return GlobalOption::v4;
  if (word == "6") return GlobalOption::v6;
  if (word == "0") return GlobalOption::packet;
  if (word == "M") return GlobalOption::mpls;
  if (word == "B") return GlobalOption::bridge;
  if (is_prefix("human") || is_prefix("human-readable")) return GlobalOption::human;
  if (is_prefix("iec")) return GlobalOption::iec;
  if (is_prefix("stats") || is_prefix("statistics")) return GlobalOption::stats;
  if (is_prefix("details")) return GlobalOption::details;
  // -resolve and -echo are ip's, and brisk has neither: they stay unknown
  // options, but hold their place so that "-r" is not read as -rcvbuf.
  if (is_prefix("resolve")) return GlobalOption::none;
  if (is_prefix("oneline")) return GlobalOption::oneline;
  if (is_prefix("timestamp")) return GlobalOption::timestamp;
  if (is_prefix("tshort")) return GlobalOption::tshort;
  if (is_prefix("Version")) return GlobalOption::version;
  if (is_prefix("force")) return GlobalOption::force;
  if (is_prefix("batch")) return GlobalOption::batch;
  if (is_prefix("brief")) return GlobalOption::brief;
  if (is_prefix("json")) return GlobalOption::json;
  if (is_prefix("pretty")) return GlobalOption::pretty;
  if (is_prefix("rcvbuf")) return GlobalOption::rcvbuf;
  if (color_option(word)) return GlobalOption::color;
  if (is_prefix("help")) return GlobalOption::help;
  if (is_prefix("netns")) return GlobalOption::netns;
  if (is_prefix("Numeric")) return GlobalOption::numeric;
  if (is_prefix("all")) return GlobalOption::all;
  return GlobalOption::none;
}

}  // namespace

bool is_ip_invocation(std::string_view arg, bool alone) {
  // brisk's own help: "--help", and "-h" or "-help" alone (before an object
  // ip reads "-h" as -human, and "-help" prints its usage).
  if (arg == "--help" || arg == "-" || (alone && (arg == "-h" || arg == "-help"))) return false;
  if (global_of(arg) != GlobalOption::none || object_of(arg).has_value()) return true;
  // Any other single-dash option is an unknown ip option, answered the ip
  // way (exit 255).
  return arg.size() > 1 && arg[0] == '-' && arg[1] != '-';
}

Parsed<Invocation> parse_globals(std::span<const std::string> argv, const NetnsSwitch& enter) {
  Invocation inv;
  Globals& g = inv.globals;
  std::size_t i = 1;
  // An option's value, or ip's usage error when the line ends first.
  auto value = [&](const std::string& opt, const char* what) -> Parsed<std::string> {
    if (++i >= argv.size()) return usage("option \"" + opt + "\" needs " + what);
    return argv[i];
  };
  for (; i < argv.size() && !argv[i].empty() && argv[i][0] == '-'; ++i) {
    const std::string& opt = argv[i];
    if (opt == "--") {  // the end of the options, as for ip
      ++i;
      break;
    }
    std::string v;
    switch (global_of(opt)) {
      case GlobalOption::netns:
        TRY_SET(g.netns, value(opt, "a namespace name"));  // opened as written, as ip's netns_switch()
        if (enter) {
          if (auto failed = enter(*g.netns))
            return fail(UsageError{.message = std::move(*failed), .exact = true});
          g.netns.reset();  // this process is there now
        }
        break;
      case GlobalOption::json:
        g.json = true;
        break;
      case GlobalOption::pretty:
        g.pretty = true;
        break;
      case GlobalOption::batch:
        TRY_SET(g.batch, value(opt, "a file name"));
        break;
      case GlobalOption::force:
        g.force = true;
        break;
      case GlobalOption::details:
        g.details = true;
        break;
      case GlobalOption::stats:
        ++g.stats;
        break;
      case GlobalOption::brief:
        g.brief = true;
        break;
      case GlobalOption::oneline:
        g.oneline = true;
        break;
      case GlobalOption::timestamp:
        // As ip: -ts anywhere wins over -t.
        if (g.timestamp == Timestamp::none) g.timestamp = Timestamp::long_line;
        break;
      case GlobalOption::tshort:
        g.timestamp = Timestamp::short_prefix;
        break;
      case GlobalOption::v4:
        g.family = AF_INET;
        break;
      case GlobalOption::v6:
        g.family = AF_INET6;
        break;
      case GlobalOption::packet:
        g.family = AF_PACKET;
        break;
      case GlobalOption::mpls:
        g.family = AF_MPLS;
        break;
      case GlobalOption::bridge:
        g.family = AF_BRIDGE;
        break;
      case GlobalOption::family: {
        TRY_SET(v, value(opt, "a family"));
        if (v == "help") return fail(UsageError{.message = std::string(general_usage()), .help = true});
        auto family = family_number(v);
        if (!family) return invarg("invalid protocol family", v);
        g.family = *family;
        break;
      }
      case GlobalOption::version:  // ip prints its version right there, reading no further
        g.version = true;
        return inv;
      case GlobalOption::loops:
        TRY_SET(v, value(opt, "a number of rounds"));
        g.flush_loops = std::atoi(v.c_str());  // as ip reads it
        break;
      case GlobalOption::human:
        g.human = true;
        break;
      case GlobalOption::iec:
        g.iec = true;
        break;
      case GlobalOption::numeric:
        g.numeric = true;
        break;
      case GlobalOption::all:
        g.all = true;
        break;
      case GlobalOption::color:
        g.color = *color_option(option_word(opt));
        break;
      case GlobalOption::rcvbuf: {
        TRY_SET(v, value(opt, "a size"));
        auto size = unsigned_any_base(v);
        if (!size || *size > UINT32_MAX)
          return fail(UsageError{.message = "Invalid rcvbuf size '" + v + "'", .exact = true});
        g.rcvbuf = static_cast<uint32_t>(*size);
        break;
      }
      case GlobalOption::help:
        return fail(UsageError{.message = std::string(general_usage()), .help = true});
      case GlobalOption::none:
        return usage("option \"" + opt + "\" is unknown, try \"brisk help\"");
    }
  }
  inv.args.assign(argv.begin() + static_cast<std::ptrdiff_t>(std::min(i, argv.size())), argv.end());
  if (g.batch && !inv.args.empty())
    return usage("\"-batch\" takes its commands from the file; unexpected \"" + inv.args[0] + "\"");
  if (!g.batch && !g.version && inv.args.empty()) return usage("no object given, try \"brisk help\"");
  return inv;
}

}  // namespace brisk::ipcli
