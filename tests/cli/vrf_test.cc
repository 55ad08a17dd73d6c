// `vrf NAME` where ip takes it: route add|change|... (the VRF's table),
// link add|set (the VRF as master) and route show|flush (the VRF's table,
// without its local and broadcast routes). ip looks the name up as it
// parses: one that is no VRF device is its argument error, which ends
// even a -force batch. (This machine's kernel has no vrf module, so what
// the tests can compare is that error and what a batch applies around it.)
#include <gtest/gtest.h>

#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

class Vrf : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    TwinNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({cli_test::fixed_veth_pair(),
               {"link", "set", "v0", "up"},
               {"addr", "add", "10.0.7.1/24", "dev", "v0"}});
  }
  void same_state() {
    for (const Words& show :
         std::vector<Words>{{"route", "show", "table", "all"}, {"-br", "link"}, {"link", "show", "v1"}})
      EXPECT_EQ(cli_test::ip_run(show, ns()).out, cli_test::ip_run(show, ip_ns()).out)
          << ::testing::PrintToString(show);
  }
};

TEST_F(Vrf, NoVrfIsIpsArgumentError) {
  for (const Words& args :
       std::vector<Words>{{"route", "add", "10.71.0.0/16", "dev", "v0", "vrf", "red"},
                          {"route", "add", "10.71.0.0/16", "vr", "v1", "dev", "v0"},
                          {"route", "replace", "10.71.0.0/16", "dev", "v0", "vrf", "red"},
                          {"link", "set", "v1", "vrf", "red"},
                          {"link", "set", "v1", "vrf", "v0"},
                          {"link", "add", "z0", "vrf", "lo", "type", "veth", "peer", "name", "z1"},
                          {"link", "add", "z0", "type", "veth", "peer", "name", "z1", "vrf", "lo"},
                          {"route", "show", "vrf", "red"},
                          {"route", "flush", "vrf", "v0"},
                          {"route", "get", "10.0.7.9", "vrf", "v0"}})
    same(args);
  same_state();
}

// The line's error ends the batch where it stands: what came before is applied, nothing after.
TEST_F(Vrf, ItEndsABatchEvenWithForce) {
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/vrf.batch";
  cli_test::write_file(file,
                       "route add 10.70.0.0/16 dev v0\n"
                       "link set v1 mtu 1300\n"
                       "route add 10.71.0.0/16 dev v0 vrf red\n"
                       "route add 10.72.0.0/16 dev v0\n"
                       "link set v1 vrf v0\n"
                       "link set v1 mtu 1200\n");
  for (bool force : {false, true}) {
    cli_test::expect_same_batch(file, force, ns(), ip_ns());
    same_state();
  }
}

}  // namespace
}  // namespace brisk::ipcli
