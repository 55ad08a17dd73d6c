// Shared by the netlink tests: a throwaway network namespace per test, a
// connection inside it, and iproute2 (`ip -j`) run inside it as the oracle.
#pragma once

#include <gtest/gtest.h>
#include <sched.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brisk/netlink/connection.h"
#include "support/test_support.h"

namespace brisk::netlink::test {

// Runs `ip -j <args>` in the namespace `ns` and parses its output.
inline nlohmann::json ip_json(int ns, std::vector<std::string> args) {
  std::vector<std::string> argv{"ip", "-j"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto run = brisk::test::run_capture({.argv = argv, .namespaces = {{.type = CLONE_NEWNET, .fd = ns}}});
  if (run.out.empty()) return nlohmann::json::array();
  return nlohmann::json::parse(run.out, nullptr, false);
}

// Runs `ip <args>` in `ns`; true when it exits 0.
inline bool ip_run(int ns, std::vector<std::string> args) {
  std::vector<std::string> argv{"ip"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto run = brisk::test::run_capture({.argv = argv, .namespaces = {{.type = CLONE_NEWNET, .fd = ns}}});
  return run.status.success();
}

// The `ip -j -d link show dev <name>` object, or null when there is none.
inline nlohmann::json ip_link(int ns, const std::string& name) {
  auto all = ip_json(ns, {"-d", "link", "show", "dev", name});
  if (!all.is_array() || all.empty()) return nullptr;
  return all[0];
}

inline std::vector<std::string> ip_link_names(int ns) {
  std::vector<std::string> names;
  for (const auto& link : ip_json(ns, {"link", "show"})) names.push_back(link["ifname"]);
  return names;
}

// A fresh namespace and a connection in it; skips when namespaces cannot be made.
class NetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
    ns_ = brisk::test::make_netns();
    ASSERT_TRUE(ns_.valid());
    auto conn = Connection::open_in(ns_.get());
    ASSERT_TRUE(conn) << conn.error().message();
    conn_.emplace(std::move(*conn));
  }
  void TearDown() override { brisk::test::drop_deviceless_proxies(ns()); }
  Connection& conn() { return *conn_; }
  int ns() const { return ns_.get(); }

  UniqueFd ns_;
  std::optional<Connection> conn_;
};

}  // namespace brisk::netlink::test
