// brisk-bridge driven as a runtime drives it, and beside the reference
// bridge + host-local (Debian's containernetworking-plugins) as the oracle.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "brisk/run_all.h"
#include "cni/cni_driver.h"

namespace brisk::cni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kBrisk = BRISK_BRIDGE_PATH;
const std::string kReference = "/usr/lib/cni/bridge";

json base_conf(const std::string& data_dir, const std::string& version = "1.0.0") {
  return {{"cniVersion", version},
          {"name", "testnet"},
          {"type", "bridge"},
          {"bridge", "cni0"},
          {"isGateway", true},
          {"isDefaultGateway", true},
          {"hairpinMode", true},
          {"ipam", {{"type", "host-local"}, {"subnet", "10.88.0.0/16"}, {"dataDir", data_dir}}}};
}

class PluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::is_root()) GTEST_SKIP() << "needs root to make network namespaces";
    ASSERT_TRUE(sandbox_.ok());
  }
  std::map<std::string, std::string> leases(const std::string& dir) {
    std::map<std::string, std::string> files;
    if (!fs::exists(dir)) return files;
    for (const auto& e : fs::directory_iterator(dir)) {
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      files[e.path().filename()] = s.str();
    }
    return files;
  }
  Sandbox sandbox_;
};

TEST_F(PluginTest, AddCheckDelAsARuntimeDrivesIt) {
  for (std::string version : {"0.3.1", "0.4.0", "1.0.0", "1.1.0"}) {
    SCOPED_TRACE(version);
    json conf = base_conf(sandbox_.data_dir(), version);
    std::string pod = sandbox_.add_pod();
    PluginRun add = sandbox_.run(kBrisk, cni_env("ADD", "ctr" + version, pod), conf.dump());
    ASSERT_EQ(add.exit_code, 0) << add.out << add.err;
    json result = add.json();
    EXPECT_EQ(result["cniVersion"], version);
    ASSERT_EQ(result["interfaces"].size(), 3u);
    EXPECT_EQ(result["interfaces"][2]["sandbox"], pod);
    EXPECT_EQ(result["ips"][0].contains("version"), version < "1.0.0");
    EXPECT_EQ(result["ips"][0]["interface"], 2);
    EXPECT_EQ(result["routes"][0]["dst"], "0.0.0.0/0");
    std::string address = result["ips"][0]["address"];
    auto addrs = sandbox_.ip(pod, {"-4", "addr", "show", "dev", "eth0"});
    ASSERT_EQ(addrs.size(), 1u);
    EXPECT_EQ(addrs[0]["addr_info"][0]["local"].get<std::string>() + "/16", address);
    EXPECT_EQ(sandbox_.ip(pod, {"route", "show", "default"})[0]["gateway"], "10.88.0.1");

    if (version >= "0.4.0") {
      json chained = conf;
      chained["prevResult"] = result;
      PluginRun check = sandbox_.run(kBrisk, cni_env("CHECK", "ctr" + version, pod), chained.dump());
      EXPECT_EQ(check.exit_code, 0) << check.out;
      // CHECK fails once the default route is gone.
      sandbox_.shell_in(pod, {"ip", "route", "del", "default"});
      check = sandbox_.run(kBrisk, cni_env("CHECK", "ctr" + version, pod), chained.dump());
      EXPECT_EQ(check.exit_code, 1);
      EXPECT_NE(check.out.find("Expected Route {Dst:0.0.0.0/0 GW:10.88.0.1} not found in routing table"),
                std::string::npos)
          << check.out;
      json no_prev = conf;
      check = sandbox_.run(kBrisk, cni_env("CHECK", "ctr" + version, pod), no_prev.dump());
      EXPECT_NE(check.out.find("Required prevResult missing"), std::string::npos) << check.out;
    }
    PluginRun del = sandbox_.run(kBrisk, cni_env("DEL", "ctr" + version, pod), conf.dump());
    EXPECT_EQ(del.exit_code, 0) << del.out;
    EXPECT_EQ(del.out, "");
    EXPECT_TRUE(sandbox_.ip(pod, {"link", "show", "dev", "eth0"}).empty());
    del = sandbox_.run(kBrisk, cni_env("DEL", "ctr" + version, pod), conf.dump());
    EXPECT_EQ(del.exit_code, 0) << "a second DEL succeeds: " << del.out;
  }
  auto files = leases(sandbox_.data_dir() + "/testnet");
  for (const auto& [name, content] : files)
    EXPECT_TRUE(name == "lock" || name.rfind("last_reserved_ip.", 0) == 0) << name;
  // Only the bridge is left on the host: every veth went with its pod's end.
  for (const auto& link : sandbox_.ip(sandbox_.host(), {"link", "show", "type", "veth"}))
    ADD_FAILURE() << link.dump();
}

TEST_F(PluginTest, DelSucceedsWhenTheNetnsIsGoneOrNotGiven) {
  json conf = base_conf(sandbox_.data_dir());
  conf["ipMasq"] = true;
  std::string pod = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "gone", pod), conf.dump()).exit_code, 0);
  EXPECT_NE(sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "pods"})
                .find("testnet gone eth0"),
            std::string::npos);
  sandbox_.delete_pod(pod);
  PluginRun del = sandbox_.run(kBrisk, cni_env("DEL", "gone", pod), conf.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
  EXPECT_FALSE(fs::exists(sandbox_.data_dir() + "/testnet/10.88.0.2"));
  // The masquerade elements go too, found by the released lease's range.
  std::string set = sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_EQ(set.find("10.88.0.2"), std::string::npos) << set;

  // A file left where the namespace was mounted is no pod either.
  std::string stale = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "stale", stale), conf.dump()).exit_code, 0);
  sandbox_.delete_pod(stale);
  std::ofstream(stale) << "";
  del = sandbox_.run(kBrisk, cni_env("DEL", "stale", stale), conf.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
  fs::remove(stale);
  EXPECT_FALSE(fs::exists(sandbox_.data_dir() + "/testnet/10.88.0.3"));

  std::string pod2 = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "empty", pod2), conf.dump()).exit_code, 0);
  del = sandbox_.run(kBrisk, cni_env("DEL", "empty", ""), conf.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
  EXPECT_FALSE(fs::exists(sandbox_.data_dir() + "/testnet/10.88.0.4"));
  set = sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "local"});
  EXPECT_EQ(set.find("10.88.0.4"), std::string::npos) << set;
}

// CNI_NETNS naming the plugin's own namespace: ADD and CHECK refuse it
// before anything is made, and a DEL removes no host interface, not even
// one named as CNI_IFNAME says (here the bridge).
TEST_F(PluginTest, ThePluginsOwnNamespaceIsNoPods) {
  json conf = base_conf(sandbox_.data_dir());
  std::string pod = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "real", pod), conf.dump()).exit_code, 0);  // makes cni0
  auto links_before = sandbox_.ip(sandbox_.host(), {"link", "show"}).size();
  for (const std::string& own : {netns_path(sandbox_.host()), std::string("/proc/self/ns/net")}) {
    PluginRun add = sandbox_.run(kBrisk, cni_env("ADD", "host", own), conf.dump());
    EXPECT_EQ(add.exit_code, 1) << add.out;
    EXPECT_EQ(add.json()["code"], 4) << add.out;  // invalid environment
    EXPECT_NE(add.out.find("is the plugin's own network namespace"), std::string::npos) << add.out;
    PluginRun del = sandbox_.run(kBrisk, cni_env("DEL", "host", own, "cni0"), conf.dump());
    EXPECT_EQ(del.exit_code, 0) << del.out;
  }
  EXPECT_EQ(sandbox_.ip(sandbox_.host(), {"link", "show", "dev", "cni0"}).size(), 1u);
  EXPECT_EQ(sandbox_.ip(sandbox_.host(), {"link", "show"}).size(), links_before);
  EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet").count("10.88.0.3"), 0u);
}

// A FIFO for CNI_NETNS fails ADD at once instead of hanging it; DEL, which
// must succeed, releases the lease.
TEST_F(PluginTest, AFifoForTheNamespaceFailsAddAtOnce) {
  json conf = base_conf(sandbox_.data_dir());
  brisk::test::TempDir dir;
  std::string fifo = dir.path() + "/netns";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  PluginRun add = sandbox_.run(kBrisk, cni_env("ADD", "fifo", fifo), conf.dump());
  EXPECT_EQ(add.exit_code, 1) << add.out;
  EXPECT_NE(add.out.find("failed to open netns"), std::string::npos) << add.out;
  EXPECT_EQ(sandbox_.run(kBrisk, cni_env("DEL", "fifo", fifo), conf.dump()).exit_code, 0);
}

// An interface name the kernel would refuse (CNI's check lets control
// characters through): DEL succeeds and releases the lease it finds.
TEST_F(PluginTest, DelWithANameNoInterfaceCanHaveReleasesTheLease) {
  json conf = base_conf(sandbox_.data_dir());
  std::string pod = sandbox_.add_pod();
  std::string odd = "et\x01h0";
  std::filesystem::create_directories(sandbox_.data_dir() + "/testnet");
  std::ofstream(sandbox_.data_dir() + "/testnet/10.88.0.9", std::ios::binary) << "odd\r\n" << odd;
  PluginRun del = sandbox_.run(kBrisk, cni_env("DEL", "odd", pod, odd), conf.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
  EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet").count("10.88.0.9"), 0u);
}

TEST_F(PluginTest, FailuresAreClearAndLeaveNothing) {
  json conf = base_conf(sandbox_.data_dir());
  std::string pod = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "one", pod), conf.dump()).exit_code, 0);
  PluginRun dup = sandbox_.run(kBrisk, cni_env("ADD", "two", pod), conf.dump());
  EXPECT_EQ(dup.exit_code, 1);
  EXPECT_NE(dup.out.find("container veth name provided (eth0) already exists"), std::string::npos) << dup.out;
  EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet").count("10.88.0.3"), 0u);

  // A device named like the bridge that is not one.
  sandbox_.shell_in(sandbox_.host(),
                    {"ip", "link", "add", "notbr", "type", "veth", "peer", "name", "notbr-p"});
  json bad = conf;
  bad["bridge"] = "notbr";
  std::string pod2 = sandbox_.add_pod();
  PluginRun notbr = sandbox_.run(kBrisk, cni_env("ADD", "three", pod2), bad.dump());
  EXPECT_EQ(notbr.exit_code, 1);
  EXPECT_NE(notbr.out.find("\\\"notbr\\\" already exists but is not a bridge"), std::string::npos)
      << notbr.out;
  EXPECT_TRUE(sandbox_.ip(pod2, {"link", "show", "dev", "eth0"}).empty());

  // An exhausted range: the veth made before IPAM is removed again.
  json small = conf;
  small["bridge"] = "cni1";
  small["name"] = "smallnet";
  small["ipam"]["subnet"] = "10.99.0.0/30";  // .1 gateway, .2 the only address
  std::string p3 = sandbox_.add_pod(), p4 = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "s1", p3), small.dump()).exit_code, 0);
  PluginRun full = sandbox_.run(kBrisk, cni_env("ADD", "s2", p4), small.dump());
  EXPECT_EQ(full.json()["code"], 11) << full.out;
  EXPECT_TRUE(sandbox_.ip(p4, {"link", "show", "dev", "eth0"}).empty());
  EXPECT_EQ(sandbox_.ip(sandbox_.host(), {"link", "show", "master", "cni1"}).size(), 1u);
}

// The same config through the reference and through brisk-bridge, each in
// its own simulated host, must give the same result and the same state.
TEST_F(PluginTest, MatchesTheReferencePlugin) {
  if (!fs::exists(kReference)) GTEST_SKIP() << "containernetworking-plugins is not installed";
  Sandbox other;
  ASSERT_TRUE(other.ok());
  std::string ref_pod = other.add_pod(), pod = sandbox_.add_pod();
  for (bool dual : {false, true}) {
    SCOPED_TRACE(dual ? "dual stack" : "IPv4");
    json ref_conf = base_conf(other.data_dir());
    if (dual)
      ref_conf["ipam"] = {{"type", "host-local"},
                          {"dataDir", other.data_dir()},
                          {"ranges", {{{{"subnet", "10.77.0.0/24"}}}, {{{"subnet", "fd00:77::/64"}}}}}};
    std::string bridge = dual ? "cni1" : "cni0";  // a bridge keeps its gateway: one per subnet
    ref_conf["bridge"] = bridge;
    json conf = ref_conf;
    conf["type"] = "brisk-bridge";
    conf["ipam"]["dataDir"] = sandbox_.data_dir();
    std::string id = dual ? "dual" : "single";
    PluginRun ref =
        other.run(kReference, cni_env("ADD", id, ref_pod, dual ? "net1" : "eth0"), ref_conf.dump());
    PluginRun mine = sandbox_.run(kBrisk, cni_env("ADD", id, pod, dual ? "net1" : "eth0"), conf.dump());
    ASSERT_EQ(ref.exit_code, 0) << ref.out;
    ASSERT_EQ(mine.exit_code, 0) << mine.out;
    auto mask = [&](json j, const std::string& pod_path) {
      for (auto& i : j["interfaces"]) {
        EXPECT_TRUE(i.contains("mac"));
        i.erase("mac");
        if (i["name"].get<std::string>().rfind("veth", 0) == 0) {
          EXPECT_EQ(i["name"].get<std::string>().size(), 12u);
          i["name"] = "veth";
        }
        if (i.contains("sandbox")) {
          EXPECT_EQ(i["sandbox"], pod_path);
          i["sandbox"] = "pod";
        }
      }
      return j;
    };
    EXPECT_EQ(mask(mine.json(), pod), mask(ref.json(), ref_pod));
    std::string ifname = dual ? "net1" : "eth0";
    auto state = [&](const Sandbox& s, const std::string& p) {
      json st;
      for (const auto& a : s.ip(p, {"addr", "show", "dev", ifname}))
        for (const auto& info : a["addr_info"])
          if (info["scope"] == "global")
            st["pod_addrs"].push_back(info["local"].get<std::string>() + "/" + info["prefixlen"].dump());
      for (auto r : s.ip(p, {"route", "show"})) st["pod_routes4"].push_back(r);
      for (auto r : s.ip(p, {"-6", "route", "show", "table", "main"}))
        if (r["dst"] != "fe80::/64") st["pod_routes6"].push_back(r);
      for (const auto& a : s.ip(s.host(), {"addr", "show", "dev", bridge}))
        for (const auto& info : a["addr_info"])
          if (info["scope"] == "global") st["bridge_addrs"].push_back(info["local"].get<std::string>());
      for (auto l : s.ip(s.host(), {"-d", "link", "show", "master", bridge})) {
        st["port_hairpin"].push_back(l["linkinfo"]["info_slave_data"]["hairpin"]);
        st["port_up"].push_back(l["flags"]);
      }
      for (const std::string& sysctl :
           std::vector<std::string>{"net/ipv4/ip_forward", "net/ipv6/conf/all/forwarding",
                                    "net/ipv6/conf/" + bridge + "/accept_ra"})
        st[sysctl] = s.shell_in(s.host(), {"cat", "/proc/sys/" + sysctl});
      for (std::string sysctl : {"net/ipv4/conf/IF/arp_notify", "net/ipv6/conf/IF/accept_dad"}) {
        sysctl.replace(sysctl.find("IF"), 2, ifname);
        st[sysctl] = s.shell_in(p, {"cat", "/proc/sys/" + sysctl});
      }
      return st;
    };
    EXPECT_EQ(state(sandbox_, pod), state(other, ref_pod));
    EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet"), leases(other.data_dir() + "/testnet"));

    EXPECT_EQ(other.run(kReference, cni_env("DEL", id, ref_pod, ifname), ref_conf.dump()).exit_code, 0);
    EXPECT_EQ(sandbox_.run(kBrisk, cni_env("DEL", id, pod, ifname), conf.dump()).exit_code, 0);
    EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet"), leases(other.data_dir() + "/testnet"));
  }
}

TEST_F(PluginTest, LeasesAreSharedWithTheReferenceHostLocal) {
  if (!fs::exists(kReference)) GTEST_SKIP() << "containernetworking-plugins is not installed";
  json ref_conf = base_conf(sandbox_.data_dir());
  json conf = ref_conf;
  conf["type"] = "brisk-bridge";
  std::string a = sandbox_.add_pod(), b = sandbox_.add_pod(), c = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kReference, cni_env("ADD", "by-ref", a), ref_conf.dump()).exit_code, 0);
  PluginRun mine = sandbox_.run(kBrisk, cni_env("ADD", "by-brisk", b), conf.dump());
  ASSERT_EQ(mine.exit_code, 0) << mine.out;
  EXPECT_EQ(mine.json()["ips"][0]["address"], "10.88.0.3/16");  // round-robin after the reference's .2
  ASSERT_EQ(sandbox_.run(kReference, cni_env("ADD", "by-ref-2", c), ref_conf.dump()).exit_code, 0);
  EXPECT_EQ(leases(sandbox_.data_dir() + "/testnet")["10.88.0.4"], "by-ref-2\r\neth0");
  // Each releases the other's lease.
  EXPECT_EQ(sandbox_.run(kBrisk, cni_env("DEL", "by-ref", a), conf.dump()).exit_code, 0);
  EXPECT_EQ(sandbox_.run(kReference, cni_env("DEL", "by-brisk", b), ref_conf.dump()).exit_code, 0);
  auto left = leases(sandbox_.data_dir() + "/testnet");
  EXPECT_EQ(left.count("10.88.0.2"), 0u);
  EXPECT_EQ(left.count("10.88.0.3"), 0u);
  EXPECT_EQ(left.count("10.88.0.4"), 1u);
  // brisk refuses a duplicate of the reference's lease, which its index only learns by rebuilding.
  PluginRun dup = sandbox_.run(kBrisk, cni_env("ADD", "by-ref-2", sandbox_.add_pod()), conf.dump());
  EXPECT_NE(dup.out.find("duplicate allocation is not allowed"), std::string::npos) << dup.out;
}

TEST_F(PluginTest, ParallelAddsAndDelsGetDistinctAddressesAndLeaveNothing) {
  json conf = base_conf(sandbox_.data_dir());
  conf["ipMasq"] = true;
  conf["type"] = "brisk-bridge";
  constexpr int kPods = 50;
  std::vector<std::string> pods;
  std::vector<brisk::Command> adds, dels;
  for (int i = 0; i < kPods; ++i) {
    pods.push_back(sandbox_.add_pod());
    adds.push_back(
        sandbox_.command(kBrisk, cni_env("ADD", "p" + std::to_string(i), pods.back()), conf.dump()));
    dels.push_back(
        sandbox_.command(kBrisk, cni_env("DEL", "p" + std::to_string(i), pods.back()), conf.dump()));
  }
  std::set<std::string> addresses;
  auto results = brisk::run_all(adds, {.max_parallel = 16});
  for (auto& r : results) {
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->status.allowed) << r->out;
    addresses.insert(json::parse(r->out)["ips"][0]["address"].get<std::string>());
  }
  EXPECT_EQ(addresses.size(), static_cast<std::size_t>(kPods));
  std::string set =
      sandbox_.shell_in(sandbox_.host(), {"nft", "-j", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_EQ(json::parse(set)["nftables"][1]["set"]["elem"].size(), static_cast<std::size_t>(kPods));
  // DELs in another order than the ADDs, twice each.
  std::reverse(dels.begin(), dels.end());
  std::vector<brisk::Command> twice = dels;
  twice.insert(twice.end(), dels.begin(), dels.end());
  for (auto& r : brisk::run_all(twice, {.max_parallel = 16})) {
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->status.allowed) << r->out;
  }
  for (const auto& [name, content] : leases(sandbox_.data_dir() + "/testnet"))
    EXPECT_TRUE(name == "lock" || name.rfind("last_reserved_ip.", 0) == 0) << name;
  EXPECT_TRUE(sandbox_.ip(sandbox_.host(), {"link", "show", "type", "veth"}).empty());
  set = sandbox_.shell_in(sandbox_.host(), {"nft", "-j", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_FALSE(json::parse(set)["nftables"][1]["set"].contains("elem")) << set;
}

TEST_F(PluginTest, GcReleasesAttachmentsNotInUse) {
  json conf = base_conf(sandbox_.data_dir(), "1.1.0");
  conf["ipMasq"] = true;
  std::string a = sandbox_.add_pod(), b = sandbox_.add_pod();
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "keep", a), conf.dump()).exit_code, 0);
  ASSERT_EQ(sandbox_.run(kBrisk, cni_env("ADD", "drop", b), conf.dump()).exit_code, 0);
  json gc = conf;
  gc["cni.dev/attachments"] = json::array({{{"containerID", "keep"}, {"ifname", "eth0"}}});
  PluginRun r = sandbox_.run(kBrisk, {{"CNI_COMMAND", "GC"}}, gc.dump());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  auto left = leases(sandbox_.data_dir() + "/testnet");
  EXPECT_EQ(left.count("10.88.0.2"), 1u);
  EXPECT_EQ(left.count("10.88.0.3"), 0u);
  std::string set = sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_NE(set.find("keep"), std::string::npos);
  EXPECT_EQ(set.find("drop"), std::string::npos) << set;
  EXPECT_EQ(sandbox_.run(kBrisk, {{"CNI_COMMAND", "STATUS"}}, conf.dump()).exit_code, 0);
}

}  // namespace
}  // namespace brisk::cni::test

namespace brisk::cni::test {
namespace {

// Bad input through the real binary: the spec's code, and nothing changed
// on the host, in the pod or in the store.
TEST(PluginBadInput, GetsTheSpecsCodeAndChangesNothing) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root to make network namespaces";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  std::string pod = sandbox.add_pod();
  auto conf = [&](json ipam) {
    ipam["type"] = "host-local";
    ipam["dataDir"] = sandbox.data_dir();
    return json{{"cniVersion", "1.0.0"},
                {"name", "badnet"},
                {"type", "brisk-bridge"},
                {"isGateway", true},
                {"ipam", ipam}};
  };
  std::string good = conf({{"subnet", "10.11.0.0/24"}}).dump();
  struct Case {
    std::string what;
    std::map<std::string, std::string> env;
    std::string stdin_data;
    unsigned code;
  } cases[] = {
      {"invalid JSON", cni_env("ADD", "b", pod), "{", 6},
      {"unknown command", cni_env("FROB", "b", pod), good, 4},
      {"unsupported cniVersion", cni_env("ADD", "b", pod), R"({"cniVersion":"0.9.0","name":"badnet"})", 1},
      {"missing CNI_NETNS", cni_env("ADD", "b", ""), good, 4},
      {"a file, not a netns", cni_env("ADD", "b", "/etc/hostname"), good, 4},
      {"a netns that does not exist", cni_env("ADD", "b", "/run/netns/brisk-no-such"), good, 4},
      {"ifname too long", cni_env("ADD", "b", pod, "abcdefghijklmnop"), good, 4},
      {"ifname with a slash", cni_env("ADD", "b", pod, "e/0"), good, 4},
      {"subnet too small", cni_env("ADD", "b", pod), conf({{"subnet", "10.11.0.0/31"}}).dump(), 7},
      {"overlapping ranges", cni_env("ADD", "b", pod),
       conf({{"ranges", {{{{"subnet", "10.11.0.0/24"}}}, {{{"subnet", "10.11.0.0/25"}}}}}}).dump(), 7},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    PluginRun r = sandbox.run(BRISK_BRIDGE_PATH, c.env, c.stdin_data);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.json()["code"], c.code) << r.out;
    EXPECT_FALSE(r.json()["msg"].get<std::string>().empty());
    EXPECT_TRUE(sandbox.ip(sandbox.host(), {"link", "show", "cni0"}).empty()) << "the bridge was made";
    EXPECT_TRUE(sandbox.ip(pod, {"link", "show", "eth0"}).empty());
    EXPECT_FALSE(fs::exists(sandbox.data_dir() + "/badnet/10.11.0.2"));
  }
  auto env = cni_env("ADD", "b", pod);
  env["CNI_ARGS"] = "K8S_POD_NAME=x";
  PluginRun r = sandbox.run(BRISK_BRIDGE_PATH, env, good);
  EXPECT_EQ(r.json()["code"], 4) << r.out;
  env["CNI_ARGS"] = "IgnoreUnknown=1;K8S_POD_NAME=x";
  EXPECT_EQ(sandbox.run(BRISK_BRIDGE_PATH, env, good).exit_code, 0) << "with IgnoreUnknown it is fine";
  // Exhausted: a /30 has one address; the second ADD gets 11 and keeps nothing.
  json small_conf = conf({{"subnet", "10.12.0.0/30"}});
  small_conf["bridge"] = "cni9";  // cni0 has the other subnet's gateway now
  std::string small = small_conf.dump();
  std::string pod2 = sandbox.add_pod(), pod3 = sandbox.add_pod();
  ASSERT_EQ(sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "s1", pod2), small).exit_code, 0);
  r = sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "s2", pod3), small);
  EXPECT_EQ(r.json()["code"], 11) << r.out;
  EXPECT_TRUE(sandbox.ip(pod3, {"link", "show", "eth0"}).empty());
}

}  // namespace
}  // namespace brisk::cni::test
