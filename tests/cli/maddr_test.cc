// ip maddress: the grammar (ipmaddr.c's), then brisk against ip in twin
// throwaway namespaces whose devices have fixed addresses (so their
// multicast lists are alike): show, add, del and their errors, and a batch
// that ends after an add, as ip's does.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::ip_run;

TEST(IpMaddrGrammar, Forms) {
  EXPECT_EQ(ok({"m"}).verb, verb_named("maddr show")) << "ip's table: maddress before monitor";
  EXPECT_EQ(ok({"mo"}).verb, verb_named("monitor"));
  EXPECT_EQ(ok({"maddr", "show", "v0"}).filter().dev, "v0");
  EXPECT_EQ(ok({"maddr", "lst", "dev", "v0"}).filter().dev, "v0");
  auto add = ok({"maddr", "add", "1:0:5e:0:0:0x5", "dev", "v0"});
  EXPECT_EQ(add.verb, verb_named("maddr add"));
  EXPECT_FALSE(add.mutates()) << "an ioctl, run alone";
  EXPECT_EQ(add.maddr().dev, "v0");
  EXPECT_EQ(add.maddr().address, (std::vector<uint8_t>{1, 0, 0x5e, 0, 0, 5}));
  EXPECT_EQ(ok({"maddr", "d", "address", "01:00:5e:00:00:05", "dev", "v0"}).verb, verb_named("maddr del"));
  EXPECT_EQ(ok({"maddr", "add", "dev", "v0"}).maddr().address, std::vector<uint8_t>(6, 0))
      << "ip's zeroed ifreq";

  struct Case {
    Words words;
    std::string message;
    int exit_code;
  };
  for (const auto& [words, message, exit_code] : std::vector<Case>{
           {{"maddr", "add", "01:00:5e:00:00", "dev", "v0"},
            "Error: Invalid address length 5 - must be 6 bytes",
            1},
           {{"maddr", "add", "1:0:5e:0:0:zz", "dev", "v0"}, "\"zz\" is invalid lladdr.", 1},
           {{"maddr", "add", "1:0:5e:0:0:100", "dev", "v0"}, "\"100\" is invalid lladdr.", 1},
           {{"maddr", "add", "01:00:5e:00:00:05"}, "Not enough information: \"dev\" is required.", 255},
           {{"maddr", "add", "01:00:5e:00:00:05", "dev", "v0", "dev", "v1"},
            "Error: duplicate \"dev\": \"v1\" is the second value.",
            255},
           {{"maddr", "add", "01:00:5e:00:00:05", "02:00:5e:00:00:06", "dev", "v0"},
            "Error: duplicate \"address\": \"02:00:5e:00:00:06\" is the second value.",
            255},
           {{"maddr", "add", "01:00:5e:00:00:05", "dev", "v0/x"},
            "Error: argument \"v0/x\" is wrong: \"dev\" not a valid ifname",
            255},
           {{"maddr", "show", "dev", "v0", "v1"}, "either \"dev\" is duplicate, or \"v1\" is a garbage", 255},
           {{"maddr", "foo"}, "Command \"foo\" is unknown, try \"brisk maddr help\".", 255}}) {
    auto e = error_of(words);
    EXPECT_EQ(e.message, message) << ::testing::PrintToString(words);
    EXPECT_EQ(e.exit_code, exit_code) << ::testing::PrintToString(words);
  }
  EXPECT_TRUE(error_of({"maddr", "add", "help"}).help);
  EXPECT_TRUE(error_of({"maddr", "help"}).help);
}

const std::vector<Words> kFixedVeth = {{"link", "set", "lo", "up"},
                                       {"link", "add", "v0", "address", "02:00:00:00:00:01", "type", "veth",
                                        "peer", "name", "v1", "address", "02:00:00:00:00:02"},
                                       {"link", "set", "v0", "up"},
                                       {"link", "set", "v1", "up"},
                                       {"maddr", "add", "01:00:5e:00:00:07", "dev", "v1"}};

class IpMaddrGolden : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin(kFixedVeth);
  }
};

TEST_F(IpMaddrGolden, ShowsAsIp) {
  for (const Words& args : std::vector<Words>{{"maddr"},
                                              {"maddress", "show"},
                                              {"maddr", "show", "dev", "v1"},
                                              {"maddr", "show", "v0"},
                                              {"maddr", "show", "nosuch"},
                                              {"-4", "maddr"},
                                              {"-6", "maddr"},
                                              {"-o", "maddr"},
                                              {"-j", "maddr"},
                                              {"-j", "-p", "maddr", "show", "dev", "v1"}})
    same(args);
}

TEST_F(IpMaddrGolden, ChangesAsIp) {
  for (const Words& args :
       std::vector<Words>{{"maddr", "add", "01:00:5e:00:00:05", "dev", "v0"},
                          {"maddr", "add", "address", "33:33:00:00:00:09", "dev", "v0"},
                          {"maddr", "del", "01:00:5e:00:00:07", "dev", "v1"},
                          {"maddr", "del", "01:00:5e:00:00:07", "dev", "v1"},      // ioctl: ENOENT, 1
                          {"maddr", "add", "01:00:5e:00:00:05", "dev", "nosuch"},  // ENODEV, 1
                          {"maddr", "show"}}) {
    same(args);
    EXPECT_EQ(ip_run({"maddr"}, ns()).out, ip_run({"maddr"}, ip_ns()).out) << ::testing::PrintToString(args);
  }
}

// ip exits once its ioctl is done, so nothing after an add or del in a batch runs.
TEST(IpMaddrBatch, EndsAfterTheIoctlAsIpDoes) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/maddr.batch";
  for (const std::string& text :
       {std::string(
            "link add v0 address 02:00:00:00:00:01 type veth peer name v1 address 02:00:00:00:00:02\n"
            "link set v0 up\nmaddr show dev v0\nmaddr add 01:00:5e:00:00:05 dev v0\nlink set v1 up\n"),
        std::string("link add v0 address 02:00:00:00:00:01 type veth peer name v1 address 02:00:00:00:00:02\n"
                    "maddr del 01:00:5e:00:00:05 dev v0\nlink set v1 up\n")}) {
    cli_test::write_file(file, text);
    for (bool force : {false, true}) {
      UniqueFd brisk_ns = brisk::test::make_netns();
      UniqueFd ip_ns = brisk::test::make_netns();
      cli_test::expect_same_batch(file, force, brisk_ns.get(), ip_ns.get());
      for (const Words& show : {Words{"maddr"}, Words{"-br", "link"}})
        EXPECT_EQ(ip_run(show, brisk_ns.get()).out, ip_run(show, ip_ns.get()).out) << text;
    }
  }
}

}  // namespace
}  // namespace brisk::ipcli
