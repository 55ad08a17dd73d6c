#include "bench/cni_pods.h"

#include <fcntl.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/net_helpers.h"
#include "brisk/cni/plugin.h"
#include "brisk/netlink/netns.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench {
namespace {

constexpr const char* kEnvPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Runs fn with the calling thread in the network namespace `fd`, and
// brings it back, also when fn throws; throws when either setns fails.
void in_netns(int fd, const std::function<void()>& fn) {
  UniqueFd home(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
  if (!home || ::setns(fd, CLONE_NEWNET) != 0)
    throw std::runtime_error(std::string("setns into a bench namespace: ") + std::strerror(errno));
  std::exception_ptr failure;
  try {
    fn();
  } catch (...) {
    failure = std::current_exception();
  }
  if (::setns(home.get(), CLONE_NEWNET) != 0)
    throw std::runtime_error(std::string("setns back from a bench namespace: ") + std::strerror(errno));
  if (failure) std::rethrow_exception(failure);
}

UniqueFd open_named(const std::string& name) {
  auto fd = netlink::open_netns(name);
  if (!fd) throw std::runtime_error("open netns " + name + ": " + fd.error().message());
  return std::move(*fd);
}

std::string make_conf(const CniSideConfig& c, const std::string& data_dir) {
  nlohmann::json conf = {{"cniVersion", "1.0.0"},
                         {"name", "brisk-bench"},
                         {"type", c.type},
                         {"bridge", "cni-bench0"},
                         {"isGateway", true},
                         {"ipMasq", c.masq},
                         {"hairpinMode", true},
                         {"ipam",
                          {{"type", "host-local"},
                           {"subnet", "10.88.0.0/16"},
                           {"routes", nlohmann::json::array({{{"dst", "0.0.0.0/0"}}})},
                           {"dataDir", data_dir}}}};
  return conf.dump();
}

}  // namespace

CniSide::CniSide(CniSideConfig config)
    : config_(std::move(config)),
      host_("cnib-" + config_.tag + "-host"),
      data_dir_(std::string(sandbox::kSandboxScratch) + "/cni-" + config_.tag),
      conf_(make_conf(config_, data_dir_)) {
  make_directories(data_dir_);
  auto made = netlink::create_netns(host_);
  if (!made) throw std::runtime_error("create netns " + host_ + ": " + made.error().message());
  host_fd_ = open_named(host_);
  in_netns(host_fd_.get(), [] { sandbox::disable_ipv6_here(); });
}

CniSide::~CniSide() {
  for (int pod : pods_) (void)netlink::delete_netns(pod_name(pod));
  host_fd_.reset();
  (void)netlink::delete_netns(host_);
  std::error_code ec;
  std::filesystem::remove_all(data_dir_, ec);
}

std::string CniSide::pod_name(int pod) const { return "cnib-" + config_.tag + "-" + std::to_string(pod); }

void CniSide::make_pods(int begin, int end) {
  std::vector<std::string> names;
  for (int i = begin; i < end; ++i) names.push_back(pod_name(i));
  auto made = netlink::create_netns_each(names);
  for (int i = begin; i < end; ++i) {
    const auto& r = made[static_cast<std::size_t>(i - begin)];
    if (!r) throw std::runtime_error("create netns " + pod_name(i) + ": " + r.error().message());
    pods_.push_back(i);
    in_netns(open_named(pod_name(i)).get(), [] { sandbox::disable_ipv6_here(); });
  }
}

void CniSide::delete_pods(int begin, int end) {
  auto gone = [&](int pod) { return pod >= begin && pod < end; };
  for (int pod : pods_)
    if (gone(pod)) (void)netlink::delete_netns(pod_name(pod));
  pods_.erase(std::remove_if(pods_.begin(), pods_.end(), gone), pods_.end());
}

std::map<std::string, std::string> CniSide::environment(const char* cni_command, int pod) const {
  return {{"PATH", kEnvPath},
          {"CNI_COMMAND", cni_command},
          {"CNI_CONTAINERID", "pod" + std::to_string(pod)},
          {"CNI_NETNS", netns_path(pod_name(pod))},
          {"CNI_IFNAME", "eth0"},
          {"CNI_PATH", config_.cni_path}};
}

Command CniSide::prepared(const std::string& program, const char* cni_command, int pod,
                          const std::string& conf) const {
  Command c(program);
  c.env_clear();
  for (const auto& [key, value] : environment(cni_command, pod)) c.env(key, value);
  // Only the network namespace, as a container runtime runs its plugins:
  // the bench measures that, not a mount namespace and a sysfs per call.
  c.netns(host_, {.view = false})
      .stdin_from(Input::data(conf))
      .stdout_to(Sink::capture())
      .stderr_to(Sink::capture())
      .timeout(std::chrono::milliseconds(config_.timeout_ms))
      .check(false);
  return c;
}

Command CniSide::command(const char* cni_command, int pod) const {
  return prepared(config_.plugin, cni_command, pod, conf_);
}

CniOp CniSide::result_of(const Output& output, double us, bool wants_address) {
  CniOp op{.ok = output.status.success(), .us = us};
  if (!op.ok) {
    op.error = output.status.to_string() + ": " + output.out + output.err;
    return op;
  }
  if (!wants_address) return op;
  op.result = output.out;
  auto result = nlohmann::json::parse(output.out, nullptr, false);
  if (result.is_object() && result.contains("ips") && result["ips"].is_array() && !result["ips"].empty() &&
      result["ips"][0].contains("address") && result["ips"][0]["address"].is_string())
    op.address = result["ips"][0]["address"].get<std::string>();
  if (op.address.empty()) {
    op.ok = false;
    op.error = "ADD result without an address: " + output.out;
  }
  return op;
}

CniOp CniSide::timed(const Command& command, bool wants_address) {
  try {
    auto start = Clock::now();
    Output out = command.output();
    return result_of(out, us_since(start), wants_address);
  } catch (const std::exception& e) {
    return {.ok = false, .error = e.what()};
  }
}

CniOp CniSide::run_one(const char* cni_command, int pod, bool portmap, const std::string& conf) const {
  if (config_.plugin.empty()) return run_in_process(cni_command, pod, portmap, conf);
  return timed(prepared(portmap ? config_.portmap : config_.plugin, cni_command, pod, conf),
               std::strcmp(cni_command, "ADD") == 0);
}

std::string CniSide::portmap_conf(int pod, const std::string& prev_result) const {
  nlohmann::json maps = nlohmann::json::array();
  for (const char* proto : {"tcp", "udp"})
    maps.push_back({{"hostPort", 20000 + pod}, {"containerPort", 80}, {"protocol", proto}});
  nlohmann::json conf = {{"cniVersion", "1.0.0"},
                         {"name", "brisk-bench"},
                         {"type", "portmap"},
                         {"capabilities", {{"portMappings", true}}},
                         {"runtimeConfig", {{"portMappings", maps}}}};
  if (!prev_result.empty()) conf["prevResult"] = nlohmann::json::parse(prev_result, nullptr, false);
  return conf.dump();
}

CniOp CniSide::run(const char* cni_command, int pod) const {
  if (!config_.chain) return run_one(cni_command, pod, false, conf_);
  // A runtime's order: ADD the bridge, then portmap with its result; DEL the other way round.
  bool adding = std::strcmp(cni_command, "ADD") == 0;
  CniOp first = adding ? run_one(cni_command, pod, false, conf_)
                       : run_one(cni_command, pod, true, portmap_conf(pod, ""));
  if (!first.ok) return first;
  CniOp second = adding ? run_one(cni_command, pod, true, portmap_conf(pod, first.result))
                        : run_one(cni_command, pod, false, conf_);
  second.us += first.us;
  if (adding) second.address = first.address;
  return second;
}

CniOp CniSide::start_trivial_process() const {
  CniOp op = timed(prepared("/bin/true", "ADD", 0, conf_), false);
  if (!config_.chain || !op.ok) return op;
  CniOp second = timed(prepared("/bin/true", "ADD", 0, conf_), false);  // a chain starts two processes
  second.us += op.us;
  return second;
}

CniOp CniSide::run_in_process(const char* cni_command, int pod, bool portmap, const std::string& conf) const {
  const std::map<std::string, std::string> env = environment(cni_command, pod);
  cni::PluginInput input{.getenv = [&env](const char* name) -> std::optional<std::string> {
                           auto it = env.find(name);
                           return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
                         },
                         .stdin_data = conf};
  double us = 0;
  cni::PluginOutput out;
  in_netns(host_fd_.get(), [&] {
    auto start = Clock::now();
    out = portmap ? cni::run_portmap_plugin(input) : cni::run_plugin(input);
    us = us_since(start);
  });
  Output as_process;
  as_process.status.allowed = out.exit_code == 0;
  as_process.status.exit = ExitStatus::from_code(out.exit_code);
  as_process.out = out.stdout_data;
  as_process.err = out.stderr_data;
  return result_of(as_process, us, std::strcmp(cni_command, "ADD") == 0);
}

}  // namespace brisk::bench
