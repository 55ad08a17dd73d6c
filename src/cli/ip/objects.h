// cli/ip/objects.h: the ip objects, one module each as iproute2 splits ip/
// (link.cc, address.cc, route.cc, neigh.cc, ...). A module holds its
// object's parser, its verbs (verb.h: how each runs and what a batch may do
// with it), its printers and its help, and is listed once in ip's table
// (object_table.cc), which is all the dispatcher knows of it.
#pragma once

#include <span>

#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

// A word ip takes for the object: any prefix of `word` at least `shortest`
// long (ip's matches(), with the length its table order leaves free).
struct ObjectWord {
  std::string_view word{};
  std::size_t shortest = 1;
};

struct IpObject {
  ObjectWord name{};   // "address"
  ObjectWord alias{};  // another spelling ip takes ("neighbour"); empty: none
  // The words after the object, into a command (its family already set):
  // points the command at one of the object's verbs, or is a usage error.
  Parsed<IpCommand> (*parse)(Cursor& c, IpCommand&& cmd, const Globals& g) = nullptr;
  std::span<const Verb* const> verbs{};   // every verb its parser may point a command at
  std::string_view (*usage)() = nullptr;  // `brisk OBJECT help`

  bool is_named(std::string_view word) const;
};

// The objects in ip's table order, so that an abbreviation picks what
// ip's picks ("n" is neigh): object_table.cc.
std::span<const IpObject* const> ip_objects();
const IpObject* object_named(std::string_view word);
// The verb of that name ("route add") among every object's; null if none.
const Verb* verb_named(std::string_view name);

extern const IpObject kLinkObject, kAddressObject, kAddrlabelObject, kMaddrObject, kRouteObject, kRuleObject,
    kNeighObject, kNtableObject, kNetnsObject, kNetconfObject, kFdbObject, kNexthopObject, kTuntapObject,
    kTokenObject, kMonitorObject;

// `brisk link help`: the link grammar and every kind's (help.cc).
std::string_view link_usage();

// The device selectors link show and addr show share, as ip's
// ipaddr_list_flush_or_save reads them: master DEV, vrf NAME, nomaster,
// type KIND[_slave]. True when `key` was one of them (its value read).
Parsed<bool> link_selector(const std::string& key, Cursor& c, IpCommand& cmd);
// rule save (no arguments, stdout no terminal) and rule restore (stdin no terminal), in rule_save.cc.
Parsed<IpCommand> parse_rule_save(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_rule_restore(Cursor& c, IpCommand&& cmd);

// A device group's name (/etc/iproute2/group) or number, as ip reads it.
Parsed<uint32_t> group_value(const std::string& text);

// A netns name as ip accepts it: no '/', not "." or "..".
Parsed<std::string> netns_name(const std::string& text);
// /run/netns/NAME as ip opens it: the name as written, the file whatever it
// is (invalid when it cannot be opened; errno says why).
UniqueFd open_run_netns(const std::string& name);
// ip's `-n NAME` (netns_switch): this process enters /run/netns/NAME, the
// name taken as written, before the batch is read; ip's words on failure.
std::optional<std::string> switch_netns(const std::string& name);

}  // namespace brisk::ipcli
