// ip token: list, get, set and del, their words and errors, byte for byte
// and status for status as ip 6.1, in twin throwaway namespaces.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpTokenGrammar, VerbsInIpsOrder) {
  EXPECT_EQ(ok({"token"}).verb, verb_named("token show"));
  EXPECT_EQ(ok({"to", "s"}).verb, verb_named("token show"));  // "to" is token, "s" show
  EXPECT_EQ(ok({"token", "g", "dev", "d0", "x"}).filter().dev, "d0");
  auto set = ok({"token", "a", "::1a:2b/64", "dev", "d0", "dev", "d1", "::9"});
  EXPECT_EQ(set.verb, verb_named("token set"));
  EXPECT_EQ(set.token().token, "::1a:2b");  // the first token and the first dev
  EXPECT_EQ(set.token().dev, "d0");
  EXPECT_FALSE(set.mutates());  // sent alone, outside a batch's pipeline
  auto del = ok({"token", "d", "::5", "dev", "d0"});
  EXPECT_EQ(del.token().token, "::");  // del reads no token
  EXPECT_EQ(error_of({"token", "set", "::5"}).message,
            "Not enough information: \"dev\" argument is required.");
  EXPECT_EQ(error_of({"token", "set", "dev", "d0"}).message, "Not enough information: token is required.");
  EXPECT_EQ(error_of({"token", "set", "10.0.0.1", "dev", "d0"}).message,
            "Error: inet6 prefix is expected rather than \"10.0.0.1\".");
  EXPECT_TRUE(error_of({"token", "set", "::5", "help"}).help);
  EXPECT_EQ(error_of({"token", "frob"}).message, "Command \"frob\" is unknown, try \"brisk token help\".");
}

class IpToken : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    TwinNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({cli_test::fixed_veth_pair()});
  }
};

TEST_F(IpToken, ChangesAndShowsAsIp) {
  using Words = std::vector<std::string>;
  for (const Words& args : std::vector<Words>{
           {"token"},
           {"token", "set", "::1a:2b/64", "dev", "v0"},  // printed as ip's inet_ntop prints it: ::0.26.0.43
           {"token", "list"},
           {"token", "get", "dev", "v0"},
           {"token", "add", "::1:2:3:4", "dev", "v1"},
           {"token", "show", "foo", "dev", "v1"},
           {"token", "set", "::5", "dev", "lo"},  // the kernel refuses a loopback device: status 2
           {"token", "set", "zz", "dev", "v0"},
           {"token", "set", "::5"},
           {"token", "list", "dev", "nope"},  // ip's argument error while it parses: 255
           {"token", "set", "::5", "dev", "nope"},
           {"token", "del", "dev", "v0"},
           {"token"},
           {"token", "list", "dev"},
       }) {
    for (bool json : {false, true}) {
      Words full = args;
      if (json) full.insert(full.begin(), "-j");
      same(full);
    }
  }
  EXPECT_EQ(ip_run({"token", "get", "dev", "v1"}, ns()).out,
            "token ::1:2:3:4 dev v1\n");  // ip reads what brisk set
}

// In a batch: a refused set fails its line (-force goes on); a missing
// device ends the batch as ip's argument error does.
TEST_F(IpToken, BatchAsIp) {
  brisk::test::TempDir dir;
  for (const char* text : {"token set ::7 dev lo\ntoken set ::8 dev v0\ntoken list\n",
                           "token set ::9 dev v1\ntoken list dev nope\ntoken set ::a dev v0\n"}) {
    std::string file = dir.path() + "/batch";
    cli_test::write_file(file, text);
    for (bool force : {false, true}) cli_test::expect_same_batch(file, force, ns(), ip_ns());
  }
}

}  // namespace
}  // namespace brisk::ipcli
