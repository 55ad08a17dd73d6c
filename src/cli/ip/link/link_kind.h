// cli/ip/link_kind.h: one link kind of `ip link` in one file, as iproute2's
// struct link_util: the parser of `type KIND ARGS`, the printer of its `-d`
// details, its help, and what a batch asks of its options. Each
// src/cli/ip/link/kinds/KIND.cc fills a LinkKindModule and registers it with
// BRISK_LINK_KIND; link.cc, link_kinds.cc and batch_rules.cc find kinds
// here and name none. docs/adding-a-link-kind.md walks through one.
//
// Encoding stays the library's: a kind the library models (veth, bridge,
// macvlan, vxlan, vlan) parses into its typed options and add_link/set_link
// encode them; a kind it does not model parses into a netlink::OtherKind
// carrying its IFLA_INFO_DATA, sent verbatim.
#pragma once

#include <array>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"
#include "cli/ip/detail_printer.h"
#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

// What a kind's parser gets: the words after `type KIND`, to the end of the line.
struct KindArgs {
  Cursor& c;                 // the kind's options
  const std::string& type;   // KIND as written (macvlan and macvtap share a parser)
  const std::string& lower;  // `link DEV` of a link add; empty for a change
  bool change;               // `link set DEV type KIND ARGS`: only what is named changes
  IpCommand& cmd;            // the whole line: its family, warnings, peer's namespace
};

// ifindex -> name, for the devices a kind's attributes name (a vxlan's dev).
using NameOf = std::function<std::string(int)>;

// How `-d` shows one attribute stream: the schema it is read with (a
// stream the schema refuses shows nothing), then the printer.
struct KindPrinter {
  netlink::Schema schema{};
  void (*print)(const netlink::Attributes&, DetailPrinter&, const NameOf&) = nullptr;  // null: none
};

// An existing device a kind's options name.
struct KindDevice {
  std::string name{};           // empty: none
  bool resolved_when_parsed{};  // ip looks it up as it parses the line (a vxlan's dev), so a
                                // missing one is an argument error that ends a batch
};

struct LinkKindModule {
  std::string_view name{};  // the rtnetlink kind, as `type` takes it (matched whole, as ip does)
  // `link add ... type KIND ARGS` (and, when `changes`, `link set DEV type KIND ARGS`):
  // the kind as the library takes it. null: the kind takes no options.
  Parsed<netlink::LinkKind> (*parse)(KindArgs&) = nullptr;
  bool changes = false;     // `link set DEV type KIND ARGS` may change the options
  bool takes_link = false;  // `link add link DEV` names its lower device
  // For a port kind (KIND_slave), `link set DEV type KIND_slave ARGS`: the
  // device's options as a port of its master, into `set`. null: not a port kind.
  Parsed<bool> (*parse_port)(Cursor&, netlink::LinkSet& set) = nullptr;
  // IFLA_INFO_DATA, printed after "KIND "; for a port kind (KIND_slave) the
  // port's IFLA_INFO_SLAVE_DATA, printed after "KIND_slave ".
  KindPrinter data{};
  // The text `type KIND help` prints, for KIND as written. null: none.
  std::string (*help)(std::string_view type) = nullptr;
  // Its options in `brisk link help`, after "KIND: " (continuation lines
  // indented to match); empty: not listed there.
  std::string_view synopsis{};
  // A definition its synopsis refers to (BRIDGE_OPTION := ...), printed at
  // the end of `brisk link help`. null: none.
  std::string_view (*glossary)() = nullptr;
  // The existing device these options name (a macvlan's lower link), or none
  // when they are not this kind's. null: never one.
  KindDevice (*named_device)(const netlink::LinkKind&) = nullptr;
  // The second device a link add makes (a veth's peer), or "". null: never one.
  std::string (*second_device)(const netlink::LinkKind&) = nullptr;
};

// The kind registered as `name`; null when none is.
const LinkKindModule* find_link_kind(std::string_view name);
// Every registered kind, by name.
std::span<const LinkKindModule* const> link_kinds();
// The device a kind's options name, whichever kind it is.
KindDevice kind_device(const netlink::LinkKind& kind);
// The second device a link add of this kind makes, whichever kind it is.
std::string second_device(const netlink::LinkKind& kind);

// Called by BRISK_LINK_KIND before main; a second module of one name is kept
// out and reported by link_kind_conflicts() (the registry test checks it is empty).
bool register_link_kind(const LinkKindModule& module);
std::span<const std::string> link_kind_conflicts();

// Registers a kind module from its own file. The kind files are linked as
// objects into every binary that links brisk_ipcli (src/CMakeLists.txt), so
// no linker drops one for being unreferenced; `used` keeps the compiler from
// dropping the registrar.
#define BRISK_LINK_KIND_CONCAT2(a, b) a##b
#define BRISK_LINK_KIND_CONCAT(a, b) BRISK_LINK_KIND_CONCAT2(a, b)
#define BRISK_LINK_KIND(module)                                                                   \
  [[gnu::used]] static const bool BRISK_LINK_KIND_CONCAT(brisk_link_kind_registered_, __LINE__) = \
      ::brisk::ipcli::register_link_kind(module)

// The link-add grammar a kind may reuse (veth's peer takes it whole); in link.cc.

// A new device's name, as ip's iplink_parse takes it: `name X` once, and
// `dev X` or a bare word once; given both ways, the two must agree.
class NewLinkName {
 public:
  Parsed<bool> by_name(Cursor& c, const std::string& key);
  // `dev X` (key "dev") or a bare word X (key X).
  Parsed<bool> by_dev(Cursor& c, const std::string& key);
  Parsed<std::string> result() const;

 private:
  std::string name_, dev_;
};

// What `link add` takes for any new device (up, mtu, master, ...): true
// when `key` was one of them. `vrfs` takes the names `vrf NAME` gives,
// `link_netns` the one `link-netns NAME` gives, both checked when run.
Parsed<bool> parse_new_link_setting(const std::string& key, Cursor& c, netlink::LinkCommon& common,
                                    std::vector<std::string>& vrfs, std::string& link_netns);

// For a kind the library does not model: its IFLA_INFO_DATA, built one
// attribute at a time, for netlink::OtherKind::info_data (link_kind.cc).
void put_attr(std::vector<char>& data, uint16_t type, std::span<const uint8_t> value);
void put_u32(std::vector<char>& data, uint16_t type, uint32_t value);

// Shared by the kinds' printers (link_kinds.cc).

// An attribute schema indexed by type, for a kind's KindPrinter.
template <std::size_t N>
using Policies = std::array<netlink::AttrPolicy, N>;
std::string mac_text(std::span<const uint8_t> mac);
std::string address_text(int family, std::span<const uint8_t> raw);

// One field per kind of value, each printed only when the kernel sent it.
struct Fields {
  const netlink::Attributes& a;
  DetailPrinter& out;
  void u8(int type, const char* key, const char* word);
  void u16(int type, const char* key, const char* word);
  void u32(int type, const char* key, const char* word);
  void u64(int type, const char* key, const char* word);
  void on_off(int type, const char* key);
  void timer(int type, const char* key);
  // struct ifla_bridge_id as ip prints it: "8000.2:0:0:0:0:1".
  void bridge_id(int type, const char* key, const char* word);
};

}  // namespace brisk::ipcli
