// The table of objects and their verbs: what the dispatcher, the runner and
// the batch rules rely on, checked without a kernel.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli/ip/objects.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(ObjectTable, EachObjectOnceWithItsVerbsAndHelp) {
  std::set<std::string_view> names;
  std::set<const Verb*> verbs;
  for (const IpObject* object : ip_objects()) {
    SCOPED_TRACE(std::string(object->name.word));
    EXPECT_TRUE(names.insert(object->name.word).second) << "listed twice";
    ASSERT_NE(object->parse, nullptr);
    ASSERT_NE(object->usage, nullptr);
    EXPECT_TRUE(object->usage().starts_with("Usage: brisk ")) << object->usage();
    EXPECT_FALSE(object->verbs.empty());
    for (const Verb* verb : object->verbs) {
      SCOPED_TRACE(std::string(verb->name));
      EXPECT_TRUE(verbs.insert(verb).second) << "a verb in two objects";
      // Exactly one way to run it.
      int ways = (verb->queue != nullptr) + (verb->run != nullptr) + (verb->run_to_exit != nullptr);
      EXPECT_EQ(ways, 1);
      EXPECT_EQ(verb_named(verb->name), verb);
      // Only a change can be a plain line of a batch, or keep device names.
      EXPECT_TRUE(!verb->keeps_device_names || verb->mutates());
      EXPECT_TRUE(!verb->predicted_delete || verb->mutates());
      // ip reads a batch's rest as input only for a command it ends on.
      EXPECT_TRUE(!verb->reads_rest_of_batch || verb->run_to_exit);
    }
  }
  EXPECT_EQ(names.size(), 15u);
  EXPECT_EQ(verbs.size(), 73u);
  EXPECT_EQ(verb_named("no such verb"), nullptr);
}

TEST(ObjectTable, AbbreviationsPickWhatIpPicks) {
  struct Case {
    const char* word;
    const char* object;  // nullptr: no object
  };
  const Case cases[] = {
      {"a", "address"},    {"addrl", "addrlabel"}, {"m", "maddress"}, {"mo", "monitor"},
      {"r", "route"},      {"ru", "rule"},         {"n", "neighbor"}, {"neighbour", "neighbor"},
      {"nt", "ntable"},    {"ntbl", "ntable"},     {"l", "link"},     {"netn", "netns"},
      {"netc", "netconf"}, {"fdb", "fdb"},         {"fd", nullptr},   {"nex", "nexthop"},
      {"ne", "neighbor"},  {"tunt", "tuntap"},     {"tap", "tuntap"}, {"ta", "tuntap"},
      {"tun", nullptr},    {"t", nullptr},         {"to", "token"},   {"", nullptr},
  };
  for (const auto& c : cases) {
    const IpObject* object = object_named(c.word);
    if (c.object) {
      ASSERT_NE(object, nullptr) << c.word;
      EXPECT_EQ(object->name.word, c.object) << c.word;
    } else {
      EXPECT_EQ(object, nullptr) << c.word;
    }
  }
}

TEST(ObjectTable, AParsedCommandPointsAtOneOfItsObjectsVerbs) {
  const Words lines[] = {{"link", "add", "v0", "type", "veth"},
                         {"addr", "add", "10.0.0.1/24", "dev", "v0"},
                         {"route"},
                         {"rule", "add", "table", "5"},
                         {"neigh", "flush", "dev", "v0"},
                         {"netns", "list"},
                         {"monitor", "link"},
                         {"tuntap", "add", "t0", "mode", "tap"}};
  for (const auto& words : lines) {
    IpCommand cmd = ok(words);
    ASSERT_NE(cmd.verb, nullptr) << words[0];
    const IpObject* object = object_named(words[0]);
    ASSERT_NE(object, nullptr);
    bool listed = false;
    for (const Verb* verb : object->verbs) listed |= verb == cmd.verb;
    EXPECT_TRUE(listed) << cmd.verb->name;
  }
}

}  // namespace
}  // namespace brisk::ipcli
