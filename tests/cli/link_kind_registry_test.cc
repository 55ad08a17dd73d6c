// The link kind registry (cli/ip/link/link_kind.h) without the kernel: every
// kind file registered once and found by its whole name, and the vrf kind
// (kinds/vrf.cc), the one that encodes its own IFLA_INFO_DATA, parsed,
// printed and sent through the library to a scripted kernel.
#include <gtest/gtest.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "cli/ip/link/link_kind.h"
#include "parse_support.h"
#include "support/fake_kernel.h"

namespace brisk::ipcli {
namespace {

// The test below registers kinds of this name; every other is a kind file's.
constexpr std::string_view kTestKind = "registry_test_kind";

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const auto* kind : link_kinds())
    if (kind->name != kTestKind) names.emplace_back(kind->name);
  return names;
}

TEST(LinkKindRegistry, EveryKindFileRegistersOnceInNameOrder) {
  std::vector<std::string> expected = {"bridge", "bridge_slave", "macvlan", "macvtap",   "tun",
                                       "veth",   "vlan",         "vrf",     "vrf_slave", "vxlan"};
  EXPECT_EQ(registered_names(), expected);
  for (const auto& conflict : link_kind_conflicts()) EXPECT_EQ(conflict, kTestKind);
  for (const auto* kind : link_kinds()) {
    EXPECT_EQ(find_link_kind(kind->name), kind);
    // A kind module that does nothing is a mistake.
    EXPECT_TRUE(kind->parse || kind->parse_port || kind->data.print) << kind->name;
    if (kind->changes) {
      EXPECT_TRUE(kind->parse) << kind->name;
    }
  }
}

TEST(LinkKindRegistry, ASecondModuleOfOneNameIsRefusedAndReported) {
  static constexpr LinkKindModule kFirst{.name = kTestKind};
  static constexpr LinkKindModule kSecond{.name = kTestKind};
  register_link_kind(kFirst);  // a repeat of this test finds it there already
  std::size_t before = link_kind_conflicts().size();
  EXPECT_FALSE(register_link_kind(kSecond));
  ASSERT_EQ(link_kind_conflicts().size(), before + 1);
  EXPECT_EQ(link_kind_conflicts().back(), kTestKind);
  EXPECT_EQ(find_link_kind(kTestKind), &kFirst);
}

// ip finds a kind by its whole name (get_link_kind), so brisk takes no
// abbreviation: "vxl" is a kind of its own, sent to the kernel as named.
TEST(LinkKindRegistry, KindsAreFoundByTheirWholeNameOnly) {
  EXPECT_NE(find_link_kind("vxlan"), nullptr);
  EXPECT_EQ(find_link_kind("vxl"), nullptr);
  EXPECT_EQ(find_link_kind("VXLAN"), nullptr);
  EXPECT_EQ(find_link_kind("dummy"), nullptr);
  auto cmd = ok({"link", "add", "v0", "type", "vxl"});
  EXPECT_EQ(std::get<netlink::OtherKind>(cmd.link_add().kind).kind, "vxl");
}

TEST(LinkKindRegistry, DevicesAKindNamesComeFromItsFile) {
  auto vx =
      ok({"link", "add", "v0", "type", "vxlan", "id", "5", "dstport", "4789", "dev", "u0"}).link_add().kind;
  EXPECT_EQ(kind_device(vx).name, "u0");
  EXPECT_TRUE(kind_device(vx).resolved_when_parsed);
  auto mv = ok({"link", "add", "link", "l0", "m0", "type", "macvlan"}).link_add().kind;
  EXPECT_EQ(kind_device(mv).name, "l0");
  EXPECT_FALSE(kind_device(mv).resolved_when_parsed);
  auto veth = ok({"link", "add", "a0", "type", "veth", "peer", "name", "b0"}).link_add().kind;
  EXPECT_EQ(kind_device(veth).name, "");
  EXPECT_EQ(second_device(veth), "b0");
}

// IFLA_VRF_TABLE = `table` as one attribute: its header, then the u32.
std::vector<char> vrf_table(uint32_t table) {
  std::vector<char> data(8);
  nlattr header{.nla_len = 8, .nla_type = IFLA_VRF_TABLE};
  std::memcpy(data.data(), &header, sizeof header);
  std::memcpy(data.data() + 4, &table, sizeof table);
  return data;
}

TEST(VrfKind, ParsesItsTableIntoItsOwnInfoData) {
  auto cmd = ok({"link", "add", "vrf1", "type", "vrf", "table", "10"});
  auto& vrf = std::get<netlink::OtherKind>(cmd.link_add().kind);
  EXPECT_EQ(vrf.kind, "vrf");
  EXPECT_EQ(vrf.info_data, vrf_table(10));
  // A table by its rt_tables name, as ip's rtnl_rttable_a2n.
  EXPECT_EQ(
      std::get<netlink::OtherKind>(ok({"link", "add", "vrf1", "type", "vrf", "tab", "main"}).link_add().kind)
          .info_data,
      vrf_table(RT_TABLE_MAIN));
}

TEST(VrfKind, RefusesAsIp61Does) {
  auto help = error_of({"link", "add", "vrf1", "type", "vrf", "help"});
  EXPECT_EQ(help.message, "Usage: ... vrf table TABLEID");
  EXPECT_EQ(help.exit_code, 1);
  EXPECT_EQ(error_of({"link", "add", "vrf1", "type", "vrf", "bogus"}).message,
            "vrf: unknown option \"bogus\"?\nUsage: ... vrf table TABLEID");
  EXPECT_EQ(error_of({"link", "add", "vrf1", "type", "vrf", "table", "x1"}).message,
            "Error: argument \"x1\" is wrong: invalid table ID\n");
  EXPECT_EQ(find_link_kind("vrf")->help("vrf"), "Usage: ... vrf table TABLEID");
}

TEST(VrfKind, PrintsItsTableAndItsPortsTable) {
  std::string text;
  DetailPrinter::Json json = DetailPrinter::Json::object();
  DetailPrinter out(&text, &json);
  auto name_of = [](int) { return std::string(); };
  EXPECT_TRUE(print_kind_data("vrf", vrf_table(10), out, name_of));
  EXPECT_EQ(text, "table 10 ");
  EXPECT_EQ(json["table"], 10);
  std::string port;
  DetailPrinter port_out(&port, nullptr);
  auto port_data = vrf_table(7);  // IFLA_VRF_PORT_TABLE has the same number, 1
  EXPECT_TRUE(print_kind_data("vrf_slave", port_data, port_out, name_of));
  EXPECT_EQ(port, "table 7 ");
}

// The nested attribute `type` among `attrs`, as (payload, length).
std::optional<std::pair<const char*, std::size_t>> find_attr(const char* attrs, std::size_t length,
                                                             uint16_t type) {
  std::size_t at = 0;
  while (at + NLA_HDRLEN <= length) {
    nlattr a;
    std::memcpy(&a, attrs + at, sizeof a);
    if (a.nla_len < NLA_HDRLEN || at + a.nla_len > length) break;
    if ((a.nla_type & NLA_TYPE_MASK) == type)
      return std::pair{attrs + at + NLA_HDRLEN, a.nla_len - NLA_HDRLEN};
    at += NLA_ALIGN(a.nla_len);
  }
  return std::nullopt;
}

// The library sends an OtherKind's info_data verbatim, inside IFLA_LINKINFO.
TEST(VrfKind, ItsInfoDataReachesTheKernelVerbatim) {
  auto cmd = ok({"link", "add", "vrf1", "type", "vrf", "table", "10"});
  std::vector<test::Datagram> sent;
  auto owned = std::make_unique<test::FakeKernel>([&sent](const nlmsghdr& m) {
    const char* bytes = reinterpret_cast<const char*>(&m);
    sent.emplace_back(bytes, bytes + m.nlmsg_len);
    return test::FakeKernel::Answer{.datagrams = {test::ack(m)}};
  });
  auto conn = netlink::Connection::over(std::move(owned));
  ASSERT_TRUE(netlink::add_link(conn, cmd.link_add()));
  ASSERT_EQ(sent.size(), 1u);
  const auto& m = *reinterpret_cast<const nlmsghdr*>(sent[0].data());
  ASSERT_EQ(m.nlmsg_type, RTM_NEWLINK);
  std::size_t start = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg));
  auto info = find_attr(sent[0].data() + start, m.nlmsg_len - start, IFLA_LINKINFO);
  ASSERT_TRUE(info);
  auto kind = find_attr(info->first, info->second, IFLA_INFO_KIND);
  ASSERT_TRUE(kind);
  EXPECT_STREQ(kind->first, "vrf");
  auto data = find_attr(info->first, info->second, IFLA_INFO_DATA);
  ASSERT_TRUE(data);
  EXPECT_EQ(std::vector<char>(data->first, data->first + data->second), vrf_table(10));
}

}  // namespace
}  // namespace brisk::ipcli
