#include "cli/ip/print_util.h"

#include <algorithm>
#include <cerrno>

namespace brisk::ipcli {

std::string join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += sep;
    out += w;
  }
  return out;
}

std::string column(std::string value, std::size_t width) {
  if (value.size() < width) value.append(width - value.size(), ' ');
  return value;
}

std::string one_line(std::string text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i] == '\n') text[i] = '\\';
  return text;
}

std::string name_of(int ifindex, const Links& all) {
  auto it = all.find(ifindex);
  return it == all.end() ? "if" + std::to_string(ifindex) : it->second.name;
}

void field(Json& j, std::string& t, const char* key, const char* keyword, const std::string& value) {
  j[key] = value;
  t += std::string(" ") + keyword + " " + value;
}

void painted_field(Json& j, std::string& t, const char* key, const char* keyword, Paint paint,
                   const std::string& value) {
  j[key] = value;
  t += std::string(" ") + keyword + " " + paint_spaced(paint, value);
}

bool within(const netlink::IpAddress& address, const netlink::IpPrefix& prefix) {
  if (address.family != prefix.address.family) return false;
  std::size_t bits = std::min<std::size_t>(prefix.length, address.size() * 8);
  for (std::size_t i = 0; i < bits; i += 8) {
    uint8_t mask = bits - i >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - (bits - i)));
    if ((address.bytes[i / 8] ^ prefix.address.bytes[i / 8]) & mask) return false;
  }
  return true;
}

netlink::NlResult<void> device_missing(const std::string& dev) {
  return netlink::NetlinkError{.code = ENODEV, .op = kDeviceShow, .object = dev};
}

bool named(const netlink::LinkInfo& l, const std::string& name) {
  return l.name == name || std::find(l.altnames.begin(), l.altnames.end(), name) != l.altnames.end();
}

netlink::NlResult<int> selected_master(const IpCommand& cmd, const Links& all) {
  int master = 0;
  for (const auto& selector :
       {std::pair<netlink::Argument, const std::string&>{netlink::Argument::master, cmd.filter().master},
        {netlink::Argument::vrf, cmd.filter().vrf}}) {
    // Plain names, not a structured binding: clang before 16 cannot capture one.
    netlink::Argument role = selector.first;
    const std::string& name = selector.second;
    if (name.empty()) continue;
    auto it = std::find_if(all.begin(), all.end(), [&](const auto& l) { return named(l.second, name); });
    if (it == all.end() || (role == netlink::Argument::vrf && it->second.kind != "vrf"))
      return netlink::missing_argument("show", name, role, name);
    master = it->first;
  }
  return master;
}

}  // namespace brisk::ipcli
