// brisk-portmap's nftables side: the group's fixed chains and sets (see
// portmap.h), and each pod's elements in them.
#include <fmt/format.h>
#include <net/if.h>

#include <algorithm>
#include <map>

#include "brisk/cni/error.h"
#include "brisk/netlink/route.h"
#include "cni/bridge_ops.h"
#include "cni/conntrack.h"
#include "cni/files.h"
#include "cni/ip_math.h"
#include "cni/nft.h"
#include "cni/portmap.h"
#include "cni/short_hash.h"

namespace brisk::cni::detail {
namespace {

constexpr const char* kTable = "brisk_portmap";
// The element sets and maps of a group, by the suffix of their names.
constexpr const char* kPortsAny = "_ports_any";
constexpr const char* kPortsOn = "_ports_on";
constexpr const char* kMarkAny = "_mark_any";
constexpr const char* kMarkOn = "_mark_on";

const char* family_name(int family) { return family == AF_INET ? "ip" : "ip6"; }

struct Group {
  std::string name{};             // "hostports" or "hp_<hash>"
  std::string conditions{};       // nft matches ahead of the jump; empty: none
  std::string mark{};             // the statement that marks for masquerading
  std::optional<int> masq_bit{};  // the bit the group's own masquerade chain matches
};

Group group_of(const PortmapConfig& c, int family) {
  Group g;
  g.conditions = translate_conditions(family == AF_INET ? c.conditions_v4 : c.conditions_v6, family);
  if (c.external_set_mark_chain) {
    g.mark = fmt::format("jump {}", *c.external_set_mark_chain);  // checked: an nft identifier
  } else {
    g.mark = fmt::format("meta mark set meta mark | {:#x}", 1u << c.mark_masq_bit);
    g.masq_bit = c.mark_masq_bit;
  }
  bool plain = g.conditions.empty() && g.masq_bit == 13;
  g.name = plain ? "hostports" : fmt::format("hp_{:016x}", fnv1a(g.conditions + "|" + g.mark));
  return g;
}

std::string setup(int family, const Group& g) {
  const char* f = family_name(family);
  const char* ip = family == AF_INET ? "ip" : "ip6";
  const char* addr = family == AF_INET ? "ipv4_addr" : "ipv6_addr";
  std::string cond = g.conditions.empty() ? "" : g.conditions + " ";
  // Idempotent, and each chain flushed and refilled in the same
  // transaction, so concurrent first ADDs still leave one copy of each rule.
  std::string s = fmt::format(
      "add table {f} {t}\n"
      "add chain {f} {t} {g}_prerouting {{ type nat hook prerouting priority dstnat; policy accept; }}\n"
      "add chain {f} {t} {g}_output {{ type nat hook output priority -100; policy accept; }}\n"
      "add chain {f} {t} {g}\n"
      "add map {f} {t} {g}{pa} {{ type inet_proto . inet_service : {a} . inet_service; }}\n"
      "add map {f} {t} {g}{po} {{ type {a} . inet_proto . inet_service : {a} . inet_service; }}\n"
      "add set {f} {t} {g}{ma} {{ type inet_proto . inet_service . {a}; flags interval; }}\n"
      "add set {f} {t} {g}{mo} {{ type {a} . inet_proto . inet_service . {a}; flags interval; }}\n"
      "flush chain {f} {t} {g}_prerouting\n"
      "flush chain {f} {t} {g}_output\n"
      "flush chain {f} {t} {g}\n"
      "add rule {f} {t} {g}_prerouting fib daddr type local {c}jump {g}\n"
      "add rule {f} {t} {g}_output fib daddr type local {c}jump {g}\n"
      "add rule {f} {t} {g} meta l4proto . th dport . {ip} saddr @{g}{ma} {m}\n"
      "add rule {f} {t} {g} {ip} daddr . meta l4proto . th dport . {ip} saddr @{g}{mo} {m}\n"
      "add rule {f} {t} {g} meta l4proto {{ tcp, udp, sctp }} dnat {ip} to {ip} daddr . meta l4proto . th "
      "dport map "
      "@{g}{po}\n"
      "add rule {f} {t} {g} meta l4proto {{ tcp, udp, sctp }} dnat {ip} to meta l4proto . th dport map "
      "@{g}{pa}\n",
      fmt::arg("f", f), fmt::arg("t", kTable), fmt::arg("g", g.name), fmt::arg("a", addr), fmt::arg("ip", ip),
      fmt::arg("c", cond), fmt::arg("m", g.mark), fmt::arg("pa", kPortsAny), fmt::arg("po", kPortsOn),
      fmt::arg("ma", kMarkAny), fmt::arg("mo", kMarkOn));
  if (g.masq_bit) {
    unsigned mark = 1u << *g.masq_bit;
    s += fmt::format(
        "add chain {f} {t} masquerade_bit{b} {{ type nat hook postrouting priority 90; policy accept; }}\n"
        "flush chain {f} {t} masquerade_bit{b}\n"
        "add rule {f} {t} masquerade_bit{b} meta mark & {m:#x} == {m:#x} masquerade\n",
        fmt::arg("f", f), fmt::arg("t", kTable), fmt::arg("b", *g.masq_bit), fmt::arg("m", mark));
  }
  return s;
}

// The rules each chain of a group holds once set up.
std::map<std::string, std::size_t> group_chains(const Group& g) {
  std::map<std::string, std::size_t> chains{
      {g.name + "_prerouting", 1}, {g.name + "_output", 1}, {g.name, 4}};
  if (g.masq_bit) chains[fmt::format("masquerade_bit{}", *g.masq_bit)] = 1;
  return chains;
}

std::string tag(const std::string& s, std::size_t limit) {
  return s.size() <= limit ? s : fmt::format("#{:016x}", fnv1a(s));
}

// Names an attachment as the reference names its chain: network and
// container id (both [A-Za-z0-9_.-], so safe in quotes), within nft's 128 bytes.
std::string comment_of(const std::string& network, const std::string& container_id) {
  return tag(network, 40) + " " + tag(container_id, 80);
}

// An address or prefix as nft lists it: a full-length prefix is an address.
std::string prefix_text(const netlink::IpPrefix& p) {
  if (p.length == host_length(p.address.family)) return p.address.to_string();
  return fmt::format("{}/{}", network_of(p).to_string(), p.length);
}

// One element as nft lists it (key and value as text).
struct Element {
  std::string set{};  // its set or map's name
  std::string key{};
  std::string value{};  // a map's value; empty for a set
  std::string comment{};
  bool operator==(const Element&) const = default;
};

std::string add_command(int family, const Element& e) {
  if (e.value.empty())
    return fmt::format("add element {} {} {} {{ {} comment \"{}\" }}\n", family_name(family), kTable, e.set,
                       e.key, e.comment);
  return fmt::format("add element {} {} {} {{ {} comment \"{}\" : {} }}\n", family_name(family), kTable,
                     e.set, e.key, e.comment, e.value);
}

std::string delete_command(int family, const Element& e) {
  return fmt::format("delete element {} {} {} {{ {} }}", family_name(family), kTable, e.set, e.key);
}

// The elements of one pod address, as the reference's fillDnatRules makes
// its rules: entries of the other family are skipped, an unspecified
// hostIP is any; with snat, the pod's subnet (hairpin) and, for IPv4,
// 127.0.0.1 are marked, or every source with masqAll.
std::vector<Element> elements_of(const PortmapConfig& c, const std::string& container_id, const Group& g,
                                 const netlink::IpPrefix& pod) {
  int family = pod.address.family;
  std::string comment = comment_of(c.name, container_id);
  std::vector<std::string> sources;
  if (c.masq_all)
    sources.push_back(family == AF_INET ? "0.0.0.0/0" : "::/0");
  else {
    sources.push_back(prefix_text(pod));
    if (family == AF_INET) sources.push_back("127.0.0.1");
  }
  std::vector<Element> out;
  for (const PortMapping& m : c.mappings) {
    std::string host;
    if (!m.host_ip.empty()) {
      auto ip = netlink::IpAddress::parse(m.host_ip);
      if (!ip || ip->family != family) continue;
      if (!std::all_of(ip->bytes.begin(), ip->bytes.begin() + ip->size(), [](uint8_t b) { return b == 0; }))
        host = ip->to_string();
    }
    std::string port = fmt::format("{} . {}", m.protocol, m.host_port);
    std::string to = fmt::format("{} . {}", pod.address.to_string(), m.container_port);
    if (c.snat)
      for (const std::string& src : sources)
        out.push_back(host.empty()
                          ? Element{g.name + kMarkAny, port + " . " + src, "", comment}
                          : Element{g.name + kMarkOn, host + " . " + port + " . " + src, "", comment});
    out.push_back(host.empty() ? Element{g.name + kPortsAny, port, to, comment}
                               : Element{g.name + kPortsOn, host + " . " + port, to, comment});
  }
  return out;
}

struct TableState {
  std::vector<Element> elements{};
  std::map<std::string, std::size_t> chain_rules{};  // every chain, with its number of rules
};

bool is_element_set(const std::string& name) {
  for (const char* suffix : {kPortsAny, kPortsOn, kMarkAny, kMarkOn}) {
    std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) return true;
  }
  return false;
}

TableState list_table(int family) {
  Nft nft(true);
  nlohmann::json doc = nft.list(fmt::format("list table {} {}", family_name(family), kTable));
  TableState state;
  if (!doc.is_object()) return state;  // no table yet
  for (const auto& item : doc.value("nftables", nlohmann::json::array())) {
    if (item.contains("chain")) state.chain_rules.emplace(item["chain"].value("name", ""), 0);
    if (item.contains("rule")) ++state.chain_rules[item["rule"].value("chain", "")];
    const char* kind = item.contains("map") ? "map" : item.contains("set") ? "set" : nullptr;
    if (!kind) continue;
    const auto& set = item[kind];
    std::string name = set.value("name", "");
    if (!is_element_set(name)) continue;
    for (const auto& e : set.value("elem", nlohmann::json::array())) {
      Element el{.set = name};
      // A map's element is [key, value]; a set's is the key. A key with a
      // comment is {"elem": {"val": key, "comment": ...}}.
      const nlohmann::json& key = e.is_array() && e.size() == 2 ? e[0] : e;
      if (e.is_array() && e.size() == 2) el.value = element_text(e[1]);
      if (key.is_object() && key.contains("elem")) {
        el.key = element_text(key["elem"].value("val", nlohmann::json()));
        el.comment = key["elem"].value("comment", "");
      } else {
        el.key = element_text(key);
      }
      state.elements.push_back(std::move(el));
    }
  }
  return state;
}

// The deletes of the elements whose comment `drop` picks.
template <class Pred>
std::vector<std::string> deletes(int family, const TableState& state, Pred drop) {
  std::vector<std::string> out;
  for (const Element& e : state.elements)
    if (drop(e.comment)) out.push_back(delete_command(family, e));
  return out;
}

// net.ipv4.conf.<dev>.route_localnet=1 on the device that routes to the
// pod, so that 127.0.0.1 may leave through it after DNAT (the reference's
// enableLocalnetRouting); like the reference, no route is no error.
void enable_localnet_routing(const netlink::IpAddress& pod) {
  netlink::Connection conn = open_connection();
  auto route = netlink::get_route(conn, {.to = pod.to_string()});
  char name[IF_NAMESIZE] = {};
  if (!route || route->oif == 0 || !::if_indextoname(static_cast<unsigned>(route->oif), name)) return;
  write_sysctl(fmt::format("net/ipv4/conf/{}/route_localnet", name), "1");
}

// After the rules are in, as the reference: UDP flows to a mapped port
// that began before them would keep their (un-NATed) conntrack entries.
void forget_udp_flows(const PortmapConfig& c, int family) {
  for (const PortMapping& m : c.mappings)
    if (m.protocol == "udp") (void)delete_udp_conntrack(family, static_cast<uint16_t>(m.host_port));
}

}  // namespace

void portmap_add(const PortmapConfig& c, const std::string& container_id, const netlink::IpPrefix& pod) {
  int family = pod.address.family;
  Group g = group_of(c, family);
  std::string elements;
  for (const Element& e : elements_of(c, container_id, g, pod)) elements += add_command(family, e);
  if (c.snat && family == AF_INET) enable_localnet_routing(pod.address);
  // Usually the group is there and the pod new: its elements are the
  // whole transaction. Otherwise set the group up, and drop what a
  // previous ADD of this attachment left, in the same transaction.
  Nft nft;
  if (nft.run(elements).empty()) {
    forget_udp_flows(c, family);
    return;
  }
  std::string comment = comment_of(c.name, container_id);
  std::string stale;
  for (const std::string& d :
       deletes(family, list_table(family), [&](const std::string& k) { return k == comment; }))
    stale += d + "\n";
  std::string error = nft.run(setup(family, g) + stale + elements);
  if (!error.empty())
    fail(ErrorCode::internal, "failed to set up port forwarding (nftables)",
         error + (error.find("File exists") != std::string::npos
                      ? " (is a hostPort already mapped to another pod?)"
                      : ""));
  forget_udp_flows(c, family);
}

void portmap_check(const PortmapConfig& c, const std::string& container_id, const netlink::IpPrefix& pod) {
  int family = pod.address.family;
  Group g = group_of(c, family);
  TableState state = list_table(family);
  for (const auto& [chain, rules] : group_chains(g)) {
    auto it = state.chain_rules.find(chain);
    if (it == state.chain_rules.end() || it->second != rules)
      fail(ErrorCode::internal, fmt::format("chain {} {} {} not found or not as brisk-portmap left it",
                                            family_name(family), kTable, chain));
  }
  for (const Element& want : elements_of(c, container_id, g, pod))
    if (std::find(state.elements.begin(), state.elements.end(), want) == state.elements.end())
      fail(ErrorCode::internal,
           fmt::format("element {{ {}{}{} }} of {} {} {} not found", want.key,
                       want.value.empty() ? "" : " : ", want.value, family_name(family), kTable, want.set));
}

void portmap_del(const std::string& network, const std::string& container_id) {
  std::string comment = comment_of(network, container_id);
  std::vector<std::string> commands;
  for (int family : {AF_INET, AF_INET6})
    for (std::string& d :
         deletes(family, list_table(family), [&](const std::string& k) { return k == comment; }))
      commands.push_back(std::move(d));
  delete_tolerating_missing(commands);
}

void portmap_gc(const std::string& network, const std::vector<Attachment>& keep) {
  std::vector<std::string> wanted;
  for (const Attachment& a : keep) wanted.push_back(comment_of(network, a.container_id));
  std::string prefix = tag(network, 40) + " ";
  std::vector<std::string> commands;
  for (int family : {AF_INET, AF_INET6})
    for (std::string& d : deletes(family, list_table(family), [&](const std::string& k) {
           return k.rfind(prefix, 0) == 0 && std::find(wanted.begin(), wanted.end(), k) == wanted.end();
         }))
      commands.push_back(std::move(d));
  delete_tolerating_missing(commands);
}

}  // namespace brisk::cni::detail
