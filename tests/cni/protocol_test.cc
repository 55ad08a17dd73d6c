// The protocol layer with no kernel: environment and CNI_ARGS checks,
// config errors, VERSION, and each version's result shape.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "brisk/cni/bridge_config.h"
#include "brisk/cni/environment.h"
#include "brisk/cni/error.h"
#include "brisk/cni/plugin.h"
#include "brisk/cni/result.h"

namespace brisk::cni {
namespace {

using nlohmann::json;

PluginOutput run(std::map<std::string, std::string> vars, std::string stdin_data) {
  PluginInput in;
  in.getenv = [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  in.stdin_data = std::move(stdin_data);
  return run_plugin(in);
}

std::map<std::string, std::string> add_env() {
  return {{"CNI_COMMAND", "ADD"},
          {"CNI_CONTAINERID", "c1"},
          {"CNI_NETNS", "/proc/self/ns/net"},
          {"CNI_IFNAME", "eth0"},
          {"CNI_PATH", "/usr/lib/cni"}};
}

const char* kConf = R"({"cniVersion":"1.0.0","name":"n","type":"brisk-bridge","ipam":{}})";

json error_of(const PluginOutput& out) {
  EXPECT_EQ(out.exit_code, 1);
  return json::parse(out.stdout_data, nullptr, false);
}

TEST(Protocol, NoCommandPrintsTheAboutTextAndSucceeds) {
  auto out = run({}, "");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.stdout_data, "");
  EXPECT_NE(out.stderr_data.find(
                "CNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0"),
            std::string::npos);
}

TEST(Protocol, VersionAnswersInTheVersionAsked) {
  auto out = run({{"CNI_COMMAND", "VERSION"}}, R"({"cniVersion":"0.4.0"})");
  EXPECT_EQ(out.exit_code, 0);
  json j = json::parse(out.stdout_data);
  EXPECT_EQ(j["cniVersion"], "0.4.0");
  EXPECT_EQ(j["supportedVersions"].size(), 7u);
  EXPECT_EQ(json::parse(run({{"CNI_COMMAND", "VERSION"}}, "").stdout_data)["cniVersion"], "1.1.0");
}

TEST(Protocol, BadEnvironmentGetsTheSpecsCodes) {
  struct Case {
    std::string var, value;
    unsigned code;
    std::string msg;
  } cases[] = {
      {"CNI_COMMAND", "BOGUS", 4, "unknown CNI_COMMAND: BOGUS"},
      {"CNI_CONTAINERID", "", 4, "required env variables [CNI_CONTAINERID] missing"},
      {"CNI_CONTAINERID", "-bad", 4, "invalid characters in containerID"},
      {"CNI_CONTAINERID", "\xff\xfe", 4,
       "invalid characters in containerID"},  // not UTF-8: still a JSON answer
      {"CNI_NETNS", "", 4, "required env variables [CNI_NETNS] missing"},
      {"CNI_IFNAME", "", 4, "required env variables [CNI_IFNAME] missing"},
      {"CNI_IFNAME", "a-name-far-too-long", 4, "interface name is too long"},
      {"CNI_IFNAME", "eth/0", 4, "interface name contains / or : or whitespace characters"},
      {"CNI_IFNAME", "..", 4, "interface name is . or .."},
      {"CNI_PATH", "", 4, "required env variables [CNI_PATH] missing"},
      {"CNI_ARGS", "FOO=1", 4, "ARGS: unknown args"},
      {"CNI_ARGS", "broken", 4, "ARGS: invalid pair"},
      {"CNI_NETNS", "/etc/hostname", 4, "failed to open netns"},
  };
  for (const auto& c : cases) {
    auto env = add_env();
    if (c.value.empty())
      env.erase(c.var);
    else
      env[c.var] = c.value;
    json e = error_of(run(env, kConf));
    EXPECT_EQ(e["code"], c.code) << c.var << "=" << c.value << ": " << e.dump();
    EXPECT_NE(e["msg"].get<std::string>().find(c.msg), std::string::npos) << e.dump();
  }
}

TEST(Protocol, BadConfigGetsTheSpecsCodes) {
  struct Case {
    std::string conf;
    unsigned code;
    std::string msg;
  } cases[] = {
      {"{not json", 6, "error unmarshall network config"},
      {R"({"cniVersion":"1.0.0","type":"brisk-bridge"})", 7, "missing network name"},
      {R"({"cniVersion":"1.0.0","name":"bad name"})", 7, "invalid characters found in network name"},
      {R"({"cniVersion":"9.9.9","name":"n"})", 1, "incompatible CNI versions"},
      {R"({"cniVersion":"1.0.0","name":"n","mtu":"big"})", 7, "\"mtu\" must be an integer"},
      {R"({"cniVersion":"1.0.0","name":"n","vlan":5000})", 7, "invalid VLAN ID 5000"},
      {R"({"cniVersion":"1.0.0","name":"n","hairpinMode":true,"promiscMode":true})", 7,
       "cannot set hairpin mode"},
      {R"({"cniVersion":"1.0.0","name":"n","runtimeConfig":{"mac":"zz"}})", 7, "invalid MAC address"},
      {R"({"cniVersion":"1.0.0","name":"n","bridge":"br/0"})", 4, "interface name contains"},
  };
  for (const auto& c : cases) {
    json e = error_of(run(add_env(), c.conf));
    EXPECT_EQ(e["code"], c.code) << c.conf << ": " << e.dump();
    EXPECT_NE(e["msg"].get<std::string>().find(c.msg), std::string::npos) << e.dump();
  }
  // CHECK needs 0.4.0, GC and STATUS 1.1.0.
  auto env = add_env();
  env["CNI_COMMAND"] = "CHECK";
  json e = error_of(run(env, R"({"cniVersion":"0.3.1","name":"n"})"));
  EXPECT_EQ(e["code"], 1);
  EXPECT_EQ(e["msg"], "config version does not allow CHECK");
  e = error_of(run({{"CNI_COMMAND", "GC"}, {"CNI_PATH", "/x"}}, R"({"cniVersion":"1.0.0","name":"n"})"));
  EXPECT_EQ(e["msg"], "config version does not allow GC");
}

TEST(Protocol, MacComesFromArgsThenConfigArgsThenRuntimeConfig) {
  Environment env{.command = Command::add, .args = "MAC=02:00:00:00:00:01"};
  EXPECT_EQ(parse_bridge_config(R"({"cniVersion":"1.0.0","name":"n"})", env).mac, "02:00:00:00:00:01");
  EXPECT_EQ(parse_bridge_config(
                R"({"cniVersion":"1.0.0","name":"n","args":{"cni":{"mac":"02:00:00:00:00:02"}}})", env)
                .mac,
            "02:00:00:00:00:02");
  EXPECT_EQ(
      parse_bridge_config(R"({"cniVersion":"1.0.0","name":"n","args":{"cni":{"mac":"02:00:00:00:00:02"}},
                                    "runtimeConfig":{"mac":"02:00:00:00:00:03"}})",
                          env)
          .mac,
      "02:00:00:00:00:03");
  auto c = parse_bridge_config(R"({"cniVersion":"1.0.0","name":"n","isDefaultGateway":true})", env);
  EXPECT_TRUE(c.is_gateway);
  EXPECT_EQ(c.bridge, "cni0");
}

Result sample() {
  Result r;
  r.interfaces = {{.name = "cni0", .mac = "02:00:00:00:00:01"},
                  {.name = "eth0", .mac = "02:00:00:00:00:02", .sandbox = "/run/netns/x"}};
  r.ips = {{.address = *netlink::IpPrefix::parse("10.1.0.5/16"),
            .gateway = netlink::IpAddress::parse("10.1.0.1").value(),
            .interface = 1},
           {.address = *netlink::IpPrefix::parse("fd00::5/64"),
            .gateway = netlink::IpAddress::parse("fd00::1").value(),
            .interface = 1}};
  r.routes = {{.dst = *netlink::IpPrefix::parse("0.0.0.0/0"),
               .gw = netlink::IpAddress::parse("10.1.0.1").value(),
               .mtu = 1400}};
  r.dns.nameservers = {"10.1.0.1"};
  return r;
}

TEST(Result, EachVersionHasItsShape) {
  json v1 = json::parse(result_to_json(sample(), {1, 0, 0}).dump());
  EXPECT_EQ(v1["cniVersion"], "1.0.0");
  EXPECT_FALSE(v1["ips"][0].contains("version"));
  EXPECT_EQ(v1["ips"][0]["address"], "10.1.0.5/16");
  EXPECT_EQ(v1["ips"][0]["interface"], 1);
  EXPECT_FALSE(v1["routes"][0].contains("mtu"));  // 1.1 only
  EXPECT_EQ(v1["interfaces"][1]["sandbox"], "/run/netns/x");
  EXPECT_EQ(v1["dns"]["nameservers"][0], "10.1.0.1");

  json v04 = json::parse(result_to_json(sample(), {0, 4, 0}).dump());
  EXPECT_EQ(v04["ips"][0]["version"], "4");
  EXPECT_EQ(v04["ips"][1]["version"], "6");

  json v11 = json::parse(result_to_json(sample(), {1, 1, 0}).dump());
  EXPECT_EQ(v11["routes"][0]["mtu"], 1400);

  json v02 = json::parse(result_to_json(sample(), {0, 2, 0}).dump());
  EXPECT_EQ(v02["ip4"]["ip"], "10.1.0.5/16");
  EXPECT_EQ(v02["ip4"]["routes"][0]["dst"], "0.0.0.0/0");
  EXPECT_EQ(v02["ip6"]["ip"], "fd00::5/64");
  EXPECT_FALSE(v02.contains("ips"));
  EXPECT_TRUE(v02["dns"].is_object());
}

TEST(Result, ReadsBackEveryShape) {
  for (SpecVersion v : {SpecVersion{0, 2, 0}, SpecVersion{0, 3, 1}, SpecVersion{0, 4, 0},
                        SpecVersion{1, 0, 0}, SpecVersion{1, 1, 0}}) {
    Result back = result_from_json(json::parse(result_to_json(sample(), v).dump()));
    ASSERT_EQ(back.ips.size(), 2u) << v.to_string();
    EXPECT_EQ(back.ips[1].address.to_string(), "fd00::5/64");
    EXPECT_EQ(back.routes.size(), 1u);
  }
  EXPECT_THROW(result_from_json(json::parse(R"({"ips":[{"address":"nonsense"}]})")), CniException);
  EXPECT_THROW(result_from_json(json::parse(R"({"ips":"x"})")), CniException);
}

TEST(Version, ParsesAndCompares) {
  EXPECT_EQ(SpecVersion::parse("1.0")->to_string(), "1.0.0");
  EXPECT_FALSE(SpecVersion::parse("1.x"));
  EXPECT_FALSE(SpecVersion::parse(""));
  EXPECT_FALSE(SpecVersion::parse("1.0.0.0"));
  EXPECT_LT(*SpecVersion::parse("0.4.0"), *SpecVersion::parse("1.0.0"));
}

}  // namespace
}  // namespace brisk::cni
