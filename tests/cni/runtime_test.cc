// Real clients: podman 4 with runc, and containerd 1.6 through `ctr run
// --cni`, run brisk-bridge for two containers on one network, each runtime
// inside a sandbox's node namespace with all its state in the sandbox's
// temporary directory (runtime_harness.h). The containers get addresses,
// reach each other and the gateway; with ipMasq their masquerade elements
// exist while they run; removing them runs DEL, which leaves no lease, veth
// or element behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <tuple>

#include "cni/runtime_harness.h"

namespace brisk::cni::test {
namespace {

namespace fs = std::filesystem;

enum class Kind { podman, containerd };
void PrintTo(Kind kind, std::ostream* out) { *out << (kind == Kind::podman ? "podman" : "containerd"); }

// The first program of `programs` that is not installed, or "".
std::string missing(std::initializer_list<const char*> programs) {
  for (const char* p : programs)
    if (!fs::exists(std::string("/usr/bin/") + p) && !fs::exists(std::string("/usr/sbin/") + p)) return p;
  return "";
}

// The container's IPv4 address on eth0 (busybox's `ip -4 -o addr`), or "".
std::string address_of(Runtime& runtime, const std::string& id) {
  brisk::Output o = runtime.exec(id, {"ip", "-4", "-o", "addr", "show", "dev", "eth0"});
  std::smatch m;
  return std::regex_search(o.out, m, std::regex("inet ([0-9.]+)/")) ? m[1].str() : "";
}

// `nft list set ip brisk_cni NAME` in the node namespace; "" when there is none.
std::string nft_set(const Sandbox& sandbox, const std::string& name) {
  return run_bounded(in_node(sandbox, {"nft", "list", "set", "ip", "brisk_cni", name})).out;
}

class RuntimeTest : public ::testing::TestWithParam<std::tuple<Kind, bool>> {};

TEST_P(RuntimeTest, TwoContainersReachEachOtherAndLeaveNothing) {
  auto [kind, ip_masq] = GetParam();
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root";
  // podman makes the image for containerd too; scripts/install-deps installs them all.
  std::string absent = kind == Kind::podman ? missing({"podman", "runc", "nft"})
                                            : missing({"containerd", "ctr", "runc", "podman", "nft"});
  if (!absent.empty()) GTEST_SKIP() << absent << " is not installed (scripts/install-deps test installs it)";
  if (!fs::exists("/bin/busybox")) GTEST_SKIP() << "/bin/busybox is not installed (busybox-static)";
  // The image holds nothing but busybox: Debian's dynamic one could not run there.
  if (run_bounded(brisk::Command({"ldd", "/bin/busybox"})).status.allowed)
    GTEST_SKIP() << "/bin/busybox is dynamic (Debian's busybox): the image needs busybox-static's";

  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  PrivateMounts mounts(sandbox.data_dir());
  ASSERT_EQ(mounts.error(), "");
  fs::create_symlink(BRISK_BRIDGE_PATH, mounts.at("/opt/cni/bin") + "/brisk-bridge");
  Network network{.bridge = "brisk-rt0", .ip_masq = ip_masq};
  std::string rootfs = busybox_rootfs_tar(sandbox.data_dir());
  ASSERT_NE(rootfs, "");

  std::unique_ptr<Runtime> runtime;
  if (kind == Kind::podman) {
    auto podman = std::make_unique<Podman>(sandbox, mounts, network, rootfs);
    ASSERT_EQ(podman->error(), "");
    runtime = std::move(podman);
  } else {
    std::string archive = sandbox.data_dir() + "/busybox-oci.tar";
    ASSERT_EQ(busybox_oci_archive(sandbox.data_dir() + "/image", rootfs, archive), "");
    auto containerd = std::make_unique<Containerd>(sandbox, mounts, network, archive);
    ASSERT_EQ(containerd->error(), "");
    runtime = std::move(containerd);
  }

  ASSERT_EQ(runtime->start("c1"), "");
  ASSERT_EQ(runtime->start("c2"), "");
  std::string a1 = address_of(*runtime, "c1"), a2 = address_of(*runtime, "c2");
  ASSERT_NE(a1, "");
  ASSERT_NE(a2, "");
  EXPECT_NE(a1, a2);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"c1", network.gateway}, {"c1", a2}, {"c2", a1}, {"c2", network.gateway}}) {
    brisk::Output ping = runtime->exec(from, {"ping", "-c", "1", "-W", "5", to});
    EXPECT_TRUE(ping.status.allowed) << from << " reaches " << to << ": " << ping.out << ping.err;
  }
  std::string pods = nft_set(sandbox, "pods"), local = nft_set(sandbox, "local");
  for (const auto& [id, address] : {std::pair{"c1", a1}, std::pair{"c2", a2}}) {
    std::string comment = network.name + " " + runtime->cni_id(id) + " eth0";
    if (ip_masq) {
      EXPECT_NE(pods.find(address + " comment \"" + comment + "\""), std::string::npos)
          << comment << ": " << pods;
      EXPECT_NE(local.find(address + " . " + network.subnet), std::string::npos) << local;
    } else {
      EXPECT_EQ(pods.find(address), std::string::npos) << "no masquerading without ipMasq: " << pods;
    }
  }

  EXPECT_EQ(runtime->remove("c1"), "");
  EXPECT_EQ(runtime->remove("c2"), "");
  // DEL ran for both: no lease, no veth, no masquerade element.
  std::string leases = sandbox.data_dir() + "/leases/" + network.name;
  EXPECT_TRUE(fs::exists(leases + "/last_reserved_ip.0")) << "ADD reserved addresses there";
  for (const auto& e : fs::directory_iterator(leases)) {
    std::string name = e.path().filename();
    EXPECT_TRUE(name == "lock" || name.rfind("last_reserved_ip.", 0) == 0) << "lease left behind: " << name;
  }
  EXPECT_TRUE(sandbox.ip(sandbox.host(), {"link", "show", "type", "veth"}).empty());
  pods = nft_set(sandbox, "pods");
  local = nft_set(sandbox, "local");
  for (const std::string& address : {a1, a2}) {
    EXPECT_EQ(pods.find(address), std::string::npos) << pods;
    EXPECT_EQ(local.find(address), std::string::npos) << local;
  }
  // The host's initial namespace never saw the bridge.
  brisk::Output here = run_bounded(brisk::Command({"ip", "link", "show", network.bridge}));
  EXPECT_FALSE(here.status.allowed) << here.out;
}

INSTANTIATE_TEST_SUITE_P(
    , RuntimeTest, ::testing::Combine(::testing::Values(Kind::podman, Kind::containerd), ::testing::Bool()),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == Kind::podman ? "PodmanRunc" : "ContainerdCtr") +
             (std::get<1>(info.param) ? "IpMasq" : "NoIpMasq");
    });

}  // namespace
}  // namespace brisk::cni::test
