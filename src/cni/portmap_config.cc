// brisk-portmap's config, read as the reference's parseConfig reads it,
// and its conditionsV4/V6 (iptables match arguments) turned into nft.
#include <fmt/format.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "brisk/cni/error.h"
#include "cni/json_fields.h"
#include "cni/plugin_edge.h"
#include "cni/portmap.h"

namespace brisk::cni::detail {
namespace {

using nlohmann::json;

std::vector<std::string> string_list(const json& j, const char* key) {
  std::vector<std::string> out;
  const json* list = array_field(j, key);
  if (!list) return out;
  for (const json& v : *list) {
    if (!v.is_string()) fail(ErrorCode::invalid_config, fmt::format("\"{}\" must be a list of strings", key));
    out.push_back(v.get<std::string>());
  }
  return out;
}

PortMapping read_mapping(const json& m) {
  if (!m.is_object()) fail(ErrorCode::invalid_config, "portMappings: each must be an object");
  PortMapping p;
  p.host_port = static_cast<int>(int_field(m, "hostPort"));
  p.container_port = static_cast<int>(int_field(m, "containerPort"));
  p.protocol = string_field(m, "protocol");
  std::transform(p.protocol.begin(), p.protocol.end(), p.protocol.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  p.host_ip = string_field(m, "hostIP");
  return p;
}

// A name nft takes unquoted as a chain: a letter, _ or ., then letters,
// digits and _ . / - (as "KUBE-MARK-MASQ").
bool nft_identifier(const std::string& s) {
  auto letter = [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) != 0; };
  if (s.empty() || s.size() > 255 || !(letter(s[0]) || s[0] == '_' || s[0] == '.')) return false;
  return std::all_of(s.begin(), s.end(), [&](char ch) {
    return letter(ch) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' ||
           ch == '/' || ch == '-';
  });
}

void validate(const PortmapConfig& c, bool external_and_bit) {
  if (external_and_bit) fail(ErrorCode::internal, "Cannot specify externalSetMarkChain and markMasqBit");
  if (c.mark_masq_bit < 0 || c.mark_masq_bit > 31)
    fail(ErrorCode::internal, "MasqMarkBit must be between 0 and 31");
  for (const PortMapping& p : c.mappings) {
    if (p.container_port <= 0)
      fail(ErrorCode::internal, fmt::format("Invalid container port number: {}", p.container_port));
    if (p.host_port <= 0) fail(ErrorCode::internal, fmt::format("Invalid host port number: {}", p.host_port));
  }
  // What the reference leaves to iptables to refuse at ADD, refused here.
  for (const PortMapping& p : c.mappings) {
    if (p.container_port > 65535 || p.host_port > 65535)
      fail(ErrorCode::internal, fmt::format("Invalid port number: {} or {}", p.host_port, p.container_port));
    if (p.protocol != "tcp" && p.protocol != "udp" && p.protocol != "sctp")
      fail(ErrorCode::internal, fmt::format("unknown protocol \"{}\" (tcp, udp or sctp)", p.protocol));
    if (!p.host_ip.empty() && !netlink::IpAddress::parse(p.host_ip))
      fail(ErrorCode::internal, fmt::format("invalid hostIP \"{}\"", p.host_ip));
  }
  if (c.external_set_mark_chain && !nft_identifier(*c.external_set_mark_chain))
    fail(ErrorCode::internal,
         fmt::format("invalid externalSetMarkChain \"{}\" (a chain name: letters, digits, _ . / -)",
                     *c.external_set_mark_chain));
}

// The reference's pick: the first address of each family, skipping those
// of an interface that is not CNI_IFNAME or not in a sandbox.
void pick_pod_addresses(PortmapConfig& c, const std::string& ifname) {
  for (const IpConfig& ip : c.prev_result->ips) {
    bool v4 = ip.address.address.family == AF_INET;
    if ((v4 && c.pod_v4) || (!v4 && c.pod_v6)) continue;
    if (ip.interface) {
      int i = *ip.interface;
      const auto& ifs = c.prev_result->interfaces;
      if (i >= 0 && i < static_cast<int>(ifs.size()) && (ifs[i].name != ifname || ifs[i].sandbox.empty()))
        continue;
    }
    (v4 ? c.pod_v4 : c.pod_v6) = ip.address;
  }
}

PortmapConfig parse_fields(const json& j, const Environment& env) {
  PortmapConfig c;
  c.snat = bool_field(j, "snat", true);
  c.masq_all = bool_field(j, "masqAll");
  c.conditions_v4 = string_list(j, "conditionsV4");
  c.conditions_v6 = string_list(j, "conditionsV6");
  const json* bit = field(j, "markMasqBit");
  c.mark_masq_bit = static_cast<int>(int_field(j, "markMasqBit", 13));
  if (field(j, "externalSetMarkChain")) c.external_set_mark_chain = string_field(j, "externalSetMarkChain");
  if (const json* rc = object_field(j, "runtimeConfig"))
    if (const json* maps = array_field(*rc, "portMappings"))
      for (const json& m : *maps) c.mappings.push_back(read_mapping(m));
  if (const json* prev = object_field(j, "prevResult")) {
    try {
      c.prev_result = result_from_json(*prev);
    } catch (const CniException& e) {
      fail(ErrorCode::internal, "could not parse prevResult: " + e.error().msg);
    }
  }
  validate(c, bit && c.external_set_mark_chain);
  if (c.prev_result) pick_pod_addresses(c, env.ifname);
  return c;
}

// One iptables address argument ("10.0.0.0/8", "10.0.0.1,10.0.0.2") as nft.
std::string address_set(const std::string& text, int family, bool negated, const std::string& option) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    auto prefix = netlink::IpPrefix::parse(item);
    if (!prefix || prefix->address.family != family)
      fail(ErrorCode::unsupported_field,
           fmt::format("conditions: \"{} {}\" is not an address of the rule's family", option, item));
    items.push_back(item);
    start = end + 1;
  }
  if (items.size() == 1) return items[0];
  if (negated)
    fail(ErrorCode::unsupported_field, fmt::format("conditions: \"! {}\" takes one address", option));
  return fmt::format("{{ {} }}", fmt::join(items, ", "));
}

std::string interface_name(const std::string& name, const std::string& option) {
  // What the kernel refuses in a name (whitespace, '/', ':'), and what
  // could end nft's quoted string or its pattern ('"', '\\', '*'); no
  // control character either: the name goes into nft's command text.
  bool odd = std::any_of(name.begin(), name.end(), [](unsigned char ch) { return ch <= 0x20 || ch >= 0x7f; });
  if (name.empty() || name.size() > 15 || odd || name.find_first_of("\"\\*/:") != std::string::npos)
    fail(ErrorCode::unsupported_field,
         fmt::format("conditions: \"{} {}\" is not an interface name", option, name));
  // iptables' trailing + is a prefix match, nft's trailing *.
  return name.back() == '+' ? fmt::format("\"{}*\"", name.substr(0, name.size() - 1))
                            : fmt::format("\"{}\"", name);
}

std::string address_type(std::string type, const std::string& option) {
  static const char* known[] = {"unspec",    "unicast",   "local",       "broadcast", "anycast",
                                "multicast", "blackhole", "unreachable", "prohibit"};
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (std::find(std::begin(known), std::end(known), type) == std::end(known))
    fail(ErrorCode::unsupported_field,
         fmt::format("conditions: \"{} {}\" is not an address type brisk translates", option, type));
  return type;
}

}  // namespace

std::string translate_conditions(const std::vector<std::string>& args, int family) {
  const char* ip = family == AF_INET ? "ip" : "ip6";
  std::vector<std::string> out;
  bool negated = false;
  std::string module;  // the last -m, whose options may follow
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "!") {
      negated = true;
      continue;
    }
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size())
        fail(ErrorCode::unsupported_field, fmt::format("conditions: \"{}\" needs a value", a));
      return args[++i];
    };
    const char* op = negated ? "!= " : "";
    if (a == "-s" || a == "--source" || a == "--src") {
      out.push_back(fmt::format("{} saddr {}{}", ip, op, address_set(value(), family, negated, a)));
    } else if (a == "-d" || a == "--destination" || a == "--dst") {
      out.push_back(fmt::format("{} daddr {}{}", ip, op, address_set(value(), family, negated, a)));
    } else if (a == "-i" || a == "--in-interface") {
      out.push_back(fmt::format("iifname {}{}", op, interface_name(value(), a)));
    } else if (a == "-o" || a == "--out-interface") {
      out.push_back(fmt::format("oifname {}{}", op, interface_name(value(), a)));
    } else if (a == "-m" || a == "--match") {
      module = value();
      if (module != "comment" && module != "addrtype")
        fail(ErrorCode::unsupported_field,
             fmt::format("conditions: brisk does not translate the iptables match \"{}\"", module));
      if (negated) fail(ErrorCode::unsupported_field, "conditions: \"!\" before -m");
    } else if (module == "comment" && a == "--comment") {
      (void)value();  // a comment matches everything
      if (negated) fail(ErrorCode::unsupported_field, "conditions: \"!\" before --comment");
    } else if (module == "addrtype" && (a == "--src-type" || a == "--dst-type")) {
      out.push_back(fmt::format("fib {} type {}{}", a == "--src-type" ? "saddr" : "daddr", op,
                                address_type(value(), a)));
    } else {
      fail(ErrorCode::unsupported_field,
           fmt::format("conditions: brisk does not translate the iptables argument \"{}\"", a),
           "brisk-portmap translates -s, -d, -i, -o (each may follow \"!\"), -m comment and -m addrtype");
    }
    negated = false;
  }
  if (negated) fail(ErrorCode::unsupported_field, "conditions: \"!\" at the end");
  return fmt::format("{}", fmt::join(out, " "));
}

PortmapConfig parse_portmap_config(const std::string& stdin_data, const Environment& env, bool wrap) {
  json j = json::parse(stdin_data, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    fail(ErrorCode::decoding_failure, "error unmarshall network config: invalid JSON");
  std::string name = string_field(j, "name");
  validate_network_name(name);
  SpecVersion version = config_version(j);
  PortmapConfig c;
  try {
    c = parse_fields(j, env);
  } catch (const CniException& e) {
    if (!wrap) fail(ErrorCode::internal, e.error().msg, e.error().details);
    fail(ErrorCode::internal, "failed to parse config: " + e.error().msg, e.error().details);
  }
  c.name = std::move(name);
  c.version = version;
  return c;
}

}  // namespace brisk::cni::detail
