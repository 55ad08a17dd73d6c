// ip's global options beyond the object's own grammar: -c (colours), -N
// (numbers for names), -h and -iec (counters a human reads), -0 / -f link
// (the links alone), -M and -B, -rc, "--" and -help; read in ip's order so
// that each abbreviation means what it means to ip, and printed byte for
// byte as ip 6.1 prints them.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "cli/ip/print_style.h"
#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

Globals globals_of(Words words) {
  words.insert(words.begin(), "brisk");
  words.emplace_back("link");
  auto inv = parse_globals(words);
  EXPECT_TRUE(inv) << (inv ? "" : inv.error().message);
  return inv ? inv->globals : Globals{};
}

std::string global_error_text(Words words) {
  words.insert(words.begin(), "brisk");
  auto inv = parse_globals(words);
  EXPECT_FALSE(inv) << "accepted: " << ::testing::PrintToString(words);
  return inv ? "" : inv.error().message;
}

TEST(IpGlobalOptions, AbbreviationsInIpsOrder) {
  EXPECT_TRUE(globals_of({"-h"}).human);  // -human comes before -help in ip
  EXPECT_TRUE(globals_of({"-human-readable"}).human);
  EXPECT_TRUE(globals_of({"-i"}).iec);
  EXPECT_TRUE(globals_of({"-N"}).numeric);
  EXPECT_TRUE(globals_of({"-a"}).all);
  EXPECT_TRUE(globals_of({"--Numeric"}).numeric);  // a double dash is one, as in ip
  EXPECT_EQ(globals_of({"-c"}).color, ColorMode::always);
  EXPECT_EQ(globals_of({"-color=auto"}).color, ColorMode::automatic);
  EXPECT_EQ(globals_of({"--col=never"}).color, ColorMode::never);
  EXPECT_EQ(globals_of({"-color=always"}).color, ColorMode::always);
  EXPECT_TRUE(globals_of({"-fo"}).force);  // "-f" alone is -family
  EXPECT_EQ(globals_of({"-rc", "0x100000"}).rcvbuf, 0x100000u);
  // -resolve holds its place though brisk has none: "-r" is not -rcvbuf.
  EXPECT_EQ(global_error_text({"-r", "route"}), "option \"-r\" is unknown, try \"brisk help\"");
  EXPECT_EQ(global_error_text({"-color=bogus", "link"}),
            "option \"-color=bogus\" is unknown, try \"brisk help\"");
  EXPECT_EQ(global_error_text({"-echo", "link"}), "option \"-echo\" is unknown, try \"brisk help\"");
}

TEST(IpGlobalOptions, ValuesAndTheirErrors) {
  auto bad = parse_globals(Words{"brisk", "-rc", "x", "link"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "Invalid rcvbuf size 'x'");
  EXPECT_TRUE(bad.error().exact);
  EXPECT_FALSE(parse_globals(Words{"brisk", "-rc", "4294967296", "link"}));
  EXPECT_FALSE(parse_globals(Words{"brisk", "-rc"}));
  for (const Words& help : std::vector<Words>{{"brisk", "-help"}, {"brisk", "-f", "help", "link"}}) {
    auto h = parse_globals(help);
    ASSERT_FALSE(h);
    EXPECT_TRUE(h.error().help);
  }
  // "--" ends the options: what follows is the object, even a dash word.
  auto inv = parse_globals(Words{"brisk", "-j", "--", "link", "show"});
  ASSERT_TRUE(inv) << inv.error().message;
  EXPECT_TRUE(inv->globals.json);
  EXPECT_EQ(inv->args, (Words{"link", "show"}));
  auto dashed = parse_globals(Words{"brisk", "--", "-j"});
  ASSERT_TRUE(dashed) << dashed.error().message;
  EXPECT_FALSE(dashed->globals.json);
  EXPECT_EQ(dashed->args, (Words{"-j"}));
}

TEST(IpGlobalOptions, HumanCountsAsIpPrintsThem) {
  auto human = [](uint64_t n, bool iec) {
    set_print_style({.human = true, .iec = iec});
    return human_count(n);
  };
  EXPECT_EQ(human(999, false), "999");
  EXPECT_EQ(human(1000, false), "1.00k");
  EXPECT_EQ(human(12345, false), "12.3k");
  EXPECT_EQ(human(123456, false), "123k");
  EXPECT_EQ(human(1234567, false), "1.23M");
  EXPECT_EQ(human(1023, true), "1023");
  EXPECT_EQ(human(1536, true), "1.50ki");  // ip's own spelling: "k", then "i"
  EXPECT_EQ(human(5ull << 40, true), "5.00Ti");
  EXPECT_EQ(human(UINT64_MAX, false), "18.4E");
  set_print_style({});
  EXPECT_EQ(human_count(1234567), "1234567");  // without -h
}

TEST(IpGlobalOptions, PaintsOnlyWhenColourIsOn) {
  set_print_style({});
  EXPECT_EQ(paint(Paint::ifname, "v0"), "v0");
  EXPECT_EQ(settle_painted("a \033[0m b"), "a \033[0m b");
  set_print_style({.color = true});
  EXPECT_EQ(paint(Paint::ifname, "v0"), "\033[36mv0\033[0m");
  EXPECT_EQ(paint(Paint::none, "v0"), "v0");
  // ip's "%s " fields: the space inside the colour, the next field's own dropped.
  EXPECT_EQ(settle_painted("dev " + paint_spaced(Paint::ifname, "v0") + " proto"),
            "dev \033[36mv0 \033[0mproto");
  set_print_style({.color = true, .dark = true});
  EXPECT_EQ(paint(Paint::down, "DOWN"), "\033[1;31mDOWN\033[0m");
  set_print_style({});
}

// Colour is never on for -j, and auto is on only when stdout is a terminal.
TEST(IpGlobalOptions, ColourFollowsIpsRules) {
  Globals g;
  g.color = ColorMode::always;
  EXPECT_TRUE(style_of(g).color);
  g.json = true;
  EXPECT_FALSE(style_of(g).color);
  g.json = false;
  g.color = ColorMode::automatic;
  EXPECT_EQ(style_of(g).color, ::isatty(STDOUT_FILENO) == 1);
}

// A veth pair with addresses, routes, a neighbour and rules of both
// families; counters made to pass 1000 for -h.
class GlobalOptionsOutput : public cli_test::CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    for (const Words& args : std::vector<Words>{
             cli_test::fixed_veth_pair(),
             {"link", "set", "v0", "up"},
             {"link", "set", "v1", "up"},
             {"addr", "add", "10.0.5.1/24", "brd", "+", "dev", "v0"},
             {"addr", "add", "10.0.5.2/24", "peer", "10.0.6.2", "dev", "v0"},
             {"addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"},
             {"route", "add", "10.50.0.0/16", "via", "10.0.5.9", "dev", "v0"},
             {"route", "add", "10.51.0.0/16", "from", "10.0.5.1", "dev", "v0", "table", "7", "proto",
              "static"},
             {"route", "add", "10.52.0.0/16", "nexthop", "via", "10.0.5.8", "nexthop", "via", "10.0.5.7"},
             {"route", "add", "2001:db8:5::/64", "via", "2001:db8::3", "dev", "v0"},
             {"neigh", "add", "10.0.5.3", "lladdr", "02:00:00:00:00:03", "dev", "v0"},
             {"rule", "add", "from", "10.1.0.0/16", "to", "10.2.0.0/16", "iif", "v0", "oif", "v1", "lookup",
              "5"},
             {"nexthop", "add", "id", "3", "via", "10.0.5.6", "dev", "v0"}})
      ASSERT_EQ(cli_test::ip_run(args, ns()).code, 0) << ::testing::PrintToString(args);
    send_broadcasts(1200, 700);  // past 1000 packets and 1M bytes
  }

  // `count` UDP broadcasts of `size` bytes out of v0, from a thread in the namespace.
  void send_broadcasts(int count, int size) {
    std::thread([&] {
      ASSERT_EQ(::setns(ns(), CLONE_NEWNET), 0);
      int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      ASSERT_GE(s, 0);
      int on = 1;
      ::setsockopt(s, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
      sockaddr_in to{
          .sin_family = AF_INET, .sin_port = htons(9), .sin_addr = {htonl(0x0a0005ff)}, .sin_zero = {}};
      std::string payload(static_cast<std::size_t>(size), 'x');
      for (int i = 0; i < count; ++i)
        ::sendto(s, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
      ::close(s);
    }).join();
  }

  void same(const Words& args) { cli_test::expect_same_output(args, ns()); }
};

// Colours, -N, -h/-iec, the link family's and other families' shows and
// the other options, as ip prints them for this state, are compared without
// root: recorded_cases.h's "global_options". Here, what the environment or
// the kernel's end state decides.

// The dark-background palette, which COLORFGBG selects for ip and brisk alike.
TEST_F(GlobalOptionsOutput, ColoursAsIp) {
  ::setenv("COLORFGBG", "15;0", 1);
  same({"-c", "addr"});
  same({"-c", "route", "show", "table", "all"});
  ::unsetenv("COLORFGBG");
}

// Changes under a family that cannot take them are refused as ip refuses
// them, and change nothing.
TEST_F(GlobalOptionsOutput, LinkFamilyAsIp) {
  for (const Words& args : std::vector<Words>{{"-0", "addr", "flush", "dev", "v0"},
                                              {"-0", "route", "flush", "all"},
                                              {"-0", "route", "add", "10.1.0.0/24", "dev", "v0"},
                                              {"-B", "route", "add", "10.1.0.0/24", "dev", "v0"}})
    same(args);
  // Nothing was flushed by the refused -0 flush.
  same({"addr", "show", "dev", "v0"});
}

// `args` refused by ip with 255, and by brisk with the same words.
void expect_refused_as_ip(const Words& args) {
  auto theirs = cli_test::ip_run(args), ours = cli_test::brisk_run(args);
  SCOPED_TRACE(::testing::PrintToString(args));
  EXPECT_EQ(theirs.code, 255);
  EXPECT_EQ(ours.out, theirs.out);
  EXPECT_EQ(ours.err, theirs.err);
  EXPECT_EQ(ours.code, theirs.code);
}

// -n NAME is /run/netns/NAME as written, entered before anything else is
// read (ip's netns_switch): a path, "..", an empty name or a missing one
// fails with ip's words and 255, even before a batch file that is missing
// or has a bad line.
TEST(IpGlobalOptionsNetns, OpenedAndRefusedAsIp) {
  brisk::test::TempDir dir;
  std::string bad = dir.path() + "/bad";
  cli_test::write_file(bad, "link set lo up\nlink frob\n");
  std::string missing = "brisk-test-none-" + std::to_string(::getpid());
  for (const std::string& name :
       {std::string("/x"), std::string("a/b"), std::string(".."), std::string("."), std::string(), missing}) {
    for (const Words& rest : std::vector<Words>{
             {"link", "show", "lo"}, {"-batch", dir.path() + "/none"}, {"-batch", bad}, {"-j", "addr"}}) {
      Words args{"-n", name};
      args.insert(args.end(), rest.begin(), rest.end());
      expect_refused_as_ip(args);
    }
  }
}

// ip takes its options in order: -n is entered where it stands, and -V
// prints the version and reads no further. So a namespace that cannot be
// entered fails before what follows it (-V, an unknown option, a bad
// -rc) and after what comes first.
TEST(IpGlobalOptionsNetns, TakenInOrderAsIp) {
  std::string missing = "brisk-test-none-" + std::to_string(::getpid());
  for (const Words& args : std::vector<Words>{{"-n", missing, "-V"},
                                              {"-n", missing, "-x", "link"},
                                              {"-n", missing, "-rc", "x", "link"},
                                              {"-rc", "x", "-n", missing, "link"},
                                              {"-n", missing, "-n", "/x", "link"},
                                              {"-n", "/x", "-n", missing, "link"}})
    expect_refused_as_ip(args);
  // Before the namespace, -V ends it all, and an unknown option fails as
  // itself (brisk's words name its own help, so only the subject is compared).
  for (const Words& args : std::vector<Words>{{"-V", "-n", missing}, {"-V", "-x", "link"}}) {
    auto theirs = cli_test::ip_run(args), ours = cli_test::brisk_run(args);
    SCOPED_TRACE(::testing::PrintToString(args));
    EXPECT_EQ(theirs.code, 0);
    EXPECT_EQ(ours.code, 0);
    EXPECT_NE(ours.out.find("brisk"), std::string::npos) << ours.out;
    EXPECT_EQ(ours.err, "");
  }
  auto unknown = cli_test::brisk_run({"-x", "-n", missing, "link"});
  EXPECT_EQ(unknown.code, cli_test::ip_run({"-x", "-n", missing, "link"}).code);
  EXPECT_NE(unknown.err.find("\"-x\" is unknown"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace brisk::ipcli

namespace brisk::ipcli {
namespace {

// -all netns exec and delete walk every named namespace: the script runs
// in a mount namespace of its own with an empty /run/netns, so it meets
// only the two it names and deletes nothing of the host's.
TEST(IpGlobalOptionsAll, EveryNamedNamespaceAsIp) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto script = [](const std::string& tool) {
    return "mount -t tmpfs tmpfs /run/netns && ip netns add a && ip netns add b || exit 99\n"
           "T=" +
           tool +
           "\n"
           "$T -all netns exec ip link show lo; echo rc=$?\n"
           "$T -a netns exec false; echo rc=$?\n"
           "$T -a netns exec nosuchprog; echo rc=$?\n"
           "$T -all netns exec; echo rc=$?\n"
           "$T netns exec; echo rc=$?\n"
           "$T -all netns delete; echo rc=$?\n"
           "ip netns list; echo listed\n";
  };
  auto run = [&](const std::string& tool) {
    return cli_test::run({"unshare", "--mount", "--propagation", "private", "sh", "-c", script(tool)});
  };
  auto theirs = run("ip"), ours = run(BRISK_CLI_PATH);
  ASSERT_EQ(theirs.code, 0) << theirs.err;
  EXPECT_NE(theirs.out.find("netns: a"), std::string::npos);
  EXPECT_EQ(ours.out, theirs.out);
  EXPECT_EQ(ours.err, theirs.err);
  EXPECT_EQ(ours.code, theirs.code);
}

}  // namespace
}  // namespace brisk::ipcli
