// ip maddress, as ip 6.1's ipmaddr.c reads and prints it: add and del of a
// device's link-layer multicast addresses (ioctls, after which ip exits,
// ending a batch there), and show, which reads the kernel's /proc/net
// lists of the namespace brisk has entered (-n): dev_mcast, igmp, igmp6.
#include <arpa/inet.h>
#include <net/if.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"
#include "netlink/internal/multicast.h"

namespace brisk::ipcli {

// `brisk maddress help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kMaddrUsage = R"(Usage: brisk maddr [ add | del ] MULTIADDR dev STRING
       brisk maddr show [ dev STRING ]
add and del end a batch, as they end ip: the lines after them are not run.
)";

namespace {

// ip exits after the ioctl, 0 or 1, whatever follows in a batch.
int change_maddr_and_exit(Runner& r, const IpCommand& cmd, int) {
  auto changed = change_maddr(r, cmd);
  if (changed) return 0;
  const netlink::NetlinkError& e = changed.error();
  // The ioctl's refusal, as ip's perror("ioctl"); brisk's own check otherwise.
  r.error_line(e.detail.empty() ? std::string("ioctl: ") + std::strerror(e.code) : runtime_message(e));
  return 1;
}

}  // namespace

const Verb kMaddrAdd{.name = "maddr add", .run_to_exit = change_maddr_and_exit};
const Verb kMaddrDel{.name = "maddr del", .run_to_exit = change_maddr_and_exit};
const Verb kMaddrShow{.name = "maddr show", .run = show_maddrs};

namespace {

using netlink::NlResult;

// sscanf's "%x": blanks, an optional 0x, then at least one hex digit (the rest ignored).
std::optional<unsigned long> scan_hex(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (text.compare(at, 2, "0x") == 0 || text.compare(at, 2, "0X") == 0) {
    if (at + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[at + 2]))) at += 2;
  }
  if (at >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
  return std::stoul(text.substr(at, 8), nullptr, 16);
}

// ip's ll_addr_a2n(): bytes split by ':' (at most sa_data's 14), each as
// "%x" reads it; a bad one ends ip with its text, exit 1.
Parsed<std::vector<uint8_t>> lladdr_bytes(const std::string& text) {
  std::vector<uint8_t> bytes;
  std::size_t at = 0;
  for (;;) {
    std::size_t colon = text.find(':', at);
    std::string part = text.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    auto value = scan_hex(part);
    if (!value || *value > 255) return fatal("\"" + part + "\" is invalid lladdr.", 1);
    bytes.push_back(static_cast<uint8_t>(*value));
    if (colon == std::string::npos || bytes.size() == 14) return bytes;
    at = colon + 1;
  }
}

// multiaddr_modify(): `dev NAME` and the address, optionally after "address".
Parsed<IpCommand> parse_maddr_change(Cursor& c, IpCommand&& cmd, const Verb* verb) {
  cmd.verb = verb;
  MaddrChange& change = cmd.maddr();
  change.address.assign(6, 0);  // what ip's zeroed ifreq sends when no address is named
  bool named = false;
  while (!c.done()) {
    std::string word = c.next();
    if (is(word, "dev")) {
      std::string dev;
      TRY_SET(dev, c.value(word));
      if (!change.dev.empty()) return duplicate("dev", dev);
      if (dev.empty() || dev.size() >= IFNAMSIZ || dev.find_first_of("/ \t\n") != std::string::npos)
        return invarg("\"dev\" not a valid ifname", dev);
      change.dev = dev;
      continue;
    }
    if (matches(word, "address")) TRY_SET(word, c.value(word));
    if (matches(word, "help")) return object_help(kMaddrUsage);
    if (named && change.address[0]) return duplicate("address", word);
    std::vector<uint8_t> bytes;
    TRY_SET(bytes, lladdr_bytes(word));
    if (bytes.size() != 6)
      return fatal("Error: Invalid address length " + std::to_string(bytes.size()) + " - must be 6 bytes", 1);
    change.address = std::move(bytes);
    named = true;
  }
  if (change.dev.empty()) return fatal("Not enough information: \"dev\" is required.", 255);
  return std::move(cmd);
}

// multiaddr_list(): the device, with or without "dev" before it, once.
Parsed<IpCommand> parse_maddr_show(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kMaddrShow;
  std::string& dev = cmd.filter().dev;
  while (!c.done()) {
    std::string word = c.next();
    if (is(word, "dev"))
      TRY_SET(word, c.value(word));
    else if (matches(word, "help"))
      return object_help(kMaddrUsage);
    if (!dev.empty()) return garbage("dev", word);
    dev = word;
  }
  return std::move(cmd);
}

// One address of a device's list, as ipmaddr.c's ma_info holds it.
struct Membership {
  int index = 0;
  std::string name{};
  int family = AF_PACKET;  // AF_PACKET: a link-layer address
  std::string address{};
  int users = 1;
  bool is_static = false;
};

std::string hex_to_mac(const std::string& hex) {
  std::string mac;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    if (!mac.empty()) mac += ':';
    mac += static_cast<char>(std::tolower(static_cast<unsigned char>(hex[i])));
    mac += static_cast<char>(std::tolower(static_cast<unsigned char>(hex[i + 1])));
  }
  return mac;
}

// "/proc/thread-self/net/NAME": the lists of the namespace this thread is in.
std::ifstream proc_net(const char* name) {
  return std::ifstream(std::string("/proc/thread-self/net/") + name);
}

void read_dev_mcast(std::vector<Membership>& out) {
  auto in = proc_net("dev_mcast");
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Membership m;
    int st = 0;
    std::string hex;
    if (!(words >> m.index >> m.name >> m.users >> st >> hex)) continue;
    m.address = hex_to_mac(hex);
    m.is_static = st != 0;
    out.push_back(std::move(m));
  }
}

void read_igmp(std::vector<Membership>& out) {
  auto in = proc_net("igmp");
  std::string line;
  if (!std::getline(in, line)) return;  // the heading
  int index = 0;
  std::string name;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (line.empty() || line[0] != '\t') {  // "IDX\tNAME :..." starts a device
      words >> index >> name;
      if (!name.empty() && name.back() == ':') name.pop_back();
      continue;
    }
    std::string hex;
    Membership m{.index = index, .name = name, .family = AF_INET};
    if (!(words >> hex >> m.users)) continue;
    // The kernel prints the group's bytes as one native-endian word.
    uint32_t raw = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
    char text[INET_ADDRSTRLEN];
    m.address = ::inet_ntop(AF_INET, &raw, text, sizeof text);
    out.push_back(std::move(m));
  }
}

void read_igmp6(std::vector<Membership>& out) {
  auto in = proc_net("igmp6");
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Membership m{.family = AF_INET6};
    std::string hex;
    if (!(words >> m.index >> m.name >> hex >> m.users) || hex.size() != 32) continue;
    in6_addr a{};
    for (int i = 0; i < 16; ++i)
      a.s6_addr[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    char text[INET6_ADDRSTRLEN];
    m.address = ::inet_ntop(AF_INET6, &a, text, sizeof text);
    out.push_back(std::move(m));
  }
}

}  // namespace

Parsed<IpCommand> parse_maddr(Cursor& c, IpCommand&& cmd, int family) {
  cmd.family = family;
  if (c.done()) return parse_maddr_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_maddr_change(c, std::move(cmd), &kMaddrAdd);
  if (matches(verb, "delete")) return parse_maddr_change(c, std::move(cmd), &kMaddrDel);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_maddr_show(c, std::move(cmd));
  if (matches(verb, "help")) return object_help(kMaddrUsage);
  return unknown_command(verb, "maddr");
}

NlResult<void> change_maddr(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  const MaddrChange& change = cmd.maddr();
  return cmd.verb == &kMaddrAdd ? netlink::add_link_multicast(*c, change.dev, change.address)
                                : netlink::delete_link_multicast(*c, change.dev, change.address);
}

NlResult<void> show_maddrs(Runner& r, const IpCommand& cmd) {
  BRISK_TRY(r.conn());  // enters -n's namespace, whose lists /proc/thread-self/net shows
  r.use_json();
  std::vector<Membership> all;
  if (cmd.family == AF_UNSPEC) read_dev_mcast(all);
  if (cmd.family == AF_UNSPEC || cmd.family == AF_INET) read_igmp(all);
  if (cmd.family == AF_UNSPEC || cmd.family == AF_INET6) read_igmp6(all);
  const std::string& dev = cmd.filter().dev;
  std::erase_if(all, [&](const Membership& m) { return !dev.empty() && m.name != dev; });
  std::stable_sort(all.begin(), all.end(),
                   [](const Membership& a, const Membership& b) { return a.index < b.index; });
  const bool oneline = r.globals().oneline;
  int current = 0;
  Json device;
  std::string text;
  auto close_device = [&] {
    if (current && r.globals().json) r.emit(std::move(device));
  };
  for (const auto& m : all) {
    if (m.index != current || oneline) {
      close_device();
      device = Json{{"ifindex", m.index}, {"ifname", m.name}, {"maddr", Json::array()}};
      text += std::to_string(m.index) + ":\t" + m.name + (oneline ? "\\" : "\n");
      current = m.index;
    }
    Json j;
    std::string t = "\t";
    if (m.family == AF_PACKET) {
      j["link"] = m.address;
      t += "link  " + m.address;
    } else {
      const char* family = m.family == AF_INET ? "inet" : "inet6";
      j["family"] = family;
      j["address"] = m.address;
      char padded[16];
      std::snprintf(padded, sizeof padded, "%-5s ", family);
      t += padded + m.address;
    }
    if (m.users != 1) {
      j["users"] = m.users;
      t += " users " + std::to_string(m.users);
    }
    if (m.is_static) {
      j["features"] = "static";
      t += " static";
    }
    device["maddr"].push_back(std::move(j));
    text += t + "\n";
  }
  close_device();
  if (!r.globals().json) r.out() += text;
  return {};
}

const Verb* const kMaddrVerbs[] = {&kMaddrAdd, &kMaddrDel, &kMaddrShow};
const IpObject kMaddrObject{
    .name = {"maddress"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_maddr(c, std::move(cmd), g.family); },
    .verbs = kMaddrVerbs,
    .usage = [] { return kMaddrUsage; }};

}  // namespace brisk::ipcli
