// The ip command line: global options, the object (with ip's
// abbreviations), and the dispatch to that object's parser.
#include <climits>
#include <cstdlib>

#include "cli/ip/names.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {}  // namespace

Parsed<IpCommand> parse_command(std::span<const std::string> args, const Globals& globals) {
  if (args.empty()) return usage("no object given, try \"brisk help\"");
  const IpObject* object = object_named(args[0]);
  if (!object)
    return fail(UsageError{.message = "Object \"" + args[0] + "\" is unknown, try \"brisk help\".",
                           .exact = true,
                           .exit_code = 1,
                           .line_failure = true});
  if (args.size() >= 2 && matches(args[1], "help")) return object_help(object->usage());
  IpCommand cmd;
  cmd.family = globals.family;
  Cursor c(args.subspan(1));
  return object->parse(c, std::move(cmd), globals);
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
  if (global_of(arg) != GlobalOption::none || object_named(arg) != nullptr) return true;
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
