// cli/ip/names.h: ip's words for rtnetlink's numbers, one table per name
// space (route tables, protocols, scopes, route types, NUD states), read by
// the parser and the printer alike. As ip, the tables and protocols also
// come from /etc/iproute2/rt_tables, rt_protos and rt_scopes (and their .d/
// directories' *.conf files) where those exist; a number without a name is
// printed, and accepted, as a number.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace brisk::ipcli {

// One name space: numbers 0..max, each with at most one name.
class NameTable {
 public:
  struct Entry {
    uint32_t number;
    std::string_view name;
  };
  NameTable(std::initializer_list<Entry> builtin, uint32_t max);
  // Adds the "NUMBER NAME" lines of an iproute2 names file ('#' comments,
  // hex or decimal numbers); a later line overrides an earlier name.
  void add_file_text(std::string_view text);
  // The name, or the number in decimal.
  std::string name(uint32_t number) const;
  // A name, or a number (decimal, 0x hex or 0 octal, as strtoul's base 0) up to max.
  std::optional<uint32_t> number(std::string_view word) const;
  const std::map<uint32_t, std::string>& entries() const { return names_; }

 private:
  std::map<uint32_t, std::string> names_;
  uint32_t max_;
};

const NameTable& route_tables();  // rt_tables: main, local, default, ...
const NameTable& protocols();     // rt_protos: kernel, boot, static, dhcp, ...
const NameTable& scopes();        // rt_scopes: global, link, host, ...
const NameTable& route_types();   // RTN_*: unicast, blackhole, ...
const NameTable& nud_states();    // NUD_* bits: permanent, reachable, ...
const NameTable& link_groups();   // group: default, ...

const NameTable& dsfields();  // rt_dsfield: TOS / DS field values (AF11, CS1, ...)
const NameTable& realms();    // rt_realms: route realms

// strtoul(text, 0) that must use the whole word: decimal, 0x hex or 0 octal.
std::optional<uint64_t> unsigned_any_base(std::string_view text);
// ip's get_integer(…, 0): an int, signed, in the same bases.
std::optional<int32_t> int_any_base(std::string_view text);

// ip's family_name(): inet, inet6, link, mpls, bridge; "???" for another.
const char* family_name(int family);
std::string scope_name(uint8_t scope);
std::optional<uint8_t> scope_number(std::string_view);  // also "universe", as ip
std::string protocol_name(uint8_t protocol);
std::optional<uint8_t> protocol_number(std::string_view);
std::string rtn_type_name(uint8_t type);
std::optional<uint8_t> rtn_type_number(std::string_view);
std::string table_name(uint32_t table);
std::optional<uint32_t> table_number(std::string_view);
std::string group_name(uint32_t group);
std::optional<uint32_t> group_number(std::string_view);
// A DS field by name, else "0x%02x"; read by name or as hexadecimal (ip's rtnl_dsfield_*).
std::string dsfield_name(uint8_t value);
std::optional<uint8_t> dsfield_number(std::string_view);
std::string realm_name(uint32_t realm);
std::optional<uint32_t> realm_number(std::string_view);
// ip's words for a neighbour's state bits, upper case ("REACHABLE"), or "NONE".
std::vector<std::string> nud_names(uint16_t state);
// An IP protocol by number, else by its /etc/protocols name (ip's inet_proto_a2n);
// printed by name, else "ipproto-N" (inet_proto_n2a).
std::optional<uint8_t> ip_proto_number(const std::string& text);
std::string ip_proto_name(uint8_t proto);
// A link layer (ARPHRD_*) as ip names it ("ether", "loopback", "none"), or "[N]".
std::string link_layer_name(uint16_t type);

}  // namespace brisk::ipcli
