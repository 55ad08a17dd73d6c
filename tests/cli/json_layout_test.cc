// `-j -p` layout, without the kernel: the shapes iproute2's json_writer
// prints (golden comparisons with ip itself are in cli_test.cc).
#include "cli/ip/json_layout.h"

#include <gtest/gtest.h>

namespace brisk::ipcli {
namespace {

using Json = nlohmann::ordered_json;

TEST(IpPrettyJson, ObjectsInAnArrayOpenOnItsLine) {
  Json links =
      Json::array({Json{{"ifindex", 1}, {"ifname", "lo"}, {"flags", Json::array({"LOOPBACK", "UP"})}},
                   Json{{"ifindex", 2}, {"flags", Json::array()}}});
  EXPECT_EQ(ip_pretty_json(links),
            "[ {\n"
            "        \"ifindex\": 1,\n"
            "        \"ifname\": \"lo\",\n"
            "        \"flags\": [ \"LOOPBACK\",\"UP\" ]\n"
            "    },{\n"
            "        \"ifindex\": 2,\n"
            "        \"flags\": [ ]\n"
            "    } ]");
}

TEST(IpPrettyJson, NestedObjectsIndentAFurtherLevel) {
  Json link =
      Json::array({Json{{"stats64", Json{{"rx", Json{{"bytes", 0}, {"packets", 0}}}}}, {"up", true}}});
  EXPECT_EQ(ip_pretty_json(link),
            "[ {\n"
            "        \"stats64\": {\n"
            "            \"rx\": {\n"
            "                \"bytes\": 0,\n"
            "                \"packets\": 0\n"
            "            }\n"
            "        },\n"
            "        \"up\": true\n"
            "    } ]");
}

TEST(IpPrettyJson, EmptyContainersAndScalars) {
  EXPECT_EQ(ip_pretty_json(Json::array()), "[ ]");
  EXPECT_EQ(ip_pretty_json(Json::array({Json::object()})), "[ {} ]");
  EXPECT_EQ(ip_pretty_json(Json::array({1, "a\"b", nullptr})), "[ 1,\"a\\\"b\",null ]");
}

// Bridge timers: ip writes "0.00" and "14.60", which a JSON double would
// print as 0.0 and 14.6. Written bare, compact and pretty, as numbers.
TEST(IpJsonText, RawNumbersAreWrittenBare) {
  Json port{{"hold_timer", ip_raw_number("0.00")},
            {"name", "a \"quoted\" word"},
            {"gc_timer", ip_raw_number("14.60")}};
  EXPECT_EQ(ip_json_text(Json::array({port}), false),
            "[{\"hold_timer\":0.00,\"name\":\"a \\\"quoted\\\" word\",\"gc_timer\":14.60}]");
  EXPECT_EQ(
      ip_json_text(port, true),
      "{\n    \"hold_timer\": 0.00,\n    \"name\": \"a \\\"quoted\\\" word\",\n    \"gc_timer\": 14.60\n}");
  auto back = Json::parse(ip_json_text(port, false));
  EXPECT_DOUBLE_EQ(back["gc_timer"].get<double>(), 14.6);
  EXPECT_EQ(ip_json_text(Json{{"plain", "text"}}, false), "{\"plain\":\"text\"}");
}

}  // namespace
}  // namespace brisk::ipcli
