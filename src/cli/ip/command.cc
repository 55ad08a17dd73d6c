// The ip command line: global options, the object (with ip's
// abbreviations), and the dispatch to that object's parser.
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
  if (matches(word, "link")) return Object::link;
  if (matches(word, "netns")) return Object::netns;
  if (word == "fdb") return Object::fdb;
  // ip's table has neigh ("n", "ne") and netns before nexthop ("nex"...).
  if (word.size() > 2 && matches(word, "nexthop")) return Object::nexthop;
  // ip's "t", "tu" and "tun" are its tunnel object, which brisk lacks.
  if ((word.size() >= 4 && matches(word, "tuntap")) || (word.size() >= 2 && matches(word, "tap"))) return Object::tuntap;
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
    return fail(UsageError{.message = "Object \"" + args[0] + "\" is unknown, try \"brisk help\".", .exact = true,
                           .exit_code = 1, .line_failure = true});
  if (args.size() >= 2 && matches(args[1], "help"))
    return fail(UsageError{.message = std::string(object_usage(*object)), .help = true});
  IpCommand cmd;
  cmd.family = globals.family;
  Cursor c(args.subspan(1));
  switch (*object) {
    case Object::link: return parse_link(c, std::move(cmd));
    case Object::address: return parse_address(c, std::move(cmd), globals.family);
    case Object::route: return parse_route(c, std::move(cmd), globals.family);
    case Object::rule: return parse_rule(c, std::move(cmd), globals.family);
    case Object::neigh: return parse_neigh(c, std::move(cmd), globals.family);
    case Object::netns: return parse_netns(c, std::move(cmd));
    case Object::fdb: return parse_fdb(c, std::move(cmd));
    case Object::tuntap: return parse_tuntap(c, std::move(cmd));
    case Object::monitor: return parse_monitor(c, std::move(cmd));
    case Object::nexthop: return parse_nexthop(c, std::move(cmd), globals.family);
    case Object::addrlabel: return parse_addrlabel(c, std::move(cmd), globals.family);
    case Object::maddr: return parse_maddr(c, std::move(cmd), globals.family);
  }
  return usage("object \"" + args[0] + "\" is unknown");
}

namespace {

// ip's global options, by the prefixes ip's matches() accepts.
enum class GlobalOption {
  netns, json, pretty, batch, force, details, stats, brief, oneline, timestamp, tshort, v4, v6, family, version,
  loops, none
};

GlobalOption global_of(std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return GlobalOption::none;
  std::string_view word = arg.substr(1);
  if (word.size() > 1 && word[0] == '-') word.remove_prefix(1);  // ip accepts --json as well
  if (word == "4") return GlobalOption::v4;
  if (word == "6") return GlobalOption::v6;
  if (matches(word, "loops")) return GlobalOption::loops;  // first, as in ip: "-l" is -loops
  if (word == "n" || matches(word, "netns")) return GlobalOption::netns;
  if (word == "j" || matches(word, "json")) return GlobalOption::json;
  if (word == "p" || matches(word, "pretty")) return GlobalOption::pretty;
  if (matches(word, "batch")) return GlobalOption::batch;  // "-b" is -batch, as in ip
  if (matches(word, "brief")) return GlobalOption::brief;
  if (matches(word, "oneline")) return GlobalOption::oneline;
  if (matches(word, "timestamp")) return GlobalOption::timestamp;  // "-t" is -timestamp, as in ip
  if (matches(word, "tshort")) return GlobalOption::tshort;
  if (word == "force") return GlobalOption::force;
  if (matches(word, "family")) return GlobalOption::family;  // "-f" too: ip tests -force whole, first
  if (matches(word, "details")) return GlobalOption::details;
  if (matches(word, "stats") || matches(word, "statistics")) return GlobalOption::stats;
  if (word == "V" || matches(word, "Version")) return GlobalOption::version;
  return GlobalOption::none;
}

}  // namespace

bool is_ip_invocation(std::string_view arg) {
  if (global_of(arg) != GlobalOption::none || object_of(arg).has_value()) return true;
  // Any other single-dash option is an unknown ip option, answered the ip
  // way (exit 255), except the top-level help ("-h", "-help").
  return arg.size() > 1 && arg[0] == '-' && arg[1] != '-' && arg != "-h" && arg != "-help";
}

Parsed<Invocation> parse_globals(std::span<const std::string> argv) {
  Invocation inv;
  std::size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    const std::string& opt = argv[i];
    switch (global_of(opt)) {
      case GlobalOption::netns:
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a namespace name");
        TRY_SET(inv.globals.netns, netns_name(argv[i]));
        break;
      case GlobalOption::json: inv.globals.json = true; break;
      case GlobalOption::pretty: inv.globals.pretty = true; break;
      case GlobalOption::batch:
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a file name");
        inv.globals.batch = argv[i];
        break;
      case GlobalOption::force: inv.globals.force = true; break;
      case GlobalOption::details: inv.globals.details = true; break;
      case GlobalOption::stats: ++inv.globals.stats; break;
      case GlobalOption::brief: inv.globals.brief = true; break;
      case GlobalOption::oneline: inv.globals.oneline = true; break;
      case GlobalOption::timestamp:
        // As ip: -ts anywhere wins over -t.
        if (inv.globals.timestamp == Timestamp::none) inv.globals.timestamp = Timestamp::long_line;
        break;
      case GlobalOption::tshort: inv.globals.timestamp = Timestamp::short_prefix; break;
      case GlobalOption::v4: inv.globals.family = AF_INET; break;
      case GlobalOption::v6: inv.globals.family = AF_INET6; break;
      case GlobalOption::family: {
        // ip's read_family(); brisk's objects are IPv4 and IPv6 ones.
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a family");
        const std::string& name = argv[i];
        if (name == "inet") inv.globals.family = AF_INET;
        else if (name == "inet6") inv.globals.family = AF_INET6;
        else if (name == "link" || name == "mpls" || name == "bridge" || name == "ipx")
          return usage("family \"" + name + "\" is not one brisk shows; it takes -family inet or inet6");
        else return invarg("invalid protocol family", name);
        break;
      }
      case GlobalOption::version: inv.globals.version = true; break;
      case GlobalOption::loops:
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a number of rounds");
        inv.globals.flush_loops = std::atoi(argv[i].c_str());  // as ip reads it
        break;
      case GlobalOption::none:
        return usage("option \"" + opt + "\" is unknown, try \"brisk help\"");
    }
  }
  inv.args.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  if (inv.globals.batch && !inv.args.empty())
    return usage("\"-batch\" takes its commands from the file; unexpected \"" + inv.args[0] + "\"");
  if (!inv.globals.batch && !inv.globals.version && inv.args.empty())
    return usage("no object given, try \"brisk help\"");
  return inv;
}

}  // namespace brisk::ipcli
