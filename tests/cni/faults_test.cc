// Faults: an ADD killed at any moment, and the features this kernel may
// lack (bridge VLAN filtering), and the spoof check's rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cni/cni_driver.h"

namespace brisk::cni::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json conf(const std::string& data_dir) {
  return {{"cniVersion", "1.0.0"},
          {"name", "faultnet"},
          {"type", "brisk-bridge"},
          {"isGateway", true},
          {"ipMasq", true},
          {"macspoofchk", true},
          {"ipam", {{"type", "host-local"}, {"subnet", "10.55.0.0/24"}, {"dataDir", data_dir}}}};
}

// SIGKILL lands at a different moment of each ADD; the DEL that follows
// must leave no lease, veth or rule, and no lease file is ever seen
// half-written (each one names its owner in full).
TEST(CniFaults, AnAddKilledAtAnyStepIsUndoneByDel) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  std::string c = conf(sandbox.data_dir()).dump();
  std::string store = sandbox.data_dir() + "/faultnet";
  // Warm up once so the bridge and tables exist, timing a whole ADD; then
  // kill later and later, from the start to past its end.
  std::string warm = sandbox.add_pod();
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "warm", warm), c).exit_code, 0);
  auto step = (std::chrono::steady_clock::now() - t0) * 3 / 2 / 24;
  int killed_early = 0, completed = 0;
  for (int i = 0; i < 24; ++i) {
    std::string pod = sandbox.add_pod();
    std::string id = "k" + std::to_string(i);
    brisk::Process p = sandbox.command(BRISK_BRIDGE_PATH, cni_env("ADD", id, pod), c).spawn();
    // wait_for drives the run (it feeds the plugin its stdin) until the moment comes.
    std::optional<brisk::Output> finished = p.wait_for(step * i);
    if (!finished) (void)p.kill(SIGKILL);
    brisk::Output o = finished ? *finished : p.wait();
    (o.status.exit.code() == 0 ? completed : killed_early)++;
    if (fs::exists(store))
      for (const auto& e : fs::directory_iterator(store)) {
        std::string name = e.path().filename();
        if (name == "lock" || name.rfind("last_reserved_ip.", 0) == 0 || name.rfind(".brisk-tmp-", 0) == 0)
          continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::string content((std::istreambuf_iterator<char>(in)), {});
        EXPECT_TRUE(content == "warm\r\neth0" ||
                    (content.rfind("k", 0) == 0 && content.find("\r\neth0") != std::string::npos))
            << name << " holds \"" << content << "\"";
      }
    PluginRun del = sandbox.run(BRISK_BRIDGE_PATH, cni_env("DEL", id, pod), c);
    EXPECT_EQ(del.exit_code, 0) << del.out;
    EXPECT_TRUE(sandbox.ip(pod, {"link", "show", "dev", "eth0"}).empty()) << "kill " << i;
  }
  ASSERT_EQ(sandbox.run(BRISK_BRIDGE_PATH, cni_env("DEL", "warm", warm), c).exit_code, 0);
  for (const auto& e : fs::directory_iterator(store)) {
    std::string name = e.path().filename();
    EXPECT_TRUE(name == "lock" || name.rfind("last_reserved_ip.", 0) == 0) << "left behind: " << name;
  }
  EXPECT_TRUE(sandbox.ip(sandbox.host(), {"link", "show", "type", "veth"}).empty());
  std::string pods =
      sandbox.shell_in(sandbox.host(), {"nft", "-j", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_EQ(pods.find("\"elem\""), std::string::npos) << pods;
  std::string ports =
      sandbox.shell_in(sandbox.host(), {"nft", "-j", "list", "set", "bridge", "brisk_cni", "ports"});
  EXPECT_EQ(ports.find("\"elem\""), std::string::npos) << ports;
  RecordProperty("killed_early", killed_early);
  RecordProperty("completed", completed);
  EXPECT_GT(killed_early, 0) << "no ADD was killed part-way";
}

TEST(CniFaults, SpoofCheckElementsFollowThePod) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  std::string pod = sandbox.add_pod();
  PluginRun add =
      sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "spoof", pod), conf(sandbox.data_dir()).dump());
  ASSERT_EQ(add.exit_code, 0) << add.out;
  json r = add.json();
  std::string host_veth = r["interfaces"][1]["name"], mac = r["interfaces"][2]["mac"];
  std::string allowed =
      sandbox.shell_in(sandbox.host(), {"nft", "list", "set", "bridge", "brisk_cni", "allowed"});
  EXPECT_NE(allowed.find("\"" + host_veth + "\" . " + mac), std::string::npos) << allowed;
  std::string chain =
      sandbox.shell_in(sandbox.host(), {"nft", "list", "chain", "bridge", "brisk_cni", "prerouting"});
  EXPECT_NE(chain.find("iifname @ports iifname . ether saddr != @allowed drop"), std::string::npos) << chain;
  ASSERT_EQ(
      sandbox.run(BRISK_BRIDGE_PATH, cni_env("DEL", "spoof", pod), conf(sandbox.data_dir()).dump()).exit_code,
      0);
  allowed = sandbox.shell_in(sandbox.host(), {"nft", "list", "set", "bridge", "brisk_cni", "allowed"});
  EXPECT_EQ(allowed.find(host_veth), std::string::npos) << allowed;

  // GC drops the elements of a host veth that vanished without a DEL.
  json gc_conf = conf(sandbox.data_dir());
  gc_conf["cniVersion"] = "1.1.0";
  std::string pod2 = sandbox.add_pod();
  PluginRun add2 = sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "spoof2", pod2), gc_conf.dump());
  ASSERT_EQ(add2.exit_code, 0) << add2.out;
  std::string veth2 = add2.json()["interfaces"][1]["name"];
  sandbox.delete_pod(pod2);  // the pair goes with the namespace; the elements stay
  for (int i = 0; i < 100 && !sandbox.ip(sandbox.host(), {"link", "show", "dev", veth2}).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(
      sandbox.shell_in(sandbox.host(), {"nft", "list", "set", "bridge", "brisk_cni", "allowed"}).find(veth2),
      std::string::npos);
  gc_conf["cni.dev/attachments"] = json::array();
  EXPECT_EQ(sandbox.run(BRISK_BRIDGE_PATH, {{"CNI_COMMAND", "GC"}}, gc_conf.dump()).exit_code, 0);
  for (const char* set : {"ports", "allowed"}) {
    std::string listed = sandbox.shell_in(sandbox.host(), {"nft", "list", "set", "bridge", "brisk_cni", set});
    EXPECT_EQ(listed.find(veth2), std::string::npos) << listed;
  }
}

TEST(CniFaults, VlanPortsWhereTheKernelHasVlanFiltering) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  sandbox.shell_in(sandbox.host(), {"ip", "link", "add", "vprobe", "type", "bridge", "vlan_filtering", "1"});
  json probe = sandbox.ip(sandbox.host(), {"-d", "link", "show", "dev", "vprobe"});
  bool filtering = !probe.empty() && probe[0]["linkinfo"]["info_data"].value("vlan_filtering", 0) == 1;
  if (!filtering)
    GTEST_SKIP() << "this kernel lacks bridge VLAN filtering (CONFIG_BRIDGE_VLAN_FILTERING): no vlan tests";
  json c = conf(sandbox.data_dir());
  c["vlan"] = 100;
  c["macspoofchk"] = false;
  std::string pod = sandbox.add_pod();
  PluginRun add = sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "vlan", pod), c.dump());
  ASSERT_EQ(add.exit_code, 0) << add.out;
  std::string host_veth = add.json()["interfaces"][1]["name"];
  std::string vlans = sandbox.shell_in(sandbox.host(), {"bridge", "-j", "vlan", "show", "dev", host_veth});
  EXPECT_NE(vlans.find("\"vlan\":100"), std::string::npos) << vlans;
  EXPECT_NE(vlans.find("PVID"), std::string::npos) << vlans;
  EXPECT_EQ(sandbox.run(BRISK_BRIDGE_PATH, cni_env("DEL", "vlan", pod), c.dump()).exit_code, 0);
}

}  // namespace
}  // namespace brisk::cni::test

namespace brisk::cni::test {
namespace {

// Any IPAM type but host-local is exec'd from CNI_PATH with the same
// environment and the whole config; an ADD that fails after IPAM succeeded
// runs the IPAM DEL. A spy in front of the reference `static` plugin logs
// the commands it was given.
TEST(CniIpamExec, ExecsThePluginAndReleasesOnFailure) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  if (!fs::exists("/usr/lib/cni/static")) GTEST_SKIP() << "containernetworking-plugins is not installed";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  std::string dir = sandbox.data_dir() + "/bin", log = sandbox.data_dir() + "/ipam.log";
  fs::create_directories(dir);
  std::ofstream(dir + "/spy") << "#!/bin/sh\necho \"$CNI_COMMAND $CNI_CONTAINERID $CNI_IFNAME\" >> " << log
                              << "\nexec /usr/lib/cni/static\n";
  fs::permissions(dir + "/spy", fs::perms::owner_all);
  json c = {
      {"cniVersion", "1.0.0"},
      {"name", "staticnet"},
      {"type", "brisk-bridge"},
      {"bridge", "brs0"},
      {"isGateway", true},
      {"ipam", {{"type", "spy"}, {"addresses", {{{"address", "10.44.0.5/24"}, {"gateway", "10.44.0.1"}}}}}}};
  std::string pod = sandbox.add_pod();
  auto env = cni_env("ADD", "st1", pod);
  env["CNI_PATH"] = dir;
  PluginRun add = sandbox.run(BRISK_BRIDGE_PATH, env, c.dump());
  ASSERT_EQ(add.exit_code, 0) << add.out << add.err;
  EXPECT_EQ(add.json()["ips"][0]["address"], "10.44.0.5/24");
  auto addrs = sandbox.ip(pod, {"-4", "addr", "show", "dev", "eth0"});
  ASSERT_EQ(addrs.size(), 1u);
  EXPECT_EQ(addrs[0]["addr_info"][0]["local"], "10.44.0.5");

  // A second pod whose gateway clashes with the bridge's: ADD fails after
  // IPAM, so IPAM DEL runs and the pod keeps nothing.
  json clash = c;
  clash["ipam"]["addresses"] = {{{"address", "10.45.0.5/24"}, {"gateway", "10.45.0.1"}}};
  std::string pod2 = sandbox.add_pod();
  env = cni_env("ADD", "st2", pod2);
  env["CNI_PATH"] = dir;
  PluginRun failed = sandbox.run(BRISK_BRIDGE_PATH, env, clash.dump());
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.out.find("already has an IP address different from 10.45.0.1/24"), std::string::npos)
      << failed.out;
  EXPECT_TRUE(sandbox.ip(pod2, {"link", "show", "dev", "eth0"}).empty());
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "ADD st1 eth0\nADD st2 eth0\nDEL st2 eth0\n");

  // A missing plugin is the config's error, named.
  json missing = c;
  missing["ipam"]["type"] = "no-such-ipam";
  PluginRun none = sandbox.run(BRISK_BRIDGE_PATH, cni_env("ADD", "st3", sandbox.add_pod()), missing.dump());
  EXPECT_NE(none.out.find("failed to find plugin \\\"no-such-ipam\\\""), std::string::npos) << none.out;
}

}  // namespace
}  // namespace brisk::cni::test
