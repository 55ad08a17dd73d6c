// brisk-cni-install's library in temporary directories: what lands, that a
// re-run rewrites nothing, and that every refusal comes before the first
// write. The binary itself runs as nobody for the read-only case.
#include "cni/install/install.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk::cni::install {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void write(const std::string& path, const std::string& data, fs::perms mode = fs::perms(0644)) {
  std::ofstream(path, std::ios::binary) << data;
  fs::permissions(path, mode);
}

std::vector<std::string> tree(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir));
  std::sort(out.begin(), out.end());
  return out;
}

ino_t inode(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

Options no_env(const std::vector<std::string>& args) {
  return parse_options(args, [](const char*) { return std::nullopt; });
}

class InstallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(src_ + "/brisk-lib");
    fs::create_directories(bin_);
    fs::create_directories(net_);
    write(src_ + "/brisk-bridge", "#!/bin/sh\necho bridge\n", fs::perms(0755));
    write(src_ + "/brisk-cni-install", "the installer itself", fs::perms(0755));
    write(src_ + "/README", "not a plugin");
    write(src_ + "/brisk-lib/libmnl.so.0", "a library");
    o_.source_dir = src_;
    o_.cni_bin_dir = bin_;
    o_.cni_conf_dir = net_;
    o_.pod_cidrs = {"10.244.1.0/24"};
  }
  json conf() { return json::parse(brisk::test::slurp(net_ + "/10-brisk.conflist")); }
  ErrorKind refusal() {
    try {
      install(o_);
    } catch (const InstallError& e) {
      return e.kind();
    }
    ADD_FAILURE() << "install succeeded";
    return ErrorKind::io;
  }

  brisk::test::TempDir dir_;
  std::string src_ = dir_.path() + "/src", bin_ = dir_.path() + "/bin", net_ = dir_.path() + "/net";
  Options o_;
};

TEST_F(InstallTest, InstallsEveryPluginItsLibrariesAndTheConflistLast) {
  Report r = install(o_);
  EXPECT_EQ(tree(bin_), (std::vector<std::string>{"brisk-bridge", "brisk-lib", "brisk-lib/libmnl.so.0"}));
  EXPECT_EQ(tree(net_), std::vector<std::string>{"10-brisk.conflist"});
  EXPECT_EQ(brisk::test::slurp(bin_ + "/brisk-bridge"), "#!/bin/sh\necho bridge\n");
  EXPECT_EQ(fs::status(bin_ + "/brisk-bridge").permissions(), fs::perms(0755));
  EXPECT_EQ(fs::status(net_ + "/10-brisk.conflist").permissions(), fs::perms(0644));
  ASSERT_EQ(r.written.size(), 3u);
  EXPECT_EQ(r.written.back(), net_ + "/10-brisk.conflist");
  json c = conf();
  EXPECT_EQ(c["plugins"].size(), 1u);  // no brisk-portmap beside it
  EXPECT_EQ(c["plugins"][0]["type"], "brisk-bridge");
  EXPECT_EQ(c["plugins"][0]["ipam"]["type"], "host-local");
  EXPECT_EQ(c["plugins"][0]["ipam"]["ranges"][0][0]["subnet"], "10.244.1.0/24");
  EXPECT_EQ(c["plugins"][0]["ipMasq"], true);
  EXPECT_FALSE(c["plugins"][0].contains("mtu"));
}

TEST_F(InstallTest, ARerunRewritesNothing) {
  install(o_);
  ino_t before = inode(bin_ + "/brisk-bridge");
  Report r = install(o_);
  EXPECT_TRUE(r.written.empty());
  EXPECT_EQ(r.unchanged.size(), 3u);
  EXPECT_EQ(inode(bin_ + "/brisk-bridge"), before);
}

TEST_F(InstallTest, AChangedPluginIsReplacedByRenameAndNoTemporaryStays) {
  install(o_);
  ino_t old = inode(bin_ + "/brisk-bridge");
  write(src_ + "/brisk-bridge", "#!/bin/sh\necho new\n", fs::perms(0755));
  write(bin_ + "/.brisk-tmp-brisk-bridge-leftover", "from a killed run");
  Report r = install(o_);
  EXPECT_EQ(r.written, std::vector<std::string>{bin_ + "/brisk-bridge"});
  EXPECT_EQ(brisk::test::slurp(bin_ + "/brisk-bridge"), "#!/bin/sh\necho new\n");
  EXPECT_NE(inode(bin_ + "/brisk-bridge"), old);  // a new file renamed in, not rewritten in place
  EXPECT_EQ(tree(bin_), (std::vector<std::string>{"brisk-bridge", "brisk-lib", "brisk-lib/libmnl.so.0"}));
}

TEST_F(InstallTest, PortmapIsWrittenWhenBriskPortmapIsThere) {
  write(src_ + "/brisk-portmap", "#!/bin/sh\n", fs::perms(0755));
  install(o_);
  EXPECT_TRUE(fs::exists(bin_ + "/brisk-portmap"));
  json c = conf();
  ASSERT_EQ(c["plugins"].size(), 2u);
  EXPECT_EQ(c["plugins"][1],
            json::parse(R"({"type":"brisk-portmap","capabilities":{"portMappings":true},"snat":true})"));
  o_.portmap = Portmap::off;
  install(o_);
  EXPECT_EQ(conf()["plugins"].size(), 1u);
}

TEST_F(InstallTest, PortmapOnWithoutTheBinaryIsRefused) {
  o_.portmap = Portmap::on;
  EXPECT_EQ(refusal(), ErrorKind::missing_plugin);
  EXPECT_TRUE(tree(bin_).empty());
}

TEST_F(InstallTest, MissingOrUnfitDirectoriesAreRefusedWithNothingWritten) {
  o_.cni_conf_dir = dir_.path() + "/absent";
  EXPECT_EQ(refusal(), ErrorKind::missing_directory);
  o_.cni_conf_dir = src_ + "/brisk-bridge";
  EXPECT_EQ(refusal(), ErrorKind::not_a_directory);
  o_.cni_conf_dir = net_;
  fs::remove(src_ + "/brisk-bridge");
  EXPECT_EQ(refusal(), ErrorKind::missing_plugin);
  EXPECT_TRUE(tree(bin_).empty());
  EXPECT_TRUE(tree(net_).empty());
}

TEST_F(InstallTest, ASymlinkWhereTheConflistGoesIsRefusedAndNotFollowed) {
  std::string outside = dir_.path() + "/outside";
  write(outside, "keep me");
  fs::create_symlink(outside, net_ + "/10-brisk.conflist");
  EXPECT_EQ(refusal(), ErrorKind::hostile_file);
  EXPECT_EQ(brisk::test::slurp(outside), "keep me");
  EXPECT_TRUE(tree(bin_).empty());  // refused before the first write
}

TEST_F(InstallTest, AFifoWherePluginGoesIsRefusedAtOnce) {
  ASSERT_EQ(::mkfifo((bin_ + "/brisk-bridge").c_str(), 0644), 0);
  EXPECT_EQ(refusal(), ErrorKind::hostile_file);
  EXPECT_TRUE(tree(net_).empty());
}

TEST_F(InstallTest, ASymlinkWhereTheLibraryDirectoryGoesIsRefused) {
  fs::create_directories(dir_.path() + "/elsewhere");
  fs::create_directory_symlink(dir_.path() + "/elsewhere", bin_ + "/brisk-lib");
  EXPECT_EQ(refusal(), ErrorKind::hostile_file);
  EXPECT_TRUE(tree(dir_.path() + "/elsewhere").empty());
}

TEST_F(InstallTest, ADirectoryWhereALibraryGoesIsRefused) {
  fs::create_directories(bin_ + "/brisk-lib/libmnl.so.0");
  EXPECT_EQ(refusal(), ErrorKind::hostile_file);
}

TEST_F(InstallTest, BadSettingsAreRefusedWithNothingWritten) {
  const std::vector<std::vector<std::string>> bad{
      {"--pod-cidr=10.244.1.5/24"},                        // host bits set
      {"--pod-cidr=10.244.1.0/31"},                        // no room
      {"--pod-cidr=10.244.1.0"},                           // no length
      {"--pod-cidr=banana/24"},                            //
      {"--pod-cidr=10.1.0.0/16,10.2.0.0/16"},              // two IPv4
      {"--pod-cidr="},                                     // none
      {"--pod-cidr=10.1.0.0/16", "--mtu=67"},              //
      {"--pod-cidr=10.1.0.0/16", "--mtu=70000"},           //
      {"--pod-cidr=10.1.0.0/16,fd00::/64", "--mtu=1000"},  // IPv6 needs 1280
      {"--pod-cidr=10.1.0.0/16", "--mtu=9x"},              //
      {"--pod-cidr=10.1.0.0/16", "--bridge=a-name-too-long0"},
      {"--pod-cidr=10.1.0.0/16", "--bridge=a/b"},  //
      {"--pod-cidr=10.1.0.0/16", "--conflist-name=../x.conflist"},
      {"--pod-cidr=10.1.0.0/16", "--conflist-name=10-brisk.conf"},
      {"--pod-cidr=10.1.0.0/16", "--ip-masq=maybe"},  //
      {"--pod-cidr=10.1.0.0/16", "--unknown=1"},      //
      {"--pod-cidr=10.1.0.0/16", "stray"},            //
  };
  for (const auto& args : bad) {
    try {
      Options o = no_env(args);
      o.source_dir = src_, o.cni_bin_dir = bin_, o.cni_conf_dir = net_;
      install(o);
      ADD_FAILURE() << "accepted: " << args.back();
    } catch (const InstallError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::bad_argument) << args.back();
    }
  }
  EXPECT_TRUE(tree(bin_).empty());
  EXPECT_TRUE(tree(net_).empty());
}

TEST_F(InstallTest, APerNodeEntryGivesThisNodeItsOwnCidr) {
  // As a ConfigMap volume holds them: keys are symlinks into ..data/.
  std::string cidrs = dir_.path() + "/pod-cidrs";
  fs::create_directories(cidrs + "/..data");
  write(cidrs + "/..data/node-a", "10.7.0.0/24, fd00:7::/64\n");
  fs::create_symlink("..data/node-a", cidrs + "/node-a");
  o_.pod_cidr_dir = cidrs;
  o_.node_name = "node-a";
  install(o_);
  EXPECT_EQ(conf()["plugins"][0]["ipam"]["ranges"],
            json::parse(R"([[{"subnet":"10.7.0.0/24"}],[{"subnet":"fd00:7::/64"}]])"));
  o_.node_name = "node-b";  // no entry: the default
  install(o_);
  EXPECT_EQ(conf()["plugins"][0]["ipam"]["ranges"][0][0]["subnet"], "10.244.1.0/24");
  o_.node_name = "../pod-cidrs/node-a";
  EXPECT_EQ(refusal(), ErrorKind::bad_argument);
  ASSERT_EQ(::mkfifo((cidrs + "/node-f").c_str(), 0644), 0);
  o_.node_name = "node-f";
  EXPECT_EQ(refusal(), ErrorKind::hostile_file);
  write(cidrs + "/node-x", "10.7.0.1/24");
  o_.node_name = "node-x";
  EXPECT_EQ(refusal(), ErrorKind::bad_argument);
}

TEST(InstallOptions, FlagsOverrideTheEnvironment) {
  std::map<std::string, std::string> env{{"BRISK_POD_CIDR", "10.1.0.0/16"}, {"BRISK_MTU", "1450"},
                                         {"BRISK_BRIDGE", "envbr"},         {"BRISK_CNI_BIN_DIR", "/b"},
                                         {"BRISK_IP_MASQ", "false"},        {"BRISK_NODE_NAME", "n1"}};
  Options o = parse_options({"--bridge", "flagbr", "--pod-cidr=10.2.0.0/16, fd00:1::/64", "--portmap=off"},
                            [&](const char* n) -> std::optional<std::string> {
                              auto it = env.find(n);
                              return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
                            });
  EXPECT_EQ(o.bridge, "flagbr");
  EXPECT_EQ(o.pod_cidrs, (std::vector<std::string>{"10.2.0.0/16", "fd00:1::/64"}));
  EXPECT_EQ(o.mtu, 1450u);
  EXPECT_EQ(o.cni_bin_dir, "/b");
  EXPECT_EQ(o.cni_conf_dir, "/host/etc/cni/net.d");
  EXPECT_FALSE(o.ip_masq);
  EXPECT_EQ(o.portmap, Portmap::off);
  EXPECT_EQ(o.node_name, "n1");
  EXPECT_TRUE(no_env({"--no-ip-masq", "--ip-masq"}).ip_masq);
  EXPECT_FALSE(no_env({"--no-ip-masq"}).ip_masq);

  json c = json::parse(conflist(o, false));
  EXPECT_EQ(c["plugins"][0]["mtu"], 1450);
  EXPECT_EQ(c["plugins"][0]["ipMasq"], false);
  EXPECT_EQ(c["plugins"][0]["ipam"]["ranges"][1][0]["subnet"], "fd00:1::/64");
  EXPECT_EQ(c["plugins"][0]["ipam"]["routes"], json::parse(R"([{"dst":"0.0.0.0/0"},{"dst":"::/0"}])"));
}

// The binary as nobody: a directory it cannot write is refused, exit 1,
// and nothing lands in the other one.
TEST(InstallBinary, RefusesADirectoryItCannotWrite) {
  if (!brisk::test::is_root()) GTEST_SKIP() << "needs root to switch to nobody";
  brisk::test::TempDir dir;
  fs::permissions(dir.path(), fs::perms(0755));
  // The installer installs the brisk-* beside it: a directory laid out as
  // in the image (the build tree also holds brisk-bench).
  std::string src = dir.path() + "/src", bin = dir.path() + "/bin", net = dir.path() + "/net";
  for (const auto& d : {src, bin, net}) fs::create_directories(d);
  fs::copy_file(BRISK_CNI_INSTALL_PATH, src + "/brisk-cni-install");
  fs::copy_file(BRISK_BRIDGE_PATH, src + "/brisk-bridge");
  const std::string installer = src + "/brisk-cni-install";
  ASSERT_EQ(::chown(bin.c_str(), 65534, 65534), 0);  // nobody may write bin, not net
  brisk::Output out = brisk::Command("setpriv")
                          .args({"--reuid=65534", "--regid=65534", "--clear-groups", installer,
                                 "--pod-cidr=10.1.0.0/16", "--cni-bin-dir", bin, "--cni-conf-dir", net})
                          .stdout_to(brisk::Sink::capture())
                          .stderr_to(brisk::Sink::capture())
                          .check(false)
                          .output();
  EXPECT_EQ(out.status.exit.code().value_or(-1), 1) << out.err;
  EXPECT_TRUE(tree(bin).empty());
  EXPECT_TRUE(tree(net).empty());
  // As root the same command works, and prints what it installed.
  out = brisk::Command(installer)
            .args({"--pod-cidr=10.1.0.0/16", "--cni-bin-dir", bin, "--cni-conf-dir", net})
            .stdout_to(brisk::Sink::capture())
            .stderr_to(brisk::Sink::capture())
            .check(false)
            .output();
  EXPECT_EQ(out.status.exit.code().value_or(-1), 0) << out.err;
  EXPECT_EQ(tree(bin), std::vector<std::string>{"brisk-bridge"});
  EXPECT_EQ(brisk::test::slurp(bin + "/brisk-bridge"), brisk::test::slurp(BRISK_BRIDGE_PATH));
  EXPECT_TRUE(fs::exists(net + "/10-brisk.conflist"));
}

}  // namespace
}  // namespace brisk::cni::install
