// The kind lines of `ip -d link show`: each kind's IFLA_INFO_DATA (and a
// port's IFLA_INFO_SLAVE_DATA) printed by the kind's own file
// (cli/ip/link/kinds/), found in the registry. The attributes are read through
// the kind's schema, so a short or truncated attribute is refused rather
// than read past. Here: the dispatch, and the printing helpers kinds share.
#include <arpa/inet.h>
#include <linux/if_bridge.h>

#include "cli/ip/detail_printer.h"
#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

// struct ifla_bridge_id as ip prints it: priority in hex, then the MAC as
// ether_ntoa writes it (no zero padding), e.g. "8000.2:0:0:0:0:1".
std::string bridge_id_text(std::span<const uint8_t> id) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.2x%.2x.%x:%x:%x:%x:%x:%x", id[0], id[1], id[2], id[3], id[4], id[5],
                id[6], id[7]);
  return buffer;
}

}  // namespace

std::string mac_text(std::span<const uint8_t> mac) {
  std::string out;
  char byte[4];
  for (std::size_t i = 0; i < mac.size(); ++i) {
    std::snprintf(byte, sizeof byte, i ? ":%02x" : "%02x", mac[i]);
    out += byte;
  }
  return out;
}

std::string address_text(int family, std::span<const uint8_t> raw) {
  char buffer[INET6_ADDRSTRLEN];
  return ::inet_ntop(family, raw.data(), buffer, sizeof buffer) ? buffer : "";
}

void Fields::u8(int type, const char* key, const char* word) {
  if (auto v = a.u8(static_cast<uint16_t>(type))) out.field(key, word, *v);
}
void Fields::u16(int type, const char* key, const char* word) {
  if (auto v = a.u16(static_cast<uint16_t>(type))) out.field(key, word, *v);
}
void Fields::u32(int type, const char* key, const char* word) {
  if (auto v = a.u32(static_cast<uint16_t>(type))) out.field(key, word, *v);
}
void Fields::u64(int type, const char* key, const char* word) {
  if (auto v = a.u64(static_cast<uint16_t>(type))) out.field(key, word, *v);
}
void Fields::on_off(int type, const char* key) {
  if (auto v = a.u8(static_cast<uint16_t>(type))) out.on_off(key, key, *v != 0);
}
void Fields::timer(int type, const char* key) {
  if (auto v = a.u64(static_cast<uint16_t>(type))) out.timer(key, *v);
}
void Fields::bridge_id(int type, const char* key, const char* word) {
  if (auto v = a.bytes(static_cast<uint16_t>(type))) out.field(key, word, bridge_id_text(*v));
}

bool print_kind_data(const std::string& kind, std::span<const char> data, DetailPrinter& out,
                     const std::function<std::string(int)>& name_of) {
  const LinkKindModule* module = find_link_kind(kind);
  if (!module || !module->data.print) return false;
  // A stream the schema refuses prints as no attributes: ip would print
  // garbage there, brisk prints nothing rather than guess.
  if (auto attrs = netlink::Attributes::parse(data, module->data.schema))
    module->data.print(*attrs, out, name_of);
  return true;
}

}  // namespace brisk::ipcli
