// ip's print_linkinfo: a link's header, link layer, details and counters.
#include "cli/ip/link/link_print.h"

#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <strings.h>

#include <algorithm>
#include <array>
#include <optional>

#include "cli/ip/link/link_details.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"

namespace brisk::ipcli {
namespace {

std::vector<std::string> link_flags(uint32_t flags, bool mdown) {
  std::vector<std::string> out;
  if ((flags & IFF_UP) && !(flags & IFF_RUNNING)) out.emplace_back("NO-CARRIER");
  // In ip's print_link_flags order.
  static const std::pair<uint32_t, const char*> kFlags[] = {
      {IFF_LOOPBACK, "LOOPBACK"},   {IFF_BROADCAST, "BROADCAST"},   {IFF_POINTOPOINT, "POINTOPOINT"},
      {IFF_MULTICAST, "MULTICAST"}, {IFF_NOARP, "NOARP"},           {IFF_ALLMULTI, "ALLMULTI"},
      {IFF_PROMISC, "PROMISC"},     {IFF_MASTER, "MASTER"},         {IFF_SLAVE, "SLAVE"},
      {IFF_DEBUG, "DEBUG"},         {IFF_DYNAMIC, "DYNAMIC"},       {IFF_AUTOMEDIA, "AUTOMEDIA"},
      {IFF_PORTSEL, "PORTSEL"},     {IFF_NOTRAILERS, "NOTRAILERS"}, {IFF_UP, "UP"},
      {IFF_LOWER_UP, "LOWER_UP"},   {IFF_DORMANT, "DORMANT"},       {IFF_ECHO, "ECHO"}};
  for (auto [bit, name] : kFlags)
    if (flags & bit) out.emplace_back(name);
  if (mdown) out.emplace_back("M-DOWN");
  return out;
}

// IF_OPER_* in order (RFC 2863), as `state` prints and `link set … state` reads them.
constexpr const char* kOperStates[] = {"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN",
                                       "TESTING", "DORMANT",    "UP"};

const char* operstate_name(uint8_t state) {
  return state < std::size(kOperStates) ? kOperStates[state] : "UNKNOWN";
}

// IF_LINK_MODE_*; ip reads only the first two back (`link set … mode`).
constexpr const char* kLinkModes[] = {"DEFAULT", "DORMANT", "TESTING"};
static_assert(IF_LINK_MODE_DEFAULT == 0 && IF_LINK_MODE_DORMANT == 1 && IF_LINK_MODE_TESTING == 2);

const char* linkmode_name(uint8_t mode) {
  return mode < std::size(kLinkModes) ? kLinkModes[mode] : "UNKNOWN";
}

std::string link_type(const netlink::LinkInfo& l) {
  // Type 0 (ARPHRD_NETROM, which no Linux device has) is a LinkInfo made
  // without the kernel's header: its flags and address tell.
  if (l.type == 0) return (l.flags & IFF_LOOPBACK) ? "loopback" : l.address ? "ether" : "none";
  return link_layer_name(l.type);
}

// The peer named after '@', and whether it is down (ip's M-DOWN).
struct PeerInfo {
  std::string name;
  bool other_netns = false;
  bool down = false;
};
std::optional<PeerInfo> peer_of(const netlink::LinkInfo& l, const Links& all) {
  // The kernel sends no IFLA_LINK for a device that is its own link; a peer
  // in another namespace may well have the same index.
  // An IFLA_LINK of 0 (a veth whose peer is not, or no longer, there) is ip's "@NONE".
  if (l.link == 0) return l.has_link ? std::optional(PeerInfo{"NONE", false, false}) : std::nullopt;
  if (l.link == l.ifindex && !l.link_netnsid) return std::nullopt;
  if (l.link_netnsid) return PeerInfo{"if" + std::to_string(l.link), true, false};
  auto it = all.find(l.link);
  if (it == all.end()) return PeerInfo{"NONE", false, false};
  return PeerInfo{it->second.name, false, !(it->second.flags & IFF_UP)};
}

// "link" (or "link_index" for a peer in another namespace), then "ifname".
void name_json(Json& j, const netlink::LinkInfo& l, const std::optional<PeerInfo>& peer) {
  if (peer && !peer->other_netns && l.link == 0)
    j["link"] = nullptr;  // ip's "@NONE"
  else if (peer && !peer->other_netns)
    j["link"] = peer->name;
  if (peer && peer->other_netns) j["link_index"] = l.link;
  j["ifname"] = l.name;
}

// ip prints a link's altnames last, after its counters (link show) and
// before its addresses (addr show); the kernel's IPv6 link dump has none.
void altnames_json(Json& j, const netlink::LinkInfo& l) {
  if (!l.altnames.empty()) j["altnames"] = l.altnames;
}
std::string altnames_text(const netlink::LinkInfo& l) {
  std::string t;
  for (const auto& name : l.altnames) t += "    altname " + name + "\n";
  return t;
}

}  // namespace

// ip -j -s's "stats64" object; -s -s (`detailed`) adds the error counters.
Json stats_json(const netlink::LinkStats& s, bool detailed) {
  Json rx{{"bytes", s.rx_bytes},     {"packets", s.rx_packets},         {"errors", s.rx_errors},
          {"dropped", s.rx_dropped}, {"over_errors", s.rx_over_errors}, {"multicast", s.multicast}};
  Json tx{{"bytes", s.tx_bytes},
          {"packets", s.tx_packets},
          {"errors", s.tx_errors},
          {"dropped", s.tx_dropped},
          {"carrier_errors", s.tx_carrier_errors},
          {"collisions", s.collisions}};
  if (detailed) {
    rx["length_errors"] = s.rx_length_errors;
    rx["crc_errors"] = s.rx_crc_errors;
    rx["frame_errors"] = s.rx_frame_errors;
    rx["fifo_errors"] = s.rx_fifo_errors;
    rx["missed_errors"] = s.rx_missed_errors;
    if (s.rx_nohandler) rx["nohandler"] = s.rx_nohandler;
    tx["aborted_errors"] = s.tx_aborted_errors;
    tx["fifo_errors"] = s.tx_fifo_errors;
    tx["window_errors"] = s.tx_window_errors;
    tx["heartbeat_errors"] = s.tx_heartbeat_errors;
    tx["carrier_changes"] = s.carrier_changes;
  }
  return Json{{"rx", std::move(rx)}, {"tx", std::move(tx)}};
}

// ip -s's counter table: right-aligned columns, each as wide as its header
// or its widest number (every row shares the widths). -s -s (`detailed`)
// adds a row of error counters under RX and under TX, aligned from the
// second column on.
std::string stats_text(const netlink::LinkStats& s, bool detailed) {
  using Row = std::array<uint64_t, 6>;
  const Row rx{s.rx_bytes, s.rx_packets, s.rx_errors, s.rx_dropped, s.rx_missed_errors, s.multicast};
  const Row tx{s.tx_bytes, s.tx_packets, s.tx_errors, s.tx_dropped, s.tx_carrier_errors, s.collisions};
  const Row rx_err{
      0, s.rx_length_errors, s.rx_crc_errors, s.rx_frame_errors, s.rx_fifo_errors, s.rx_over_errors};
  const Row tx_err{
      0, s.tx_aborted_errors, s.tx_fifo_errors, s.tx_window_errors, s.tx_heartbeat_errors, s.carrier_changes};
  std::array<std::size_t, 7> width{10, 7, 6, 7, 7, 7, 0};
  // With -h the columns keep their headers' widths, as ip's size_columns().
  bool human = print_style().human;
  for (const Row* row : {&rx, &tx, detailed ? &rx_err : nullptr, detailed ? &tx_err : nullptr})
    for (std::size_t i = 0; row && !human && i < row->size(); ++i)
      width[i] = std::max(width[i], std::to_string((*row)[i]).size());
  bool nohandler = detailed && s.rx_nohandler;
  // The nohandler column is ip's compressed one (at least 10 wide).
  if (nohandler) width[6] = std::max<std::size_t>(10, human ? 0 : std::to_string(s.rx_nohandler).size());
  auto pad = [](const std::string& text, std::size_t w) {
    return std::string(w - std::min(w, text.size()), ' ') + text;
  };
  auto table = [&](const char* title, const std::array<const char*, 6>& names, const Row& values) {
    std::string out = std::string("    ") + title + ":" + pad(names[0], width[0] - 3);
    for (std::size_t i = 1; i < names.size(); ++i) out += " " + pad(names[i], width[i]);
    out += " " + std::string(10, ' ') + "\n    ";  // ip's empty "compressed" column
    for (std::size_t i = 0; i < values.size(); ++i) out += pad(human_count(values[i]), width[i]) + " ";
    return out + "\n";
  };
  auto errors = [&](const char* title, const std::array<const char*, 5>& names, const Row& values,
                    uint64_t extra) {
    std::string out = std::string("    ") + title + " errors:" + std::string(width[0] - 10, ' ');
    for (std::size_t i = 0; i < names.size(); ++i) out += " " + pad(names[i], width[i + 1]);
    if (extra) out += " " + pad("nohandler", width[6]);
    out += "\n" + std::string(width[0] + 5, ' ');
    for (std::size_t i = 1; i < values.size(); ++i) out += pad(human_count(values[i]), width[i]) + " ";
    if (extra) out += pad(human_count(extra), width[6]) + " ";
    return out + "\n";
  };
  std::string out = table("RX", {"bytes", "packets", "errors", "dropped", "missed", "mcast"}, rx);
  if (detailed)
    out +=
        errors("RX", {"length", "crc", "frame", "fifo", "overrun"}, rx_err, nohandler ? s.rx_nohandler : 0);
  out += table("TX", {"bytes", "packets", "errors", "dropped", "carrier", "collsns"}, tx);
  if (detailed) out += errors("TX", {"aborted", "fifo", "window", "heartbt", "transns"}, tx_err, 0);
  return out;
}

Json link_json(const netlink::LinkInfo& l, const LinkView& view) {
  const Globals& g = view.globals;
  const Links& all = view.all;
  bool for_addr = view.for_addr;
  // An ordered_json object is a vector of (const key, value): growing it
  // copies every member, so room for a detailed link's ~40 is made up front.
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(g.details ? 48 : 16);
  j["ifindex"] = l.ifindex;
  auto peer = peer_of(l, all);
  name_json(j, l, peer);
  j["flags"] = link_flags(l.flags, peer && peer->down);
  j["mtu"] = l.mtu;
  bool v6_addr = for_addr && view.inet6_dump;
  if (!l.qdisc.empty() && !v6_addr) j["qdisc"] = l.qdisc;
  if (l.master && !v6_addr) j["master"] = name_of(l.master, all);
  j["operstate"] = operstate_name(l.operstate);
  if (!for_addr) j["linkmode"] = linkmode_name(l.linkmode);
  if (!v6_addr) j["group"] = group_name(l.group);
  j["txqlen"] = l.txqueuelen;
  // ip -4/-6 addr leaves out the link layer, unless -d.
  if (for_addr && view.family != AF_UNSPEC && !g.details) {
    if (!v6_addr) altnames_json(j, l);
    return j;
  }
  j["link_type"] = link_type(l);
  if (l.address) j["address"] = l.address->to_string();
  if (v6_addr) return j;  // the IPv6 link dump carries no more (shown with -d only)
  if (l.broadcast) j["broadcast"] = l.broadcast->to_string();
  if (l.link_netnsid) j["link_netnsid"] = *l.link_netnsid;
  append_link_details(
      l, !for_addr, [&all](int index) { return name_of(index, all); }, nullptr, &j);
  if ((!for_addr || g.details) && !l.alias.empty()) j["ifalias"] = l.alias;
  if (g.stats && l.stats && !for_addr)
    j["stats64"] = stats_json(*l.stats, g.stats > 1);  // addr show: after addr_info
  altnames_json(j, l);
  return j;
}

std::string link_text(const netlink::LinkInfo& l, const LinkView& view) {
  const Globals& g = view.globals;
  const Links& all = view.all;
  bool for_addr = view.for_addr;
  auto peer = peer_of(l, all);
  // ip paints "NAME@PEER: " with its colon and space.
  std::string t = std::to_string(l.ifindex) + ": " +
                  paint(Paint::ifname, (peer ? l.name + "@" + peer->name : l.name) + ": ");
  t += "<" + join(link_flags(l.flags, peer && peer->down), ",") + "> mtu " + std::to_string(l.mtu);
  bool v6_addr = for_addr && view.inet6_dump;  // as in link_json()
  if (!l.qdisc.empty() && !v6_addr) t += " qdisc " + l.qdisc;
  if (l.master && !v6_addr) t += " master " + name_of(l.master, all);
  t += " state " + paint_spaced(operstate_paint(l.operstate), operstate_name(l.operstate));
  if (!for_addr) t += std::string(" mode ") + linkmode_name(l.linkmode);
  if (!v6_addr) t += " group " + group_name(l.group);
  // ip ends each field with a space; "qlen N" alone has none.
  t += (view.queue ? " qlen " + std::to_string(l.txqueuelen) : std::string(" ")) + "\n";
  if (for_addr && view.family != AF_UNSPEC && !g.details) return v6_addr ? t : t + altnames_text(l);
  t += "    link/" + link_type(l) + " ";
  if (l.address) t += paint(Paint::mac, l.address->to_string());
  if (v6_addr) return t + "\n";  // as in link_json()
  if (l.broadcast) t += " brd " + paint(Paint::mac, l.broadcast->to_string());
  if (l.link_netnsid) {
    const std::map<int, std::string>* names = view.runner ? &view.runner->netns_by_id() : nullptr;
    auto named = names ? names->find(*l.link_netnsid) : std::map<int, std::string>::const_iterator{};
    if (names && named != names->end())
      t += " link-netns " + named->second;
    else if (*l.link_netnsid < 0)
      t += " link-netnsid unknown";
    else
      t += " link-netnsid " + std::to_string(*l.link_netnsid);
  }
  append_link_details(
      l, !for_addr, [&all](int index) { return name_of(index, all); }, &t, nullptr);
  t += "\n";
  if ((!for_addr || g.details) && !l.alias.empty()) t += "    alias " + l.alias + "\n";
  if (g.stats && l.stats && !for_addr)
    t += stats_text(*l.stats, g.stats > 1);  // addr show prints them after the addresses
  return t + altnames_text(l);
}

// Whether `address` lies in `prefix` (same family, the first length bits equal).

void print_brief(Runner& r, const netlink::LinkInfo& l, const Links& all,
                 const std::vector<netlink::AddressInfo>* addrs) {
  auto peer = peer_of(l, all);
  if (r.globals().json) {
    Json j;
    name_json(j, l, peer);
    j["operstate"] = operstate_name(l.operstate);
    if (addrs) {
      Json infos = Json::array();
      for (const auto& a : *addrs) {
        Json ai;
        address_head(a, ai);
        infos.push_back(std::move(ai));
      }
      j["addr_info"] = std::move(infos);
    } else {
      if (l.address) j["address"] = l.address->to_string();
      j["flags"] = link_flags(l.flags, peer && peer->down);
    }
    r.emit(std::move(j));
    return;
  }
  // ip's brief columns are painted with their padding and the space after them.
  std::string t = paint(Paint::ifname, column(peer ? l.name + "@" + peer->name : l.name, 16) + " ") +
                  paint(operstate_paint(l.operstate), column(operstate_name(l.operstate), 14) + " ");
  if (addrs) {
    Json unused;
    for (const auto& a : *addrs) t += address_head(a, unused);
  } else {
    if (l.address) t += paint(Paint::mac, l.address->to_string() + " ");
    t += "<" + join(link_flags(l.flags, peer && peer->down), ",") + "> ";
  }
  r.out() += t + "\n";
}

std::optional<uint8_t> operstate_number(const std::string& word) {
  for (std::size_t i = 0; i < std::size(kOperStates); ++i)
    if (::strcasecmp(word.c_str(), kOperStates[i]) == 0) return static_cast<uint8_t>(i);
  return std::nullopt;
}

std::optional<uint8_t> linkmode_number(const std::string& word) {
  for (uint8_t mode : {IF_LINK_MODE_DEFAULT, IF_LINK_MODE_DORMANT})
    if (::strcasecmp(word.c_str(), kLinkModes[mode]) == 0) return mode;
  return std::nullopt;
}

}  // namespace brisk::ipcli
