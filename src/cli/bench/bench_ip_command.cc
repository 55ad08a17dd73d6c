// `brisk bench ip`: `ip -batch` against `brisk -batch` on the same files, and
// one process per operation, side by side in one run, each method in its own
// throwaway network namespace (IPv6 off there, so no DAD/MLD work runs in
// the background). The phases of issue 5's targets:
//   veth add      N pairs               target >= 1.8x
//   set up        N links               target >= 3x
//   set up alone  the floor only, one request per send and ACK: without
//                 -force brisk must send a change it cannot undo that way,
//                 so brisk's time is set against it too; it takes its turn
//                 among the methods, in a namespace of its own
//   addr add      N addresses           target >= 3x
//   route add     N routes, one per device (bench/ip_route_rule.h)
//   rule add      N rules
//   ... parse     brisk refusing each of those three files for a bad last
//                 line: the process, reading and parsing every line, which
//                 a brisk batch does before it sends anything (a syntax
//                 error anywhere refuses the file); brisk's time over floor
//                 + this is printed after the rule rows
//                 (set up, addr, route and rule add run --repeats times per
//                 method, undone untimed by ip in between; each method's
//                 median is kept, so one slow run on a shared machine moves
//                 no ratio)
//   delete        N pairs               target >= 50x
//   one process   `link set dev X up`, one process each, M times
//   start-up      `-V`, M times
// Beside them runs the kernel's floor: raw rtnetlink from this process, 64
// requests per send(), names resolved beforehand. ip's time over the
// floor's is the most any tool could gain over ip -batch.
// The first method of each phase alternates, so drift does not favour one,
// and each run starts after a pause for the kernel's deferred work. veth
// add goes in rounds, each method adding its share in turn: the kernel's
// cost of a new device grows with the devices of every namespace, and a
// method that always went last would pay for the others' devices. Batches
// run with and without -force: without it brisk stops at the first failure
// as ip does, pipelining only what it could undo (adds) and deletes
// predicted to succeed. After route add and rule add every namespace must
// hold the same N routes or rules: the row says whether they did.
// --json prints the rows (bench/ip_report.h) as JSON on stdout once the run
// ends, the table going to stderr as progress.
#include <arpa/inet.h>
#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

#include "bench/ip_report.h"
#include "bench/ip_route_rule.h"
#include "bench/link_raw.h"
#include "bench/net_helpers.h"
#include "bench/spawn_bench.h"
#include "brisk/fd.h"
#include "brisk/spawn.h"
#include "cli/bench/commands.h"
#include "sandbox/net_sandbox.h"

namespace brisk::cli {
namespace {

struct IpBenchConfig {
  int n = 3000;          // veth pairs per batch phase
  int single_n = 1000;   // one-process-per-op runs per method
  int version_n = 300;   // `-V` runs per method
  int settle_ms = 1500;  // pause before each timed run, for the kernel's deferred work
  int repeats = 5;       // timed runs per method of set up, addr, route and rule add; the median is kept
  bool json = false;     // print the report as JSON on stdout (the table goes to stderr)
  std::string out{};     // also write the JSON to DIR/ip.json; empty: nowhere
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

// 10.x.y.z for the i-th address of the addr file, in host order.
uint32_t nth_address(int i) {
  return (10u << 24) | static_cast<uint32_t>(i / 65536 + 1) << 16 |
         static_cast<uint32_t>(i / 256 % 256) << 8 | static_cast<uint32_t>(i % 256);
}

// veth add in this many rounds (see the top of the file).
constexpr int kAddRounds = 4;
// Requests per send() for the floor.
constexpr int kFloorWindow = 64;

bench::IpBenchReport run_ip_bench(const IpBenchConfig& config) {
  // Inside the network benchmarks' sandbox: the files live on its private
  // /run, and a killed run leaves no namespace, mount or file behind.
  std::string dir = sandbox::kSandboxScratch;
  auto write = [&](const std::string& name, int from, int to, auto line) {
    std::ofstream out(dir + "/" + name);
    for (int i = from; i < to; ++i) out << line(i) << "\n";
    return dir + "/" + name;
  };
  auto name = [](char side, int i) { return side + std::to_string(i); };
  auto address = [](int i) {
    in_addr a{htonl(nth_address(i))};
    char text[INET_ADDRSTRLEN];
    return std::string(::inet_ntop(AF_INET, &a, text, sizeof text));
  };
  // [from, to) of round r of kAddRounds.
  auto share = [&](int r) { return std::pair{config.n * r / kAddRounds, config.n * (r + 1) / kAddRounds}; };
  std::vector<std::string> add;
  for (int r = 0; r < kAddRounds; ++r)
    add.push_back(write("add" + std::to_string(r), share(r).first, share(r).second, [&](int i) {
      return "link add " + name('a', i) + " type veth peer name " + name('b', i);
    }));
  std::string up = write("up", 0, config.n, [&](int i) { return "link set " + name('a', i) + " up"; });
  std::string up_undo =
      write("up-undo", 0, config.n, [&](int i) { return "link set " + name('a', i) + " down"; });
  std::string addr =
      write("addr", 0, config.n, [&](int i) { return "addr add " + address(i) + "/32 dev " + name('a', i); });
  std::string route = write("route", 0, config.n, [&](int i) { return bench::route_line(i, name('a', i)); });
  std::string rule = write("rule", 0, config.n, [&](int i) { return bench::rule_line(i); });
  std::string del = write("del", 0, config.n, [&](int i) { return "link del " + name('a', i); });
  // What undoes a repeated phase between its timed runs.
  auto undo_of = [](std::string line) { return line.replace(line.find(" add "), 5, " del "); };
  std::string addr_undo = write("addr-undo", 0, config.n,
                                [&](int i) { return "addr del " + address(i) + "/32 dev " + name('a', i); });
  std::string route_undo =
      write("route-undo", 0, config.n, [&](int i) { return undo_of(bench::route_line(i, name('a', i))); });
  std::string rule_undo =
      write("rule-undo", 0, config.n, [&](int i) { return undo_of(bench::rule_line(i)); });

  std::string self = bench::brisk_cli();
  std::vector<Method> methods;
  methods.push_back({"ip", "ip", {}, sandbox::fresh_netns()});
  methods.push_back({"brisk", self, {}, sandbox::fresh_netns()});
  methods.push_back({"brisk -force", self, {"-force"}, sandbox::fresh_netns()});
  UniqueFd floor_ns = sandbox::fresh_netns();
  // The floor of ip's semantics without -force for what cannot be undone
  // (link set): nothing after a failed line may be applied, so each request
  // waits for the answer to the one before it. Its devices are made untimed.
  UniqueFd lockstep_ns = sandbox::fresh_netns();
  for (const auto& m : methods)
    if (!m.ns.valid()) throw std::runtime_error("cannot create network namespaces (needs root)");
  if (!floor_ns.valid() || !lockstep_ns.valid())
    throw std::runtime_error("cannot create network namespaces (needs root)");
  bench::RawNetlink floor(floor_ns.get());
  floor.pipeline(kFloorWindow);
  bench::RawNetlink lockstep(lockstep_ns.get());
  Method& ip = methods[0];
  Method& brisk = methods[1];
  std::FILE* table = config.json ? stderr : stdout;
  std::fprintf(
      table,
      "brisk bench ip: %d veth pairs, the same batch files, one namespace per method; "
      "floor: raw rtnetlink, %d requests per send; set up, addr, route and rule add: median of %d runs\n",
      config.n, kFloorWindow, config.repeats);
  std::fputs(bench::format_header().c_str(), table);
  bench::IpBenchReport report{.n = config.n,
                              .single_n = config.single_n,
                              .version_n = config.version_n,
                              .settle_ms = config.settle_ms,
                              .repeats = config.repeats,
                              .floor_window = kFloorWindow};
  int& failures = report.failures;
  // Seconds per method: ip, brisk, brisk -force and the floor in batches
  // (a negative figure: not measured), ip and brisk alone elsewhere.
  auto row = [&](const char* phase, int count, const std::vector<double>& t, const char* target,
                 int rounds = 1, std::optional<bool> verified = std::nullopt, int repeats = 1) {
    if (count == 0) return;
    bench::IpBenchRow r{.phase = phase,
                        .ops = count,
                        .rounds = rounds,
                        .repeats = repeats,
                        .target = target,
                        .verified = verified};
    const char* names[] = {"ip", "brisk", "brisk -force", "floor"};
    for (std::size_t k = 0; k < t.size() && k < std::size(names); ++k) r.methods.push_back({names[k], t[k]});
    std::fputs(bench::format_row(r).c_str(), table);
    std::fflush(table);
    report.rows.push_back(std::move(r));
  };
  // Whether every namespace counts n of what `count` counts; says which do not.
  auto all_hold_n = [&](const char* what, int (*count)(int)) {
    std::vector<std::pair<const char*, int>> held{{"floor", count(floor_ns.get())}};
    for (const auto& m : methods) held.emplace_back(m.name, count(m.ns.get()));
    bool same = true;
    for (auto [who, c] : held)
      if (c != config.n)
        same = false, std::fprintf(stderr, "%s: %d %s after, not %d\n", who, c, what, config.n);
    if (!same) ++failures;
    return same;
  };
  int turn = 0;  // rotates which method goes first
  // Floors run in this process; each returns how many of its requests failed.
  using Floors = std::vector<std::function<int()>>;
  // One run of each method, in turn: `file` for the processes, then each of
  // `floors`; adds each one's seconds to t (the methods', then the floors').
  auto runs = [&](const std::string& file, const Floors& floors, std::vector<double>& t) {
    std::size_t count = methods.size() + floors.size();
    for (std::size_t j = 0; j < count; ++j) {
      std::size_t k = (j + static_cast<std::size_t>(turn)) % count;
      // Let deferred kernel work from the previous run (linkwatch runs
      // within a second of a link going up) finish before timing.
      std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
      if (k >= methods.size()) {
        auto start = bench::Clock::now();
        int failed = floors[k - methods.size()]();
        t[k] += bench::us_since(start) / 1e6;
        if (failed)
          ++failures, std::fprintf(stderr, "floor: %d requests failed on %s\n", failed, file.c_str());
        continue;
      }
      Method& m = methods[k];
      std::vector<std::string> argv{m.program};
      argv.insert(argv.end(), m.options.begin(), m.options.end());
      argv.insert(argv.end(), {"-batch", file});
      auto [s, ok] = timed(argv, m.ns.get());
      if (!ok) ++failures, std::fprintf(stderr, "%s -batch %s failed\n", m.name, file.c_str());
      t[k] += s;
    }
    ++turn;
  };
  // config.repeats runs of each method (see `runs`), `undo` run untimed by
  // ip in every namespace between them (the methods', the floor's and
  // `also`); t gets each method's median.
  auto repeated = [&](const std::string& file, const Floors& floors, const std::string& undo,
                      std::vector<double>& t, std::vector<int> also = {}) {
    std::vector<std::vector<double>> samples(t.size());
    for (int rep = 0; rep < config.repeats; ++rep) {
      std::vector<double> once(t.size(), 0);
      runs(file, floors, once);
      for (std::size_t k = 0; k < t.size(); ++k) samples[k].push_back(once[k]);
      if (rep + 1 == config.repeats) break;
      std::vector<int> all{floor_ns.get()};
      for (const auto& m : methods) all.push_back(m.ns.get());
      all.insert(all.end(), also.begin(), also.end());
      for (int ns : all)
        if (!timed({"ip", "-batch", undo}, ns).second)
          ++failures, std::fprintf(stderr, "undo %s failed\n", undo.c_str());
    }
    for (std::size_t k = 0; k < t.size(); ++k) t[k] = bench::median(samples[k]);
  };
  // brisk's time to start, read `file` and parse every line: a batch with
  // a syntax error anywhere is refused before anything is sent, so this is
  // what a brisk batch does before its first request. Median of
  // config.repeats runs refusing the file (its last line is bad); nothing
  // reaches the kernel.
  auto parse_only = [&](const std::string& file) {
    std::string refused = file + "-refused";
    {
      std::ifstream in(file);
      std::ofstream out(refused);
      out << in.rdbuf() << "route add not-a-prefix\n";
    }
    std::vector<double> samples;
    for (int rep = 0; rep < config.repeats; ++rep) {
      std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
      auto [s, ok] = timed({brisk.program, "-batch", refused}, brisk.ns.get());
      if (ok) ++failures, std::fprintf(stderr, "brisk -batch %s-refused was not refused\n", file.c_str());
      samples.push_back(s);
    }
    return bench::median(samples);
  };
  // The row of that, and brisk's methods over floor + it for `phase`.
  auto parse_row = [&](const char* phase, const char* row_name, const std::string& file) {
    double parse = parse_only(file);
    row(row_name, config.n, {-1, parse, -1, -1},
        "report: brisk refusing the file for a bad last line (start, read, parse)", 1, std::nullopt,
        config.repeats);
    const auto& r = *std::find_if(report.rows.begin(), report.rows.end(),
                                  [&](const auto& x) { return x.phase == phase; });
    for (std::size_t k = 1; k <= 2; ++k)
      report.over_parse_floor.push_back({.phase = phase,
                                         .method = r.methods[k].method,
                                         .ratio = r.methods[k].seconds / (r.methods[3].seconds + parse)});
  };
  // The floor once more, asking for no ACK of a success as brisk's engine
  // does: median of config.repeats runs in the floor's namespace, each after
  // `undo` there (which leaves the phase's end state in place), and brisk's
  // methods of `phase` over it.
  auto quiet_row = [&](const char* phase, const char* row_name, const std::string& undo,
                       const std::function<int()>& floor_run) {
    std::vector<double> samples;
    for (int rep = 0; rep < config.repeats; ++rep) {
      if (!timed({"ip", "-batch", undo}, floor_ns.get()).second)
        ++failures, std::fprintf(stderr, "undo %s failed\n", undo.c_str());
      std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
      floor.quiet(true);
      auto start = bench::Clock::now();
      int failed = floor_run();
      samples.push_back(bench::us_since(start) / 1e6);
      floor.quiet(false);
      if (failed)
        ++failures, std::fprintf(stderr, "floor without ACKs: %d requests failed on %s\n", failed, phase);
    }
    row(row_name, config.n, {-1, -1, -1, bench::median(samples)},
        "report: the floor asking no ACK of a success, as brisk's engine does", 1, std::nullopt,
        config.repeats);
    const auto& r = *std::find_if(report.rows.begin(), report.rows.end(),
                                  [&](const auto& x) { return x.phase == phase; });
    for (std::size_t k = 1; k <= 2; ++k)
      report.over_quiet_floor.push_back({.phase = phase,
                                         .method = r.methods[k].method,
                                         .ratio = r.methods[k].seconds / bench::median(samples)});
  };
  auto floor_over = [&](int from, int to, auto op) {
    return [&floor, from, to, op] {
      for (int i = from; i < to; ++i) op(i);
      return floor.flush();
    };
  };

  std::vector<double> t(4);
  for (int r = 0; r < kAddRounds; ++r)
    runs(add[r],
         {floor_over(share(r).first, share(r).second,
                     [&](int i) { floor.veth_add(name('a', i), name('b', i)); })},
         t);
  row("veth add", config.n, t, ">= 1.8x; <= 1.25x floor", kAddRounds);
  lockstep.pipeline(kFloorWindow);
  for (int i = 0; i < config.n; ++i) lockstep.veth_add(name('a', i), name('b', i));
  if (int failed = lockstep.flush()) ++failures, std::fprintf(stderr, "floor: %d veth adds failed\n", failed);
  lockstep.pipeline(0);  // each request sent alone, its ACK read before the next
  // Set up, with the floor of one request per answer taking its turn too.
  t.assign(5, 0);
  auto one_by_one = [&] {
    int failed = 0;
    for (int i = 0; i < config.n; ++i) failed += lockstep.set_up(name('a', i)) != 0;
    return failed;
  };
  repeated(up, {floor_over(0, config.n, [&](int i) { floor.set_up(name('a', i)); }), one_by_one}, up_undo, t,
           {lockstep_ns.get()});
  row("set up", config.n, {t[0], t[1], t[2], t[3]}, ">= 3x; <= 1.25x floor", 1, std::nullopt, config.repeats);
  row("set up alone", config.n, {-1, -1, -1, t[4]},
      "report: the floor of set up without -force (brisk's column)", 1, std::nullopt, config.repeats);
  // Without -force a set up goes a request per answer, so that is its floor.
  report.over_alone_floor.push_back({.phase = "set up", .method = "brisk", .ratio = t[1] / t[4]});
  std::fputs(bench::format_over_alone_floor(report.over_alone_floor).c_str(), table);
  std::vector<int> ifindex(static_cast<std::size_t>(config.n));
  for (int i = 0; i < config.n; ++i) ifindex[static_cast<std::size_t>(i)] = floor.ifindex(name('a', i));
  t.assign(4, 0);
  repeated(addr,
           {floor_over(0, config.n,
                       [&](int i) { floor.addr_add(ifindex[static_cast<std::size_t>(i)], nth_address(i)); })},
           addr_undo, t);
  row("addr add", config.n, t, ">= 3x; <= 1.25x floor", 1, std::nullopt, config.repeats);
  quiet_row("addr add", "addr, no ACKs", addr_undo, floor_over(0, config.n, [&](int i) {
              floor.addr_add(ifindex[static_cast<std::size_t>(i)], nth_address(i));
            }));
  parse_row("addr add", "addr parse", addr);
  t.assign(4, 0);
  repeated(route,
           {floor_over(0, config.n,
                       [&](int i) { bench::route_floor(floor, i, ifindex[static_cast<std::size_t>(i)]); })},
           route_undo, t);
  row("route add", config.n, t, "<= 1.25x floor", 1, all_hold_n("routes", bench::count_bench_routes),
      config.repeats);
  quiet_row("route add", "route, no ACKs", route_undo, floor_over(0, config.n, [&](int i) {
              bench::route_floor(floor, i, ifindex[static_cast<std::size_t>(i)]);
            }));
  parse_row("route add", "route parse", route);
  // What naming the device costs: one SIOCGIFINDEX per line, which the addr
  // and route floors (their indices resolved untimed above) leave out and a
  // tool handed `dev NAME` cannot; floor + this is that grammar's floor.
  // The median of config.repeats passes, as the phases beside it.
  std::vector<double> lookups;
  for (int rep = 0; rep < config.repeats; ++rep) {
    auto lookup_start = bench::Clock::now();
    for (int i = 0; i < config.n; ++i)
      if (floor.index_by_name(name('a', i)) <= 0) ++failures;
    lookups.push_back(bench::us_since(lookup_start) / 1e6);
  }
  std::vector<double> lookup{-1, -1, -1, bench::median(lookups)};
  row("name lookup", config.n, lookup, "report: floor + this = the floor of a line naming its device", 1,
      std::nullopt, config.repeats);
  for (const auto& r : report.rows) {
    if (r.phase != "addr add" && r.phase != "route add") continue;
    for (std::size_t k = 1; k <= 2; ++k)
      report.over_lookup_floor.push_back(
          {.phase = r.phase,
           .method = r.methods[k].method,
           .ratio = r.methods[k].seconds / (r.methods[3].seconds + lookup[3])});
    report.lookup_floor_over_floor.push_back(
        {.phase = r.phase,
         .method = "floor + name lookup",
         .ratio = (r.methods[3].seconds + lookup[3]) / r.methods[3].seconds});
  }
  std::fputs(bench::format_over_lookup_floor(report.over_lookup_floor).c_str(), table);
  std::fputs(bench::format_lookup_floor_over_floor(report.lookup_floor_over_floor).c_str(), table);
  t.assign(4, 0);
  repeated(rule, {floor_over(0, config.n, [&](int i) { bench::rule_floor(floor, i); })}, rule_undo, t);
  row("rule add", config.n, t, "<= 1.25x floor", 1, all_hold_n("rules", bench::count_bench_rules),
      config.repeats);
  quiet_row("rule add", "rule, no ACKs", rule_undo,
            floor_over(0, config.n, [&](int i) { bench::rule_floor(floor, i); }));
  parse_row("rule add", "rule parse", rule);
  std::fputs(bench::format_over_parse_floor(report.over_parse_floor).c_str(), table);
  std::fputs(bench::format_over_quiet_floor(report.over_quiet_floor).c_str(), table);

  // One process per operation, alternating in chunks.
  std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
  std::vector<double> single(2), version(2);
  const int chunk = 100;
  for (int done = 0; done < config.single_n; done += chunk) {
    for (int k = 0; k < 2; ++k) {
      Method* m = ((done / chunk + k) % 2) ? &brisk : &ip;
      for (int i = done; i < std::min(done + chunk, config.single_n); ++i) {
        auto [s, ok] = timed(
            {m->program, "link", "set", "dev", name('a', i % config.n), i % 2 ? "up" : "down"}, m->ns.get());
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
  // No floor here: every deletion waits in rcu_barrier() however it is sent.
  t.assign(3, 0);
  runs(del, {}, t);
  row("delete", config.n, t, ">= 50x");
  if (failures) std::fprintf(stderr, "brisk bench ip: %d runs failed\n", failures);
  return report;
}

}  // namespace

void add_bench_ip(CLI::App& bench) {
  auto* ip = bench.add_subcommand("ip", "ip -batch against brisk -batch, and one process per operation");
  auto config = std::make_shared<IpBenchConfig>();
  ip->add_option("--n", config->n, "veth pairs per batch phase")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  ip->add_option("--single-n", config->single_n, "one-process-per-op runs per method")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ip->add_option("--version-n", config->version_n, "-V runs per method")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ip->add_option("--settle-ms", config->settle_ms,
                 "pause before each timed batch, for the kernel's deferred work")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ip->add_option("--repeats", config->repeats,
                 "timed runs per method of addr, route and rule add (the median is kept)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  ip->add_flag("--json", config->json, "Print the report as JSON (the table goes to stderr)");
  ip->add_option("--out", config->out, "Also write ip.json into this directory");
  ip->callback([config] {
    try {
      bench::IpBenchReport report;
      sandbox::run_in_net_sandbox([&] { report = run_ip_bench(*config); });
      // Outside the sandbox, whose /run is its own.
      std::string text = bench::to_json(report).dump(2) + "\n";
      if (config->json) std::fputs(text.c_str(), stdout);
      if (!config->out.empty()) {
        bench::make_directories(config->out);
        bench::write_file(config->out + "/ip.json", text);
        std::fprintf(config->json ? stderr : stdout, "wrote %s/ip.json\n", config->out.c_str());
      }
      set_exit_code(report.failures ? 1 : 0);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "brisk bench ip: %s\n", e.what());
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
