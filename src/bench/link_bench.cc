#include "bench/link_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>

#include "bench/link_raw.h"
#include "bench/net_helpers.h"
#include "bench/spawn_bench.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench {
namespace {

std::string veth(int i) { return "v" + std::to_string(i); }
std::string peer(int i) { return "p" + std::to_string(i); }
uint32_t addr_value(int i) { return (10u << 24) | static_cast<uint32_t>(i); }
std::string addr(int i) {
  uint32_t a = addr_value(i);
  return fmt::format("{}.{}.{}.{}/32", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

enum class Phase { veth_add, set_up, addr_add, remove };
constexpr Phase kPhases[] = {Phase::veth_add, Phase::set_up, Phase::addr_add, Phase::remove};
const char* phase_name(Phase p) {
  switch (p) {
    case Phase::veth_add:
      return "veth add";
    case Phase::set_up:
      return "set up";
    case Phase::addr_add:
      return "addr add";
    case Phase::remove:
      return "delete";
  }
  return "";
}

// Operation i of a phase in iproute2's grammar: argv after the program, or
// (joined by spaces) a batch line. ip and brisk read exactly the same words.
std::vector<std::string> op_words(Phase phase, int i) {
  switch (phase) {
    case Phase::veth_add:
      return {"link", "add", veth(i), "type", "veth", "peer", "name", peer(i)};
    case Phase::set_up:
      return {"link", "set", veth(i), "up"};
    case Phase::addr_add:
      return {"addr", "add", addr(i), "dev", veth(i)};
    case Phase::remove:
      return {"link", "del", veth(i)};
  }
  return {};
}

struct LinkMethod {
  std::string name;
  bool per_process = false;
  UniqueFd ns;
  // Ops this method runs in a phase (the per-process methods and one-by-one deletes are slow).
  std::function<int(Phase)> count;
  // Runs ops [begin, end) of a phase; returns how many failed.
  std::function<int(Phase, int, int)> run;
  int pairs = 0;  // veth pairs in ns now
};

// `program link add ...`: one process per operation.
LinkMethod process_method(const std::string& name, const std::string& program, int ops) {
  LinkMethod m{.name = name, .per_process = true, .ns = sandbox::fresh_netns(), .count = {}, .run = {}};
  m.count = [ops](Phase) { return ops; };
  m.run = [ns = m.ns.get(), program](Phase phase, int begin, int end) {
    int failures = 0;
    for (int i = begin; i < end; ++i) {
      auto argv = op_words(phase, i);
      argv.insert(argv.begin(), program);
      failures += !run_process(argv, ns);
    }
    return failures;
  };
  return m;
}

// `program -batch FILE`: the file is written for each round, as a caller
// of -batch would (writing it costs microseconds).
LinkMethod batch_method(const std::string& name, const std::string& program, const LinkBenchConfig& c,
                        int deletes) {
  LinkMethod m{.name = name, .per_process = false, .ns = sandbox::fresh_netns(), .count = {}, .run = {}};
  m.count = [n = c.n, deletes](Phase p) { return p == Phase::remove ? deletes : n; };
  m.run = [ns = m.ns.get(), program, path = std::string(sandbox::kSandboxScratch) + "/" + name + ".batch"](
              Phase phase, int begin, int end) {
    std::string text;
    for (int i = begin; i < end; ++i) {
      for (const auto& word : op_words(phase, i)) text += word + ' ';
      text.back() = '\n';
    }
    write_file(path, text);
    return run_process({program, "-batch", path}, ns) ? 0 : end - begin;
  };
  return m;
}

LinkMethod raw_method(const LinkBenchConfig& c) {
  LinkMethod m{.name = "raw", .per_process = false, .ns = sandbox::fresh_netns(), .count = {}, .run = {}};
  auto nl = std::make_shared<RawNetlink>(m.ns.get());
  m.count = [n = c.n, d = std::min(c.delete_n, c.n)](Phase p) { return p == Phase::remove ? d : n; };
  m.run = [nl](Phase phase, int begin, int end) {
    int failures = 0;
    for (int i = begin; i < end; ++i) {
      switch (phase) {
        case Phase::veth_add:
          failures += nl->veth_add(veth(i), peer(i)) != 0;
          break;
        case Phase::set_up:
          failures += nl->set_up(veth(i)) != 0;
          break;
        // addr add needs the ifindex: one GETLINK per device, as ip does.
        case Phase::addr_add:
          failures += nl->addr_add(nl->ifindex(veth(i)), addr_value(i)) != 0;
          break;
        case Phase::remove:
          failures += nl->remove(veth(i)) != 0;
          break;
      }
    }
    return failures;
  };
  return m;
}

LinkMethod brisk_method(const LinkBenchConfig& c) {
  LinkMethod m{.name = "brisk", .per_process = false, .ns = sandbox::fresh_netns(), .count = {}, .run = {}};
  auto conn = std::make_shared<netlink::Connection>(netlink::Connection::open_in(m.ns.get()).value());
  m.count = [n = c.n](Phase) { return n; };
  m.run = [conn](Phase phase, int begin, int end) {
    netlink::Batch batch(*conn);
    for (int i = begin; i < end; ++i) {
      switch (phase) {
        case Phase::veth_add:
          batch.add_link({.name = veth(i), .kind = netlink::VethOptions{.peer = peer(i)}});
          break;
        case Phase::set_up:
          batch.set_link({.name = veth(i), .up = true});
          break;
        case Phase::addr_add:
          batch.add_address({.dev = veth(i), .prefix = addr(i)});
          break;
        case Phase::remove:
          batch.delete_link(veth(i));
          break;
      }
    }
    int failures = 0;
    for (const auto& r : batch.flush()) failures += !r;
    return failures;
  };
  return m;
}

// [begin, end) of round r: full-N methods take whole buckets, subsets an even share.
std::pair<int, int> round_share(int total, int r, int rounds, const LinkBenchConfig& c) {
  if (total == c.n) return {std::min(c.n, r * c.bucket), std::min(c.n, (r + 1) * c.bucket)};
  return {static_cast<int>(static_cast<long>(total) * r / rounds),
          static_cast<int>(static_cast<long>(total) * (r + 1) / rounds)};
}

void run_phase(Phase phase, std::vector<LinkMethod>& methods, const LinkBenchConfig& c,
               LinkBenchReport& report) {
  int rounds = (c.n + c.bucket - 1) / c.bucket;
  std::vector<LinkBenchRow> rows(methods.size());
  std::vector<std::vector<double>> round_us(methods.size(), std::vector<double>(rounds, -1));
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < methods.size(); ++k) {
      std::size_t which = (k + static_cast<std::size_t>(r)) % methods.size();
      LinkMethod& m = methods[which];
      auto [begin, end] = round_share(m.count(phase), r, rounds, c);
      if (end <= begin) continue;
      int interfaces = 1 + 2 * m.pairs;
      auto start = Clock::now();
      int failed = m.run(phase, begin, end);
      double us = us_since(start) / (end - begin);
      int done = end - begin - failed;
      if (phase == Phase::veth_add) m.pairs += done;
      if (phase == Phase::remove) m.pairs -= done;
      rows[which].failures += failed;
      round_us[which][r] = us;
      rows[which].buckets.push_back({.index = r,
                                     .first_op = begin,
                                     .ops = end - begin,
                                     .interfaces_before = interfaces,
                                     .us_per_op = us});
    }
  }
  for (std::size_t k = 0; k < methods.size(); ++k) {
    std::vector<double> timed, ratios;
    for (int r = 0; r < rounds; ++r) {
      if (round_us[k][r] < 0) continue;
      timed.push_back(round_us[k][r]);
      if (round_us[0][r] > 0) ratios.push_back(round_us[k][r] / round_us[0][r]);  // methods[0] is brisk
    }
    LinkBenchRow& row = rows[k];
    row.phase = phase_name(phase);
    row.method = methods[k].name;
    row.count = methods[k].count(phase);
    row.us_per_op = median(timed);
    row.ratio_to_brisk = median(ratios);
    row.full_n = row.count == c.n;
    row.per_process = methods[k].per_process;
    report.rows.push_back(std::move(row));
  }
}

// Namespace creation, named under the sandbox's private /run/netns:
// `ip netns add`, `brisk netns add` and the library, in rotating order.
void bench_netns(LinkBenchReport& report, const LinkBenchConfig& c, const std::string& brisk) {
  struct Way {
    std::string method;
    std::function<bool(const std::string&)> add;
    std::vector<double> us{};
    int failures = 0;
  };
  std::vector<Way> ways;
  ways.push_back({"brisk", [](const std::string& name) { return bool(netlink::create_netns(name)); }});
  ways.push_back({"brisk-cli", [brisk](const std::string& name) {
                    return run_process({brisk, "netns", "add", name});
                  }});
  ways.push_back({"ip", [](const std::string& name) { return run_process({"ip", "netns", "add", name}); }});
  auto home = netlink::open_netns_path("/proc/thread-self/ns/net");
  if (!home) throw std::runtime_error(home.error().message());
  ways.push_back({"raw", [fd = std::make_shared<UniqueFd>(std::move(*home))](const std::string& name) {
                    return raw_netns_add(netns_path(name), fd->get());
                  }});
  std::vector<std::string> made;
  // A fresh order every round: whatever runs right after a namespace was
  // made pays for the kernel finishing that work (measured: ~0.8 ms more
  // for whichever method always came second in a fixed rotation).
  std::vector<std::size_t> order(ways.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937 shuffle(42);
  for (int i = 0; i < c.netns_n; ++i) {
    std::shuffle(order.begin(), order.end(), shuffle);
    for (std::size_t k : order) {
      Way& way = ways[k];
      std::string name = way.method + "-ns" + std::to_string(i);
      auto start = Clock::now();
      bool ok = way.add(name);
      way.us.push_back(us_since(start));
      way.failures += !ok;
      if (ok) made.push_back(name);
    }
  }
  for (const auto& name : made) (void)netlink::delete_netns(name);
  for (const auto& way : ways) {
    std::vector<double> ratios;
    for (int i = 0; i < c.netns_n; ++i)
      if (ways[0].us[i] > 0) ratios.push_back(way.us[i] / ways[0].us[i]);
    // Medians, like the other rows: one slow kernel cleanup must not skew the figure.
    LinkBenchRow row{.phase = "netns add",
                     .method = way.method,
                     .count = c.netns_n,
                     .us_per_op = median(way.us),
                     .ratio_to_brisk = median(ratios),
                     .failures = way.failures,
                     .full_n = false,
                     .per_process = way.method == "ip" || way.method == "brisk-cli"};
    row.buckets.push_back(
        {.index = 0, .first_op = 0, .ops = c.netns_n, .interfaces_before = 0, .us_per_op = row.us_per_op});
    report.rows.push_back(std::move(row));
  }
}

void run_in_sandbox(const LinkBenchConfig& config, LinkBenchReport& report) {
  std::string brisk = config.brisk_path.empty() ? brisk_cli() : config.brisk_path;
  // Every namespace lives until the run ends: tearing one down deletes its
  // devices in the background, which would slow whatever runs next.
  std::vector<LinkMethod> methods;
  methods.push_back(brisk_method(config));  // first: the ratios' reference
  methods.push_back(raw_method(config));
  methods.push_back(batch_method("ip-batch", "ip", config, std::min(config.delete_n, config.n)));
  methods.push_back(batch_method("brisk-batch", brisk, config, config.n));
  if (config.ip_n > 0) {
    methods.push_back(process_method("ip", "ip", config.ip_n));
    methods.push_back(process_method("brisk-cli", brisk, config.ip_n));
  }
  // Namespaces first, while the kernel is idle: after the delete phase it
  // is still tearing down tens of thousands of devices in the background
  // (netdev_run_todo, RCU), which made every unshare(CLONE_NEWNET) wait.
  if (config.netns_n > 0) bench_netns(report, config, brisk);
  for (Phase phase : kPhases) {
    // Work the kernel deferred from the last phase (linkwatch bringing the
    // devices' carriers and qdiscs up, under rtnl_lock) must not land on this one.
    std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
    run_phase(phase, methods, config, report);
    if (config.progress) config.progress(std::string("link: ") + phase_name(phase) + " done");
  }
}

}  // namespace

LinkBenchReport run_link_bench(const LinkBenchConfig& config) {
  if (config.n <= 0 || config.bucket <= 0 || config.ip_n < 0 || config.delete_n < 0 || config.netns_n < 0 ||
      config.settle_ms < 0)
    throw std::runtime_error("counts must be positive");
  LinkBenchReport report{.config = config};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  report.notes.push_back(
      fmt::format("ip and brisk-cli start one process per operation (~5 ms each), so they run "
                  "{} ops per phase, not N",
                  config.ip_n));
  report.notes.push_back(
      fmt::format("delete: ip-batch and raw delete {} pairs one by one (each waits ~16 ms in "
                  "rcu_barrier); brisk and brisk-batch delete all N, coalesced",
                  std::min(config.delete_n, config.n)));
  sandbox::run_in_net_sandbox([&] { run_in_sandbox(config, report); });
  return report;
}

std::string format_table(const LinkBenchReport& report) {
  std::string out = fmt::format("{:<10} {:<12} {:>7} {:>12} {:>10} {:>9}\n", "phase", "method", "ops",
                                "µs/op", "vs brisk", "failures");
  for (const auto& row : report.rows) {
    out += fmt::format("{:<10} {:<12} {:>7} {:>12.1f} {:>9.2f}x {:>9}{}\n", row.phase, row.method, row.count,
                       row.us_per_op, row.ratio_to_brisk, row.failures,
                       row.per_process ? "  (one process per op)" : "");
  }
  // Per bucket, for the methods that ran all N: flat columns mean the cost
  // does not grow with the number of interfaces.
  std::string phase;
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    if (report.rows[i].phase == phase || report.rows[i].phase == "netns add") continue;
    phase = report.rows[i].phase;
    std::vector<const LinkBenchRow*> full;
    for (const auto& row : report.rows)
      if (row.phase == phase && row.full_n) full.push_back(&row);
    if (full.empty()) continue;
    out += fmt::format("\n{}: µs/op per bucket of {} ops (methods that ran all N)\n{:>12}", phase,
                       report.config.bucket, "interfaces");
    for (const auto* row : full) out += fmt::format(" {:>12}", row->method);
    out += "\n";
    for (std::size_t b = 0; b < full[0]->buckets.size(); ++b) {
      out += fmt::format("{:>12}", full[0]->buckets[b].interfaces_before);
      for (const auto* row : full)
        out += b < row->buckets.size() ? fmt::format(" {:>12.1f}", row->buckets[b].us_per_op)
                                       : fmt::format(" {:>12}", "-");
      out += "\n";
    }
  }
  out += "\n";
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json to_json(const LinkBenchReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : report.rows) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : row.buckets)
      buckets.push_back({{"index", b.index},
                         {"first_op", b.first_op},
                         {"ops", b.ops},
                         {"interfaces_before", b.interfaces_before},
                         {"us_per_op", b.us_per_op}});
    rows.push_back({{"phase", row.phase},
                    {"method", row.method},
                    {"count", row.count},
                    {"us_per_op", row.us_per_op},
                    {"ratio_to_brisk", row.ratio_to_brisk},
                    {"failures", row.failures},
                    {"full_n", row.full_n},
                    {"per_process", row.per_process},
                    {"buckets", buckets}});
  }
  const auto& c = report.config;
  return {{"bench", "link"},
          {"units",
           {{"us_per_op", "microseconds per operation"}, {"ratio_to_brisk", "method time / brisk time"}}},
          {"config",
           {{"n", c.n},
            {"bucket", c.bucket},
            {"ip_n", c.ip_n},
            {"delete_n", c.delete_n},
            {"netns_n", c.netns_n},
            {"settle_ms", c.settle_ms}}},
          {"rows", rows},
          {"notes", report.notes}};
}

std::string to_csv(const LinkBenchReport& report) {
  std::string out = "phase,method,bucket,first_op,ops,interfaces_before,us_per_op,full_n,per_process\n";
  for (const auto& row : report.rows)
    for (const auto& b : row.buckets)
      out += fmt::format("{},{},{},{},{},{},{:.2f},{},{}\n", row.phase, row.method, b.index, b.first_op,
                         b.ops, b.interfaces_before, b.us_per_op, int(row.full_n), int(row.per_process));
  return out;
}

void write_outputs(const LinkBenchReport& report, const std::string& dir) {
  make_directories(dir);
  write_file(dir + "/link.json", to_json(report).dump(2) + "\n");
  write_file(dir + "/link.csv", to_csv(report));
}

}  // namespace brisk::bench
