// `link-netns NAME` in link add|set, as ip reads it: the id that named
// namespace has here (the kernel assigns one if it has none), sent as
// IFLA_LINK_NETNSID; so a veth's peer is made there. A name that opens no
// namespace is ip's argument error; link-netns and link-netnsid together
// are its duplicate.
#include <gtest/gtest.h>

#include <regex>

#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

// The same commands by one tool in a fresh pair of named namespaces: what
// it printed, and the two namespaces' links (MACs left out) and ids after.
std::string session(const std::string& tool) {
  cli_test::NamedNetns here, other;
  for (const auto* ns : {&here, &other}) EXPECT_EQ(cli_test::ip_run({"netns", "add", ns->name()}).code, 0);
  EXPECT_EQ(
      cli_test::ip_run({"-n", here.name(), "link", "add", "v0", "type", "veth", "peer", "name", "v1"}).code,
      0);
  std::string log;
  auto as_other = [&](std::string text) {
    // The other namespace's name differs per session: one word for it.
    for (std::size_t at; (at = text.find(other.name())) != std::string::npos;)
      text.replace(at, other.name().size(), "OTHER");
    return text;
  };
  for (Words args : std::vector<Words>{
           {"link", "set", "v0", "link-netns", other.name()},
           {"link", "add", "x0", "link-netns", other.name(), "type", "veth", "peer", "name", "x1"},
           {"link", "add", "y0", "link-netns", "nosuch", "type", "veth", "peer", "name", "y1"},
           {"link", "add", "z0", "type", "veth", "peer", "name", "z1", "link-netns", other.name()},
           {"link", "add", "w0", "link-netns", other.name(), "link-netnsid", "3", "type", "veth"},
           {"link", "set", "v0", "link-netns"}}) {
    args.insert(args.begin(), {"-n", here.name()});
    auto r = tool == "ip" ? cli_test::ip_run(args) : cli_test::brisk_run(args);
    log += as_other(r.err) + "rc=" + std::to_string(r.code) + "\n";
  }
  static const std::regex mac("([0-9a-f]{2}:){5}[0-9a-f]{2}");
  for (const auto* ns : {&here, &other})
    log += std::regex_replace(cli_test::ip_run({"-n", ns->name(), "-br", "link"}).out, mac, "MAC");
  log += as_other(cli_test::ip_run({"-n", here.name(), "netns", "list-id"}).out);
  return log;
}

TEST(LinkNetns, AsIp) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  std::string theirs = session("ip");
  EXPECT_NE(theirs.find("x1@if"), std::string::npos) << theirs;  // the peer went to the other namespace
  EXPECT_EQ(session("brisk"), theirs);
}

}  // namespace
}  // namespace brisk::ipcli
