// `encap ip|ip6|mpls ...` on routes: ip's lwtunnel grammar, its errors,
// and the encap as ip prints it (text, -j with the encap's own "dst" after
// the route's, -j -p, -c and -d). This kernel takes ip and ip6 encaps and
// refuses mpls (no mpls_iptunnel), which brisk then reports as ip does.
#include <gtest/gtest.h>

#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

class RouteEncap : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    TwinNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({cli_test::fixed_veth_pair(), {"link", "set", "v0", "up"}});
  }
};

TEST_F(RouteEncap, AddShowAndDeleteAsIp) {
  for (const Words& args : std::vector<Words>{
           {"route", "add", "10.1.0.0/24", "encap", "ip", "id", "5", "dst", "1.2.3.4", "ttl", "9", "tos",
            "0x10", "key", "csum", "dev", "v0"},
           {"route", "add", "10.2.0.0/24", "encap", "ip6", "id", "7", "src", "2001:db8::1", "dst",
            "2001:db8::2", "hoplimit", "3", "tc", "2", "seq", "dev", "v0"},
           {"route", "add", "10.3.0.0/24", "dev", "v0", "encap", "ip", "id", "0x10", "src", "10.0.0.1"},
           {"route", "add", "10.8.0.0/24", "encap", "ip", "id", "5", "dev", "v0", "metric", "7"},
           {"route", "add", "10.7.0.0/24", "encap", "mpls", "100/200", "ttl", "5", "dev",
            "v0"},  // refused here
           {"route", "del", "10.8.0.0/24", "encap", "ip", "id", "6", "dev", "v0", "metric",
            "7"},  // another encap
       })
    same(args);
  for (const Words& show : std::vector<Words>{{"route"},
                                              {"-j", "route"},
                                              {"-j", "-p", "route", "show", "10.1.0.0/24"},
                                              {"-c", "route"},
                                              {"-d", "route"},
                                              {"route", "show", "10.2.0.0/24"}})
    same(show);
  same({"route", "del", "10.8.0.0/24", "encap", "ip", "id", "5", "dev", "v0", "metric", "7"});
  same({"route"});
}

TEST_F(RouteEncap, ErrorsAsIp) {
  for (const Words& args :
       std::vector<Words>{{"route", "add", "10.4.0.0/24", "dev", "v0", "encap", "ip", "key"},
                          {"route", "add", "10.4.0.0/24", "dev", "v0", "encap", "ip"},
                          {"route", "add", "10.4.0.0/24", "dev", "v0", "encap"},
                          {"route", "add", "10.5.0.0/24", "dev", "v0", "encap", "foo", "id", "5"},
                          {"route", "add", "10.5.0.0/24", "encap", "ip", "id", "5", "id", "6", "dev", "v0"},
                          {"route", "add", "10.5.0.0/24", "encap", "ip", "key", "key", "dev", "v0"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip", "dst", "1.2.3.4", "bogus"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip", "dst", "2001:db8::1", "dev", "v0"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip", "ttl", "300", "dev", "v0"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip", "tos", "bogus", "dev", "v0"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip6", "tc", "bogus", "dev", "v0"},
                          {"route", "add", "10.6.0.0/24", "encap", "ip", "id", "x", "dev", "v0"},
                          {"route", "add", "10.7.0.0/24", "encap", "mpls", "bogus", "dev", "v0"},
                          {"route", "add", "10.7.0.0/24", "encap", "mpls", "1048576", "dev", "v0"},
                          {"route", "add", "10.7.0.0/24", "encap", "mpls", "5", "ttl", "5", "ttl", "6"}})
    same(args);
  same({"route"});  // nothing was added: the main table does not even exist, an empty show for ip
  same({"route", "show", "table", "main"});
}

// A nexthop object carries an encap as a route does (NHA_ENCAP), printed in
// the object's line and in -d's nh_info of a route through it.
TEST_F(RouteEncap, OnNexthopObjectsAsIp) {
  for (int n : {ns(), ip_ns()}) ASSERT_EQ(cli_test::ip_run({"link", "set", "v1", "up"}, n).code, 0);
  for (const Words& args : std::vector<Words>{
           {"nexthop", "add", "id", "1", "encap", "ip", "id", "5", "dst", "1.2.3.4", "dev", "v0"},
           {"nexthop", "add", "id", "2", "encap", "ip6", "id", "7", "dst", "2001:db8::2", "tc", "3", "dev",
            "v0"},
           {"nexthop", "add", "id", "3", "encap", "mpls", "100", "dev", "v0"},  // refused here
           {"nexthop", "add", "id", "4", "encap", "ip", "dev", "v0"},
           {"nexthop", "add", "id", "5", "encap", "ip", "id", "1", "id", "2", "dev", "v0"},
           {"route", "add", "10.9.0.0/24", "nhid", "1"}})
    same(args);
  for (const Words& show : std::vector<Words>{
           {"nexthop"}, {"-j", "nexthop"}, {"-c", "nexthop"}, {"-d", "route"}, {"-j", "-d", "route"}})
    same(show);
}

TEST_F(RouteEncap, InABatchAsIp) {
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/encap.batch";
  cli_test::write_file(file,
                       "route add 10.1.0.0/24 encap ip id 5 dst 1.2.3.4 dev v0\n"
                       "route add 10.7.0.0/24 encap mpls 100 dev v0\n"
                       "route add 10.2.0.0/24 dev v0 encap ip6 dst 2001:db8::2\n");
  for (bool force : {false, true}) {
    cli_test::expect_same_batch(file, force, ns(), ip_ns());
    same({"-j", "route"});
    for (int n : {ns(), ip_ns()}) cli_test::ip_run({"route", "flush", "dev", "v0"}, n);
  }
}

}  // namespace
}  // namespace brisk::ipcli
