// cni_driver.h: a cnitool-style driver that runs a CNI plugin binary the
// way a runtime does (CNI_* variables, the config on stdin), inside a
// simulated host namespace, against pod namespaces of its own. Every
// namespace is named brisk-cnitest-<pid>-<n> and deleted by the destructor,
// so a failing test leaves nothing; the host's initial namespace is never
// touched.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brisk/command.h"
#include "brisk/netlink/netns.h"
#include "support/test_support.h"

namespace brisk::cni::test {

struct PluginRun {
  int exit_code = -1;
  std::string out{};
  std::string err{};
  nlohmann::json json() const { return nlohmann::json::parse(out, nullptr, false); }
};

class Sandbox {
 public:
  Sandbox() : host_(name("host")) { created_ = netlink::create_netns(host_).ok(); }
  ~Sandbox() {
    for (const auto& p : pods_) (void)netlink::delete_netns(p);
    (void)netlink::delete_netns(host_);
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  bool ok() const { return created_; }
  const std::string& host() const { return host_; }
  std::string data_dir() const { return data_.path(); }
  // A new pod namespace; returns its path (/run/netns/<name>).
  std::string add_pod() {
    std::string pod = name("pod");
    EXPECT_TRUE(netlink::create_netns(pod).ok());
    pods_.push_back(pod);
    return netns_path(pod);
  }
  void delete_pod(const std::string& path) { (void)netlink::delete_netns(path.substr(path.rfind('/') + 1)); }

  brisk::Command command(const std::string& plugin, const std::map<std::string, std::string>& env,
                         const std::string& conf) const {
    brisk::Command c(plugin);
    c.netns(host_).env("CNI_PATH", "/usr/lib/cni");
    for (const auto& [k, v] : env) c.env(k, v);
    c.stdin_from(brisk::Input::data(conf))
        .stdout_to(brisk::Sink::capture())
        .stderr_to(brisk::Sink::capture())
        .check(false);
    return c;
  }
  PluginRun run(const std::string& plugin, const std::map<std::string, std::string>& env,
                const std::string& conf) const {
    brisk::Output o = command(plugin, env, conf).output();
    return {o.status.exit.code().value_or(-1), o.out, o.err};
  }
  // `ip -j ARGS` in the host namespace (or a pod's, by path).
  nlohmann::json ip(const std::string& ns, std::vector<std::string> args) const {
    std::vector<std::string> argv{"ip", "-j"};
    argv.insert(argv.end(), args.begin(), args.end());
    brisk::Output o = brisk::Command(argv).netns(ns).stdout_to(brisk::Sink::capture()).check(false).output();
    auto j = nlohmann::json::parse(o.out, nullptr, false);
    return j.is_discarded() ? nlohmann::json::array() : j;
  }
  std::string shell_in(const std::string& ns, std::vector<std::string> argv) const {
    brisk::Output o = brisk::Command(argv).netns(ns).stdout_to(brisk::Sink::capture()).check(false).output();
    return o.out;
  }

 private:
  static std::string name(const char* role) {
    static int counter = 0;
    return "brisk-cnitest-" + std::to_string(::getpid()) + "-" + role + std::to_string(counter++);
  }
  std::string host_;
  bool created_ = false;
  std::vector<std::string> pods_;
  brisk::test::TempDir data_;
};

inline std::map<std::string, std::string> cni_env(const std::string& command, const std::string& id,
                                                  const std::string& netns,
                                                  const std::string& ifname = "eth0") {
  return {{"CNI_COMMAND", command}, {"CNI_CONTAINERID", id}, {"CNI_NETNS", netns}, {"CNI_IFNAME", ifname}};
}

}  // namespace brisk::cni::test
