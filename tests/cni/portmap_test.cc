// brisk-portmap chained after brisk-bridge, beside the reference portmap
// chained after the reference bridge (Debian's containernetworking-plugins,
// which runs iptables inside the sandbox's node namespace) as the oracle:
// the same connections reach the pod's listeners, on TCP and UDP, from the
// node, from another pod and from the pod itself, before DEL and not after.
#include "cni/portmap.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <tuple>

#include "brisk/cni/error.h"
#include "cni/cni_driver.h"

namespace brisk::cni::test {
namespace {

using nlohmann::json;

struct PortmapImpl {
  const char* name;
  std::string bridge;
  std::string portmap;
};
const PortmapImpl kOurs{"brisk", BRISK_BRIDGE_PATH, BRISK_PORTMAP_PATH};
const PortmapImpl kTheirs{"reference", "/usr/lib/cni/bridge", "/usr/lib/cni/portmap"};

constexpr const char* kPortmapNodeV4 = "192.168.77.1";  // the node's address (on its lo)
constexpr const char* kPortmapNodeV6 = "fd00:77::1";

json portmap_bridge_conf(const std::string& data_dir, bool v6 = false) {
  json ranges = json::array({json::array({{{"subnet", "10.77.0.0/16"}}})});
  if (v6) ranges.push_back(json::array({{{"subnet", "fd00:88::/64"}}}));
  return {
      {"cniVersion", "1.0.0"}, {"name", "pmnet"},
      {"type", "bridge"},      {"bridge", "pmbr0"},
      {"isGateway", true},     {"isDefaultGateway", true},
      {"hairpinMode", true},   {"ipam", {{"type", "host-local"}, {"ranges", ranges}, {"dataDir", data_dir}}}};
}

json two_mappings() {
  return json::array({{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}},
                      {{"hostPort", 8053}, {"containerPort", 53}, {"protocol", "udp"}}});
}

json portmap_conf(const json& prev, json maps = two_mappings(), const std::string& version = "1.0.0") {
  json c = {{"cniVersion", version},
            {"name", "pmnet"},
            {"type", "portmap"},
            {"capabilities", {{"portMappings", true}}}};
  if (!prev.is_null()) c["prevResult"] = prev;
  c["runtimeConfig"] = {{"portMappings", std::move(maps)}};
  return c;
}

class PortmapTest : public ::testing::Test {
 protected:
  void SetUp() override { fresh(); }
  // A new node namespace (the last one's namespaces deleted).
  void fresh() {
    ASSERT_TRUE(brisk::test::is_root()) << "needs root to make network namespaces";
    box_.reset();
    box_ = std::make_unique<Sandbox>();
    ASSERT_TRUE(sb().ok());
    const std::string& h = sb().host();
    sb().shell_in(h, {"ip", "link", "set", "lo", "up"});
    sb().shell_in(h, {"ip", "addr", "add", std::string(kPortmapNodeV4) + "/32", "dev", "lo"});
    sb().shell_in(h, {"ip", "addr", "add", std::string(kPortmapNodeV6) + "/128", "dev", "lo", "nodad"});
    // The gateway address on the bridge is usable at once.
    sb().shell_in(h, {"sh", "-c",
                      "echo 0 > /proc/sys/net/ipv6/conf/default/accept_dad; "
                      "echo 0 > /proc/sys/net/ipv6/conf/all/accept_dad"});
  }

  // A pod on the bridge; its prevResult.
  json add_pod(const PortmapImpl& impl, const std::string& id, std::string& pod, bool v6 = false) {
    pod = sb().add_pod();
    PluginRun r =
        sb().run(impl.bridge, cni_env("ADD", id, pod), portmap_bridge_conf(sb().data_dir(), v6).dump());
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return r.json();
  }

  PluginRun portmap(const PortmapImpl& impl, const std::string& command, const std::string& id,
                    const std::string& pod, const json& conf) {
    return sb().run(impl.portmap, cni_env(command, id, pod), conf.dump());
  }

  // socat answering "hello" on 80/tcp and 53/udp in the pod, over both
  // families. The answer waits for the client's line: a shell gone before
  // socat hands it the line would make socat quit without the answer.
  std::vector<brisk::Process> listen(const std::string& pod) {
    std::vector<brisk::Process> out;
    for (std::vector<std::string> argv :
         {std::vector<std::string>{"socat", "TCP4-LISTEN:80,reuseaddr,fork", "SYSTEM:read line; echo hello"},
          {"socat", "UDP4-RECVFROM:53,fork", "SYSTEM:read line; echo hello"},
          {"socat", "TCP6-LISTEN:80,reuseaddr,fork,ipv6only=1", "SYSTEM:read line; echo hello"},
          {"socat", "UDP6-RECVFROM:53,fork,ipv6only=1", "SYSTEM:read line; echo hello"}})
      out.push_back(brisk::Command(argv)
                        .netns(pod)
                        .stdout_to(brisk::Sink::null())
                        .stderr_to(brisk::Sink::null())
                        .check(false)
                        .spawn());
    // Ready once both sockets of each family are bound.
    for (int i = 0; i < 200; ++i) {
      std::string ss = sb().shell_in(pod, {"ss", "-Hln", "-tu", "( sport = :80 or sport = :53 )"});
      if (std::count(ss.begin(), ss.end(), '\n') >= 4) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return out;
  }

  // Whether "hello" comes back from host:port over proto, connecting from
  // ns. A client that returns as soon as the answer (or a refusal) comes:
  // socat's would wait out its timeouts on every UDP exchange.
  bool reaches(const std::string& ns, const std::string& proto, const std::string& host, int port,
               int source_port = 0) {
    static const char* kClient =
        "import socket, sys\n"
        "host, port, kind, sport = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])\n"
        "s = socket.socket(socket.AF_INET6 if ':' in host else socket.AF_INET,\n"
        "                  socket.SOCK_STREAM if kind == 'tcp' else socket.SOCK_DGRAM)\n"
        "s.settimeout(3)\n"
        "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
        "if sport: s.bind(('', sport))\n"
        "try:\n"
        "    s.connect((host, port)); s.send(b'ping\\n'); print(s.recv(100).decode())\n"
        "except OSError as e:\n"
        "    print(e)\n";
    brisk::Output o = brisk::Command({"/usr/bin/python3", "-c", kClient, host, std::to_string(port), proto,
                                      std::to_string(source_port)})
                          .netns(ns)
                          .stdout_to(brisk::Sink::capture())
                          .stderr_to(brisk::Sink::null())
                          .timeout(std::chrono::seconds(5))
                          .check(false)
                          .output();
    last_answer_ = o.out;
    return o.out.find("hello") != std::string::npos;
  }
  std::string last_answer_;  // the client's output, for failure messages

  // Whether 8080/tcp and 8053/udp at `node` answer (want) or not, from each (namespace, who).
  void expect_forwarding(bool want, const std::string& node,
                         const std::vector<std::pair<std::string, const char*>>& from) {
    for (const auto& [ns, who] : from)
      for (const char* proto : {"tcp", "udp"})
        EXPECT_EQ(reaches(ns, proto, node, std::string(proto) == "tcp" ? 8080 : 8053), want)
            << proto << " to " << node << " from " << who << ": " << last_answer_;
  }

  Sandbox& sb() { return *box_; }
  std::unique_ptr<Sandbox> box_;
};

TEST_F(PortmapTest, ForwardsTcpAndUdpFromTheNodeAnotherPodAndThePodItselfUntilDel) {
  for (const PortmapImpl& impl : {kOurs, kTheirs}) {
    SCOPED_TRACE(impl.name);
    fresh();  // each implementation on a node of its own
    std::string pod, other;
    json prev = add_pod(impl, "web", pod);
    add_pod(impl, "client", other);
    json conf = portmap_conf(prev);
    PluginRun add = portmap(impl, "ADD", "web", pod, conf);
    ASSERT_EQ(add.exit_code, 0) << add.out << add.err;
    EXPECT_EQ(add.json(), prev);  // prevResult passes through
    auto listeners = listen(pod);
    std::vector<std::pair<std::string, const char*>> from = {
        {sb().host(), "the node"}, {other, "another pod"}, {pod, "the pod itself"}};
    expect_forwarding(true, kPortmapNodeV4, from);
    expect_forwarding(true, "10.77.0.1", {{pod, "the pod, to its gateway"}});
    EXPECT_TRUE(reaches(sb().host(), "tcp", "127.0.0.1", 8080)) << "localhost";
    EXPECT_FALSE(reaches(sb().host(), "tcp", kPortmapNodeV4, 8081)) << "an unmapped port";

    PluginRun del = portmap(impl, "DEL", "web", pod, conf);
    ASSERT_EQ(del.exit_code, 0) << del.out;
    expect_forwarding(false, kPortmapNodeV4, from);
    EXPECT_FALSE(reaches(sb().host(), "tcp", "127.0.0.1", 8080)) << "localhost after DEL";
  }
}

TEST_F(PortmapTest, ForwardsIpv6) {
  for (const PortmapImpl& impl : {kOurs, kTheirs}) {
    SCOPED_TRACE(impl.name);
    fresh();
    std::string pod, other;
    json prev = add_pod(impl, "web6", pod, true);
    add_pod(impl, "client6", other, true);
    json conf = portmap_conf(prev);
    PluginRun add = portmap(impl, "ADD", "web6", pod, conf);
    ASSERT_EQ(add.exit_code, 0) << add.out << add.err;
    auto listeners = listen(pod);
    std::vector<std::pair<std::string, const char*>> from = {
        {sb().host(), "the node"}, {other, "another pod"}, {pod, "the pod itself"}};
    expect_forwarding(true, kPortmapNodeV6, from);
    expect_forwarding(true, kPortmapNodeV4, {{other, "another pod"}});
    ASSERT_EQ(portmap(impl, "DEL", "web6", pod, conf).exit_code, 0);
    expect_forwarding(false, kPortmapNodeV6, from);
  }
}

// A UDP flow to the node that was answered before the mapping (so its
// conntrack entry is established, without DNAT) is forwarded once the
// mapping is in: ADD drops its entry, as the reference does.
TEST_F(PortmapTest, AUdpFlowFromBeforeTheMappingIsForwardedAfterAdd) {
  for (const PortmapImpl& impl : {kOurs, kTheirs}) {
    SCOPED_TRACE(impl.name);
    fresh();
    std::string pod, other;
    json prev = add_pod(impl, "web", pod);
    add_pod(impl, "client", other);
    auto listeners = listen(pod);
    // A node's conntrack is on (a namespace turns it on for the first rule that needs it).
    sb().shell_in(sb().host(), {"nft",
                                "add table ip warm; add chain ip warm c { type filter hook prerouting "
                                "priority 0; }; add rule ip warm c ct state new counter"});
    {
      brisk::Process node_service =
          brisk::Command({"socat", std::string("UDP4-RECVFROM:8053,fork,bind=") + kPortmapNodeV4,
                          "SYSTEM:read line; echo node"})
              .netns(sb().host())
              .stdout_to(brisk::Sink::null())
              .stderr_to(brisk::Sink::null())
              .check(false)
              .spawn();
      bool answered = false;
      for (int i = 0; i < 10 && !answered; ++i) {
        (void)reaches(other, "udp", kPortmapNodeV4, 8053, 40053);
        answered = last_answer_.find("node") != std::string::npos;
      }
      ASSERT_TRUE(answered) << "the node's own service: " << last_answer_;
    }  // gone: the flow's entry stays
    ASSERT_EQ(portmap(impl, "ADD", "web", pod, portmap_conf(prev)).exit_code, 0);
    EXPECT_TRUE(reaches(other, "udp", kPortmapNodeV4, 8053, 40053))
        << "the same flow after ADD: " << last_answer_;
  }
}

// hostIP limits a mapping to one of the node's addresses.
TEST_F(PortmapTest, HostIpLimitsTheMapping) {
  for (const PortmapImpl& impl : {kOurs, kTheirs}) {
    SCOPED_TRACE(impl.name);
    fresh();
    std::string pod;
    json prev = add_pod(impl, "web", pod);
    json maps = json::array(
        {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}, {"hostIP", kPortmapNodeV4}},
         {{"hostPort", 8053}, {"containerPort", 53}, {"protocol", "UDP"}, {"hostIP", kPortmapNodeV6}}});
    ASSERT_EQ(portmap(impl, "ADD", "web", pod, portmap_conf(prev, maps)).exit_code, 0);
    auto listeners = listen(pod);
    EXPECT_TRUE(reaches(sb().host(), "tcp", kPortmapNodeV4, 8080));
    EXPECT_FALSE(reaches(sb().host(), "tcp", "10.77.0.1", 8080)) << "another node address";
    EXPECT_FALSE(reaches(sb().host(), "udp", kPortmapNodeV4, 8053)) << "an IPv6 hostIP, an IPv4 pod";
  }
}

// The result passes prevResult through in the config's version, as the
// reference prints it; both are given the same prevResult.
TEST_F(PortmapTest, TheResultIsTheReferences) {
  json prev = {{"cniVersion", "1.0.0"},
               {"interfaces",
                {{{"name", "cni0"}, {"mac", "0a:58:0a:4d:00:01"}},
                 {{"name", "eth0"}, {"mac", "0a:58:0a:4d:00:05"}, {"sandbox", "/run/netns/x"}}}},
               {"ips",
                {{{"interface", 1}, {"address", "10.77.0.5/16"}, {"gateway", "10.77.0.1"}},
                 {{"interface", 1}, {"address", "fd00:88::5/64"}, {"gateway", "fd00:88::1"}}}},
               {"routes", {{{"dst", "0.0.0.0/0"}}, {{"dst", "::/0"}}}},
               {"dns", {{"nameservers", {"10.77.0.1"}}, {"search", {"example.org"}}}}};
  std::string pod = sb().add_pod();
  for (std::string version : {"0.3.0", "0.3.1", "0.4.0", "1.0.0"}) {
    SCOPED_TRACE(version);
    json p = prev;
    p["cniVersion"] = version;
    for (auto& ip : p["ips"])
      if (version < "1.0.0")
        ip["version"] = ip["address"].get<std::string>().find(':') != std::string::npos ? "6" : "4";
    for (json maps : {json::array(), two_mappings()}) {
      json conf = portmap_conf(p, maps, version);
      PluginRun ours = portmap(kOurs, "ADD", "res", pod, conf);
      PluginRun theirs = portmap(kTheirs, "ADD", "res", pod, conf);
      ASSERT_EQ(ours.exit_code, 0) << ours.out;
      ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
      EXPECT_EQ(ours.json(), theirs.json());
      EXPECT_EQ(portmap(kOurs, "DEL", "res", pod, conf).exit_code, 0);
      EXPECT_EQ(portmap(kTheirs, "DEL", "res", pod, conf).exit_code, 0);
    }
  }
}

std::string ruleset(const Sandbox& s) {
  return s.shell_in(s.host(), {"nft", "list", "table", "ip", "brisk_portmap"});
}

TEST_F(PortmapTest, DelIsIdempotentWithOrWithoutTheNetns) {
  std::string pod;
  json prev = add_pod(kOurs, "web", pod);
  json conf = portmap_conf(prev);
  ASSERT_EQ(portmap(kOurs, "ADD", "web", pod, conf).exit_code, 0);
  EXPECT_NE(ruleset(sb()).find("pmnet web"), std::string::npos) << ruleset(sb());
  for (int i = 0; i < 2; ++i) {
    PluginRun del = portmap(kOurs, "DEL", "web", pod, conf);
    EXPECT_EQ(del.exit_code, 0) << del.out;
    EXPECT_EQ(del.out, "");
  }
  EXPECT_EQ(ruleset(sb()).find("pmnet web"), std::string::npos) << ruleset(sb());

  // CNI_NETNS empty, and a namespace that is gone; DEL needs no prevResult either.
  ASSERT_EQ(portmap(kOurs, "ADD", "web", pod, conf).exit_code, 0);
  json bare = portmap_conf(nullptr);
  PluginRun del = sb().run(kOurs.portmap, cni_env("DEL", "web", ""), bare.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
  EXPECT_EQ(ruleset(sb()).find("pmnet web"), std::string::npos) << ruleset(sb());
  ASSERT_EQ(portmap(kOurs, "ADD", "web", pod, conf).exit_code, 0);
  sb().delete_pod(pod);
  del = portmap(kOurs, "DEL", "web", pod, bare);
  EXPECT_EQ(del.exit_code, 0) << del.out;
  EXPECT_EQ(ruleset(sb()).find("pmnet web"), std::string::npos) << ruleset(sb());
  // And on a node where brisk-portmap never ran.
  Sandbox clean;
  del = clean.run(kOurs.portmap, cni_env("DEL", "web", ""), bare.dump());
  EXPECT_EQ(del.exit_code, 0) << del.out;
}

// externalSetMarkChain jumps to a chain the administrator keeps in the
// table; ADD fails while it is not there.
TEST_F(PortmapTest, ExternalSetMarkChainIsAChainOfTheTable) {
  std::string pod;
  json conf = portmap_conf(add_pod(kOurs, "web", pod));
  conf["externalSetMarkChain"] = "KUBE-MARK-MASQ";
  PluginRun add = portmap(kOurs, "ADD", "web", pod, conf);
  EXPECT_EQ(add.exit_code, 1) << add.out;
  EXPECT_EQ(add.json()["code"], 999) << add.out;
  sb().shell_in(sb().host(), {"nft",
                              "add table ip brisk_portmap; add chain ip brisk_portmap KUBE-MARK-MASQ; "
                              "add rule ip brisk_portmap KUBE-MARK-MASQ meta mark set meta mark | 0x4000"});
  add = portmap(kOurs, "ADD", "web", pod, conf);
  ASSERT_EQ(add.exit_code, 0) << add.out;
  EXPECT_EQ(portmap(kOurs, "CHECK", "web", pod, conf).exit_code, 0);
  EXPECT_NE(ruleset(sb()).find("jump KUBE-MARK-MASQ"), std::string::npos) << ruleset(sb());
  EXPECT_EQ(ruleset(sb()).find("masquerade_bit"), std::string::npos) << "the administrator masquerades";
  conf["externalSetMarkChain"] = "a\"b";
  EXPECT_EQ(portmap(kOurs, "ADD", "web", pod, conf).json()["code"], 999);
}

TEST_F(PortmapTest, GcRemovesTheElementsOfAttachmentsNotInUse) {
  std::string one, two;
  json conf_one = portmap_conf(add_pod(kOurs, "one", one));
  json maps = json::array({{{"hostPort", 9090}, {"containerPort", 80}, {"protocol", "tcp"}}});
  json conf_two = portmap_conf(add_pod(kOurs, "two", two), maps);
  ASSERT_EQ(portmap(kOurs, "ADD", "one", one, conf_one).exit_code, 0);
  ASSERT_EQ(portmap(kOurs, "ADD", "two", two, conf_two).exit_code, 0);
  json gc = {{"cniVersion", "1.1.0"},
             {"name", "pmnet"},
             {"type", "portmap"},
             {"cni.dev/attachments", {{{"containerID", "two"}, {"ifname", "eth0"}}}}};
  PluginRun run = sb().run(kOurs.portmap, {{"CNI_COMMAND", "GC"}}, gc.dump());
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(ruleset(sb()).find("pmnet one"), std::string::npos) << ruleset(sb());
  EXPECT_NE(ruleset(sb()).find("pmnet two"), std::string::npos) << ruleset(sb());
}

TEST_F(PortmapTest, CheckPassesAfterAddAndFailsWhenARuleIsGone) {
  std::string pod;
  json prev = add_pod(kOurs, "web", pod);
  json conf = portmap_conf(prev);
  ASSERT_EQ(portmap(kOurs, "ADD", "web", pod, conf).exit_code, 0);
  PluginRun check = portmap(kOurs, "CHECK", "web", pod, conf);
  EXPECT_EQ(check.exit_code, 0) << check.out;
  // An element gone.
  sb().shell_in(sb().host(), {"nft", "delete", "element", "ip", "brisk_portmap", "hostports_mark_any",
                              "{ udp . 8053 . 127.0.0.1 }"});
  check = portmap(kOurs, "CHECK", "web", pod, conf);
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.json()["code"], 999) << check.out;
  EXPECT_NE(check.out.find("udp . 8053 . 127.0.0.1"), std::string::npos) << check.out;
  // ADD again puts it back; then a rule gone.
  ASSERT_EQ(portmap(kOurs, "ADD", "web", pod, conf).exit_code, 0);
  EXPECT_EQ(portmap(kOurs, "CHECK", "web", pod, conf).exit_code, 0);
  sb().shell_in(sb().host(), {"nft", "flush", "chain", "ip", "brisk_portmap", "hostports_output"});
  check = portmap(kOurs, "CHECK", "web", pod, conf);
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(check.out.find("hostports_output"), std::string::npos) << check.out;
  // Without prevResult, as the reference.
  check = portmap(kOurs, "CHECK", "web", pod, portmap_conf(nullptr));
  EXPECT_NE(check.out.find("Required prevResult missing"), std::string::npos) << check.out;
}

TEST_F(PortmapTest, BadConfigsGetTheReferencesCodes) {
  std::string pod = sb().add_pod();
  json prev = {{"cniVersion", "1.0.0"},
               {"interfaces", {{{"name", "eth0"}, {"sandbox", pod}}}},
               {"ips", {{{"interface", 0}, {"address", "10.77.0.5/16"}}}}};
  auto with = [&](const char* key, json value) {
    json c = portmap_conf(prev);
    c[key] = std::move(value);
    return c.dump();
  };
  auto port = [&](const char* key, int value) {
    json maps = two_mappings();
    maps[0][key] = value;
    return portmap_conf(prev, maps).dump();
  };
  json no_prev = portmap_conf(nullptr);
  json both = portmap_conf(prev);
  both["markMasqBit"] = 14;
  both["externalSetMarkChain"] = "KUBE-MARK-MASQ";
  // (what, config, whether the message is the plugin's own and so must match too)
  std::vector<std::tuple<std::string, std::string, bool>> bad = {
      {"hostPort 0", port("hostPort", 0), true},
      {"containerPort -1", port("containerPort", -1), true},
      {"markMasqBit 32", with("markMasqBit", 32), true},
      {"markMasqBit -1", with("markMasqBit", -1), true},
      {"markMasqBit and externalSetMarkChain", both.dump(), true},
      {"no prevResult", no_prev.dump(), true},
      {"an unknown version", with("cniVersion", "9.9.9"), false},
      {"not JSON", "{", false},
      {"a bad network name", with("name", "a b"), true},
  };
  for (const auto& [what, conf, same_msg] : bad) {
    SCOPED_TRACE(what);
    for (const char* command : {"ADD", "CHECK"}) {
      SCOPED_TRACE(command);
      PluginRun ours = sb().run(kOurs.portmap, cni_env(command, "bad", pod), conf);
      PluginRun theirs = sb().run(kTheirs.portmap, cni_env(command, "bad", pod), conf);
      ASSERT_NE(theirs.exit_code, 0) << theirs.out;
      EXPECT_EQ(ours.exit_code, theirs.exit_code) << ours.out;
      EXPECT_EQ(ours.json()["code"], theirs.json()["code"]) << ours.out << "\nreference: " << theirs.out;
      if (same_msg) {
        EXPECT_EQ(ours.json()["msg"], theirs.json()["msg"]) << ours.out << "\nreference: " << theirs.out;
      }
    }
  }
  // What only iptables refuses in the reference is refused before any rule.
  PluginRun proto = sb().run(
      kOurs.portmap, cni_env("ADD", "bad", pod),
      portmap_conf(prev, json::array({{{"hostPort", 1}, {"containerPort", 1}, {"protocol", "icmp"}}}))
          .dump());
  EXPECT_EQ(proto.json()["code"], 999) << proto.out;
  PluginRun cond =
      sb().run(kOurs.portmap, cni_env("ADD", "bad", pod), with("conditionsV4", {"-m", "conntrack"}));
  EXPECT_EQ(cond.json()["code"], 2) << cond.out;  // unsupported field
  EXPECT_EQ(ruleset(sb()), "");
}

// conditionsV4 narrows which connections are forwarded: here not those to 127.0.0.1.
TEST_F(PortmapTest, ConditionsNarrowTheForwarding) {
  for (const PortmapImpl& impl : {kOurs, kTheirs}) {
    SCOPED_TRACE(impl.name);
    fresh();
    std::string pod;
    json prev = add_pod(impl, "web", pod);
    json conf = portmap_conf(prev);
    conf["conditionsV4"] = {"!", "-d", "127.0.0.1"};
    ASSERT_EQ(portmap(impl, "ADD", "web", pod, conf).exit_code, 0);
    auto listeners = listen(pod);
    EXPECT_TRUE(reaches(sb().host(), "tcp", kPortmapNodeV4, 8080));
    EXPECT_FALSE(reaches(sb().host(), "tcp", "127.0.0.1", 8080));
    ASSERT_EQ(portmap(impl, "DEL", "web", pod, conf).exit_code, 0);
    EXPECT_FALSE(reaches(sb().host(), "tcp", kPortmapNodeV4, 8080));
  }
}

TEST(PortmapConditions, TranslateTheCommonMatchesAndRefuseTheRest) {
  using detail::translate_conditions;
  EXPECT_EQ(translate_conditions({"-s", "10.0.0.0/8", "!", "-d", "10.1.2.3"}, AF_INET),
            "ip saddr 10.0.0.0/8 ip daddr != 10.1.2.3");
  EXPECT_EQ(translate_conditions({"--source", "10.0.0.1,10.0.0.2"}, AF_INET),
            "ip saddr { 10.0.0.1, 10.0.0.2 }");
  EXPECT_EQ(translate_conditions({"-i", "eth+", "!", "-o", "lo"}, AF_INET),
            "iifname \"eth*\" oifname != \"lo\"");
  EXPECT_EQ(translate_conditions(
                {"-m", "addrtype", "!", "--src-type", "LOCAL", "-m", "comment", "--comment", "x"}, AF_INET),
            "fib saddr type != local");
  EXPECT_EQ(translate_conditions({"-d", "fd00::/8"}, AF_INET6), "ip6 daddr fd00::/8");
  for (std::vector<std::string> bad : {std::vector<std::string>{"-m", "conntrack", "--ctstate", "NEW"},
                                       {"-d", "fd00::1"},
                                       {"-s"},
                                       {"!", "-s", "1.1.1.1,2.2.2.2"},
                                       {"-j", "ACCEPT"},
                                       {"-i", "a\"b"},
                                       {"-i", "eth0\nflush"},  // a line of its own in nft's command text
                                       {"-o", "a;b c"},
                                       {"-o", "a:b"},
                                       {"-s", "10.0.0.1;flush"},
                                       {"!"}}) {
    try {
      translate_conditions(bad, AF_INET);
      ADD_FAILURE() << "accepted " << bad[0];
    } catch (const CniException& e) {
      EXPECT_EQ(e.error().code, ErrorCode::unsupported_field) << e.error().msg;
    }
  }
}

}  // namespace
}  // namespace brisk::cni::test
