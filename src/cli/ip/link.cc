// ip link: add, set, delete and show, with each kind's options.
#include <linux/if.h>
#include <linux/if_link.h>
#include <strings.h>

#include <algorithm>
#include <climits>

#include "cli/ip/link_print.h"
#include "cli/ip/link_verbs.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {

// `link add NAME`: ip checks a bare name only as an altname (up to 127
// bytes) and leaves the 15-byte limit to the kernel, whose refusal is a
// failed line, not the end of the batch.
Parsed<std::string> new_device_name(const std::string& text) {
  bool plain = text.find_first_of("/ \t\n\v\f\r") == std::string::npos;
  if (text.size() > 15 && text.size() < 128 && plain)
    return fail(UsageError{.message = "Error: Attribute failed policy validation.",
                           .exact = true,
                           .exit_code = 2,
                           .line_failure = true,
                           .kernel_refusal = true});
  return link_name("name", text);
}

// A new device's name, as ip's iplink_parse takes it: `name X` once, and
// `dev X` or a bare word once; given both ways, the two must agree.
class NewLinkName {
 public:
  Parsed<bool> by_name(Cursor& c, const std::string& key) {
    std::string text;
    TRY_SET(text, c.value(key));
    if (!name_.empty()) return duplicate("name", text);
    TRY_SET(name_, link_name("name", text));
    return true;
  }
  // `dev X` (key "dev") or a bare word X (key X).
  Parsed<bool> by_dev(Cursor& c, const std::string& key) {
    std::string text = key;
    if (is(key, "dev")) TRY_SET(text, c.value(key));
    if (!dev_.empty()) return garbage("dev", text);
    TRY_SET(dev_, new_device_name(text));
    return true;
  }
  Parsed<std::string> result() const {
    if (name_.empty()) return dev_;
    if (dev_.empty() || dev_ == name_) return name_;
    return fatal("both \"name\" and \"dev\" cannot be used when creating devices.", 255);
  }

 private:
  std::string name_, dev_;
};

// What `link add` takes for the new device and, after `type veth peer`, for
// the peer (ip's iplink_parse serves both): true when `key` was one of them.
// `link_netns` takes the name `link-netns NAME` gives, resolved to its id when run.
Parsed<bool> parse_tuning(const std::string& key, Cursor& c, netlink::LinkTuning& t, std::string& link_netns);
// `vrfs` takes the names `vrf NAME` gives, which must be VRF devices when run.
Parsed<bool> parse_new_link_setting(const std::string& key, Cursor& c, netlink::LinkCommon& common,
                                    std::vector<std::string>& vrfs, std::string& link_netns) {
  // ip's duparg: a second value of a keyword taken once.
  auto twice = [&c](const auto& field, const std::string& name) -> std::optional<Failure<UsageError>> {
    if (field && !c.done()) return duplicate(name, c.peek());
    return std::nullopt;
  };
  if (is(key, "up") || is(key, "down")) {
    common.up = is(key, "up");
  } else if (is(key, "mtu")) {
    if (auto dup = twice(common.mtu, "mtu")) return *dup;
    TRY_SET(common.mtu, c.number<uint32_t>(key));
  } else if (matches(key, "address")) {
    TRY_SET(common.address, c.ll_address(key));
  } else if (matches(key, "txqueuelen") || is(key, "qlen") || matches(key, "txqlen")) {
    if (auto dup = twice(common.txqueuelen, "txqueuelen")) return *dup;
    TRY_SET(common.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
  } else if (matches(key, "master")) {
    TRY_SET(common.master, c.device(key));
  } else if (is(key, "vrf")) {  // a master that must be a VRF (link_verbs.cc)
    TRY_SET(common.master, c.device(key));
    vrfs.push_back(common.master);
  } else if (matches(key, "nomaster")) {
    common.master.clear();
  } else if (matches(key, "alias")) {
    TRY_SET(common.alias, c.read(key, [](const std::string& text) -> Parsed<std::string> {
      if (text.size() >= IFALIASZ) return invarg("alias too long\n", text);
      return text;
    }));
  } else if (is(key, "group")) {
    if (auto dup = twice(common.group, "group")) return *dup;
    TRY_SET(common.group, c.read(key, group_value));
  } else if (is(key, "index")) {
    TRY_SET(common.index, c.read(key, [&common](const std::string& text) -> Parsed<int32_t> {
      if (common.index) return duplicate("index", text);
      int index = std::atoi(text.c_str());  // ip's own reading: a leading number, the rest ignored
      if (index <= 0) return invarg("Invalid \"index\" value", text);
      return index;
    }));
  } else {
    return parse_tuning(key, c, common.tuning, link_netns);
  }
  return true;
}

// `netns PID` names a process by a number that fits ip's int; anything
// else is a namespace name (nullopt here).
Parsed<std::optional<pid_t>> netns_pid(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return std::optional<pid_t>{};
  auto pid = number<uint32_t>("netns", text, INT_MAX);
  if (!pid) return invarg("Invalid \"netns\" value\n", text);
  return std::optional<pid_t>(static_cast<pid_t>(*pid));
}

// `change`: for `link set`, where no lower device is named.
Parsed<netlink::LinkKind> parse_kind(const std::string& type, Cursor& c, const std::string& lower,
                                     IpCommand& cmd, bool change = false);

// ip's reply to an option its bridge parser lacks: its text and usage, status 1.
Failure<UsageError> bridge_unknown(const std::string& key) {
  return fail(
      UsageError{.message = "bridge: unknown command \"" + key + "\"?\n" + std::string(bridge_usage()),
                 .exact = true,
                 .exit_code = 1});
}

// One bridge option: how ip finds its keyword (most by abbreviation, two
// only whole), and where its value goes.
struct BridgeOption {
  const char* key;
  bool whole_word;
  // Reads the value after the keyword into the options; a bad one is ip's "invalid KEY".
  Parsed<bool> (*read)(netlink::BridgeOptions&, Cursor&, const std::string& key);
};

template <class T>
Parsed<T> bridge_number(Cursor& c, const std::string& key, const char* name) {
  std::string v;
  TRY_SET(v, c.value(key));
  auto n = number<T>(key, v);
  if (!n) return invarg(std::string("invalid ") + name, v);
  return *n;
}

// The field an option sets, by pointer to member, read as ip reads it: a
// number of the field's width (get_u8/u16/u32/u64), or for a flag one of
// `Width` (its value on when not 0, as the kernel takes it).
template <auto Field, const char* Name, class Width>
Parsed<bool> bridge_field(netlink::BridgeOptions& br, Cursor& c, const std::string& key) {
  using Stored = typename std::remove_reference_t<decltype(br.*Field)>::value_type;
  Width n{};
  TRY_SET(n, bridge_number<Width>(c, key, Name));
  if constexpr (std::is_same_v<Stored, bool>)
    br.*Field = n != 0;
  else
    br.*Field = n;
  return true;
}

// KEY sets FIELD, read as a WIDTH; ip matches KEY abbreviated unless WHOLE.
#define BRISK_BRIDGE_OPTION_AS(key, field, width, whole)                                \
  BridgeOption {                                                                        \
#key, whole, [](netlink::BridgeOptions& br, Cursor& c, const std::string& word) {     \
      static constexpr char kName[] = #key;                                               \
      return bridge_field<&netlink::BridgeOptions::field, kName, width>(br, c, word);     \
    } \
  }
#define BRISK_BRIDGE_OPTION(name, width) BRISK_BRIDGE_OPTION_AS(name, name, width, false)

// In ip 6.1's order (bridge_parse_opt), which decides what an abbreviation means.
const BridgeOption kBridgeOptions[] = {
    BRISK_BRIDGE_OPTION(forward_delay, uint32_t),
    BRISK_BRIDGE_OPTION(hello_time, uint32_t),
    BRISK_BRIDGE_OPTION(max_age, uint32_t),
    BRISK_BRIDGE_OPTION(ageing_time, uint32_t),
    BRISK_BRIDGE_OPTION_AS(stp_state, stp, uint32_t, false),
    BRISK_BRIDGE_OPTION(priority, uint16_t),
    BRISK_BRIDGE_OPTION(vlan_filtering, uint8_t),
    {"vlan_protocol", false,
     [](netlink::BridgeOptions& br, Cursor& c, const std::string& key) -> Parsed<bool> {
       std::string v;
       TRY_SET(v, c.value(key));
       // ll_proto_a2n: a name (any case), else a number.
       auto lower = v;
       for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
       if (lower == "802.1q")
         br.vlan_protocol = 0x8100;
       else if (lower == "802.1ad")
         br.vlan_protocol = 0x88a8;
       else if (auto n = number<uint16_t>(key, v))
         br.vlan_protocol = *n;
       else
         return invarg("invalid vlan_protocol", v);
       return true;
     }},
    BRISK_BRIDGE_OPTION(group_fwd_mask, uint16_t),
    {"group_address", false,
     [](netlink::BridgeOptions& br, Cursor& c, const std::string& key) -> Parsed<bool> {
       TRY_SET(br.group_address, c.ll_address(key));
       return true;
     }},
    BRISK_BRIDGE_OPTION_AS(no_linklocal_learn, no_linklocal_learn, uint8_t, true),
    {"fdb_flush", false,
     [](netlink::BridgeOptions& br, Cursor&, const std::string&) -> Parsed<bool> {
       br.fdb_flush = true;
       return true;
     }},
    BRISK_BRIDGE_OPTION(vlan_default_pvid, uint16_t),
    BRISK_BRIDGE_OPTION(vlan_stats_enabled, uint8_t),
    BRISK_BRIDGE_OPTION(vlan_stats_per_port, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_router, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_snooping, uint8_t),
    BRISK_BRIDGE_OPTION_AS(mcast_vlan_snooping, mcast_vlan_snooping, uint8_t, true),
    BRISK_BRIDGE_OPTION(mcast_query_use_ifaddr, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_querier, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_hash_elasticity, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_hash_max, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_last_member_count, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_startup_query_count, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_last_member_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_membership_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_querier_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_query_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_query_response_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_startup_query_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_stats_enabled, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_igmp_version, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_mld_version, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_iptables, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_ip6tables, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_arptables, uint8_t),
};
#undef BRISK_BRIDGE_OPTION
#undef BRISK_BRIDGE_OPTION_AS

// The bridge options from here to the end of the line (a `link add` or a
// `link set ... type bridge`).
Parsed<netlink::BridgeOptions> parse_bridge_options(Cursor& c) {
  netlink::BridgeOptions br;
  while (!c.done()) {
    std::string key = c.next();
    const BridgeOption* found = nullptr;
    for (const auto& option : kBridgeOptions) {
      if (option.whole_word ? is(key, option.key) : matches(key, option.key)) {
        found = &option;
        break;
      }
    }
    if (!found) {
      if (matches(key, "help")) return fail(UsageError{.message = std::string(bridge_usage()), .help = true});
      return bridge_unknown(key);
    }
    auto read = found->read(br, c, key);
    if (!read) return std::move(read).error();
  }
  return br;
}

// ip's macvlan usage, for macvlan or macvtap (its print_explain).
std::string macvlan_usage(const std::string& type) {
  return "Usage: ... " + type +
         " mode MODE [flag MODE_FLAG] MODE_OPTS [bcqueuelen BC_QUEUE_LEN]\n"
         "\n"
         "MODE: private | vepa | bridge | passthru | source\n"
         "MODE_FLAG: null | nopromisc | nodst\n"
         "MODE_OPTS: for mode \"source\":\n"
         "\tmacaddr { { add | del } <macaddr> | set [ <macaddr> [ <macaddr>  ... ] ] | flush }\n"
         "BC_QUEUE_LEN: Length of the rx queue for broadcast/multicast: [0-4294967295]";
}

// A bad macvlan option: ip's line (when there is one), then (when `usage`) its usage; status 1 as ip.
Failure<UsageError> macvlan_refused(const std::string& what, const std::string& type, bool usage = true) {
  std::string text = what;
  if (usage) text += (text.empty() ? "" : "\n") + macvlan_usage(type);
  return fail(UsageError{.message = text, .exact = true, .exit_code = 1});
}

// macvlan's `mode MODE`.
Parsed<netlink::MacvlanMode> macvlan_mode(const std::string& v, const std::string& type) {
  if (v == "private") return netlink::MacvlanMode::private_;
  if (v == "vepa") return netlink::MacvlanMode::vepa;
  if (v == "bridge") return netlink::MacvlanMode::bridge;
  if (v == "passthru") return netlink::MacvlanMode::passthru;
  if (v == "source") return netlink::MacvlanMode::source;
  return macvlan_refused(
      "Error: argument of \"mode\" must be \"private\", \"vepa\", \"bridge\", \"passthru\" or "
      "\"source\", not \"" +
          v + "\"",
      type, false);
}

// The macvlan (macvtap) options, as ip 6.1's macvlan_parse_opt reads them.
Parsed<netlink::MacvlanOptions> parse_macvlan(Cursor& c, netlink::MacvlanOptions mv,
                                              const std::string& type) {
  bool has_flags = false;
  uint16_t flags = 0;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "mode")) {
      TRY_SET(v, c.value(key));
      TRY_SET(mv.mode, macvlan_mode(v, type));
    } else if (matches(key, "flag")) {
      TRY_SET(v, c.value(key));
      if (v == "nopromisc")
        flags |= MACVLAN_FLAG_NOPROMISC;
      else if (v == "nodst")
        flags |= MACVLAN_FLAG_NODST;
      else if (v != "null")
        return macvlan_refused(
            "Error: argument of \"flag\" must be \"nopromisc\", \"nodst\" or \"null\", not \"" + v + "\"",
            type, false);
      has_flags = true;
    } else if (matches(key, "macaddr")) {
      TRY_SET(v, c.value(key));
      using M = netlink::MacvlanMacaddr;
      if (v == "add")
        mv.macaddr = M::add;
      else if (v == "del")
        mv.macaddr = M::del;
      else if (v == "set")
        mv.macaddr = M::set;
      else if (v == "flush")
        mv.macaddr = M::flush;
      else
        return macvlan_refused("", type);
      mv.macaddrs.clear();
      if (*mv.macaddr == M::add || *mv.macaddr == M::del) {
        std::string mac;
        TRY_SET(mac, c.ll_address(v));
        mv.macaddrs.push_back(mac);
      } else if (*mv.macaddr == M::set) {
        // As many as follow that read as addresses.
        while (!c.done()) {
          auto mac = ll_address(c.peek());
          if (!mac) break;
          mv.macaddrs.push_back(*mac);
          c.next();
        }
      }
    } else if (matches(key, "nopromisc")) {
      flags |= MACVLAN_FLAG_NOPROMISC;
      has_flags = true;
    } else if (matches(key, "nodst")) {
      flags |= MACVLAN_FLAG_NODST;
      has_flags = true;
    } else if (matches(key, "bcqueuelen")) {
      TRY_SET(v, c.value(key));
      auto n = number<uint32_t>(key, v);
      if (!n)
        return macvlan_refused(
            "Error: argument of \"bcqueuelen\" must be a positive integer [0-4294967295], not \"" + v + "\"",
            type, false);
      mv.bcqueuelen = *n;
    } else if (matches(key, "help")) {
      return macvlan_refused("", type);
    } else {
      return macvlan_refused(type + ": unknown option \"" + key + "\"?", type);
    }
  }
  if (has_flags) {
    if ((flags & MACVLAN_FLAG_NOPROMISC) && mv.mode != netlink::MacvlanMode::passthru)
      return macvlan_refused(type + ": nopromisc flag only valid in passthru mode", type);
    mv.flags = flags;
  }
  return mv;
}

// ip's reply to options its vxlan parser cannot take together: the text, status 1.
Failure<UsageError> vxlan_refused(const std::string& what) {
  return fail(UsageError{.message = what, .exact = true, .exit_code = 1});
}

// ip's reply to an option its vxlan parser lacks (or to `help`): the text,
// then ip's vxlan usage, status 1.
Failure<UsageError> vxlan_usage(const std::string& what) {
  return fail(UsageError{.message = what + R"(Usage: ... vxlan id VNI
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
	LABEL := 0-1048575)",
                         .exact = true,
                         .exit_code = 1});
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

// `link set DEV type KIND OPTIONS`: the same option parser as `link add`
// (parse_kind), for the kinds whose options brisk can change; the kind alone
// (no options) goes to the kernel as it is, which checks it is the device's.
Parsed<netlink::LinkKind> parse_kind_change(const std::string& type, Cursor& c, IpCommand& cmd) {
  if (c.done()) return netlink::LinkKind{netlink::OtherKind{type}};
  if (type == "bridge" || type == "macvlan" || type == "macvtap" || type == "vxlan")
    return parse_kind(type, c, "", cmd, true);
  return usage("brisk changes the options of bridge, macvlan, macvtap and vxlan devices only, not \"" + type +
               "\"");
}

// Options after `type veth|bridge|...` in `link add` (and a bridge's in `link set`).
Parsed<netlink::LinkKind> parse_kind(const std::string& type, Cursor& c, const std::string& lower,
                                     IpCommand& cmd, bool change) {
  if (type == "veth") {
    netlink::VethOptions veth;
    if (!c.done() && c.peek() == "peer") {
      c.next();
      NewLinkName peer;
      while (!c.done()) {
        std::string key = c.next();
        bool ok = false;
        if (is(key, "name")) {
          TRY_SET(ok, peer.by_name(c, key));
        } else if (is(key, "netns")) {
          if (!cmd.peer_netns.empty()) return duplicate("netns", c.done() ? key : c.peek());
          TRY_SET(cmd.peer_netns, c.value(key));
        } else if (matches(key, "type")) {
          std::string second;
          TRY_SET(second, c.value(key));
          return duplicate("type", second);
        } else {
          TRY_SET(ok, parse_new_link_setting(key, c, veth.peer_common, cmd.vrfs, cmd.peer_link_netns));
          if (!ok) TRY_SET(ok, peer.by_dev(c, key));
        }
      }
      TRY_SET(veth.peer, peer.result());
      // The kernel ignores a peer's master and alias, as it does for ip.
      veth.peer_common.master.clear();
      veth.peer_common.alias.clear();
    }
    return netlink::LinkKind{veth};
  }
  if (type == "bridge") {
    netlink::BridgeOptions br;
    TRY_SET(br, parse_bridge_options(c));
    return netlink::LinkKind{std::move(br)};
  }
  if (type == "macvlan" || type == "macvtap") {
    netlink::MacvlanOptions mv{.link = lower, .tap = type == "macvtap"};
    if (lower.empty() && !change) return usage("\"link\" is required for " + type);
    TRY_SET(mv, parse_macvlan(c, std::move(mv), type));
    return netlink::LinkKind{std::move(mv)};
  }
  if (type == "vlan") {
    netlink::VlanOptions vl{.link = lower};
    if (lower.empty()) return usage("\"link\" is required for vlan");
    bool have_id = false;
    while (!c.done()) {
      std::string key = c.next(), v;
      TRY_SET(v, c.value(key));
      if (is(key, "id")) {
        TRY_SET(vl.id, number<uint16_t>(key, v, 4095));
        have_id = true;
      } else if (is(key, "protocol")) {
        if (v == "802.1Q" || v == "802.1q")
          vl.protocol = 0x8100;
        else if (v == "802.1ad")
          vl.protocol = 0x88a8;
        else
          return invalid("protocol must be 802.1Q or 802.1ad", v);
      } else {
        return usage("unknown vlan option \"" + key + "\"");
      }
    }
    if (!have_id) return usage("vlan id is required");
    return netlink::LinkKind{vl};
  }
  if (type == "vxlan") return parse_vxlan(c, change, cmd);
  if (!c.done())
    return usage("brisk accepts no options for link type \"" + type + "\": \"" + c.peek() + "\"");
  return netlink::LinkKind{netlink::OtherKind{type}};
}

// ip 6.1's bridge_slave usage (print_explain), printed after an unknown option.
constexpr std::string_view kBridgeSlaveUsage =
    "Usage: ... bridge_slave [ fdb_flush ]\n"
    "\t\t\t[ state STATE ]\n"
    "\t\t\t[ priority PRIO ]\n"
    "\t\t\t[ cost COST ]\n"
    "\t\t\t[ guard {on | off} ]\n"
    "\t\t\t[ hairpin {on | off} ]\n"
    "\t\t\t[ fastleave {on | off} ]\n"
    "\t\t\t[ root_block {on | off} ]\n"
    "\t\t\t[ learning {on | off} ]\n"
    "\t\t\t[ flood {on | off} ]\n"
    "\t\t\t[ proxy_arp {on | off} ]\n"
    "\t\t\t[ proxy_arp_wifi {on | off} ]\n"
    "\t\t\t[ mcast_router MULTICAST_ROUTER ]\n"
    "\t\t\t[ mcast_fast_leave {on | off} ]\n"
    "\t\t\t[ mcast_flood {on | off} ]\n"
    "\t\t\t[ bcast_flood {on | off} ]\n"
    "\t\t\t[ mcast_to_unicast {on | off} ]\n"
    "\t\t\t[ group_fwd_mask MASK ]\n"
    "\t\t\t[ neigh_suppress {on | off} ]\n"
    "\t\t\t[ vlan_tunnel {on | off} ]\n"
    "\t\t\t[ isolated {on | off} ]\n"
    "\t\t\t[ locked {on | off} ]\n"
    "\t\t\t[ backup_port DEVICE ] [ nobackup_port ]\n";

// ip's bridge_slave_parse_opt(): a port's options, its keywords matched in
// its order (so "p" is priority), to the end of the line.
Parsed<netlink::BridgePortOptions> parse_bridge_port(Cursor& c) {
  using P = netlink::BridgePortOptions;
  static constexpr std::pair<std::string_view, std::optional<bool> P::*> kSwitches[] = {
      {"hairpin", &P::hairpin},
      {"guard", &P::guard},
      {"root_block", &P::root_block},
      {"fastleave", &P::fast_leave},
      {"learning", &P::learning},
      {"flood", &P::flood},
      {"mcast_flood", &P::mcast_flood},
      {"bcast_flood", &P::bcast_flood},
      {"mcast_to_unicast", &P::mcast_to_unicast},
      {"proxy_arp", &P::proxy_arp},
      {"proxy_arp_wifi", &P::proxy_arp_wifi},
      {"mcast_router", nullptr},
      {"mcast_fast_leave", &P::fast_leave},
      {"neigh_suppress", &P::neigh_suppress},
      {"group_fwd_mask", nullptr},
      {"vlan_tunnel", &P::vlan_tunnel},
      {"isolated", &P::isolated},
      {"locked", &P::locked}};
  P port;
  auto value = [&c](const std::string& key, const std::string& what, auto max) -> Parsed<decltype(max)> {
    return c.read(key, [&what](const std::string& text) -> Parsed<decltype(max)> {
      if (auto n = number<decltype(max)>("", text)) return *n;
      return invarg(what, text);
    });
  };
  while (!c.done()) {
    std::string key = c.next();
    if (matches(key, "fdb_flush")) {
      port.fdb_flush = true;
    } else if (matches(key, "state")) {
      TRY_SET(port.state, value(key, "state is invalid", uint8_t{}));
    } else if (matches(key, "priority")) {
      TRY_SET(port.priority, value(key, "priority is invalid", uint16_t{}));
    } else if (matches(key, "cost")) {
      TRY_SET(port.cost, value(key, "cost is invalid", uint32_t{}));
    } else if (auto sw = std::find_if(std::begin(kSwitches), std::end(kSwitches),
                                      [&key](const auto& s) { return matches(key, s.first); });
               sw != std::end(kSwitches)) {
      if (sw->first == "mcast_router") {
        TRY_SET(port.mcast_router, value(key, "invalid mcast_router", uint8_t{}));
      } else if (sw->first == "group_fwd_mask") {
        TRY_SET(port.group_fwd_mask, value(key, "invalid group_fwd_mask", uint16_t{}));
      } else {
        // ip's parser exits(1) on a bad value here, batch or not.
        const std::string name(sw->first);
        TRY_SET(port.*(sw->second), c.read(key, [&name](const std::string& text) -> Parsed<bool> {
          auto on = one_of_off_on(name, text);
          if (!on) return fatal(on.error().message, 1);
          return *on;
        }));
      }
    } else if (matches(key, "backup_port")) {
      TRY_SET(port.backup_port, c.device(key));
    } else if (matches(key, "nobackup_port")) {
      port.backup_port = std::string();
    } else if (matches(key, "help")) {
      return fail(UsageError{.message = std::string(kBridgeSlaveUsage), .exact = true, .exit_code = 1});
    } else {
      return fail(UsageError{
          .message = "bridge_slave: unknown option \"" + key + "\"?\n" + std::string(kBridgeSlaveUsage),
          .exact = true,
          .exit_code = 1});
    }
  }
  return port;
}

// `link set DEV address LLADDR`: ip checks the length against the device's
// own (an RTM_GETLINK), a failed line when they differ; brisk's devices have
// 6-byte addresses.
Parsed<std::string> set_ll_address(const std::string& text) {
  auto address = ll_address(text);
  if (address || address.error().line_failure) return address;
  std::size_t bytes = text.find('.') != std::string::npos ? 4 : std::count(text.begin(), text.end(), ':') + 1;
  return refused("Invalid address length " + std::to_string(bytes) + " - must be 6 bytes");
}

// IN6_ADDR_GEN_MODE_* by ip's names (get_addr_gen_mode: any case).
Parsed<uint8_t> addr_gen_mode(const std::string& text) {
  static constexpr std::pair<std::string_view, uint8_t> kModes[] = {
      {"eui64", IN6_ADDR_GEN_MODE_EUI64},
      {"none", IN6_ADDR_GEN_MODE_NONE},
      {"stable_secret", IN6_ADDR_GEN_MODE_STABLE_PRIVACY},
      {"random", IN6_ADDR_GEN_MODE_RANDOM}};
  for (auto [name, mode] : kModes)
    if (::strcasecmp(text.c_str(), std::string(name).c_str()) == 0) return mode;
  return invarg("Invalid address generation mode\n", text);
}

// What ip link add and set both take beyond the basics (iplink_parse):
// true when `key` was one of them, its value read into `t`.
Parsed<bool> parse_tuning(const std::string& key, Cursor& c, netlink::LinkTuning& t,
                          std::string& link_netns) {
  auto unsigned_value = [&c, &key](const std::string& name) {
    return c.read(key, [&name](const std::string& text) -> Parsed<uint32_t> {
      if (auto n = number<uint32_t>(name, text)) return *n;
      return invarg("Invalid \"" + name + "\" value\n", text);
    });
  };
  if (matches(key, "broadcast") || is(key, "brd")) {
    TRY_SET(t.broadcast, c.ll_address(key));
  } else if (is(key, "xdp") || is(key, "xdpgeneric") || is(key, "xdpdrv") || is(key, "xdpoffload")) {
    std::string v;
    TRY_SET(v, c.value(key));
    if (v != "off" && v != "none")
      return usage("brisk loads no XDP programs: \"" + key + " off\" (or none) detaches one, not \"" + v +
                   "\"");
    t.xdp_off = true;
    t.xdp_flags = is(key, "xdpgeneric")   ? XDP_FLAGS_SKB_MODE
                  : is(key, "xdpdrv")     ? XDP_FLAGS_DRV_MODE
                  : is(key, "xdpoffload") ? XDP_FLAGS_HW_MODE
                                          : 0u;
  } else if (is(key, "carrier") || is(key, "protodown")) {
    std::optional<bool>& target = is(key, "carrier") ? t.carrier : t.protodown;
    TRY_SET(target, c.read(key, [&key](const std::string& text) { return one_of_off_on(key, text); }));
  } else if (is(key, "trailers") || matches(key, "dynamic") || is(key, "promisc") || is(key, "arp") ||
             is(key, "multicast") || is(key, "allmulticast")) {
    // iplink.c's interface flags: the exact words "on" and "off" only.
    const std::string name = matches(key, "dynamic") ? "dynamic" : key;
    std::optional<bool>& target = name == "trailers"    ? t.trailers
                                  : name == "dynamic"   ? t.dynamic
                                  : name == "promisc"   ? t.promisc
                                  : name == "arp"       ? t.arp
                                  : name == "multicast" ? t.multicast
                                                        : t.allmulticast;
    TRY_SET(target, c.read(key, [&name](const std::string& text) -> Parsed<bool> {
      if (text == "on") return true;
      if (text == "off") return false;
      return refused("Error: argument of \"" + name + "\" must be \"on\" or \"off\", not \"" + text + "\"");
    }));
  } else if (is(key, "state")) {
    TRY_SET(t.operstate, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto state = operstate_number(text)) return *state;
      return invarg("Invalid operstate\n", text);
    }));
  } else if (is(key, "mode")) {
    TRY_SET(t.link_mode, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto mode = linkmode_number(text)) return *mode;
      return invarg("Invalid link mode\n", text);
    }));
  } else if (matches(key, "link-netns")) {  // its id here, looked up (and made) when run
    if (t.link_netnsid || !link_netns.empty())
      return duplicate("link-netns/link-netnsid", c.done() ? key : c.peek());
    TRY_SET(link_netns, c.value(key));
  } else if (matches(key, "link-netnsid")) {
    if (t.link_netnsid || !link_netns.empty())
      return duplicate("link-netns/link-netnsid", c.done() ? key : c.peek());
    TRY_SET(t.link_netnsid, c.read(key, [](const std::string& text) -> Parsed<int32_t> {
      if (auto id = int_any_base(text)) return *id;
      return invarg("Invalid \"link-netnsid\" value\n", text);
    }));
  } else if (is(key, "protodown_reason")) {
    uint8_t bit = 0;
    TRY_SET(bit, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto n = unsigned_any_base(text); n && *n < 32) return static_cast<uint8_t>(*n);
      return invarg("invalid protodown reason\n", text);
    }));
    bool on = false;
    TRY_SET(on, c.read(key, [](const std::string& text) -> Parsed<bool> {
      if (matches(text, "on")) return true;
      if (matches(text, "off")) return false;
      return refused("Error: argument of \"protodown_reason\" must be \"on\" or \"off\", not \"" + text +
                     "\"");
    }));
    t.protodown_reason = std::pair{bit, on};
  } else if (matches(key, "numtxqueues") || matches(key, "numrxqueues")) {
    bool tx = matches(key, "numtxqueues");
    auto& queues = tx ? t.num_tx_queues : t.num_rx_queues;
    const std::string name = tx ? "numtxqueues" : "numrxqueues";
    if (queues) return duplicate(name, c.done() ? key : c.peek());
    TRY_SET(queues, unsigned_value(name));
  } else if (matches(key, "addrgenmode")) {
    TRY_SET(t.addr_gen_mode, c.read(key, addr_gen_mode));
  } else if (is(key, "gso_max_size")) {
    TRY_SET(t.gso_max_size, unsigned_value(key));
  } else if (is(key, "gso_max_segs")) {
    TRY_SET(t.gso_max_segs, unsigned_value(key));
  } else if (is(key, "gro_max_size")) {
    TRY_SET(t.gro_max_size, unsigned_value(key));
  } else {
    return false;
  }
  return true;
}

Parsed<IpCommand> parse_link_add(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkAdd;
  auto& spec = cmd.link_add();
  std::string lower, type;
  NewLinkName name;
  while (!c.done()) {
    std::string key = c.next();
    bool ok = false;
    if (matches(key, "type")) {
      TRY_SET(type, c.value(key));
      break;
    } else if (is(key, "name")) {
      TRY_SET(ok, name.by_name(c, key));
    } else if (is(key, "netns")) {
      if (!cmd.add_netns.empty()) return duplicate("netns", c.done() ? key : c.peek());
      TRY_SET(cmd.add_netns, c.value(key));
    } else if (matches(key, "link")) {
      TRY_SET(lower, c.device(key));
    } else {
      TRY_SET(ok, parse_new_link_setting(key, c, spec.common, cmd.vrfs, cmd.link_netns));
      if (!ok) TRY_SET(ok, name.by_dev(c, key));
    }
  }
  TRY_SET(spec.name, name.result());
  // ip sends an alias with the new device, and the kernel ignores it there:
  // checked above, then dropped, so the end state is ip's.
  spec.common.alias.clear();
  if (type.empty()) return usage("not enough information: \"type\" argument is required");
  if (spec.name.empty()) return usage("not enough information: \"name\" argument is required");
  TRY_SET(spec.kind, parse_kind(type, c, lower, cmd));
  if (!lower.empty() && type != "macvlan" && type != "macvtap" && type != "vlan")
    return usage("\"link\" is not supported for link type \"" + type + "\"");
  return cmd;
}

Parsed<IpCommand> parse_link_set(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkSet;
  auto& spec = cmd.link_set();
  bool changed = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "up") || is(key, "down")) {
      spec.up = is(key, "up");
    } else if (is(key, "dev")) {
      TRY_SET(spec.name, c.sole_device(key, spec.name));
      continue;
    } else if (is(key, "name")) {
      TRY_SET(spec.new_name, c.link_name(key));
    } else if (is(key, "mtu")) {
      TRY_SET(spec.mtu, c.number<uint32_t>(key));
    } else if (is(key, "address")) {
      TRY_SET(spec.address, c.read(key, set_ll_address));
    } else if (is(key, "master")) {
      TRY_SET(spec.master, c.device(key));
    } else if (is(key, "vrf")) {  // a master that must be a VRF (link_verbs.cc)
      TRY_SET(spec.master, c.device(key));
      cmd.vrfs.push_back(*spec.master);
    } else if (is(key, "nomaster")) {
      spec.master = std::string{};
    } else if (is(key, "netns")) {
      TRY_SET(cmd.set_netns, c.value(key));
      TRY_SET(spec.netns_pid, netns_pid(cmd.set_netns));
    } else if (is(key, "alias")) {
      TRY_SET(spec.alias, c.value(key));
    } else if (is(key, "txqueuelen") || is(key, "txqlen") || is(key, "qlen")) {
      TRY_SET(spec.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
    } else if (is(key, "group")) {
      TRY_SET(spec.group, c.read(key, group_value));
    } else if (is(key, "type")) {
      // As ip: the kind's options run to the end of the line.
      TRY_SET(v, c.value(key));
      if (v == "bridge_slave")
        TRY_SET(spec.bridge_port, parse_bridge_port(c));
      else
        TRY_SET(spec.kind, parse_kind_change(v, c, cmd));
    } else if (is(key, "index")) {
      TRY_SET(spec.new_index, c.read(key, [&spec](const std::string& text) -> Parsed<int32_t> {
        if (spec.new_index) return duplicate("index", text);
        int index = std::atoi(text.c_str());  // as ip reads it
        if (index <= 0) return invarg("Invalid \"index\" value", text);
        return index;
      }));
    } else if (auto tuned = parse_tuning(key, c, spec.tuning, cmd.link_netns); !tuned || *tuned) {
      if (!tuned) return tuned.error();
    } else if (spec.name.empty()) {
      TRY_SET(spec.name, device_name("dev", key));
      continue;
    } else {
      return garbage("dev", key);
    }
    changed = true;
  }
  // Without a device, `group N` names the devices to change (ip's group set).
  if (spec.name.empty() && !spec.group) return usage("not enough information: \"dev\" argument is required");
  if (!changed) return usage("nothing to change on \"" + spec.name + "\"");
  if (spec.new_index && cmd.set_netns.empty())
    return fatal("index can be used only when creating devices or when moving device to another netns.", 255);
  return cmd;
}

Parsed<IpCommand> parse_link_del(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkDel;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "dev")) {
      TRY_SET(cmd.name, c.sole_device(key, cmd.name));
    } else if (is(key, "group")) {
      TRY_SET(cmd.group, c.read(key, group_value));
      cmd.verb = &kLinkDelGroup;
    } else if (is(key, "type")) {
      TRY_SET(v, c.value(key));  // ip accepts and ignores the type on delete
    } else if (cmd.name.empty()) {
      TRY_SET(cmd.name, device_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  if (cmd.verb == &kLinkDelGroup && !cmd.name.empty())
    return usage("\"group\" and a device name are exclusive");
  if (cmd.verb == &kLinkDel && cmd.name.empty())
    return usage("not enough information: \"dev\" argument is required");
  return cmd;
}

}  // namespace

Parsed<bool> link_selector(const std::string& key, Cursor& c, IpCommand& cmd) {
  if (is(key, "master")) {
    TRY_SET(cmd.filter().master, c.device(key));
  } else if (is(key, "vrf")) {
    TRY_SET(cmd.filter().vrf, c.device(key));
  } else if (is(key, "nomaster")) {
    cmd.filter().no_master = true;
  } else if (is(key, "type")) {
    std::string kind;
    TRY_SET(kind, c.value(key));
    constexpr std::string_view suffix = "_slave";
    if (kind.size() >= suffix.size() && std::string_view(kind).ends_with(suffix))
      cmd.filter().slave_kind = kind.substr(0, kind.size() - suffix.size());
    else
      cmd.filter().kind = std::move(kind);
  } else {
    return false;
  }
  return true;
}

namespace {

Parsed<IpCommand> parse_link_show(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkShow;
  while (!c.done()) {
    std::string key = c.next(), v;
    bool selector = false;
    TRY_SET(selector, link_selector(key, c, cmd));
    if (selector) continue;
    if (is(key, "up")) {
      cmd.filter().up_only = true;
    } else if (is(key, "dev")) {
      TRY_SET(cmd.filter().dev, c.sole_device(key, cmd.filter().dev));
    } else if (is(key, "group")) {
      TRY_SET(cmd.filter().show_group, c.read(key, group_value));
    } else if (cmd.filter().dev.empty()) {
      TRY_SET(cmd.filter().dev, device_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

// `link property add|del [dev] DEV [altname NAME]...`, as ip's iplink_prop.
Parsed<IpCommand> parse_link_property(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return object_help(link_usage());
  std::string action = c.next();
  if (matches(action, "add"))
    cmd.verb = &kLinkPropAdd;
  else if (matches(action, "del"))
    cmd.verb = &kLinkPropDel;
  else if (action == "help")
    return object_help(link_usage());
  else
    return fail(UsageError{.message = "Operator required", .exact = true});
  auto& change = cmd.altnames();
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "altname")) {
      TRY_SET(v, c.value(key));
      if (!netlink::validate_altname(v, "altname")) return invarg("not a valid altname", v);
      change.altnames.push_back(std::move(v));
    } else if (matches(key, "help")) {
      return object_help(link_usage());
    } else {
      if (is(key, "dev")) TRY_SET(key, c.value(key));
      if (!change.name.empty()) return garbage("dev", key);
      TRY_SET(change.name, device_name("dev", key));
    }
  }
  if (change.name.empty())
    return fail(
        UsageError{.message = "Not enough of information: \"dev\" argument is required.", .exact = true});
  return cmd;
}

}  // namespace

Parsed<uint32_t> group_value(const std::string& text) {
  if (auto group = group_number(text)) return *group;
  return invarg("Invalid \"group\" value\n", text);
}

Parsed<IpCommand> parse_link(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return parse_link_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_link_add(c, std::move(cmd));
  if (matches(verb, "change") || matches(verb, "set")) return parse_link_set(c, std::move(cmd));
  if (matches(verb, "delete")) return parse_link_del(c, std::move(cmd));
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list"))
    return parse_link_show(c, std::move(cmd));
  if (matches(verb, "property")) return parse_link_property(c, std::move(cmd));
  return unknown_command(verb, "link");
}

const Verb* const kLinkVerbs[] = {&kLinkAdd,  &kLinkSet,     &kLinkDel,    &kLinkDelGroup,
                                  &kLinkShow, &kLinkPropAdd, &kLinkPropDel};
const IpObject kLinkObject{
    .name = {"link"},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_link(c, std::move(cmd)); },
    .verbs = kLinkVerbs,
    .usage = link_usage};

}  // namespace brisk::ipcli
