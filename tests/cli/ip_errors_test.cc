// What the CLI prints, and with which status it ends, for each kind of
// failure: typed errors in, ip 6.1's words out, with no kernel. The parity
// tests show the same texts against ip itself, as root; these pin the
// mapping down everywhere, and fail if a case is mapped by anything but
// the error's type and the command's object.
#include "cli/ip/ip_errors.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {
namespace {

using netlink::Argument;
using netlink::missing_argument;
using netlink::NetlinkError;

// A verb by its name, as each object's module defines it.
const Verb& verb(std::string_view name) {
  const Verb* found = verb_named(name);
  if (!found) throw std::logic_error("no verb named " + std::string(name));
  return *found;
}

// The same failure, whatever brisk's words for it: a detail reworded or
// dropped changes nothing the CLI decides.
NetlinkError missing(Argument argument, const char* op = "an op") {
  NetlinkError e = missing_argument(op, "obj", argument, "nope");
  e.detail = "reworded, or in another language";
  return e;
}

TEST(IpErrors, AMissingArgumentIsIpsArgumentErrorByArgumentAndObject) {
  struct Case {
    Argument argument;
    const Verb& verb;
    const char* text;  // nullptr: not an argument error
  };
  const Case cases[] = {
      {Argument::master, verb("link set"), "Error: argument \"nope\" is wrong: Device does not exist\n"},
      {Argument::backup_port, verb("link set"), "Error: argument \"nope\" is wrong: Device does not exist\n"},
      {Argument::vrf, verb("link set"), "Error: argument \"nope\" is wrong: Not a valid VRF name\n"},
      {Argument::vrf, verb("addr show"), "Error: argument \"nope\" is wrong: Not a valid VRF name\n"},
      {Argument::vrf, verb("route add"), "Error: argument \"nope\" is wrong: Invalid VRF\n"},
      {Argument::vrf, verb("route show"), "Error: argument \"nope\" is wrong: Invalid VRF\n"},
      {Argument::vrf, verb("nexthop show"), "Error: argument \"nope\" is wrong: Invalid VRF\n"},
      {Argument::netns, verb("link add"), "Error: argument \"nope\" is wrong: Invalid \"netns\" value\n"},
      {Argument::link_netns, verb("link set"),
       "Error: argument \"nope\" is wrong: Invalid \"link-netns\" value\n"},
      {Argument::nexthop_device, verb("route add"),
       "Cannot find device \"nope\"\nError: cannot parse nexthop"},
      {Argument::vxlan_device, verb("link add"), "Cannot find device \"nope\""},
      {Argument::device, verb("addrlabel add"), "Error: argument \"nope\" is wrong: dev is invalid\n"},
      {Argument::device, verb("token set"), "Error: argument \"nope\" is wrong: dev is invalid\n"},
      {Argument::device, verb("ntable show"), "Error: argument \"nope\" is wrong: \"DEV\" is invalid"},
      {Argument::device, verb("nexthop add"), "Error: argument \"nope\" is wrong: Device does not exist\n"},
      {Argument::device, verb("monitor"), "Error: argument \"nope\" is wrong: Device does not exist\n"},
      {Argument::device, verb("addr add"), nullptr},  // ip finds it missing when it runs
      {Argument::device, verb("route show"), nullptr},
      {Argument::link, verb("link add"), nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(netlink::argument_name(c.argument) + std::string(" in verb ") + std::string(c.verb.name));
    auto text = argument_error(missing(c.argument), c.verb);
    if (c.text)
      EXPECT_EQ(text, std::optional<std::string>(c.text));
    else
      EXPECT_FALSE(text) << *text;
  }
  // Not ENODEV, or no argument: never an argument error.
  NetlinkError other = missing(Argument::master);
  other.code = EPERM;
  EXPECT_FALSE(argument_error(other, verb("link set")));
  EXPECT_FALSE(
      argument_error(NetlinkError{.code = ENODEV, .op = "link set", .detail = "master 'x' does not exist"},
                     verb("link set")))
      << "words alone decide nothing";
}

TEST(IpErrors, AMissingDeviceIsCannotFindDeviceAndExitsOne) {
  NetlinkError e = missing(Argument::link);
  e.kernel = true;  // resolved by a GETLINK the kernel answered ENODEV
  EXPECT_EQ(missing_device(e), "nope");
  EXPECT_EQ(runtime_message(e), "Cannot find device \"nope\"");
  EXPECT_EQ(exit_status(e, verb("link add"), false), 1);  // ip's parser exit(1), not rtnl_talk's 2
  EXPECT_FALSE(ends_on_refusal(e, verb("neigh add")));
  // With the kernel's own words, those are printed instead.
  e.ext_ack = "Unknown device";
  EXPECT_FALSE(missing_device(e));
  EXPECT_EQ(runtime_message(e), "Error: Unknown device.");
  EXPECT_EQ(exit_status(e, verb("link add"), false), 2);
}

TEST(IpErrors, AKernelRefusalWithoutWordsIsRtnetlinkAnswers) {
  NetlinkError e{.code = EEXIST, .op = "addr add", .object = "10.0.0.1/24", .kernel = true};
  EXPECT_EQ(runtime_message(e), "RTNETLINK answers: File exists");
  EXPECT_EQ(exit_status(e, verb("addr add"), false), 2);
  EXPECT_EQ(exit_status(e, verb("addr add"), true), 1);  // a failed batch line makes the batch 1
}

TEST(IpErrors, NamespaceFilesAreWordedByTheStepThatFailed) {
  auto step = [](netlink::FileStep s, const char* path, int code) {
    NetlinkError e{.code = code, .op = "an op", .object = "blue", .detail = "anything"};
    e.file_step = s;
    e.path = path;
    return e;
  };
  EXPECT_EQ(netns_message(step(netlink::FileStep::create, "/run/netns/blue", EEXIST)),
            "Cannot create namespace file \"/run/netns/blue\": File exists");
  EXPECT_EQ(netns_message(step(netlink::FileStep::bind, "/proc/42/ns/net", ENOENT)),
            "Bind /proc/42/ns/net -> /run/netns/blue failed: No such file or directory");
  EXPECT_EQ(netns_message(step(netlink::FileStep::bind, "/proc/thread-self/ns/net", EPERM)),
            "Bind /proc/self/ns/net -> /run/netns/blue failed: Operation not permitted");
  EXPECT_EQ(netns_message(step(netlink::FileStep::remove, "/run/netns/blue", ENOENT)),
            "Cannot remove namespace file \"/run/netns/blue\": No such file or directory");
  EXPECT_FALSE(netns_message(step(netlink::FileStep::none, "", EPERM)));
  EXPECT_EQ(netns_message(NetlinkError{.code = ENOENT, .op = kNetnsOpen, .object = "blue"}),
            "Cannot open network namespace \"blue\": No such file or directory");
}

TEST(IpErrors, ADumpTheKernelEndedSaysSoInTheCommandsWords) {
  NetlinkError e{.code = EINVAL, .op = "any list", .kernel = true};
  EXPECT_EQ(dump_ended(e, verb("route show")), "") << "not a dump";
  e.dump = true;
  EXPECT_EQ(dump_ended(e, verb("route show")), "\nDump terminated");
  EXPECT_EQ(dump_ended(e, verb("addr flush")), "\nFlush terminated");
  EXPECT_EQ(dump_ended(e, verb("nexthop flush")), "\nDump terminated. Failed to flush nexthops");
  EXPECT_EQ(exit_status(e, verb("rule show"), false), kArgumentExit);  // ip rule list's 1, negated
  e.dump = false;
  EXPECT_EQ(exit_status(e, verb("rule show"), false), 2);
}

TEST(IpErrors, TheCLIsOwnMarkersAreKnownByAddressNotByText) {
  NetlinkError flush{
      .code = 0, .op = kFlushIncomplete, .detail = "*** Flush remains incomplete after 10 rounds. ***"};
  EXPECT_EQ(runtime_message(flush), flush.detail);
  EXPECT_EQ(exit_status(flush, verb("route flush"), false), kArgumentExit);
  // The same words in another string are another op.
  static const char same_words[] = "flush rounds";
  flush.op = same_words;
  EXPECT_NE(exit_status(flush, verb("route flush"), false), kArgumentExit);
  NetlinkError show{.code = ENODEV, .op = kDeviceShow, .object = "eth9"};
  EXPECT_EQ(runtime_message(show), "Device \"eth9\" does not exist.");
}

}  // namespace
}  // namespace brisk::ipcli
