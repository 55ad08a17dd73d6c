// `brisk bench ip`: `ip -batch` against `brisk -batch` on the same files, and
// one process per operation, side by side in one run, each method in its own
// throwaway network namespace (IPv6 off there, so no DAD/MLD work runs in
// the background). The phases of issue 5's targets:
//   veth add      N pairs               target >= 1.8x
//   set up        N links               target >= 3x
//   addr add      N addresses           target >= 3x
//   delete        N pairs               target >= 50x
//   one process   `link set dev X up`, one process each, M times
//   start-up      `-V`, M times
// The first method of each phase alternates, so drift does not favour one,
// and each run starts after a pause for the kernel's deferred work. Batches
// run with and without -force: without it brisk stops at the first failure
// as ip does, pipelining only what it could undo (adds) and deletes
// predicted to succeed.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "bench/net_sandbox.h"
#include "brisk/fd.h"
#include "brisk/spawn.h"
#include "cli/commands.h"

namespace brisk::cli {
namespace {

struct IpBenchConfig {
  int n = 3000;       // veth pairs per batch phase
  int single_n = 1000;  // one-process-per-op runs per method
  int version_n = 300;  // `-V` runs per method
};

// Runs argv in `ns` with stdout/stderr discarded; returns seconds and whether it exited 0.
std::pair<double, bool> timed(const std::vector<std::string>& argv, int ns) {
  SpawnOptions options{.argv = argv};
  options.inherit_stdio = false;
  if (ns >= 0) options.namespaces = {{.type = CLONE_NEWNET, .fd = ns}};
  auto start = std::chrono::steady_clock::now();
  auto child = spawn(options);
  if (!child) throw std::runtime_error(child.error().message());
  auto status = child->wait();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {s, status && status->success()};
}

struct Method {
  const char* name;
  std::string program;
  std::vector<std::string> options;  // global options before -batch
  UniqueFd ns;
};

// Seconds per method: ip, brisk, brisk -force (absent outside batches).
void row(const char* phase, int count, const std::vector<double>& t, const char* target) {
  if (count == 0) return;
  if (t.size() == 3)
    std::printf("%-12s %6d %10.1f %10.1f %10.1f %8.2fx %8.2fx   %s\n", phase, count, t[0] * 1e6 / count,
                t[1] * 1e6 / count, t[2] * 1e6 / count, t[0] / t[1], t[0] / t[2], target);
  else
    std::printf("%-12s %6d %10.1f %10.1f %10s %8.2fx %9s   %s\n", phase, count, t[0] * 1e6 / count,
                t[1] * 1e6 / count, "-", t[0] / t[1], "-", target);
  std::fflush(stdout);
}

int run_ip_bench(const IpBenchConfig& config) {
  // Inside the network benchmarks' sandbox: the files live on its private
  // /run, and a killed run leaves no namespace, mount or file behind.
  std::string dir = bench::kSandboxScratch;
  auto write = [&](const std::string& name, auto line) {
    std::ofstream out(dir + "/" + name);
    for (int i = 0; i < config.n; ++i) out << line(i) << "\n";
    return dir + "/" + name;
  };
  std::string add = write("add", [](int i) { return "link add a" + std::to_string(i) + " type veth peer name b" + std::to_string(i); });
  std::string up = write("up", [](int i) { return "link set a" + std::to_string(i) + " up"; });
  std::string addr = write("addr", [](int i) {
    return "addr add 10." + std::to_string(i / 65536 + 1) + "." + std::to_string(i / 256 % 256) + "." +
           std::to_string(i % 256) + "/32 dev a" + std::to_string(i);
  });
  std::string del = write("del", [](int i) { return "link del a" + std::to_string(i); });

  char self[4096];
  ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) throw std::runtime_error("cannot read /proc/self/exe");
  std::vector<Method> methods;
  methods.push_back({"ip", "ip", {}, bench::fresh_netns()});
  methods.push_back({"brisk", std::string(self, static_cast<std::size_t>(len)), {}, bench::fresh_netns()});
  methods.push_back({"brisk -force", methods[1].program, {"-force"}, bench::fresh_netns()});
  for (const auto& m : methods)
    if (!m.ns.valid()) throw std::runtime_error("cannot create network namespaces (needs root)");
  Method& ip = methods[0];
  Method& brisk = methods[1];
  std::printf("brisk bench ip: %d veth pairs, the same batch files, one namespace per method\n", config.n);
  std::printf("%-12s %6s %10s %10s %10s %9s %9s   %s\n", "phase", "ops", "ip", "brisk", "brisk -f", "ip/brisk",
              "ip/-f", "target (us/op; ratios ip/brisk)");
  int failures = 0;
  int phase_no = 0;
  auto batch_phase = [&](const char* name, const std::string& file, const char* target) {
    std::vector<double> t(3);
    std::vector<std::size_t> order{0, 1, 2};
    std::rotate(order.begin(), order.begin() + phase_no++ % 3, order.end());
    for (std::size_t k : order) {
      Method& m = methods[k];
      // Let deferred kernel work from the previous phase (linkwatch runs
      // within a second of a link going up) finish before timing.
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      std::vector<std::string> argv{m.program};
      argv.insert(argv.end(), m.options.begin(), m.options.end());
      argv.insert(argv.end(), {"-batch", file});
      auto [s, ok] = timed(argv, m.ns.get());
      if (!ok) ++failures, std::fprintf(stderr, "%s -batch %s failed\n", m.name, file.c_str());
      t[k] = s;
    }
    row(name, config.n, t, target);
  };
  batch_phase("veth add", add, ">= 1.8x");
  batch_phase("set up", up, ">= 3x");
  batch_phase("addr add", addr, ">= 3x");

  // One process per operation, alternating in chunks.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  std::vector<double> single(2), version(2);
  const int chunk = 100;
  for (int done = 0; done < config.single_n; done += chunk) {
    for (int k = 0; k < 2; ++k) {
      Method* m = ((done / chunk + k) % 2) ? &brisk : &ip;
      for (int i = done; i < std::min(done + chunk, config.single_n); ++i) {
        std::string dev = "a" + std::to_string(i % config.n);
        auto [s, ok] = timed({m->program, "link", "set", "dev", dev, i % 2 ? "up" : "down"}, m->ns.get());
        if (!ok) ++failures;
        single[m == &brisk] += s;
      }
    }
  }
  row("one process", config.single_n, single, ">= 1.0x (1.3x trimmed)");
  for (int i = 0; i < config.version_n; ++i) {
    for (int k = 0; k < 2; ++k) {
      Method* m = ((i + k) % 2) ? &brisk : &ip;
      auto [s, ok] = timed({m->program, "-V"}, -1);
      if (!ok) ++failures;
      version[m == &brisk] += s;
    }
  }
  row("-V start-up", config.version_n, version, "report");
  batch_phase("delete", del, ">= 50x");
  if (failures) std::fprintf(stderr, "brisk bench ip: %d runs failed\n", failures);
  return failures ? 1 : 0;
}

}  // namespace

void add_bench_ip(CLI::App& bench) {
  auto* ip = bench.add_subcommand("ip", "ip -batch against brisk -batch, and one process per operation");
  auto config = std::make_shared<IpBenchConfig>();
  ip->add_option("--n", config->n, "veth pairs per batch phase")->capture_default_str()->check(CLI::PositiveNumber);
  ip->add_option("--single-n", config->single_n, "one-process-per-op runs per method")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ip->add_option("--version-n", config->version_n, "-V runs per method")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ip->callback([config] {
    try {
      int code = 0;
      bench::run_in_net_sandbox([&] { code = run_ip_bench(*config); });
      set_exit_code(code);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "brisk bench ip: %s\n", e.what());
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
