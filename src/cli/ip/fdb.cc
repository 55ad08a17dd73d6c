// bridge fdb, as `brisk fdb`: add, delete and show.
#include <linux/neighbour.h>

#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk fdb help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kFdbUsage = R"(Usage: brisk fdb { add | del } LLADDR dev DEV [ self ] [ master ]
                       [ static | dynamic | permanent ] [ vlan VID ] [ dst ADDR ]
       brisk fdb show [ br BRIDGE ]
)";

const Verb kFdbAdd = device_change<&netlink::Batch::add_fdb, &netlink::FdbSpec::dev>("fdb add");
const Verb kFdbDel = device_change<&netlink::Batch::delete_fdb, &netlink::FdbSpec::dev>("fdb del");
const Verb kFdbShow{.name = "fdb show", .run = show_fdb};

namespace {

using netlink::NlResult;

Parsed<IpCommand> parse_fdb_change(Cursor& c, IpCommand&& cmd, const Verb* verb) {
  cmd.verb = verb;
  auto& spec = cmd.fdb();
  bool master = false, self = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "dev")) {
      TRY_SET(spec.dev, c.device(key));
    } else if (is(key, "master")) {
      master = true;
    } else if (is(key, "self")) {
      self = true;
    } else if (is(key, "static")) {
      spec.state = NUD_NOARP;
    } else if (is(key, "local") || is(key, "permanent")) {
      spec.state = NUD_PERMANENT;
    } else if (is(key, "dynamic")) {
      spec.state = NUD_REACHABLE;
    } else if (is(key, "vlan")) {
      TRY_SET(spec.vlan, c.number<uint16_t>(key, 4094));
    } else if (is(key, "dst")) {
      TRY_SET(spec.dst, c.address(key, AF_UNSPEC));
    } else if (spec.lladdr.empty()) {
      TRY_SET(spec.lladdr, mac("lladdr", key));
    } else {
      return garbage("lladdr", key);
    }
  }
  if (spec.lladdr.empty()) return usage("not enough information: an lladdr is required");
  if (spec.dev.empty()) return usage("not enough information: \"dev\" argument is required");
  // bridge fdb: without either flag the entry goes into the device's own table.
  spec.master = master;
  spec.self = self || !master;
  return cmd;
}

}  // namespace

Parsed<IpCommand> parse_fdb(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return usage("\"brisk fdb show\" needs \"br BRIDGE\"");
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_fdb_change(c, std::move(cmd), &kFdbAdd);
  if (matches(verb, "delete")) return parse_fdb_change(c, std::move(cmd), &kFdbDel);
  if (matches(verb, "show") || matches(verb, "list")) {
    cmd.verb = &kFdbShow;
    while (!c.done()) {
      std::string key = c.next(), v;
      if (key != "br" && key != "brport" && key != "dev") return garbage("br", key);
      TRY_SET(cmd.filter().master, c.device(key));
    }
    if (cmd.filter().master.empty()) return usage("\"brisk fdb show\" needs \"br BRIDGE\"");
    return cmd;
  }
  return unknown_command(verb, "fdb");
}

NlResult<void> show_fdb(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  const Globals& g = r.globals();
  auto all = BRISK_TRY(r.links_by_index(false));
  for (const auto& f : BRISK_TRY(netlink::list_fdb(*c, cmd.filter().master))) {
    Json j;
    j["mac"] = f.lladdr.to_string();
    j["ifname"] = name_of(f.ifindex, all);
    std::string t = f.lladdr.to_string() + " dev " + name_of(f.ifindex, all);
    if (f.vlan) {
      j["vlan"] = *f.vlan;
      t += " vlan " + std::to_string(*f.vlan);
    }
    std::vector<std::string> flags;
    if (f.flags & NTF_SELF) flags.emplace_back("self");
    for (const auto& fl : flags) t += " " + fl;
    j["flags"] = flags;
    if (f.master) {
      j["master"] = name_of(f.master, all);
      t += " master " + name_of(f.master, all);
    }
    std::string state = (f.state & NUD_PERMANENT) ? "permanent" : (f.state & NUD_NOARP) ? "static" : "";
    if (!state.empty()) {
      j["state"] = state;
      t += " " + state;
    }
    if (g.json)
      r.emit(std::move(j));
    else
      r.out() += t + "\n";
  }
  return {};
}

const Verb* const kFdbVerbs[] = {&kFdbAdd, &kFdbDel, &kFdbShow};
const IpObject kFdbObject{
    .name = {"fdb", 3},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_fdb(c, std::move(cmd)); },
    .verbs = kFdbVerbs,
    .usage = [] { return kFdbUsage; }};

}  // namespace brisk::ipcli
