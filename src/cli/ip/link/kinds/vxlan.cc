// ip link's vxlan kind, as ip 6.1's iplink_vxlan.c: `type vxlan OPTIONS`
// for a new device or a change of one, and its `-d` details.
#include <arpa/inet.h>
#include <linux/if_link.h>

#include <algorithm>
#include <cstring>

#include "cli/ip/link/link_kind.h"
#include "cli/ip/names.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;

// ip's reply to options its vxlan parser cannot take together: the text, status 1.
Failure<UsageError> vxlan_refused(const std::string& what) {
  return fail(UsageError{.message = what, .exact = true, .exit_code = 1});
}

// ip 6.1's vxlan usage (print_explain).
constexpr std::string_view kVxlanUsage = R"(Usage: ... vxlan id VNI
		[ { group | remote } IP_ADDRESS ]
		[ local ADDR ]
		[ ttl TTL ]
		[ tos TOS ]
		[ df DF ]
		[ flowlabel LABEL ]
		[ dev PHYS_DEV ]
		[ dstport PORT ]
		[ srcport MIN MAX ]
		[ [no]learning ]
		[ [no]proxy ]
		[ [no]rsc ]
		[ [no]l2miss ]
		[ [no]l3miss ]
		[ ageing SECONDS ]
		[ maxaddress NUMBER ]
		[ [no]udpcsum ]
		[ [no]udp6zerocsumtx ]
		[ [no]udp6zerocsumrx ]
		[ [no]remcsumtx ] [ [no]remcsumrx ]
		[ [no]external ] [ gbp ] [ gpe ]
		[ [no]vnifilter ]

Where:	VNI	:= 0-16777215
	ADDR	:= { IP_ADDRESS | any }
	TOS	:= { NUMBER | inherit }
	TTL	:= { 1..255 | auto | inherit }
	DF	:= { unset | set | inherit }
	LABEL := 0-1048575)";

// ip's reply to an option its vxlan parser lacks (or to `help`): the text,
// then ip's vxlan usage, status 1.
Failure<UsageError> vxlan_usage(const std::string& what) {
  return fail(UsageError{.message = what + std::string(kVxlanUsage), .exact = true, .exit_code = 1});
}

bool multicast(const netlink::IpAddress& a) {
  auto bytes = a.data();
  return a.family == AF_INET ? (bytes[0] & 0xf0) == 0xe0 : bytes[0] == 0xff;
}

// vxlan's on/off options, in ip's order of matching (its prefixes resolve
// by that order): each word, the value it sets, and the field.
struct VxlanToggle {
  const char* first;
  bool first_value;
  const char* second;
  std::optional<bool> netlink::VxlanOptions::*field;
};
constexpr VxlanToggle kVxlanToggles[] = {
    {"nolearning", false, "learning", &netlink::VxlanOptions::learning},
    {"noproxy", false, "proxy", &netlink::VxlanOptions::proxy},
    {"norsc", false, "rsc", &netlink::VxlanOptions::rsc},
    {"nol2miss", false, "l2miss", &netlink::VxlanOptions::l2miss},
    {"nol3miss", false, "l3miss", &netlink::VxlanOptions::l3miss},
    {"udpcsum", true, "noudpcsum", &netlink::VxlanOptions::udp_csum},
    {"udp6zerocsumtx", true, "noudp6zerocsumtx", &netlink::VxlanOptions::udp6_zero_csum_tx},
    {"udp6zerocsumrx", true, "noudp6zerocsumrx", &netlink::VxlanOptions::udp6_zero_csum_rx},
    {"remcsumtx", true, "noremcsumtx", &netlink::VxlanOptions::remcsum_tx},
    {"remcsumrx", true, "noremcsumrx", &netlink::VxlanOptions::remcsum_rx},
    {"external", true, "noexternal", &netlink::VxlanOptions::external},
};

// A 32-bit number, or `none` meaning 0 (ageing none, maxaddress unlimited).
Parsed<uint32_t> number_or_none(const std::string& v, const char* none, const char* error) {
  if (v == none) return 0u;
  auto n = number<uint32_t>("", v);
  if (!n) return invarg(error, v);
  return *n;
}

// ip's stderr when a new vxlan names no dstport (it still makes it).
constexpr const char* kVxlanPortWarning =
    "vxlan: destination port not specified\n"
    "Will use Linux kernel default (non-standard value)\n"
    "Use 'dstport 4789' to get the IANA assigned value\n"
    "Use 'dstport 0' to get default and quiet this message";

// What parse_vxlan has read so far: the options, the attributes given (for
// ip's duplicate check) and learning, which ip keeps in a variable that
// "external" clears; a new device gets it always, a change only when
// [no]learning was named.
struct VxlanRead {
  netlink::VxlanOptions vx{};
  std::vector<std::string> seen{};
  bool learning = true;

  Parsed<bool> once(const char* attr, const std::string& key, const std::string& value) {
    if (given(attr)) return garbage(key, value);
    seen.emplace_back(attr);
    return true;
  }
  bool given(const char* attr) const { return std::find(seen.begin(), seen.end(), attr) != seen.end(); }
};

// A vxlan endpoint address, of the kind (multicast or not) the keyword wants.
Parsed<std::string> vxlan_address(const std::string& v, bool want_multicast, const char* what) {
  TRY_SET(std::ignore, ip_address("", v, AF_UNSPEC));
  if (multicast(*netlink::IpAddress::parse(v)) != want_multicast) return invarg(what, v);
  return v;
}

// The keywords that say which network a vxlan is and where its packets
// go: id, group, remote, local, dev. false: `key` is none of them.
Parsed<bool> vxlan_endpoint(Cursor& c, const std::string& key, VxlanRead& r) {
  netlink::VxlanOptions& vx = r.vx;
  std::string v;
  if (matches(key, "id") || matches(key, "vni")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("id", "id", v));
    auto id = number<uint32_t>("id", v);
    if (!id || *id >= 1u << 24) return invarg("invalid id", v);
    vx.id = *id;
  } else if (matches(key, "group")) {
    if (!vx.remote.empty()) return vxlan_refused("vxlan: both group and remote cannot be specified");
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("group", "group", v));
    TRY_SET(vx.group, vxlan_address(v, true, "invalid group address"));
  } else if (matches(key, "remote")) {
    if (!vx.group.empty()) return vxlan_refused("vxlan: both group and remote cannot be specified");
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("group", "remote", v));
    TRY_SET(vx.remote, vxlan_address(v, false, "invalid remote address"));
  } else if (matches(key, "local")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("local", "local", v));
    TRY_SET(vx.local, vxlan_address(v, false, "invalid local address"));
  } else if (matches(key, "dev")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("dev", "dev", v));
    TRY_SET(vx.dev, device_name(key, v));
  } else {
    return false;
  }
  return true;
}

// The keywords of how a vxlan's packets look on the wire: ttl, tos, df,
// flowlabel. false: `key` is none of them.
Parsed<bool> vxlan_wire(Cursor& c, const std::string& key, VxlanRead& r) {
  netlink::VxlanOptions& vx = r.vx;
  std::string v;
  if (matches(key, "ttl") || matches(key, "hoplimit")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("ttl", "ttl", v));
    if (v == "inherit") {
      vx.ttl_inherit = true;
    } else if (v == "auto") {
      vx.ttl = 0;
    } else {
      auto ttl = number<uint32_t>("ttl", v);
      if (!ttl) return invarg("invalid TTL", v);
      if (*ttl > 255) return invarg("TTL must be <= 255", v);
      vx.ttl = static_cast<uint8_t>(*ttl);
    }
  } else if (matches(key, "tos") || matches(key, "dsfield")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("tos", "tos", v));
    if (v == "inherit") {
      vx.tos = 1;
    } else if (auto tos = dsfield_number(v)) {
      vx.tos = *tos;
    } else {
      return invarg("bad TOS value", v);
    }
  } else if (matches(key, "df")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("df", "df", v));
    if (v == "unset")
      vx.df = VXLAN_DF_UNSET;
    else if (v == "set")
      vx.df = VXLAN_DF_SET;
    else if (v == "inherit")
      vx.df = VXLAN_DF_INHERIT;
    else
      return invarg("DF must be 'unset', 'set' or 'inherit'", v);
  } else if (matches(key, "label") || matches(key, "flowlabel")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("label", "flowlabel", v));
    auto label = number<uint32_t>("flowlabel", v);
    if (!label || *label > 0xfffff) return invarg("invalid flowlabel", v);
    vx.flowlabel = *label;
  } else {
    return false;
  }
  return true;
}

// The keywords of a vxlan's forwarding table and UDP ports: ageing,
// maxaddress, srcport, dstport. false: `key` is none of them.
Parsed<bool> vxlan_table_and_ports(Cursor& c, const std::string& key, VxlanRead& r) {
  netlink::VxlanOptions& vx = r.vx;
  std::string v;
  if (matches(key, "ageing")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("ageing", "ageing", v));
    TRY_SET(vx.ageing, number_or_none(v, "none", "ageing timer"));
  } else if (matches(key, "maxaddress")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("limit", "maxaddress", v));
    TRY_SET(vx.max_addresses, number_or_none(v, "unlimited", "max addresses"));
  } else if (matches(key, "port") || matches(key, "srcport")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("port_range", "srcport", v));
    auto low = number<uint16_t>("srcport", v);
    if (!low) return invarg("min port", v);
    TRY_SET(v, c.value(key));
    auto high = number<uint16_t>("srcport", v);
    if (!high) return invarg("max port", v);
    if (*low || *high) vx.source_ports = std::pair{*low, *high};  // as ip: 0 0 sends nothing
  } else if (matches(key, "dstport")) {
    TRY_SET(v, c.value(key));
    TRY_SET(std::ignore, r.once("dstport", "dstport", v));
    auto port = number<uint16_t>("dstport", v);
    if (!port) return invarg("dst port", v);
    vx.dstport = *port;
  } else {
    return false;
  }
  return true;
}

// The on/off keywords (kVxlanToggles, gbp, gpe, [no]vnifilter). false:
// `key` is none of them.
Parsed<bool> vxlan_flag(const std::string& key, VxlanRead& r) {
  netlink::VxlanOptions& vx = r.vx;
  if (auto toggle = std::find_if(
          std::begin(kVxlanToggles), std::end(kVxlanToggles),
          [&key](const VxlanToggle& t) { return matches(key, t.first) || matches(key, t.second); });
      toggle != std::end(kVxlanToggles)) {
    TRY_SET(std::ignore, r.once(toggle->second, key, key));
    bool on = matches(key, toggle->first) ? toggle->first_value : !toggle->first_value;
    if (toggle->field == &netlink::VxlanOptions::learning) {
      r.learning = on;
      return true;
    }
    vx.*(toggle->field) = on;
    if (toggle->field == &netlink::VxlanOptions::external && on) r.learning = false;
  } else if (matches(key, "gbp") || matches(key, "gpe")) {
    bool gbp = matches(key, "gbp");
    TRY_SET(std::ignore, r.once(gbp ? "gbp" : "gpe", key, key));
    (gbp ? vx.gbp : vx.gpe) = true;
  } else if (key == "vnifilter" || key == "novnifilter") {
    TRY_SET(std::ignore, r.once("vnifilter", key, key));
    vx.vnifilter = key == "vnifilter";
  } else {
    return false;
  }
  return true;
}

// What ip checks and fills in once every keyword is read.
Parsed<netlink::LinkKind> finish_vxlan(VxlanRead& r, bool change, IpCommand& cmd) {
  netlink::VxlanOptions& vx = r.vx;
  bool external = vx.external.value_or(false);
  if (!external && vx.vnifilter.value_or(false))
    return vxlan_refused("vxlan: vnifilter is valid only when 'external' is set");
  if (external && vx.id) return vxlan_refused("vxlan: both 'external' and vni cannot be specified");
  if (!external && !vx.vnifilter.value_or(false) && !vx.id && !change)
    return vxlan_refused("vxlan: missing virtual network identifier");
  if (!vx.group.empty() && vx.dev.empty())
    return vxlan_refused("vxlan: 'group' requires 'dev' to be specified");
  // As ip: with no address to pick the family, -4/-6 picks it by sending
  // the unspecified group, so `-6 link add ... type vxlan` is an IPv6 device.
  if (vx.local.empty() && vx.remote.empty() && vx.group.empty()) {
    if (cmd.family == AF_INET) vx.remote = "0.0.0.0";
    if (cmd.family == AF_INET6) vx.remote = "::";
  }
  if (!vx.dstport && vx.gpe)
    vx.dstport = 4790;  // as ip: GPE's IANA port
  else if (!vx.dstport && !change)
    cmd.warning = kVxlanPortWarning;
  if (!change || r.given("learning")) vx.learning = r.learning;
  return netlink::LinkKind{vx};
}

// vxlan's options as ip's iplink_vxlan.c reads them: keywords by ip's
// matches() in its order, each at most once, values checked with ip's texts.
// A change (`link set`) carries only what it names, as ip's does.
Parsed<netlink::LinkKind> parse_vxlan(Cursor& c, bool change, IpCommand& cmd) {
  VxlanRead r;
  while (!c.done()) {
    std::string key = c.next();
    bool taken = false;
    TRY_SET(taken, vxlan_endpoint(c, key, r));
    if (!taken) TRY_SET(taken, vxlan_wire(c, key, r));
    if (!taken) TRY_SET(taken, vxlan_table_and_ports(c, key, r));
    if (!taken) TRY_SET(taken, vxlan_flag(key, r));
    if (taken) continue;
    if (matches(key, "help")) return vxlan_usage("");
    return vxlan_usage("vxlan: unknown command \"" + key + "\"?\n");
  }
  return finish_vxlan(r, change, cmd);
}

Parsed<netlink::LinkKind> parse(KindArgs& args) { return parse_vxlan(args.c, args.change, args.cmd); }

// ip looks the underlay up as it parses `dev DEV`.
KindDevice underlay(const netlink::LinkKind& kind) {
  auto* vx = std::get_if<netlink::VxlanOptions>(&kind);
  return {.name = vx ? vx->dev : std::string(), .resolved_when_parsed = true};
}

constexpr auto kVxlan = [] {
  Policies<IFLA_VXLAN_MAX + 1> p{};
  for (int t : {IFLA_VXLAN_ID, IFLA_VXLAN_LINK, IFLA_VXLAN_AGEING, IFLA_VXLAN_LIMIT, IFLA_VXLAN_LABEL})
    p[t] = {AttrKind::u32};
  for (int t : {IFLA_VXLAN_TTL, IFLA_VXLAN_TOS, IFLA_VXLAN_LEARNING, IFLA_VXLAN_PROXY, IFLA_VXLAN_RSC,
                IFLA_VXLAN_L2MISS, IFLA_VXLAN_L3MISS, IFLA_VXLAN_UDP_CSUM, IFLA_VXLAN_UDP_ZERO_CSUM6_TX,
                IFLA_VXLAN_UDP_ZERO_CSUM6_RX, IFLA_VXLAN_REMCSUM_TX, IFLA_VXLAN_REMCSUM_RX,
                IFLA_VXLAN_COLLECT_METADATA, IFLA_VXLAN_TTL_INHERIT, IFLA_VXLAN_DF, IFLA_VXLAN_VNIFILTER})
    p[t] = {AttrKind::u8};
  p[IFLA_VXLAN_PORT] = {AttrKind::u16};
  p[IFLA_VXLAN_GROUP] = {AttrKind::binary, 0, 4};
  p[IFLA_VXLAN_LOCAL] = {AttrKind::binary, 0, 4};
  p[IFLA_VXLAN_GROUP6] = {AttrKind::binary, 0, 16};
  p[IFLA_VXLAN_LOCAL6] = {AttrKind::binary, 0, 16};
  p[IFLA_VXLAN_PORT_RANGE] = {AttrKind::binary, 0, sizeof(ifla_vxlan_port_range)};
  p[IFLA_VXLAN_GBP] = {AttrKind::flag};
  p[IFLA_VXLAN_GPE] = {AttrKind::flag};
  return p;
}();

bool all_zero(std::span<const uint8_t> raw) {
  for (auto b : raw)
    if (b) return false;
  return true;
}

void print_vxlan(const Attributes& a, DetailPrinter& out, const NameOf& name_of) {
  if (a.u8(IFLA_VXLAN_COLLECT_METADATA).value_or(0)) {
    out.json("external", true);
    out.text("external ");
  }
  if (a.u8(IFLA_VXLAN_VNIFILTER).value_or(0)) {
    out.json("vnifilter", true);
    out.text("vnifilter");  // ip 6.1 prints no space after it
  }
  auto id = a.u32(IFLA_VXLAN_ID);
  if (!id) return;
  out.field("id", "id", *id);
  // A multicast destination is a group, a unicast one the remote.
  if (auto v4 = a.bytes(IFLA_VXLAN_GROUP)) {
    if (!all_zero(*v4)) {
      bool multicast = ((*v4)[0] & 0xf0) == 0xe0;
      out.field(multicast ? "group" : "remote", multicast ? "group" : "remote", address_text(AF_INET, *v4));
    }
  } else if (auto v6 = a.bytes(IFLA_VXLAN_GROUP6)) {
    if (!all_zero(*v6)) {
      bool multicast = (*v6)[0] == 0xff;
      out.field(multicast ? "group6" : "remote6", multicast ? "group" : "remote",
                address_text(AF_INET6, *v6));
    }
  }
  if (auto v4 = a.bytes(IFLA_VXLAN_LOCAL)) {
    if (!all_zero(*v4)) out.field("local", "local", address_text(AF_INET, *v4));
  } else if (auto v6 = a.bytes(IFLA_VXLAN_LOCAL6)) {
    if (!all_zero(*v6)) out.field("local6", "local", address_text(AF_INET6, *v6));
  }
  if (auto link = a.u32(IFLA_VXLAN_LINK); link && *link)
    out.field("link", "dev", name_of(static_cast<int>(*link)));
  if (auto raw = a.bytes(IFLA_VXLAN_PORT_RANGE)) {
    ifla_vxlan_port_range range;
    std::memcpy(&range, raw->data(), sizeof range);
    out.json("port_range", DetailPrinter::Json{{"low", ntohs(range.low)}, {"high", ntohs(range.high)}});
    out.text("srcport " + std::to_string(ntohs(range.low)) + " " + std::to_string(ntohs(range.high)) + " ");
  }
  if (auto port = a.u16(IFLA_VXLAN_PORT)) out.field("port", "dstport", ntohs(*port));
  if (auto learning = a.u8(IFLA_VXLAN_LEARNING)) {
    out.json("learning", *learning != 0);
    if (!*learning) out.text("nolearning ");
  }
  // Flags ip shows only when set.
  auto flag = [&](int type, const char* key, const char* word) {
    if (a.u8(static_cast<uint16_t>(type)).value_or(0)) {
      out.json(key, true);
      out.text(std::string(word) + " ");
    }
  };
  flag(IFLA_VXLAN_PROXY, "proxy", "proxy");
  flag(IFLA_VXLAN_RSC, "rsc", "rsc");
  flag(IFLA_VXLAN_L2MISS, "l2miss", "l2miss");
  flag(IFLA_VXLAN_L3MISS, "l3miss", "l3miss");
  if (auto tos = a.u8(IFLA_VXLAN_TOS); tos && *tos) {
    // tos 1 means "inherit"; ip's JSON keeps the number.
    out.json("tos", DetailPrinter::hex_text(*tos));
    out.text(*tos == 1 ? std::string("tos inherit ") : "tos " + DetailPrinter::hex_text(*tos) + " ");
  }
  if (a.u8(IFLA_VXLAN_TTL_INHERIT).value_or(0)) {
    out.text("ttl inherit ");
  } else if (auto ttl = a.u8(IFLA_VXLAN_TTL)) {
    out.json("ttl", *ttl);
    out.text(*ttl ? "ttl " + std::to_string(*ttl) + " " : std::string("ttl auto "));
  }
  if (auto df = a.u8(IFLA_VXLAN_DF)) {
    if (*df == VXLAN_DF_UNSET)
      out.json("df", "unset");
    else if (*df == VXLAN_DF_SET)
      out.field("df", "df", std::string("set"));
    else if (*df == VXLAN_DF_INHERIT)
      out.field("df", "df", std::string("inherit"));
  }
  if (auto label = a.u32(IFLA_VXLAN_LABEL); label && *label) out.hex("label", "flowlabel", ntohl(*label));
  if (auto age = a.u32(IFLA_VXLAN_AGEING)) {
    out.json("ageing", *age);
    out.text(*age ? "ageing " + std::to_string(*age) + " " : std::string("ageing none "));
  }
  if (auto limit = a.u32(IFLA_VXLAN_LIMIT); limit && *limit) out.field("limit", "maxaddr", *limit);
  // Checksum switches: "[no]word " in the text, a boolean in JSON.
  auto csum = [&](int type, const char* key, const char* word) {
    if (auto v = a.u8(static_cast<uint16_t>(type))) {
      out.json(key, *v != 0);
      out.text(std::string(*v ? "" : "no") + word + " ");
    }
  };
  csum(IFLA_VXLAN_UDP_CSUM, "udp_csum", "udpcsum");
  csum(IFLA_VXLAN_UDP_ZERO_CSUM6_TX, "udp_zero_csum6_tx", "udp6zerocsumtx");
  csum(IFLA_VXLAN_UDP_ZERO_CSUM6_RX, "udp_zero_csum6_rx", "udp6zerocsumrx");
  flag(IFLA_VXLAN_REMCSUM_TX, "remcsum_tx", "remcsumtx");
  flag(IFLA_VXLAN_REMCSUM_RX, "remcsum_rx", "remcsumrx");
  if (a.has(IFLA_VXLAN_GBP)) {
    out.json("gbp", true);
    out.text("gbp ");
  }
  if (a.has(IFLA_VXLAN_GPE)) {
    out.json("gpe", true);
    out.text("gpe ");
  }
}

constexpr LinkKindModule kVxlanKind{
    .name = "vxlan",
    .parse = parse,
    .changes = true,
    .data = {kVxlan, print_vxlan},
    .help = [](std::string_view) { return std::string(kVxlanUsage); },
    .synopsis = R"({ id VNI | external [ vnifilter ] } [ dstport PORT ] [ srcport MIN MAX ] [ local ADDR ]
         [ remote ADDR | group ADDR dev DEV ] [ dev DEV ] [ ttl { 1..255 | auto | inherit } ]
         [ tos { TOS | inherit } ] [ df { unset | set | inherit } ] [ flowlabel LABEL ]
         [ ageing SECONDS | none ] [ maxaddress NUMBER | unlimited ] [ [no]learning ] [ [no]proxy ]
         [ [no]rsc ] [ [no]l2miss ] [ [no]l3miss ] [ [no]udpcsum ] [ [no]udp6zerocsumtx ]
         [ [no]udp6zerocsumrx ] [ [no]remcsumtx ] [ [no]remcsumrx ] [ gbp ] [ gpe ])",
    .named_device = underlay,
};
BRISK_LINK_KIND(kVxlanKind);

}  // namespace
}  // namespace brisk::ipcli
