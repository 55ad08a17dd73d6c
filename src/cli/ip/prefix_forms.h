// The forms of PREFIX that ip 6.1's get_prefix() accepts, as canonical text.
//
// Scripts write more than "a.b.c.d/len": LXC's lxc-net and Debian's ifupdown
// write a dotted netmask after the slash ("10.0.3.1/255.255.255.0"), and ip
// also reads each IPv4 component and the length with strtoul(base 0), so
// "10.5/16", "0x0a.6.0.1/030" and "10.0.0.1/0x18" are addresses it takes.
// The CLI turns each into the form the library parses ("10.0.3.1/24"), and
// what ip refuses stays refused.
#pragma once

#include <optional>
#include <string>

namespace brisk::ipcli {

// `text` as "ADDRESS" or "ADDRESS/LENGTH" with a dotted-quad IPv4 address
// and a decimal length, or nullopt when ip's get_prefix() would refuse it.
// An IPv6 address is kept as written (ip reads it with inet_pton); its length
// is read as an IPv4 one is. The keywords default, all and any are the
// caller's: they are not prefixes here.
std::optional<std::string> canonical_prefix(const std::string& text);

}  // namespace brisk::ipcli
