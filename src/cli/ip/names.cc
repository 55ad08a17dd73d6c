#include "cli/ip/names.h"

#include <dirent.h>
#include <linux/if_arp.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <netdb.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/ip/print_style.h"

namespace brisk::ipcli {
std::optional<int32_t> int_any_base(std::string_view text) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  if (text.empty() || text[0] == '-' || text[0] == '+') return std::nullopt;
  auto magnitude = unsigned_any_base(text);
  if (!magnitude || *magnitude > (negative ? 0x80000000ull : 0x7fffffffull)) return std::nullopt;
  return static_cast<int32_t>(negative ? -static_cast<int64_t>(*magnitude)
                                       : static_cast<int64_t>(*magnitude));
}

namespace {

constexpr const char* kConfDir = "/etc/iproute2/";

std::string read_file(const std::string& path);

}  // namespace

const char* family_name(int family) {
  switch (family) {
    case AF_INET:
      return "inet";
    case AF_INET6:
      return "inet6";
    case AF_PACKET:
      return "link";
    case AF_MPLS:
      return "mpls";
    case AF_BRIDGE:
      return "bridge";
    default:
      return "???";
  }
}

std::optional<uint64_t> unsigned_any_base(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// FILE, then DIR.d/*.conf in name order, as ip reads them.
NameTable with_files(NameTable table, const std::string& file) {
  table.add_file_text(read_file(kConfDir + file));
  std::string dir = kConfDir + file + ".d";
  std::vector<std::string> confs;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name.size() > 5 && name.ends_with(".conf")) confs.emplace_back(name);
    }
    ::closedir(d);
  }
  std::sort(confs.begin(), confs.end());
  for (const auto& conf : confs) table.add_file_text(read_file(dir + "/" + conf));
  return table;
}

}  // namespace

NameTable::NameTable(std::initializer_list<Entry> builtin, uint32_t max) : max_(max) {
  for (const auto& e : builtin) names_[e.number] = std::string(e.name);
}

void NameTable::add_file_text(std::string_view text) {
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    constexpr std::string_view blanks = " \t\r";
    std::size_t a = line.find_first_not_of(blanks);
    if (a == std::string_view::npos) continue;
    std::size_t b = line.find_first_of(blanks, a);
    std::size_t c = line.find_first_not_of(blanks, b);
    if (b == std::string_view::npos || c == std::string_view::npos) continue;
    std::string_view name = line.substr(c, line.find_first_of(blanks, c) - c);
    auto value = unsigned_any_base(line.substr(a, b - a));
    if (!value || *value > max_) continue;
    names_[static_cast<uint32_t>(*value)] = std::string(name);
  }
}

std::string NameTable::name(uint32_t number) const {
  if (print_style().numeric) return std::to_string(number);  // -N
  auto it = names_.find(number);
  return it == names_.end() ? std::to_string(number) : it->second;
}

std::optional<uint32_t> NameTable::number(std::string_view word) const {
  for (const auto& [value, name] : names_)
    if (name == word) return value;
  auto value = unsigned_any_base(word);
  if (!value || *value > max_) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

const NameTable& route_tables() {
  static const NameTable table = with_files(
      NameTable({{RT_TABLE_DEFAULT, "default"}, {RT_TABLE_MAIN, "main"}, {RT_TABLE_LOCAL, "local"}},
                UINT32_MAX),
      "rt_tables");
  return table;
}

const NameTable& protocols() {
  // ip 6.1's built-in names, before rt_protos.
  static const NameTable table = with_files(NameTable({{RTPROT_UNSPEC, "unspec"},
                                                       {RTPROT_REDIRECT, "redirect"},
                                                       {RTPROT_KERNEL, "kernel"},
                                                       {RTPROT_BOOT, "boot"},
                                                       {RTPROT_STATIC, "static"},
                                                       {RTPROT_GATED, "gated"},
                                                       {RTPROT_RA, "ra"},
                                                       {RTPROT_MRT, "mrt"},
                                                       {RTPROT_ZEBRA, "zebra"},
                                                       {RTPROT_BIRD, "bird"},
                                                       {RTPROT_BABEL, "babel"},
                                                       {RTPROT_DHCP, "dhcp"},
                                                       {RTPROT_DNROUTED, "dnrouted"},
                                                       {RTPROT_XORP, "xorp"},
                                                       {RTPROT_NTK, "ntk"},
                                                       {RTPROT_KEEPALIVED, "keepalived"},
                                                       {RTPROT_OPENR, "openr"},
                                                       {RTPROT_BGP, "bgp"},
                                                       {RTPROT_ISIS, "isis"},
                                                       {RTPROT_OSPF, "ospf"},
                                                       {RTPROT_RIP, "rip"},
                                                       {RTPROT_EIGRP, "eigrp"}},
                                                      255),
                                            "rt_protos");
  return table;
}

const NameTable& scopes() {
  static const NameTable table = with_files(NameTable({{RT_SCOPE_UNIVERSE, "global"},
                                                       {RT_SCOPE_SITE, "site"},
                                                       {RT_SCOPE_LINK, "link"},
                                                       {RT_SCOPE_HOST, "host"},
                                                       {RT_SCOPE_NOWHERE, "nowhere"}},
                                                      255),
                                            "rt_scopes");
  return table;
}

const NameTable& route_types() {
  static const NameTable table({{RTN_UNICAST, "unicast"},
                                {RTN_LOCAL, "local"},
                                {RTN_BROADCAST, "broadcast"},
                                {RTN_ANYCAST, "anycast"},
                                {RTN_MULTICAST, "multicast"},
                                {RTN_BLACKHOLE, "blackhole"},
                                {RTN_UNREACHABLE, "unreachable"},
                                {RTN_PROHIBIT, "prohibit"},
                                {RTN_THROW, "throw"},
                                {RTN_NAT, "nat"},
                                {RTN_XRESOLVE, "xresolve"}},
                               255);
  return table;
}

const NameTable& nud_states() {
  static const NameTable table({{NUD_INCOMPLETE, "incomplete"},
                                {NUD_REACHABLE, "reachable"},
                                {NUD_STALE, "stale"},
                                {NUD_DELAY, "delay"},
                                {NUD_PROBE, "probe"},
                                {NUD_FAILED, "failed"},
                                {NUD_NOARP, "noarp"},
                                {NUD_PERMANENT, "permanent"}},
                               0xff);
  return table;
}

const NameTable& link_groups() {
  static const NameTable table = with_files(NameTable({{0, "default"}}, UINT32_MAX), "group");
  return table;
}

std::string scope_name(uint8_t scope) { return scopes().name(scope); }
std::optional<uint8_t> scope_number(std::string_view word) {
  if (word == "universe") return RT_SCOPE_UNIVERSE;
  return scopes().number(word);
}
std::string protocol_name(uint8_t protocol) { return protocols().name(protocol); }
std::optional<uint8_t> protocol_number(std::string_view word) { return protocols().number(word); }
std::string rtn_type_name(uint8_t type) { return route_types().name(type); }
// ip's rtnl_rtntype_a2n: some names exactly, most by any prefix, in its order.
std::optional<uint8_t> rtn_type_number(std::string_view word) {
  if (word == "local") return RTN_LOCAL;
  if (word == "nat") return RTN_NAT;
  if (word == "brd") return RTN_BROADCAST;
  auto prefix_of = [word](std::string_view name) { return !word.empty() && name.starts_with(word); };
  for (auto [type, name] : {std::pair{RTN_BROADCAST, "broadcast"},
                            {RTN_ANYCAST, "anycast"},
                            {RTN_MULTICAST, "multicast"},
                            {RTN_PROHIBIT, "prohibit"},
                            {RTN_UNREACHABLE, "unreachable"},
                            {RTN_BLACKHOLE, "blackhole"},
                            {RTN_XRESOLVE, "xresolve"},
                            {RTN_UNICAST, "unicast"}})
    if (prefix_of(name)) return static_cast<uint8_t>(type);
  if (word == "throw") return RTN_THROW;
  auto value = unsigned_any_base(word);
  if (!value || *value > 255) return std::nullopt;
  return static_cast<uint8_t>(*value);
}

const NameTable& dsfields() {
  // Only the file itself: ip reads no rt_dsfield.d.
  static const NameTable table = [] {
    NameTable t({{0, "0"}}, 255);
    t.add_file_text(read_file(std::string(kConfDir) + "rt_dsfield"));
    return t;
  }();
  return table;
}

const NameTable& realms() {
  static const NameTable table = [] {
    NameTable t({{0, "unknown"}}, 255);
    t.add_file_text(read_file(std::string(kConfDir) + "rt_realms"));
    return t;
  }();
  return table;
}

std::string dsfield_name(uint8_t value) {
  auto it = dsfields().entries().find(value);
  if (it != dsfields().entries().end() && !print_style().numeric) return it->second;
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", value);
  return text;
}

std::optional<uint8_t> dsfield_number(std::string_view word) {
  for (const auto& [value, name] : dsfields().entries())
    if (name == word) return static_cast<uint8_t>(value);
  // As ip: a number without a name is hexadecimal, "0x" or not.
  if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) word.remove_prefix(2);
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value, 16);
  if (word.empty() || ec != std::errc{} || end != word.data() + word.size() || value > 255)
    return std::nullopt;
  return static_cast<uint8_t>(value);
}

std::string realm_name(uint32_t realm) { return realms().name(realm); }
std::optional<uint32_t> realm_number(std::string_view word) { return realms().number(word); }
std::string table_name(uint32_t table) { return route_tables().name(table); }
std::optional<uint32_t> table_number(std::string_view word) { return route_tables().number(word); }
std::string group_name(uint32_t group) { return link_groups().name(group); }
std::optional<uint32_t> group_number(std::string_view word) { return link_groups().number(word); }

std::vector<std::string> nud_names(uint16_t state) {
  std::vector<std::string> out;
  for (const auto& [bit, name] : nud_states().entries()) {
    if (!(state & bit)) continue;
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char ch) { return std::toupper(ch); });
    out.push_back(std::move(upper));
  }
  if (out.empty()) out.emplace_back("NONE");
  return out;
}

// inet_proto_a2n(): a number, else a name from /etc/protocols.
std::optional<uint8_t> ip_proto_number(const std::string& text) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!text.empty() && ec == std::errc{} && end == text.data() + text.size() && value <= 255)
    return static_cast<uint8_t>(value);
  protoent entry{}, *found = nullptr;
  char buffer[1024];
  if (::getprotobyname_r(text.c_str(), &entry, buffer, sizeof buffer, &found) == 0 && found)
    return static_cast<uint8_t>(found->p_proto);
  return std::nullopt;
}

// inet_proto_n2a(): the protocol's name, else "ipproto-N".
std::string ip_proto_name(uint8_t proto) {
  protoent entry{}, *found = nullptr;
  char buffer[1024];
  if (!print_style().numeric && ::getprotobynumber_r(proto, &entry, buffer, sizeof buffer, &found) == 0 &&
      found)
    return found->p_name;
  return "ipproto-" + std::to_string(proto);
}

std::string link_layer_name(uint16_t type) {
  // ip's ll_type_n2a() names (lib/ll_types.c).
  static const std::pair<uint16_t, const char*> kNames[] = {
      {ARPHRD_NETROM, "netrom"},
      {ARPHRD_ETHER, "ether"},
      {ARPHRD_EETHER, "eether"},
      {ARPHRD_AX25, "ax25"},
      {ARPHRD_PRONET, "pronet"},
      {ARPHRD_CHAOS, "chaos"},
      {ARPHRD_IEEE802, "ieee802"},
      {ARPHRD_ARCNET, "arcnet"},
      {ARPHRD_APPLETLK, "atalk"},
      {ARPHRD_DLCI, "dlci"},
      {ARPHRD_ATM, "atm"},
      {ARPHRD_METRICOM, "metricom"},
      {ARPHRD_IEEE1394, "ieee1394"},
      {ARPHRD_INFINIBAND, "infiniband"},
      {ARPHRD_SLIP, "slip"},
      {ARPHRD_CSLIP, "cslip"},
      {ARPHRD_SLIP6, "slip6"},
      {ARPHRD_CSLIP6, "cslip6"},
      {ARPHRD_RSRVD, "rsrvd"},
      {ARPHRD_ADAPT, "adapt"},
      {ARPHRD_ROSE, "rose"},
      {ARPHRD_X25, "x25"},
      {ARPHRD_HWX25, "hwx25"},
      {ARPHRD_CAN, "can"},
      {ARPHRD_PPP, "ppp"},
      {ARPHRD_HDLC, "hdlc"},
      {ARPHRD_LAPB, "lapb"},
      {ARPHRD_DDCMP, "ddcmp"},
      {ARPHRD_RAWHDLC, "rawhdlc"},
      {ARPHRD_TUNNEL, "ipip"},
      {ARPHRD_TUNNEL6, "tunnel6"},
      {ARPHRD_FRAD, "frad"},
      {ARPHRD_SKIP, "skip"},
      {ARPHRD_LOOPBACK, "loopback"},
      {ARPHRD_LOCALTLK, "ltalk"},
      {ARPHRD_FDDI, "fddi"},
      {ARPHRD_BIF, "bif"},
      {ARPHRD_SIT, "sit"},
      {ARPHRD_IPDDP, "ip/ddp"},
      {ARPHRD_IPGRE, "gre"},
      {ARPHRD_PIMREG, "pimreg"},
      {ARPHRD_HIPPI, "hippi"},
      {ARPHRD_ASH, "ash"},
      {ARPHRD_ECONET, "econet"},
      {ARPHRD_IRDA, "irda"},
      {ARPHRD_FCPP, "fcpp"},
      {ARPHRD_FCAL, "fcal"},
      {ARPHRD_FCPL, "fcpl"},
      {ARPHRD_FCFABRIC, "fcfb0"},
      {ARPHRD_FCFABRIC + 1, "fcfb1"},
      {ARPHRD_FCFABRIC + 2, "fcfb2"},
      {ARPHRD_FCFABRIC + 3, "fcfb3"},
      {ARPHRD_FCFABRIC + 4, "fcfb4"},
      {ARPHRD_FCFABRIC + 5, "fcfb5"},
      {ARPHRD_FCFABRIC + 6, "fcfb6"},
      {ARPHRD_FCFABRIC + 7, "fcfb7"},
      {ARPHRD_FCFABRIC + 8, "fcfb8"},
      {ARPHRD_FCFABRIC + 9, "fcfb9"},
      {ARPHRD_FCFABRIC + 10, "fcfb10"},
      {ARPHRD_FCFABRIC + 11, "fcfb11"},
      {ARPHRD_FCFABRIC + 12, "fcfb12"},
      {ARPHRD_IEEE802_TR, "tr"},
      {ARPHRD_IEEE80211, "ieee802.11"},
      {ARPHRD_IEEE80211_PRISM, "ieee802.11/prism"},
      {ARPHRD_IEEE80211_RADIOTAP, "ieee802.11/radiotap"},
      {ARPHRD_IEEE802154, "ieee802.15.4"},
      {ARPHRD_IEEE802154_MONITOR, "ieee802.15.4/monitor"},
      {ARPHRD_PHONET, "phonet"},
      {ARPHRD_PHONET_PIPE, "phonet_pipe"},
      {ARPHRD_CAIF, "caif"},
      {ARPHRD_IP6GRE, "gre6"},
      {ARPHRD_NETLINK, "netlink"},
      {ARPHRD_6LOWPAN, "6lowpan"},
      {ARPHRD_NONE, "none"},
      {ARPHRD_VOID, "void"}};
  if (!print_style().numeric)
    for (auto [number, name] : kNames)
      if (number == type) return name;
  return "[" + std::to_string(type) + "]";
}

}  // namespace brisk::ipcli
