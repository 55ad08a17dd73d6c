// predict_link_deletes: the replay behind coalesced deletes, on a made-up
// dump; no kernel needed.
#include "netlink/internal/delete_prediction.h"

#include <gtest/gtest.h>

namespace brisk::netlink {
namespace {

LinkInfo link(int ifindex, std::string name, std::string kind, int parent = 0,
              std::optional<int> netnsid = {}) {
  LinkInfo l;
  l.ifindex = ifindex;
  l.name = std::move(name);
  l.kind = std::move(kind);
  l.link = parent;
  l.link_netnsid = netnsid;
  return l;
}

using O = DeleteOutcome;

TEST(DeletePrediction, PeersStackedDevicesAndDevicesWithoutAKind) {
  std::vector<LinkInfo> links = {
      link(1, "lo", ""),                                      // no rtnl_link_ops
      link(2, "a0", "veth", 3),    link(3, "a1", "veth", 2),  // a pair
      link(4, "m0", "macvlan", 2),                            // stacked on a0
      link(5, "b0", "veth", 9, 0),  // peer in another namespace: not taken along here
      link(6, "br0", "bridge"),
  };
  std::vector<std::string> names = {"a0", "a1", "m0", "b0", "nosuch", "lo", "br0", "br0"};
  EXPECT_EQ(predict_link_deletes(links, names),
            (std::vector<O>{O::deleted, O::gone_earlier, O::gone_earlier, O::deleted, O::missing,
                            O::unpredictable, O::deleted, O::gone_earlier}));
  // The other way round: the stacked device first, then its lower one, then the peer.
  EXPECT_EQ(predict_link_deletes(links, std::vector<std::string>{"m0", "a0", "a1"}),
            (std::vector<O>{O::deleted, O::deleted, O::gone_earlier}));
  EXPECT_TRUE(predict_link_deletes(links, std::vector<std::string>{}).empty());
}

}  // namespace
}  // namespace brisk::netlink
