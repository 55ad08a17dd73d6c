// host-local in-process, with no kernel: config checks, the allocator's
// order, the store's bytes, and the index's behaviour when another writer
// (the reference plugin) changes the store.
#include "brisk/cni/host_local.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "brisk/cni/error.h"
#include "cni/lease_store.h"
#include "support/test_support.h"

namespace brisk::cni {
namespace {

using nlohmann::json;

using brisk::test::slurp;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

json conf(const std::string& dir, json ipam) {
  ipam["type"] = "host-local";
  ipam["dataDir"] = dir;
  return {{"cniVersion", "1.0.0"}, {"name", "net"}, {"ipam", ipam}};
}

ErrorCode code_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CniException& e) {
    return e.error().code;
  }
  return static_cast<ErrorCode>(0);
}

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CniException& e) {
    return e.error().msg;
  }
  return "";
}

TEST(HostLocalConfig, DefaultsAreTheReferences) {
  auto c = parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "");
  ASSERT_EQ(c.ranges.size(), 1u);
  const AddressRange& r = c.ranges[0][0];
  EXPECT_EQ(r.gateway.to_string(), "10.1.0.1");
  EXPECT_EQ(r.range_start.to_string(), "10.1.0.1");  // the gateway is skipped, not excluded
  EXPECT_EQ(r.range_end.to_string(), "10.1.0.254");  // not the broadcast address
  auto v6 = parse_host_local_config(conf("/d", {{"ranges", {{{{"subnet", "fd00::/120"}}}}}}), "");
  EXPECT_EQ(v6.ranges[0][0].range_end.to_string(), "fd00::ff");
  EXPECT_EQ(c.data_dir, "/d");
  EXPECT_EQ(parse_host_local_config(json{{"name", "n"}, {"ipam", {{"subnet", "10.0.0.0/8"}}}}, "").data_dir,
            "/var/lib/cni/networks");
}

TEST(HostLocalConfig, RejectsWhatTheReferenceRejects) {
  struct Case {
    json ipam;
    std::string message;
  } cases[] = {
      {json::object(), "no IP ranges specified"},
      {{{"subnet", "10.1.0.0/31"}}, "Network 10.1.0.0/31 too small to allocate from"},
      {{{"subnet", "10.1.0.0/32"}}, "too small"},
      {{{"subnet", "fd00::/127"}}, "too small"},
      {{{"subnet", "10.1.0.5/24"}}, "Network has host bits set"},
      {{{"subnet", "10.1.0.0/24"}, {"rangeStart", "10.2.0.1"}}, "RangeStart 10.2.0.1 not in network"},
      {{{"subnet", "10.1.0.0/24"}, {"rangeEnd", "10.2.0.1"}}, "RangeEnd 10.2.0.1 not in network"},
      {{{"subnet", "nonsense"}}, "invalid CIDR address"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "10.1.0.0/16"}}}}}},
       "range set 0 overlaps with 1"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}, {{"subnet", "10.1.0.0/25"}}}}}}, "overlap"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}, {{"subnet", "fd00::/64"}}}}}}, "mixed address families"},
      {{{"subnet", 5}}, "\"subnet\" must be a string"},
  };
  for (const auto& c : cases) {
    auto fn = [&] { parse_host_local_config(conf("/d", c.ipam), ""); };
    EXPECT_EQ(code_of(fn), ErrorCode::invalid_config) << c.ipam.dump();
    EXPECT_NE(message_of(fn).find(c.message), std::string::npos) << message_of(fn);
  }
  json old = conf("/d", {{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "10.2.0.0/24"}}}}}});
  old["cniVersion"] = "0.2.0";
  EXPECT_NE(message_of([&] {
              parse_host_local_config(old, "");
            }).find("does not support more than 1 address per family"),
            std::string::npos);
}

TEST(HostLocal, AllocatesRoundRobinAndWritesTheReferencesBytes) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
  Result a = host_local_add(c, "ctr-a", "eth0");
  ASSERT_EQ(a.ips.size(), 1u);
  EXPECT_EQ(a.ips[0].address.to_string(), "10.1.0.2/29");
  EXPECT_EQ(a.ips[0].gateway->to_string(), "10.1.0.1");
  std::string store = dir.path() + "/net";
  EXPECT_EQ(slurp(store + "/10.1.0.2"), "ctr-a\r\neth0");
  EXPECT_EQ(slurp(store + "/last_reserved_ip.0"), "10.1.0.2");
  EXPECT_TRUE(exists(store + "/lock"));
  EXPECT_EQ(host_local_add(c, "ctr-b", "eth0").ips[0].address.to_string(), "10.1.0.3/29");
  // Released addresses are not reused until the range wraps (round-robin).
  EXPECT_EQ(host_local_del(c, "ctr-a", "eth0").size(), 1u);
  EXPECT_FALSE(exists(store + "/10.1.0.2"));
  EXPECT_EQ(host_local_add(c, "ctr-c", "eth0").ips[0].address.to_string(), "10.1.0.4/29");
  EXPECT_EQ(host_local_add(c, "ctr-d", "eth0").ips[0].address.to_string(), "10.1.0.5/29");
  EXPECT_EQ(host_local_add(c, "ctr-e", "eth0").ips[0].address.to_string(), "10.1.0.6/29");
  EXPECT_EQ(host_local_add(c, "ctr-f", "eth0").ips[0].address.to_string(), "10.1.0.2/29");  // wrapped
  // .1 is the gateway, .7 the broadcast: the /29 is full now.
  auto full = [&] { host_local_add(c, "ctr-g", "eth0"); };
  EXPECT_EQ(code_of(full), ErrorCode::try_again_later);
  EXPECT_NE(message_of(full).find("no IP addresses available in range set: 10.1.0.1-10.1.0.6"),
            std::string::npos);
  EXPECT_FALSE(exists(store + "/10.1.0.7"));
}

TEST(HostLocal, RejectsADuplicatePairAndKeepsItsLease) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "ctr", "eth0");
  auto again = [&] { host_local_add(c, "ctr", "eth0"); };
  EXPECT_NE(message_of(again).find("10.1.0.2 has been allocated to ctr, duplicate allocation is not allowed"),
            std::string::npos);
  EXPECT_EQ(slurp(dir.path() + "/net/10.1.0.2"), "ctr\r\neth0");
  EXPECT_EQ(host_local_add(c, "ctr", "eth1").ips[0].address.to_string(),
            "10.1.0.3/24");  // another ifname is fine
  host_local_check(c, "ctr", "eth0");
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 1u);
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 0u);  // a second DEL succeeds
  EXPECT_NE(code_of([&] { host_local_check(c, "ctr", "eth0"); }), static_cast<ErrorCode>(0));
}

TEST(HostLocal, RequestedAddressesAndDualStack) {
  brisk::test::TempDir dir;
  json ipam = {{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "fd00:1::/64"}}}}}};
  auto c = parse_host_local_config(conf(dir.path(), ipam), "IgnoreUnknown=1;IP=10.1.0.77");
  Result r = host_local_add(c, "ctr", "eth0");
  ASSERT_EQ(r.ips.size(), 2u);
  EXPECT_EQ(r.ips[0].address.to_string(), "10.1.0.77/24");
  EXPECT_EQ(r.ips[1].address.to_string(), "fd00:1::2/64");
  EXPECT_EQ(slurp(dir.path() + "/net/last_reserved_ip.1"), "fd00:1::2");
  // A requested address that is taken fails and keeps nothing of this ADD.
  auto other = parse_host_local_config(conf(dir.path(), ipam), "IP=10.1.0.77");
  auto taken = [&] { host_local_add(other, "ctr2", "eth0"); };
  EXPECT_NE(message_of(taken).find("requested IP address 10.1.0.77 is not available"), std::string::npos);
  auto gw = parse_host_local_config(conf(dir.path(), ipam), "IP=10.1.0.1");
  EXPECT_NE(message_of([&] { host_local_add(gw, "ctr3", "eth0"); }).find("is subnet's gateway"),
            std::string::npos);
  auto outside = parse_host_local_config(conf(dir.path(), ipam), "IP=192.168.0.1");
  EXPECT_NE(message_of([&] {
              host_local_add(outside, "ctr4", "eth0");
            }).find("failed to allocate all requested IPs"),
            std::string::npos);
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 2u);
  // Nothing of the failed ADDs is left: only lock and last_reserved_ip.*.
  brisk::test::TempDir empty;
  std::string listing;
  for (const auto& name : {"10.1.0.77", "10.1.0.2", "fd00:1::2", "fd00:1::3"})
    if (exists(dir.path() + "/net/" + name)) listing += std::string(name) + " ";
  EXPECT_EQ(listing, "");
}

TEST(HostLocal, UnknownCniArgsNeedIgnoreUnknown) {
  auto fn = [] { parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "K8S_POD_NAME=x"); };
  EXPECT_EQ(code_of(fn), ErrorCode::invalid_environment);
  parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "IgnoreUnknown=1;K8S_POD_NAME=x");
}

// The reference plugin writes leases brisk's index does not know of: the
// stamp no longer matches, so brisk rebuilds before it trusts the index.
TEST(LeaseStore, AForeignWriterCausesARebuildAndItsLeasesAreHonoured) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "mine", "eth0");  // 10.1.0.2
  {
    std::ofstream(dir.path() + "/net/10.1.0.3", std::ios::binary) << "theirs\r\neth0";
    std::ofstream(dir.path() + "/net/last_reserved_ip.0", std::ios::binary | std::ios::trunc) << "10.1.0.3";
  }
  {
    detail::LeaseStore store(dir.path(), "net");
    EXPECT_EQ(store.held_by({"theirs", "eth0"}).size(), 1u);
    EXPECT_EQ(store.rebuilds(), 1u);
  }
  {
    detail::LeaseStore store(dir.path(), "net");  // the stamp matches now: no second rebuild
    EXPECT_EQ(store.held_by({"mine", "eth0"}).size(), 1u);
    EXPECT_EQ(store.rebuilds(), 0u);
  }
  auto dup = [&] { host_local_add(c, "theirs", "eth0"); };
  EXPECT_NE(message_of(dup).find("duplicate allocation"), std::string::npos);
  EXPECT_EQ(host_local_add(c, "next", "eth0").ips[0].address.to_string(), "10.1.0.4/24");
  EXPECT_EQ(host_local_del(c, "theirs", "eth0").size(), 1u);
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.3"));
  // An old-format lease ("<id>" alone) is released by id, as the reference does.
  std::ofstream(dir.path() + "/net/10.1.0.9", std::ios::binary) << "legacy";
  EXPECT_EQ(host_local_del(c, "legacy", "eth0").size(), 1u);
}

TEST(HostLocal, GcReleasesWhatIsNotInUse) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "a", "eth0");
  host_local_add(c, "b", "eth0");
  host_local_add(c, "c", "eth0");
  auto released = host_local_gc(c, {{"b", "eth0"}});
  EXPECT_EQ(released.size(), 2u);
  EXPECT_TRUE(exists(dir.path() + "/net/10.1.0.3"));
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.2"));
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.4"));
}

}  // namespace
}  // namespace brisk::cni
