// Layer 1: messages built and parsed without the kernel.
#include "brisk/netlink/message.h"

#include <gtest/gtest.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/address.h"
#include "brisk/netlink/attributes.h"

namespace brisk::netlink {
namespace {

constexpr AttrPolicy kInfo[] = {
    /*0*/ {},
    /*IFLA_INFO_KIND*/ {AttrKind::string, 16},
    /*IFLA_INFO_DATA*/ {AttrKind::nested},
};
constexpr AttrPolicy kTop[] = {
    /*0 IFLA_UNSPEC*/ {},
    /*1 IFLA_ADDRESS*/ {AttrKind::binary, 32, 6},
    /*2 IFLA_BROADCAST*/ {},
    /*3 IFLA_IFNAME*/ {AttrKind::string, 16},
    /*4 IFLA_MTU*/ {AttrKind::u32},
    /*5 IFLA_LINK*/ {},
    /*6 IFLA_QDISC*/ {},
    /*7 IFLA_STATS*/ {},
    /*8 IFLA_COST*/ {},
    /*9 IFLA_PRIORITY*/ {},
    /*10 IFLA_MASTER*/ {AttrKind::u32},
    /*11 IFLA_WIRELESS*/ {},
    /*12 IFLA_PROTINFO*/ {},
    /*13 IFLA_TXQLEN*/ {AttrKind::u32},
    /*14 IFLA_MAP*/ {},
    /*15 IFLA_WEIGHT*/ {},
    /*16 IFLA_OPERSTATE*/ {AttrKind::u8},
    /*17 IFLA_LINKMODE*/ {},
    /*18 IFLA_LINKINFO*/ {AttrKind::nested},
};

std::span<const char> payload(const Message& m) {
  auto all = m.bytes();
  std::size_t start = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg));
  return all.subspan(start);
}

TEST(NetlinkMessage, BuildsHeaderAndAttributesThatParseBack) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK);
  auto& ifi = m.put_header<ifinfomsg>();
  ifi.ifi_index = 7;
  m.put_string(IFLA_IFNAME, "veth0");
  m.put_u32(IFLA_MTU, 9000);
  m.put_u8(IFLA_OPERSTATE, 6);
  MacAddress mac = MacAddress::parse("02:00:00:00:00:01").value();
  m.put_bytes(IFLA_ADDRESS, mac.bytes);
  auto info = m.begin_nest(IFLA_LINKINFO);
  m.put_string(IFLA_INFO_KIND, "veth");
  m.end_nest(info);
  ASSERT_FALSE(m.overflowed());
  EXPECT_EQ(m.type(), RTM_NEWLINK);
  EXPECT_EQ(m.bytes().size(), m.header()->nlmsg_len);
  EXPECT_EQ(m.family_header<ifinfomsg>().ifi_index, 7);

  auto attrs = Attributes::parse(payload(m), kTop);
  ASSERT_TRUE(attrs) << attrs.error().message();
  EXPECT_EQ(attrs->string(IFLA_IFNAME), "veth0");
  EXPECT_EQ(attrs->u32(IFLA_MTU), 9000u);
  EXPECT_EQ(attrs->u8(IFLA_OPERSTATE), 6);
  auto bytes = attrs->bytes(IFLA_ADDRESS);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(std::vector<uint8_t>(bytes->begin(), bytes->end()),
            std::vector<uint8_t>(mac.bytes.begin(), mac.bytes.end()));
  auto nested = attrs->nested(IFLA_LINKINFO, kInfo);
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->string(IFLA_INFO_KIND), "veth");
  EXPECT_FALSE(attrs->has(IFLA_MASTER));
}

TEST(NetlinkMessage, ParseMessageSkipsTheFamilyHeader) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_u32(IFLA_MASTER, 3);
  auto attrs = Attributes::parse_message(*m.header(), sizeof(ifinfomsg), kTop);
  ASSERT_TRUE(attrs);
  EXPECT_EQ(attrs->u32(IFLA_MASTER), 3u);
}

TEST(NetlinkMessage, AnAppendThatDoesNotFitMarksTheMessageOverflowed) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST, 64);
  m.put_header<ifinfomsg>();
  m.put_string(IFLA_IFNAME, std::string(100, 'x'));
  EXPECT_TRUE(m.overflowed());
  EXPECT_LE(m.bytes().size(), 64u);
}

TEST(NetlinkMessage, ShrinkKeepsTheBytesAsSent) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_string(IFLA_IFNAME, "br0");
  std::vector<char> before(m.bytes().begin(), m.bytes().end());
  m.shrink();
  EXPECT_EQ(std::vector<char>(m.bytes().begin(), m.bytes().end()), before);
}

TEST(NetlinkAttributes, RejectsAScalarShorterThanItsPolicy) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_u16(IFLA_MTU, 1500);  // u32 expected
  auto attrs = Attributes::parse(payload(m), kTop);
  ASSERT_FALSE(attrs);
  EXPECT_EQ(attrs.error().code, EBADMSG);
  EXPECT_NE(attrs.error().message().find("attribute 4"), std::string::npos);
}

TEST(NetlinkAttributes, RejectsAStringWithoutTerminator) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  const uint8_t raw[] = {'a', 'b', 'c'};
  m.put_bytes(IFLA_IFNAME, raw);
  EXPECT_FALSE(Attributes::parse(payload(m), kTop));
}

TEST(NetlinkAttributes, RejectsAStringLongerThanItsPolicy) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_string(IFLA_IFNAME, "sixteen-bytes-xx");
  EXPECT_FALSE(Attributes::parse(payload(m), kTop));
}

TEST(NetlinkAttributes, RejectsATruncatedAttribute) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_u32(IFLA_MTU, 1500);
  auto data = payload(m);
  std::vector<char> cut(data.begin(), data.end() - 2);  // nla_len now overruns
  EXPECT_FALSE(Attributes::parse(cut, kTop));
}

TEST(NetlinkAttributes, SkipsAttributesTheSchemaDoesNotDeclare) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_u16(IFLA_LINK, 1);  // declared unused: wrong size is not our business
  m.put_u32(200, 5);        // beyond the schema
  m.put_u32(IFLA_MTU, 1400);
  auto attrs = Attributes::parse(payload(m), kTop);
  ASSERT_TRUE(attrs);
  EXPECT_EQ(attrs->u32(IFLA_MTU), 1400u);
  EXPECT_FALSE(attrs->has(IFLA_LINK));
}

TEST(NetlinkAttributes, AMissingNestParsesAsEmpty) {
  Message m(RTM_NEWLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  auto attrs = Attributes::parse(payload(m), kTop);
  ASSERT_TRUE(attrs);
  auto info = attrs->nested(IFLA_LINKINFO, kInfo);
  ASSERT_TRUE(info);
  EXPECT_FALSE(info->has(IFLA_INFO_KIND));
}

TEST(NetlinkAddress, ParsesAndPrintsMacAddresses) {
  auto mac = MacAddress::parse("02:AB:cd:00:00:ff");
  ASSERT_TRUE(mac);
  EXPECT_EQ(mac->to_string(), "02:ab:cd:00:00:ff");
  for (const char* bad :
       {"", "02:ab:cd:00:00", "02:ab:cd:00:00:fg", "02-ab-cd-00-00-ff", "02:ab:cd:00:00:ff:"})
    EXPECT_FALSE(MacAddress::parse(bad)) << bad;
}

TEST(NetlinkAddress, ParsesPrefixesOfBothFamilies) {
  auto v4 = IpPrefix::parse("10.1.2.3/24");
  ASSERT_TRUE(v4);
  EXPECT_EQ(v4->address.family, AF_INET);
  EXPECT_EQ(v4->length, 24);
  EXPECT_EQ(v4->to_string(), "10.1.2.3/24");
  auto v6 = IpPrefix::parse("fd00::1");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->address.family, AF_INET6);
  EXPECT_EQ(v6->length, 128);
  for (const char* bad : {"10.0.0.1/33", "10.0.0/24", "fd00::1/129", "10.0.0.1/", "10.0.0.1/2x", "nonsense"})
    EXPECT_FALSE(IpPrefix::parse(bad)) << bad;
}

TEST(NetlinkError, MessageNamesOperationObjectAndKernelText) {
  NetlinkError e{.code = EEXIST, .op = "link add", .object = "veth0", .ext_ack = "boom", .detail = "more"};
  EXPECT_EQ(e.message(), "link add veth0: File exists: kernel: boom: more");
}

}  // namespace
}  // namespace brisk::netlink
