// LinkDetails parsed from hand-built RTM_NEWLINK messages, without the kernel:
// each attribute lands in its field, the kind's streams come back intact,
// nothing is read unless asked, and a short attribute is refused.
#include <gtest/gtest.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/message.h"
#include "netlink/link_schema.h"

namespace brisk::netlink {
namespace {

const nlmsghdr& header_of(const Message& m) { return *reinterpret_cast<const nlmsghdr*>(m.bytes().data()); }

// A bridge port's message as the kernel lays it out, with every detail field.
Message bridge_port_message() {
  Message m(RTM_NEWLINK, 0);
  m.put_header<ifinfomsg>().ifi_index = 4;
  m.put_string(IFLA_IFNAME, "v1");
  m.put_u32(IFLA_PROMISCUITY, 1);
  m.put_u32(IFLA_ALLMULTI, 2);
  m.put_u32(IFLA_MIN_MTU, 68);
  m.put_u32(IFLA_MAX_MTU, 65535);
  m.put_u32(IFLA_NUM_TX_QUEUES, 3);
  m.put_u32(IFLA_NUM_RX_QUEUES, 4);
  m.put_u32(IFLA_GSO_MAX_SIZE, 65536);
  m.put_u32(IFLA_GSO_MAX_SEGS, 65535);
  m.put_u32(IFLA_TSO_MAX_SIZE, 524280);
  m.put_u32(IFLA_TSO_MAX_SEGS, 65534);
  m.put_u32(IFLA_GRO_MAX_SIZE, 65537);
  auto af = m.begin_nest(IFLA_AF_SPEC);
  auto inet = m.begin_nest(AF_INET);  // not read: skipped
  m.put_u32(1, 0);
  m.end_nest(inet);
  auto inet6 = m.begin_nest(AF_INET6);
  m.put_u32(IFLA_INET6_FLAGS, 0);
  m.put_u8(IFLA_INET6_ADDR_GEN_MODE, IN6_ADDR_GEN_MODE_RANDOM);
  m.end_nest(inet6);
  m.end_nest(af);
  auto info = m.begin_nest(IFLA_LINKINFO);
  m.put_string(IFLA_INFO_KIND, "veth");
  m.put_string(IFLA_INFO_SLAVE_KIND, "bridge");
  auto slave = m.begin_nest(IFLA_INFO_SLAVE_DATA);
  m.put_u8(IFLA_BRPORT_STATE, 3);
  m.put_u32(IFLA_BRPORT_COST, 100);
  m.end_nest(slave);
  m.end_nest(info);
  return m;
}

TEST(LinkDetails, EveryFieldFromItsAttribute) {
  Message m = bridge_port_message();
  ASSERT_FALSE(m.overflowed());
  auto link = detail::parse_link(header_of(m), /*details=*/true);
  ASSERT_TRUE(link) << link.error().message();
  ASSERT_TRUE(link->details);
  const LinkDetails& d = *link->details;
  EXPECT_EQ(d.promiscuity, 1u);
  EXPECT_EQ(d.allmulti, 2u);
  EXPECT_EQ(d.min_mtu, 68u);
  EXPECT_EQ(d.max_mtu, 65535u);
  EXPECT_EQ(d.num_tx_queues, 3u);
  EXPECT_EQ(d.num_rx_queues, 4u);
  EXPECT_EQ(d.gso_max_size, 65536u);
  EXPECT_EQ(d.gso_max_segs, 65535u);
  EXPECT_EQ(d.tso_max_size, 524280u);
  EXPECT_EQ(d.tso_max_segs, 65534u);
  EXPECT_EQ(d.gro_max_size, 65537u);
  EXPECT_EQ(d.addr_gen_mode, IN6_ADDR_GEN_MODE_RANDOM);
  EXPECT_EQ(link->kind, "veth");
  EXPECT_EQ(d.slave_kind, "bridge");
  EXPECT_TRUE(d.info_data.empty());
  // The port's stream reads back with the bridge port's ids.
  std::array<AttrPolicy, IFLA_BRPORT_MAX + 1> port{};
  port[IFLA_BRPORT_STATE] = {AttrKind::u8};
  port[IFLA_BRPORT_COST] = {AttrKind::u32};
  auto attrs = Attributes::parse(d.slave_data, port);
  ASSERT_TRUE(attrs);
  EXPECT_EQ(attrs->u8(IFLA_BRPORT_STATE), 3);
  EXPECT_EQ(attrs->u32(IFLA_BRPORT_COST), 100u);
}

TEST(LinkDetails, ReadOnlyWhenAsked) {
  Message m = bridge_port_message();
  auto link = detail::parse_link(header_of(m));
  ASSERT_TRUE(link);
  EXPECT_FALSE(link->details);
  EXPECT_EQ(link->kind, "veth");
}

TEST(LinkDetails, AbsentAttributesStayAbsent) {
  Message m(RTM_NEWLINK, 0);
  m.put_header<ifinfomsg>().ifi_index = 1;
  m.put_string(IFLA_IFNAME, "lo");
  m.put_u32(IFLA_PROMISCUITY, 0);
  auto link = detail::parse_link(header_of(m), true);
  ASSERT_TRUE(link);
  ASSERT_TRUE(link->details);
  EXPECT_EQ(link->details->promiscuity, 0u);
  EXPECT_FALSE(link->details->allmulti);
  EXPECT_FALSE(link->details->addr_gen_mode);
  EXPECT_TRUE(link->details->slave_kind.empty());
  EXPECT_TRUE(link->details->slave_data.empty());
}

TEST(LinkDetails, ShortAttributesAreRefused) {
  // A 2-byte IFLA_MIN_MTU where the schema wants 4.
  Message top(RTM_NEWLINK, 0);
  top.put_header<ifinfomsg>();
  top.put_u16(IFLA_MIN_MTU, 68);
  auto link = detail::parse_link(header_of(top), true);
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().code, EBADMSG);

  // An empty address generation mode inside AF_SPEC/AF_INET6: found only
  // when the details are read.
  Message nested(RTM_NEWLINK, 0);
  nested.put_header<ifinfomsg>();
  auto af = nested.begin_nest(IFLA_AF_SPEC);
  auto inet6 = nested.begin_nest(AF_INET6);
  nested.put_flag(IFLA_INET6_ADDR_GEN_MODE);
  nested.end_nest(inet6);
  nested.end_nest(af);
  EXPECT_TRUE(detail::parse_link(header_of(nested)));
  auto refused = detail::parse_link(header_of(nested), true);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, EBADMSG);
}

}  // namespace
}  // namespace brisk::netlink
