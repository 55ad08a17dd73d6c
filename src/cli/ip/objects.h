// cli/ip/objects.h: each ip object's parser, one file per object as
// iproute2 splits ip/ (link.cc, address.cc, route.cc, neigh.cc, fdb.cc,
// rule.cc, netns.cc, tuntap.cc, monitor.cc). A parser gets the words after the object and the command with
// its family already set.
#pragma once

#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

Parsed<Command> parse_link(Cursor& c, Command cmd);
Parsed<Command> parse_address(Cursor& c, Command cmd, int family);
Parsed<Command> parse_route(Cursor& c, Command cmd, int family);
Parsed<Command> parse_rule(Cursor& c, Command cmd, int family);
Parsed<Command> parse_neigh(Cursor& c, Command cmd, int family);
Parsed<Command> parse_netns(Cursor& c, Command cmd);
Parsed<Command> parse_fdb(Cursor& c, Command cmd);
Parsed<Command> parse_tuntap(Cursor& c, Command cmd);
Parsed<Command> parse_monitor(Cursor& c, Command cmd);

// A device group's name (/etc/iproute2/group) or number, as ip reads it.
Parsed<uint32_t> group_value(const std::string& text);

// A netns name as ip accepts it: no '/', not "." or "..".
Parsed<std::string> netns_name(const std::string& text);

}  // namespace brisk::ipcli
