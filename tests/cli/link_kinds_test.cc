// The kind printers of `brisk -d` on hand-built attribute streams, without
// the kernel: the formats ip uses that a default device never shows, and a
// malformed stream printing nothing rather than garbage.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>

#include <array>
#include <cstring>

#include "brisk/netlink/message.h"
#include "cli/ip/detail_printer.h"
#include "cli/ip/json_layout.h"

namespace brisk::ipcli {
namespace {

using Json = DetailPrinter::Json;

// The attributes put by `fill`, as the bytes of an IFLA_INFO_DATA nest.
template <class Fill>
std::vector<char> stream(Fill fill) {
  netlink::Message m(0, 0);
  std::size_t start = m.bytes().size();
  fill(m);
  auto all = m.bytes();
  return {all.begin() + static_cast<std::ptrdiff_t>(start), all.end()};
}

struct Printed {
  bool known = false;
  std::string text;
  Json json = Json::object();
};

Printed print(const std::string& kind, const std::vector<char>& data) {
  Printed p;
  DetailPrinter out(&p.text, &p.json);
  p.known = print_kind_data(kind, data, out, [](int index) { return "if" + std::to_string(index); });
  return p;
}

TEST(LinkKinds, BridgeIdsAndMasksAsIpWritesThem) {
  ifla_bridge_id id{{0x80, 0x00}, {0x0a, 0x00, 0x5e, 0x00, 0x01, 0xff}};
  auto data = stream([&](netlink::Message& m) {
    m.put_bytes(IFLA_BR_BRIDGE_ID, {reinterpret_cast<const uint8_t*>(&id), sizeof id});
    m.put_u64(IFLA_BR_GC_TIMER, 29966);
    m.put_u16(IFLA_BR_GROUP_FWD_MASK, 0x4005);
    m.put_u16(IFLA_BR_VLAN_PROTOCOL, htons(0x88a8));
  });
  auto p = print("bridge", data);
  EXPECT_TRUE(p.known);
  // ether_ntoa's unpadded bytes; timers as "%4i.%.2i"; masks as "%#llx".
  EXPECT_EQ(p.text,
            "vlan_protocol 802.1ad bridge_id 8000.a:0:5e:0:1:ff gc_timer  299.66 group_fwd_mask 0x4005 ");
  EXPECT_EQ(p.json["bridge_id"], "8000.a:0:5e:0:1:ff");
  EXPECT_EQ(ip_json_text(p.json, false),
            "{\"vlan_protocol\":\"802.1ad\",\"bridge_id\":\"8000.a:0:5e:0:1:ff\",\"gc_timer\":299.66,"
            "\"group_fwd_mask\":\"0x4005\"}");
  EXPECT_EQ(p.json["group_fwd_mask"], "0x4005");
}

TEST(LinkKinds, PortStatesAndForwardMaskWords) {
  auto data = stream([](netlink::Message& m) {
    m.put_u8(IFLA_BRPORT_STATE, 7);
    m.put_u16(IFLA_BRPORT_GROUP_FWD_MASK, 0x4005);
    m.put_u32(IFLA_BRPORT_BACKUP_PORT, 9);
  });
  auto p = print("bridge_slave", data);
  EXPECT_EQ(p.text, "state (7) group_fwd_mask 0x4005 group_fwd_mask_str stp,lacp,lldp backup_port if9 ");
  EXPECT_EQ(p.json["state_index"], 7);
  EXPECT_EQ(p.json["group_fwd_mask_str"], "stp,lacp,lldp");
}

TEST(LinkKinds, TunOwnerWithoutANameIsANumber) {
  auto data = stream([](netlink::Message& m) {
    m.put_u8(IFLA_TUN_TYPE, 1);
    m.put_u32(IFLA_TUN_OWNER, 4000000001u);
  });
  auto p = print("tun", data);
  EXPECT_EQ(p.text, "type tun user 4000000001 ");
  EXPECT_EQ(p.json["user"], 4000000001u);
}

TEST(LinkKinds, MalformedStreamsPrintNothing) {
  // IFLA_VXLAN_ID with 2 bytes where the schema wants 4.
  auto data = stream([](netlink::Message& m) { m.put_u16(IFLA_VXLAN_ID, 42); });
  auto p = print("vxlan", data);
  EXPECT_TRUE(p.known);
  EXPECT_EQ(p.text, "");
  EXPECT_TRUE(p.json.empty());
  // A length running past the end.
  std::vector<char> cut = stream([](netlink::Message& m) { m.put_u32(IFLA_TUN_OWNER, 1); });
  cut.resize(cut.size() - 2);
  EXPECT_EQ(print("tun", cut).text, "");
}

TEST(LinkKinds, SourceMacsStopAtATruncatedEntry) {
  auto data = stream([](netlink::Message& m) {
    m.put_u32(IFLA_MACVLAN_MODE, MACVLAN_MODE_SOURCE);
    auto nest = m.begin_nest(IFLA_MACVLAN_MACADDR_DATA);
    m.put_bytes(IFLA_MACVLAN_MACADDR, std::array<uint8_t, 6>{2, 0, 0, 0, 0, 1});
    m.put_bytes(IFLA_MACVLAN_MACADDR, std::array<uint8_t, 6>{2, 0, 0, 0, 0, 2});
    m.end_nest(nest);
  });
  // Shorten the last MAC's nla_len past the nest's end: it must be dropped, not read.
  auto last = data.size() - 12;
  uint16_t len = 64;
  std::memcpy(&data[last], &len, sizeof len);
  auto p = print("macvlan", data);
  EXPECT_EQ(p.text, "mode source 02:00:00:00:00:01 ");
  EXPECT_EQ(p.json["macaddr_data"], Json::array({"02:00:00:00:00:01"}));
}

TEST(LinkKinds, KindsIpHasNoPrinterForShowNoData) {
  EXPECT_FALSE(print("veth", {}).known);
  EXPECT_TRUE(print("bridge", {}).known);  // ip shows an empty info_data
}

}  // namespace
}  // namespace brisk::ipcli
