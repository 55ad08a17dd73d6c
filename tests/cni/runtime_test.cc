// Real clients: podman 4 with runc, and containerd 1.6 through `ctr run
// --cni`, run brisk-bridge for two containers on one network, each runtime
// inside a sandbox's node namespace with all its state in the sandbox's
// temporary directory (runtime_harness.h). The containers get addresses,
// reach each other and the gateway; with ipMasq their masquerade elements
// exist while they run; removing them runs DEL, which leaves no lease, veth
// or element behind. PortMapTest chains brisk-portmap after brisk-bridge
// and maps a host port to a container's listener (podman run -p, and a
// fixed runtimeConfig for ctr, which has no port flag).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <thread>
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

// What a runtime test needs of this machine; why it cannot run, or "".
std::string cannot_run(Kind kind) {
  if (!brisk::test::is_root()) return "needs root";
  // podman makes the image for containerd too; scripts/install-deps installs them all.
  std::string absent = kind == Kind::podman
                           ? missing({"podman", "runc", "nft", "socat"})
                           : missing({"containerd", "ctr", "runc", "podman", "nft", "socat"});
  if (!absent.empty()) return absent + " is not installed (scripts/install-deps test installs it)";
  if (!fs::exists("/bin/busybox")) return "/bin/busybox is not installed (busybox-static)";
  if (run_bounded(brisk::Command({"ldd", "/bin/busybox"})).status.allowed)
    return "/bin/busybox is dynamic (Debian's busybox): the image needs busybox-static's";
  return "";
}

// The runtime of `kind` in the sandbox's node, with the busybox image
// loaded and `network` configured; what went wrong is in `error`.
std::unique_ptr<Runtime> make_runtime(Kind kind, Sandbox& sandbox, PrivateMounts& mounts,
                                      const Network& network, std::string& error) {
  std::string rootfs = busybox_rootfs_tar(sandbox.data_dir());
  if (rootfs.empty()) {
    error = "no busybox root filesystem";
    return nullptr;
  }
  if (kind == Kind::podman) {
    auto podman = std::make_unique<Podman>(sandbox, mounts, network, rootfs);
    error = podman->error();
    return podman;
  }
  std::string archive = sandbox.data_dir() + "/busybox-oci.tar";
  error = busybox_oci_archive(sandbox.data_dir() + "/image", rootfs, archive);
  if (!error.empty()) return nullptr;
  auto containerd = std::make_unique<Containerd>(sandbox, mounts, network, archive);
  error = containerd->error();
  return containerd;
}

class RuntimeTest : public ::testing::TestWithParam<std::tuple<Kind, bool>> {};

TEST_P(RuntimeTest, TwoContainersReachEachOtherAndLeaveNothing) {
  auto [kind, ip_masq] = GetParam();
  if (std::string why = cannot_run(kind); !why.empty()) GTEST_SKIP() << why;
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  PrivateMounts mounts(sandbox.data_dir());
  ASSERT_EQ(mounts.error(), "");
  fs::create_symlink(BRISK_BRIDGE_PATH, mounts.at("/opt/cni/bin") + "/brisk-bridge");
  Network network{.bridge = "brisk-rt0", .ip_masq = ip_masq};
  std::string error;
  std::unique_ptr<Runtime> runtime = make_runtime(kind, sandbox, mounts, network, error);
  ASSERT_EQ(error, "");

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
  // ctr runs DEL with an empty CNI_NETNS: the host's veth goes with the
  // container's namespace, which the kernel destroys after the task's end
  // on a workqueue of its own (cleanup_net), so it may take a moment.
  auto veths = sandbox.ip(sandbox.host(), {"link", "show", "type", "veth"});
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       !veths.empty() && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    veths = sandbox.ip(sandbox.host(), {"link", "show", "type", "veth"});
  }
  EXPECT_TRUE(veths.empty()) << "a veth outlived its container by 10 s: " << veths.dump();
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

// The elements of `nft list table ip brisk_portmap` in the node namespace
// that name `cni_id` in their comment; "" when there is no table.
std::string portmap_elements(const Sandbox& sandbox, const std::string& cni_id) {
  std::string table = run_bounded(in_node(sandbox, {"nft", "list", "table", "ip", "brisk_portmap"})).out;
  std::string found;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);)
    if (line.find(cni_id) != std::string::npos) found += line + "\n";
  return found;
}

// What a TCP connect to address:port reads from the node namespace, within 5 s.
std::string read_from(const Sandbox& sandbox, const std::string& address, int port) {
  return run_bounded(in_node(sandbox, {"socat", "-T", "5", "-u",
                                       "TCP:" + address + ":" + std::to_string(port) + ",connect-timeout=5",
                                       "STDOUT"}))
      .out;
}

class PortMapTest : public ::testing::TestWithParam<Kind> {};

// A host port reaches the container's listener from the node and from
// another container, while the container runs; after its removal no
// element of brisk-portmap's is left and the port reaches nothing.
TEST_P(PortMapTest, AHostPortReachesTheContainerUntilItIsRemoved) {
  Kind kind = GetParam();
  if (std::string why = cannot_run(kind); !why.empty()) GTEST_SKIP() << why;
  Sandbox sandbox;
  ASSERT_TRUE(sandbox.ok());
  PrivateMounts mounts(sandbox.data_dir());
  ASSERT_EQ(mounts.error(), "");
  fs::create_symlink(BRISK_BRIDGE_PATH, mounts.at("/opt/cni/bin") + "/brisk-bridge");
  fs::create_symlink(BRISK_PORTMAP_PATH, mounts.at("/opt/cni/bin") + "/brisk-portmap");
  constexpr int kHostPort = 18080, kContainerPort = 8080;
  nlohmann::json portmap = {
      {"type", "brisk-portmap"}, {"capabilities", {{"portMappings", true}}}, {"snat", true}};
  // ctr has no port flag and passes no capability arguments: the mapping is
  // the plugin's own runtimeConfig, which libcni hands on as it is.
  if (kind == Kind::containerd)
    portmap["runtimeConfig"] = {
        {"portMappings",
         {{{"hostPort", kHostPort}, {"containerPort", kContainerPort}, {"protocol", "tcp"}}}}};
  Network network{.bridge = "brisk-pm0", .ip_masq = true, .extra_plugins = {portmap}};
  std::string error;
  std::unique_ptr<Runtime> runtime = make_runtime(kind, sandbox, mounts, network, error);
  ASSERT_EQ(error, "");
  std::vector<std::string> publish;
  if (kind == Kind::podman)
    publish = {"-p", std::to_string(kHostPort) + ":" + std::to_string(kContainerPort) + "/tcp"};
  ASSERT_EQ(runtime->start("web", publish), "");
  if (kind == Kind::podman) {
    ASSERT_EQ(runtime->start("client"), "");
  }
  // A listener that answers every connection with "hello" (busybox nc:
  // -ll keeps listening, -e runs the rest), in the background of an exec.
  brisk::Output listening = runtime->exec("web", {"sh", "-c",
                                                  "nc -ll -p " + std::to_string(kContainerPort) +
                                                      " -e /bin/sh -c 'echo hello' >/dev/null 2>&1 &"});
  ASSERT_TRUE(listening.status.allowed) << listening.err;
  const std::string web_id = runtime->cni_id("web");
  ASSERT_NE(web_id, "");
  std::string elements = portmap_elements(sandbox, web_id);
  EXPECT_NE(elements, "") << "brisk-portmap's elements for the container";

  // From the node, to its own address on the bridge; from the other
  // container, to the node's address (DNAT on the way in, then the bridge).
  std::string from_node;
  for (int attempt = 0; attempt < 50 && from_node.find("hello") == std::string::npos; ++attempt) {
    from_node = read_from(sandbox, network.gateway, kHostPort);
    if (from_node.find("hello") == std::string::npos)
      std::this_thread::sleep_for(100ms);  // the listener starting
  }
  EXPECT_NE(from_node.find("hello"), std::string::npos) << "node -> " << network.gateway << ":" << kHostPort;
  if (kind == Kind::podman) {  // ctr's fixed mapping is every container's: a second one would clash
    brisk::Output from_pod =
        runtime->exec("client", {"nc", "-w", "5", network.gateway, std::to_string(kHostPort)});
    EXPECT_NE(from_pod.out.find("hello"), std::string::npos)
        << "container -> " << network.gateway << ":" << kHostPort << ": " << from_pod.out << from_pod.err;
  }

  EXPECT_EQ(runtime->remove("web"), "");
  EXPECT_EQ(portmap_elements(sandbox, web_id), "") << "DEL removed every element";
  EXPECT_EQ(read_from(sandbox, network.gateway, kHostPort).find("hello"), std::string::npos)
      << "the port reaches nothing once the container is gone";
  if (kind == Kind::podman) {
    EXPECT_EQ(runtime->remove("client"), "");
  }
}

INSTANTIATE_TEST_SUITE_P(, PortMapTest, ::testing::Values(Kind::podman, Kind::containerd),
                         [](const auto& info) {
                           return std::string(info.param == Kind::podman ? "PodmanRunc" : "ContainerdCtr");
                         });

INSTANTIATE_TEST_SUITE_P(
    , RuntimeTest, ::testing::Combine(::testing::Values(Kind::podman, Kind::containerd), ::testing::Bool()),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == Kind::podman ? "PodmanRunc" : "ContainerdCtr") +
             (std::get<1>(info.param) ? "IpMasq" : "NoIpMasq");
    });

}  // namespace
}  // namespace brisk::cni::test
