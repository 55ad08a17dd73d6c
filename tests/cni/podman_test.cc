// A real client: podman 4 with network_backend = "cni" runs brisk-bridge
// for a container's network. podman runs in a simulated host namespace
// (nsenter, so /sys is the host's and a private cgroup2 can be mounted
// over /sys/fs/cgroup for crun), with its storage, config and leases in a
// temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "brisk/command.h"
#include "cni/cni_driver.h"

namespace brisk::cni::test {
namespace {

namespace fs = std::filesystem;

TEST(Podman, RunsAContainerOnABriskBridgeNetwork) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  if (!fs::exists("/usr/bin/podman"))
    GTEST_SKIP() << "podman is not installed (scripts/install-deps installs it)";
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  std::string t = sandbox.data_dir();
  fs::create_directories(t + "/plugins");
  fs::create_directories(t + "/net.d");
  fs::create_symlink(BRISK_BRIDGE_PATH, t + "/plugins/brisk-bridge");
  std::ofstream(t + "/containers.conf")
      << "[network]\nnetwork_backend = \"cni\"\ncni_plugin_dirs = [\"" << t
      << "/plugins\"]\nnetwork_config_dir = \"" << t << "/net.d\"\n"
      << "[engine]\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\n";
  std::ofstream(t + "/net.d/brisk.conflist")
      << R"({"cniVersion":"0.4.0","name":"brisknet","plugins":[{"type":"brisk-bridge","bridge":"cni-brisk0",)"
      << R"("isGateway":true,"ipMasq":true,"ipam":{"type":"host-local","routes":[{"dst":"0.0.0.0/0"}],)"
      << R"("ranges":[[{"subnet":"10.89.0.0/24","gateway":"10.89.0.1"}]],"dataDir":")" << t
      << R"(/leases"}}]})";
  brisk::test::build_minimal_root(t + "/rootfs", {"/bin/cat"});
  ASSERT_TRUE(brisk::Command({"tar", "-C", t + "/rootfs", "-cf", t + "/rootfs.tar", "."}).status().allowed);

  std::string podman = "podman --root " + t + "/storage --runroot " + t + "/run --storage-driver vfs";
  std::string in_host = "nsenter --net=" + std::string(kNetnsDir) + "/" + sandbox.host() + " ";
  auto sh = [&](const std::string& script) {
    return brisk::Command({"unshare", "-m", "--propagation", "private", "sh", "-c",
                           "mount -t cgroup2 none /sys/fs/cgroup && " + script})
        .env("CONTAINERS_CONF", t + "/containers.conf")
        .stdout_to(brisk::Sink::capture())
        .stderr_to(brisk::Sink::capture())
        .timeout(std::chrono::seconds(120))
        .check(false)
        .output();
  };
  auto imported = sh(in_host + podman + " import " + t + "/rootfs.tar localhost/brisk-cni-test");
  ASSERT_TRUE(imported.status.allowed) << imported.err;
  auto networks = sh(in_host + podman + " network ls");
  EXPECT_NE(networks.out.find("brisk-bridge"), std::string::npos)
      << "podman lists the network's driver: " << networks.out;

  // The sandbox's limits: no CAP_SYS_RESOURCE (so lower rlimits), and no
  // cgroup controllers in the private cgroup2 (so no pids limit, and
  // --privileged: crun would raise RLIMIT_MEMLOCK for a device filter).
  auto run = sh(
      in_host + podman +
      " run --rm --privileged --pids-limit=-1 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
      " --network brisknet localhost/brisk-cni-test /bin/cat /sys/class/net/eth0/address /proc/net/fib_trie");
  std::string leases = t + "/leases/brisknet";
  // ADD ran (it reserved an address) and DEL ran (the lease is released, no veth is left).
  EXPECT_TRUE(fs::exists(leases + "/last_reserved_ip.0")) << run.err;
  for (const auto& e : fs::directory_iterator(leases)) {
    std::string name = e.path().filename();
    EXPECT_TRUE(name == "lock" || name.rfind("last_reserved_ip.", 0) == 0) << "lease left behind: " << name;
  }
  EXPECT_TRUE(sandbox.ip(sandbox.host(), {"link", "show", "type", "veth"}).empty());
  if (!run.status.allowed)
    GTEST_SKIP() << "brisk-bridge's ADD and DEL ran, but the container could not start here: " << run.err;
  std::ifstream last(leases + "/last_reserved_ip.0");
  std::string address;
  last >> address;
  std::regex local("\\|-- " + std::regex_replace(address, std::regex("\\."), "\\.") + "\n\\s+/32 host LOCAL");
  EXPECT_TRUE(std::regex_search(run.out, local))
      << "the container sees its address " << address << " on eth0: " << run.out;
  EXPECT_NE(run.out.find("/0 universe UNICAST"), std::string::npos) << "and its default route";
}

}  // namespace
}  // namespace brisk::cni::test
