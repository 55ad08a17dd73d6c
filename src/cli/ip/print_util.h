// cli/ip/print_util.h: small pieces of ip's output shared by the object
// printers.
#pragma once

#include <string>
#include <vector>

#include "cli/ip/print_style.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

std::string join(const std::vector<std::string>& words, const char* sep);
// A column of ip's brief forms ("%-16s"): padded, and a wider value pushes
// the rest of the line along.
std::string column(std::string value, std::size_t width);
// ip -o: a record's line breaks become backslashes, all but the last.
std::string one_line(std::string text);
// The device's name, or "ifN" for one not in `all`.
std::string name_of(int ifindex, const Links& all);
// One field in both forms: the JSON key, and " keyword value" text.
void field(Json& j, std::string& t, const char* key, const char* keyword, const std::string& value);
// The same for ip's painted "keyword %s " fields: the value in its colour
// with the space after it (paint_spaced).
void painted_field(Json& j, std::string& t, const char* key, const char* keyword, Paint paint,
                   const std::string& value);
// Whether `address` lies in `prefix` (same family, the first length bits equal).
bool within(const netlink::IpAddress& address, const netlink::IpPrefix& prefix);
// "Device DEV does not exist", as ip says for a show of a missing device.
// link/addr show of a device that is not there; printed as ip prints it,
// `Device "X" does not exist.` (no "Error: ").
netlink::NlResult<void> device_missing(const std::string& dev);
inline constexpr char kDeviceShow[] = "device show";  // compared by address (runner.h)
// Whether `name` is the link's name or one of its altnames, as the kernel's lookup takes either.
bool named(const netlink::LinkInfo& l, const std::string& name);
// The ifindex a show's `master DEV` or `vrf NAME` selects (0: neither given).
// ip looks the device up as it parses: a missing one, or for vrf one that is
// no VRF, is a missing argument (master or vrf), which the runner turns
// into ip's argument error.
netlink::NlResult<int> selected_master(const IpCommand& cmd, const Links& all);

}  // namespace brisk::ipcli
