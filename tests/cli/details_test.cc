// `brisk -d` against `ip -d` (iproute2 6.1 is the oracle) in throwaway
// namespaces, for every kind brisk creates: veth, bridge and its ports,
// macvlan, macvtap, vxlan, tun and tap. Text byte for byte, JSON with ip's
// keys, types and order.
#include <gtest/gtest.h>

#include <regex>

#include "brisk/netlink/link.h"
#include "cli_support.h"

namespace brisk::cli_test {
namespace {

using Ordered = nlohmann::ordered_json;

// Bridge and port timers (hello_timer, gc_timer, forward_delay_timer, ...)
// count in hundredths of a second while a bridge or port is up, so two reads
// rarely agree: only their values are masked, their place and name stay.
std::string mask_timers(const std::string& text) {
  static const std::regex kTimer("(\\w+_timer) +[0-9]+\\.[0-9]{2} ");
  return std::regex_replace(text, kTimer, "$1 T ");
}

void mask_timers(Ordered& json) {
  if (json.is_object()) {
    for (auto it = json.begin(); it != json.end(); ++it) {
      const std::string& key = it.key();
      if (key.size() > 6 && key.ends_with("_timer") && it.value().is_number())
        it.value() = "T";
      else
        mask_timers(it.value());
    }
  } else if (json.is_array()) {
    for (auto& item : json) mask_timers(item);
  }
}

class DetailsTest : public CliNetnsTest {
 protected:
  // A setup step; call it through ASSERT_NO_FATAL_FAILURE so that a step
  // that fails stops the test instead of comparing a half-built state.
  void ip(std::vector<std::string> args) {
    auto r = ip_run(args, ns());
    ASSERT_EQ(r.code, 0) << ::testing::PrintToString(args) << ": " << r.err;
  }

  // brisk's output, read between two of ip's reads that agree.
  void expect_same(const std::vector<std::string>& args, bool json, bool masked) {
    auto normal = [&](const std::string& out) -> std::string {
      if (!json) return masked ? mask_timers(out) : out;
      Ordered doc = Ordered::parse(out, nullptr, false);
      if (masked) mask_timers(doc);
      return doc.dump(1);
    };
    for (int attempt = 0; attempt < 10; ++attempt) {
      auto before = ip_run(args, ns());
      auto ours = brisk_run(args, ns());
      auto after = ip_run(args, ns());
      ASSERT_EQ(before.code, 0) << before.err;
      if (normal(before.out) != normal(after.out)) continue;
      EXPECT_EQ(ours.code, 0) << ours.err;
      EXPECT_EQ(normal(ours.out), normal(before.out)) << "brisk " << ::testing::PrintToString(args);
      return;
    }
    ADD_FAILURE() << "ip's output kept changing for " << ::testing::PrintToString(args);
  }

  void expect_same_text_and_json(std::vector<std::string> args, bool masked = false) {
    expect_same(args, false, masked);
    args.insert(args.begin(), "-j");
    expect_same(args, true, masked);
  }
};

// Every kind's details with its devices down (no timer runs), and the
// short link line of an IPv6 address dump, are compared with ip's without
// root: recorded_cases.h's "details" and "inet6_details" scenarios.

// A running bridge with spanning tree and a port in learning: the timers
// run (masked); everything else, states included, must still agree.
TEST_F(DetailsTest, RunningBridgeAndPort) {
  // A changed ageing_time starts the garbage-collection timer even while down.
  ASSERT_NO_FATAL_FAILURE(
      ip({"link", "add", "br0", "type", "bridge", "stp_state", "1", "forward_delay", "400", "ageing_time",
          "1234", "mcast_querier", "1", "mcast_stats_enabled", "1", "nf_call_iptables", "1"}));
  ASSERT_NO_FATAL_FAILURE(ip({"link", "add", "v0", "type", "veth", "peer", "name", "v1"}));
  ASSERT_NO_FATAL_FAILURE(ip({"link", "add", "w0", "type", "veth", "peer", "name", "w1"}));
  ASSERT_NO_FATAL_FAILURE(ip({"link", "set", "v0", "master", "br0"}));
  ASSERT_NO_FATAL_FAILURE(ip({"link", "set", "w0", "master", "br0"}));
  ASSERT_NO_FATAL_FAILURE(ip({"link", "set", "v0", "type", "bridge_slave", "backup_port", "w0",
                              "neigh_suppress", "on", "proxy_arp", "on"}));
  for (const char* dev : {"br0", "v0", "v1"}) ip({"link", "set", dev, "up"});
  expect_same_text_and_json({"-d", "link", "show"}, /*masked=*/true);
  auto ours = brisk_run({"-d", "link", "show", "dev", "v0"}, ns());
  EXPECT_NE(ours.out.find("bridge_slave state "), std::string::npos) << ours.out;
  EXPECT_NE(ours.out.find(" forward_delay_timer "), std::string::npos) << ours.out;
}

// A veth whose peer lives in another namespace: the details follow ip's
// " link-netnsid N" on the link-layer line.
TEST_F(DetailsTest, PeerInAnotherNamespace) {
  UniqueFd other = brisk::test::make_netns();
  ASSERT_TRUE(other.valid());
  auto conn = netlink::Connection::open_in(ns());
  ASSERT_TRUE(conn) << conn.error().message();
  auto added = netlink::add_link(
      *conn, {.name = "v0", .kind = netlink::VethOptions{.peer = "v1", .peer_netns_fd = other.get()}});
  ASSERT_TRUE(added) << added.error().message();
  auto shown = brisk_run({"-d", "link", "show", "dev", "v0"}, ns());
  EXPECT_NE(shown.out.find(" link-netnsid 0 promiscuity 0  allmulti 0 "), std::string::npos) << shown.out;
  expect_same_text_and_json({"-d", "link", "show"});
}

}  // namespace
}  // namespace brisk::cli_test
