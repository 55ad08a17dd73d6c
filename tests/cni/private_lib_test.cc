// brisk-bridge as brisk-cni-install lays it out on a node (the image's tree,
// scripts/build-cni-image --bundle): it needs nothing of the node but libc.
// libmnl and libnftables' closure come from brisk-lib/ beside it, also when
// the node has none of them, which the tests make so by hiding the system's
// copies under empty files in a mount namespace of their own, or by running
// it in a chroot holding glibc (and /proc) and nothing else.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cni/cni_driver.h"

namespace brisk::cni::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kMultiarch = "/usr/lib/x86_64-linux-gnu";

brisk::Output run(brisk::Command c) {
  return c.stdout_to(brisk::Sink::capture()).stderr_to(brisk::Sink::capture()).check(false).output();
}

class PrivateLibraries : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::is_root()) GTEST_SKIP() << "needs root for namespaces, mounts and chroot";
    ASSERT_TRUE(sandbox_.ok());
    // The image's tree, and the installer from it onto an empty "node".
    std::string build = fs::path(BRISK_BRIDGE_PATH).parent_path();
    brisk::Output o = run(brisk::Command(std::string(BRISK_SOURCE_DIR) + "/scripts/build-cni-image")
                              .args({"--build-dir", build, "--bundle", bundle_}));
    ASSERT_EQ(o.status.exit.code().value_or(-1), 0) << o.err;
    for (const auto& d : {bin_, net_}) fs::create_directories(d);
    o = run(brisk::Command(bundle_ + "/opt/brisk/bin/brisk-cni-install")
                .args({"--pod-cidr=10.99.0.0/24", "--cni-bin-dir", bin_, "--cni-conf-dir", net_}));
    ASSERT_EQ(o.status.exit.code().value_or(-1), 0) << o.err;
  }

  // A wrapper that runs `plugin` where the system's copies of every library
  // in brisk-lib/ are empty files.
  std::string hiding_system_libraries(const std::string& plugin) {
    std::string mounts;
    for (const auto& e : fs::directory_iterator(bin_ + "/brisk-lib")) {
      fs::path system = kMultiarch + "/" + e.path().filename().string();
      if (fs::exists(system))
        mounts += "mount --bind " + empty_ + " " + fs::canonical(system).string() + " && ";
    }
    EXPECT_NE(mounts.find("libnftables"), std::string::npos) << "libnftables1 is not installed";
    std::ofstream(empty_).flush();
    std::string wrapper = dir_.path() + "/hide-" + fs::path(plugin).parent_path().filename().string();
    std::ofstream(wrapper) << "#!/bin/sh\nexec unshare -m sh -c '" << mounts << "exec " << plugin << "'\n";
    fs::permissions(wrapper, fs::perms(0755));
    return wrapper;
  }

  json network_config() {
    json conflist = json::parse(brisk::test::slurp(net_ + "/10-brisk.conflist"));
    json conf = conflist["plugins"][0];
    conf["cniVersion"] = conflist["cniVersion"];
    conf["name"] = conflist["name"];
    conf["ipam"]["dataDir"] = sandbox_.data_dir();
    return conf;
  }

  Sandbox sandbox_;
  brisk::test::TempDir dir_;
  std::string bundle_ = dir_.path() + "/bundle", bin_ = dir_.path() + "/node/opt/cni/bin",
              net_ = dir_.path() + "/node/etc/cni/net.d", empty_ = dir_.path() + "/empty";
};

TEST_F(PrivateLibraries, IpMasqRulesAreSetWhenTheNodeHasNoLibnftables) {
  json conf = network_config();
  ASSERT_EQ(conf["ipMasq"], true);
  std::string pod = sandbox_.add_pod();
  std::string plugin = hiding_system_libraries(bin_ + "/brisk-bridge");
  PluginRun add = sandbox_.run(plugin, cni_env("ADD", "ctr-private", pod), conf.dump());
  ASSERT_EQ(add.exit_code, 0) << add.out << add.err;
  std::string ip = add.json()["ips"][0]["address"].get<std::string>();
  ip.resize(ip.find('/'));
  std::string set = sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_NE(set.find(ip), std::string::npos) << set;
  PluginRun del = sandbox_.run(plugin, cni_env("DEL", "ctr-private", pod), conf.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out << del.err;
  set = sandbox_.shell_in(sandbox_.host(), {"nft", "list", "set", "ip", "brisk_cni", "pods"});
  EXPECT_EQ(set.find(ip), std::string::npos) << set;

  // The same binary without brisk-lib/ beside it cannot even start there:
  // what made the difference above was the private copy.
  fs::create_directories(dir_.path() + "/bare");
  fs::copy_file(bin_ + "/brisk-bridge", dir_.path() + "/bare/brisk-bridge");
  PluginRun bare = sandbox_.run(hiding_system_libraries(dir_.path() + "/bare/brisk-bridge"),
                                cni_env("ADD", "ctr-bare", pod), conf.dump());
  EXPECT_NE(bare.exit_code, 0) << bare.out;
}

TEST_F(PrivateLibraries, ThePluginRunsInAChrootWithNothingButGlibc) {
  std::string root = dir_.path() + "/root";
  // glibc: libc, libm (a sanitizer runtime needs it) and the loader.
  for (const auto& lib : {"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libc.so.6",
                          "/lib/x86_64-linux-gnu/libm.so.6"}) {
    fs::create_directories(root + fs::path(lib).parent_path().string());
    fs::copy_file(fs::canonical(lib), root + lib);
  }
  fs::create_directories(root + "/opt/cni");
  fs::copy(bin_, root + "/opt/cni/bin", fs::copy_options::recursive);
  fs::create_directories(root + "/bare");
  fs::copy_file(bin_ + "/brisk-bridge", root + "/bare/brisk-bridge");
  // ld.so finds $ORIGIN through /proc/self/exe, as on every node.
  fs::create_directories(root + "/proc");
  auto version = [&](const std::string& plugin) {
    return run(brisk::Command("unshare")
                   .args({"-m", "sh", "-c", "mount -t proc proc \"$0/proc\" && exec chroot \"$0\" \"$1\"",
                          root, plugin})
                   .env("CNI_COMMAND", "VERSION"));
  };
  brisk::Output o = version("/opt/cni/bin/brisk-bridge");
  ASSERT_EQ(o.status.exit.code().value_or(-1), 0) << o.err;
  EXPECT_TRUE(json::parse(o.out)["supportedVersions"].is_array()) << o.out;
  EXPECT_NE(version("/bare/brisk-bridge").status.exit.code().value_or(0), 0);
}

}  // namespace
}  // namespace brisk::cni::test
