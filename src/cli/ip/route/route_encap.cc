#include "cli/ip/route/route_encap.h"

#include <linux/if_tunnel.h>
#include <linux/lwtunnel.h>

#include "cli/ip/json_layout.h"
#include "cli/ip/names.h"
#include "cli/ip/print_style.h"

namespace brisk::ipcli {
namespace {

// ip's read_encap_type(); 0 for a word that names none.
uint16_t encap_type(const std::string& word) {
  static const std::pair<const char*, uint16_t> kTypes[] = {{"mpls", LWTUNNEL_ENCAP_MPLS},
                                                            {"ip", LWTUNNEL_ENCAP_IP},
                                                            {"ip6", LWTUNNEL_ENCAP_IP6},
                                                            {"ila", LWTUNNEL_ENCAP_ILA},
                                                            {"bpf", LWTUNNEL_ENCAP_BPF},
                                                            {"seg6", LWTUNNEL_ENCAP_SEG6},
                                                            {"seg6local", LWTUNNEL_ENCAP_SEG6_LOCAL},
                                                            {"rpl", LWTUNNEL_ENCAP_RPL},
                                                            {"ioam6", LWTUNNEL_ENCAP_IOAM6},
                                                            {"xfrm", LWTUNNEL_ENCAP_XFRM}};
  for (auto [name, type] : kTypes)
    if (word == name) return type;
  return 0;
}

const char* encap_name(uint16_t type) {
  switch (type) {
    case LWTUNNEL_ENCAP_MPLS:
      return "mpls";
    case LWTUNNEL_ENCAP_IP:
      return "ip";
    case LWTUNNEL_ENCAP_IP6:
      return "ip6";
    case LWTUNNEL_ENCAP_ILA:
      return "ila";
    case LWTUNNEL_ENCAP_BPF:
      return "bpf";
    case LWTUNNEL_ENCAP_SEG6:
      return "seg6";
    case LWTUNNEL_ENCAP_SEG6_LOCAL:
      return "seg6local";
    case LWTUNNEL_ENCAP_RPL:
      return "rpl";
    case LWTUNNEL_ENCAP_IOAM6:
      return "ioam6";
    case LWTUNNEL_ENCAP_XFRM:
      return "xfrm";
    default:
      return "unknown";
  }
}

// ip's mpls_pton(): LABEL[/LABEL...], each below 2^20.
std::optional<std::vector<uint32_t>> mpls_labels(const std::string& text) {
  std::vector<uint32_t> labels;
  for (std::size_t from = 0;;) {
    std::size_t slash = text.find('/', from);
    auto label =
        unsigned_any_base(text.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
    if (!label || *label >= (1u << 20)) return std::nullopt;
    labels.push_back(static_cast<uint32_t>(*label));
    if (slash == std::string::npos) return labels;
    from = slash + 1;
  }
}

// The keywords of ip and ip6 (parse_encap_ip, parse_encap_ip6), each once.
Parsed<bool> ip_keywords(Cursor& c, netlink::RouteEncap& e) {
  const bool v6 = e.type == LWTUNNEL_ENCAP_IP6;
  const int family = v6 ? AF_INET6 : AF_INET;
  const char* tos_word = v6 ? "tc" : "tos";
  const char* ttl_word = v6 ? "hoplimit" : "ttl";
  std::vector<std::string> seen;
  while (!c.done()) {
    std::string key = c.peek();
    bool known = key == "id" || key == "dst" || key == "src" || key == tos_word || key == ttl_word ||
                 key == "key" || key == "csum" || key == "seq";
    if (key == "geneve_opts" || key == "vxlan_opts" || key == "erspan_opts")
      return usage("brisk does not encode \"" + key + "\" in an encap");
    if (!known) return true;  // the route's own keyword: ip's encap parser stops there
    c.next();
    bool flag = key == "key" || key == "csum" || key == "seq";
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return garbage(key, flag ? key : c.done() ? key : c.peek());
    seen.push_back(key);
    if (key == "id") {
      TRY_SET(e.id, c.read(key, [](const std::string& text) -> Parsed<uint64_t> {
        if (auto id = unsigned_any_base(text)) return *id;
        return invarg("\"id\" value is invalid\n", text);
      }));
    } else if (key == "dst" || key == "src") {
      std::string text;
      TRY_SET(text, c.value(key));
      TRY_SET(text, ip_address(key, text, family));
      (key == "dst" ? e.dst : e.src) = *netlink::IpAddress::parse(text);
    } else if (key == tos_word) {
      TRY_SET(e.tos, c.read(key, [tos_word](const std::string& text) -> Parsed<uint8_t> {
        if (auto tos = dsfield_number(text)) return *tos;
        return invarg("\"" + std::string(tos_word) + "\" value is invalid\n", text);
      }));
    } else if (key == ttl_word) {
      TRY_SET(e.ttl, c.read(key, [ttl_word](const std::string& text) -> Parsed<uint8_t> {
        if (auto n = unsigned_any_base(text); n && *n <= 255) return static_cast<uint8_t>(*n);
        return invarg("\"" + std::string(ttl_word) + "\" value is invalid\n", text);
      }));
    } else {
      e.flags |= key == "key" ? TUNNEL_KEY : key == "csum" ? TUNNEL_CSUM : TUNNEL_SEQ;
    }
  }
  return true;
}

}  // namespace

Parsed<netlink::RouteEncap> parse_route_encap(Cursor& c) {
  std::string word;
  TRY_SET(word, c.value("encap"));
  netlink::RouteEncap e{.type = encap_type(word)};
  if (!e.type) return invarg("\"encap type\" value is invalid\n", word);
  // ip wants two words at least after the type.
  if (c.done()) TRY_SET(std::ignore, c.value(word));
  if (c.left() < 2) return fatal("Error: unexpected end of line after \"encap\"", 255);
  if (e.type == LWTUNNEL_ENCAP_MPLS) {
    std::string stack = c.next();
    auto labels = mpls_labels(stack);
    if (!labels) return fatal("Error: mpls address is expected rather than \"" + stack + "\".", 1);
    e.labels = std::move(*labels);
    while (!c.done() && c.peek() == "ttl") {
      c.next();
      std::string text;
      TRY_SET(text, c.value("ttl"));
      if (e.ttl) return garbage("ttl", text);  // ip reads the value, then finds the keyword twice
      auto n = unsigned_any_base(text);
      if (!n || *n > 255) return invarg("\"ttl\" value is invalid\n", text);
      e.ttl = static_cast<uint8_t>(*n);
    }
    return e;
  }
  if (e.type != LWTUNNEL_ENCAP_IP && e.type != LWTUNNEL_ENCAP_IP6)
    return usage("brisk encodes encap ip, ip6 and mpls, not \"" + word + "\"");
  TRY_SET(std::ignore, ip_keywords(c, e));
  return e;
}

std::string route_encap_text(const netlink::RouteEncap& e, Json& j) {
  j["encap"] = encap_name(e.type);
  std::string t = "  encap " + std::string(encap_name(e.type));
  auto field = [&](const char* key, const std::string& text, const Json& value) {
    append_member(j, key, value);  // ip's keys sit among the route's, "dst" twice
    t += " " + text;
  };
  if (e.type == LWTUNNEL_ENCAP_MPLS) {
    std::string stack;
    for (uint32_t label : e.labels) stack += (stack.empty() ? "" : "/") + std::to_string(label);
    field("dst", " " + stack, stack);  // ip's " %s ": a space more before the stack
    if (e.ttl) field("ttl", "ttl " + std::to_string(*e.ttl), *e.ttl);
    return t;
  }
  const bool v6 = e.type == LWTUNNEL_ENCAP_IP6;
  Paint colour = v6 ? Paint::inet6 : Paint::inet;
  if (e.id) field("id", "id " + std::to_string(*e.id), *e.id);
  if (e.src) field("src", paint_spaced(colour, "src " + e.src->to_string()), e.src->to_string());
  if (e.dst) field("dst", paint_spaced(colour, "dst " + e.dst->to_string()), e.dst->to_string());
  if (e.ttl) field(v6 ? "hoplimit" : "ttl", (v6 ? "hoplimit " : "ttl ") + std::to_string(*e.ttl), *e.ttl);
  if (e.tos) field(v6 ? "tc" : "tos", (v6 ? "tc " : "tos ") + std::to_string(*e.tos), *e.tos);
  for (auto [bit, name] : {std::pair{TUNNEL_KEY, "key"}, {TUNNEL_CSUM, "csum"}, {TUNNEL_SEQ, "seq"}})
    if (e.flags & bit) field(name, name, true);
  return t;
}

}  // namespace brisk::ipcli
