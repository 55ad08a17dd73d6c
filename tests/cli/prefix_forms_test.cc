// Every form of PREFIX ip 6.1's get_prefix() takes, turned into the text the
// library parses, and what it refuses; then the same through the commands
// that take a prefix, parsed without a kernel.
#include "cli/ip/prefix_forms.h"

#include <gtest/gtest.h>

#include "cli/ip/ip.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(PrefixForms, WhatIpAcceptsBecomesDottedQuadAndDecimalLength) {
  const std::pair<const char*, const char*> cases[] = {
      {"10.0.3.1/24", "10.0.3.1/24"},
      {"10.0.3.1/255.255.255.0", "10.0.3.1/24"},    // lxc-net, ifupdown
      {"10.0.3.1/255.255.255.255", "10.0.3.1/32"},  // a host
      {"10.0.3.1/0.0.0.0", "10.0.3.1/0"},
      {"10.0.3.1/255.255.255", "10.0.3.1/24"},  // the mask's own short form
      {"10.0.3.1/0x18", "10.0.3.1/24"},         // strtoul base 0
      {"10.0.3.1/030", "10.0.3.1/24"},
      {"10.0.3.1/+25", "10.0.3.1/25"},
      {"10.5/16", "10.5.0.0/16"},  // components fill from the left
      {"10", "10.0.0.0"},
      {"0x0a.010.0.1", "10.8.0.1"},
      {"10.0.3.1", "10.0.3.1"},  // no length given stays so
      {"fd00::1/64", "fd00::1/64"},
      {"fd00::1/0x40", "fd00::1/64"},
      {"fd01::1/255.255.0.0", "fd01::1/16"},
      {"::/0", "::/0"},
  };
  for (const auto& [given, want] : cases)
    EXPECT_EQ(canonical_prefix(given).value_or("refused"), want) << given;
}

TEST(PrefixForms, WhatIpRefusesStaysRefused) {
  for (const char* text : {"10.0.3.1/255.0.255.0", "10.0.3.1/33", "10.0.3.1/0x21", "10.0.3.1/-1", "10.0.3.1/",
                           "10.0.3.1/24x", "256.1.1.1/24", "1.2.3.4.5/8", "10..3.1/24", "10.0.3.1.", "",
                           "fd00::1/129", "fd00::g/64", "fd00::1/255.255.0.1", "default", "x/24"})
    EXPECT_FALSE(canonical_prefix(text)) << text;
}

TEST(PrefixForms, EveryCommandThatTakesAPrefixTakesThem) {
  auto a = ok({"addr", "add", "10.0.3.1/255.255.255.0", "broadcast", "+", "dev", "lxcbr0"});
  EXPECT_EQ(a.addr().prefix, "10.0.3.1/24");
  EXPECT_EQ(a.addr().broadcast, "10.0.3.255");
  EXPECT_EQ(ok({"addr", "del", "10.5/16", "dev", "d0"}).addr().prefix, "10.5.0.0/16");
  EXPECT_EQ(ok({"route", "add", "10.9.0.0/255.255.0.0", "dev", "d0"}).route().prefix, "10.9.0.0/16");
  EXPECT_EQ(ok({"route", "del", "0x0a/8", "dev", "d0"}).route().prefix, "10.0.0.0/8");
  EXPECT_EQ(ok({"rule", "add", "from", "10.1/255.255.0.0", "table", "7"}).rule().from, "10.1.0.0/16");
  EXPECT_EQ(ok({"token", "set", "::1a/0x40", "dev", "d0"}).token().token, "::1a");
  auto bad = error_of({"addr", "add", "10.0.3.1/255.0.255.0", "dev", "d0"});
  EXPECT_EQ(format_error(bad.message, bad.exact),
            "Error: any valid prefix is expected rather than \"10.0.3.1/255.0.255.0\".");
  EXPECT_EQ(bad.exit_code, 1);
}

}  // namespace
}  // namespace brisk::ipcli
