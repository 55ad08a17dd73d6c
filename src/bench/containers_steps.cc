// bench/containers_steps.cc: the steps both shapes' methods share.
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "bench/containers_method.h"
#include "bench/link_raw.h"
#include "bench/net_helpers.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/netns_setup.h"

namespace brisk::bench::containers {

int brisk_setup(netlink::Connection& host, std::span<const netlink::NetnsSetup> fleet,
                const ContainersBenchConfig& config, netlink::NetnsOverlap overlap,
                const std::function<void(int done)>& at_round) {
  std::size_t round = config.brisk_round > 0 ? static_cast<std::size_t>(config.brisk_round)
                                             : static_cast<std::size_t>(std::max(1, config.bucket / 4));
  netlink::NetnsSetupOptions options{.round = round, .overlap = overlap};
  if (at_round) options.on_round = [&](std::size_t done) { at_round(static_cast<int>(done)); };
  auto results = netlink::setup_netns_many(host, fleet, options);
  if (!results) throw std::runtime_error(results.error().message());
  return static_cast<int>(std::count_if(results->begin(), results->end(), [](const auto& r) { return !r; }));
}

const BriskWay& brisk_way(const std::string& name) {
  for (const auto& way : kBriskWays)
    if (name == way.name) return way;
  throw std::runtime_error("no brisk method " + name);
}

void run_ip(const Method& m, std::vector<std::string> args, Setup& s) {
  args.insert(args.begin(), "ip");
  ++s.processes;
  s.failures += !run_process(args, m.host());
}

bool has_default_via(const std::vector<netlink::RouteInfo>& routes, const std::string& gateway) {
  return std::any_of(routes.begin(), routes.end(), [&](const netlink::RouteInfo& r) {
    return r.dst.length == 0 && r.gateway && r.gateway->to_string() == gateway;
  });
}

bool ip_batch_run(const Method& m, const std::string& file, const std::string& text) {
  std::string path = std::string(sandbox::kSandboxScratch) + "/" + file;
  write_file(path, text);
  return run_process({"ip", "-batch", path}, m.host());
}

void ip_batch_inside(const Method& m, int begin, int end, const std::function<std::string(int)>& text_of,
                     Setup& s) {
  std::string file = std::string(sandbox::kSandboxScratch) + "/ipb-inside.batch";
  for (int i = begin; i < end; ++i) {
    write_file(file, text_of(i));
    ++s.processes;
    if (!run_process({"ip", "-n", m.netns(i), "-batch", file}, m.host())) ++s.failures;
  }
}

int ip_delete_namespaces(const Method& m, int n) {
  int failures = 0;
  for (int i = 0; i < n; ++i) failures += !run_process({"ip", "netns", "del", m.netns(i)}, m.host());
  return failures;
}

std::string ip_batch_delete_lines(const Method& m, int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "netns del " + m.netns(i) + "\n";
  return text;
}

int brisk_delete_namespaces(const Method& m, int n) {
  int failures = 0;
  for (int i = 0; i < n; ++i) failures += !netlink::delete_netns(m.netns(i));
  return failures;
}

std::vector<RawInside> raw_namespaces(const Method& m, int begin, int end, int home_fd) {
  std::vector<RawInside> inside(static_cast<std::size_t>(end - begin));
  for (int i = begin; i < end; ++i) {
    if (!raw_netns_enter_new(netns_path(m.netns(i)))) continue;
    auto& in = inside[static_cast<std::size_t>(i - begin)];
    // The floor: raw calls, as raw_netns_enter_new makes them.
    in.ns.reset(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
    in.rtnl.reset(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
  }
  if (::setns(home_fd, CLONE_NEWNET) != 0) throw std::runtime_error("floor: setns back home failed");
  return inside;
}

int raw_delete_namespaces(const Method& m, int n) {
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    std::string path = netns_path(m.netns(i));
    failures += ::umount2(path.c_str(), MNT_DETACH) != 0;
    failures += ::unlink(path.c_str()) != 0;
  }
  return failures;
}

UniqueFd open_own_netns() {
  auto fd = netlink::open_netns_path("/proc/thread-self/ns/net");
  if (!fd) throw std::runtime_error(fd.error().message());
  return std::move(*fd);
}

}  // namespace brisk::bench::containers
