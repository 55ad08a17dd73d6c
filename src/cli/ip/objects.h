// cli/ip/objects.h: each ip object's parser, one file per object as
// iproute2 splits ip/ (link.cc, address.cc, route.cc, neigh.cc, fdb.cc,
// rule.cc, netns.cc, tuntap.cc, monitor.cc, nexthop.cc,
// addrlabel.cc, maddr.cc). A parser gets the words after the object and the command with
// its family already set.
#pragma once

#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

Parsed<IpCommand> parse_link(Cursor& c, IpCommand&& cmd);
// The device selectors link show and addr show share, as ip's
// ipaddr_list_flush_or_save reads them: master DEV, vrf NAME, nomaster,
// type KIND[_slave]. True when `key` was one of them (its value read).
Parsed<bool> link_selector(const std::string& key, Cursor& c, IpCommand& cmd);
Parsed<IpCommand> parse_address(Cursor& c, IpCommand&& cmd, int family);
Parsed<IpCommand> parse_route(Cursor& c, IpCommand&& cmd, int family);
Parsed<IpCommand> parse_rule(Cursor& c, IpCommand&& cmd, int family);
// rule save (no arguments, stdout no terminal) and rule restore (stdin no terminal), in rule_save.cc.
Parsed<IpCommand> parse_rule_save(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_rule_restore(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_neigh(Cursor& c, IpCommand&& cmd, int family);
// all: -all, under which exec and delete name no namespace.
Parsed<IpCommand> parse_netns(Cursor& c, IpCommand&& cmd, bool all);
Parsed<IpCommand> parse_fdb(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_tuntap(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_monitor(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_nexthop(Cursor& c, IpCommand&& cmd, int family);
Parsed<IpCommand> parse_addrlabel(Cursor& c, IpCommand&& cmd, int family);
Parsed<IpCommand> parse_maddr(Cursor& c, IpCommand&& cmd, int family);
Parsed<IpCommand> parse_netconf(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_token(Cursor& c, IpCommand&& cmd);
Parsed<IpCommand> parse_ntable(Cursor& c, IpCommand&& cmd, int family);

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
