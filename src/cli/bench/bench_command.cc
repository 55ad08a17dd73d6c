// `brisk bench spawn`: every way of starting a program, side by side, once
// or over the YaST write-up's conditions (--sweep).
#include <signal.h>

#include <cstdio>
#include <iostream>

#include "bench/interrupt.h"
#include "bench/report_files.h"
#include "bench/spawn_report.h"
#include "bench/spawn_sweep.h"
#include "cli/bench/commands.h"
#include "cli/handover.h"

namespace brisk::cli {
namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  for (size_t start = 0; start < text.size();) {
    size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

struct SpawnOptionsCli {
  bench::SpawnBenchConfig single;
  bench::SpawnSweepConfig sweep;
  bool run_sweep = false;
  bool json = false;
  std::string out_dir;
  std::string methods;
};

void run_spawn(const SpawnOptionsCli& options) {
  bench::SpawnSweepReport sweep;
  {
    bench::InterruptScope interrupts;  // Ctrl-C unwinds: ballast, rlimit and temp root are undone
    if (options.run_sweep) {
      bench::SpawnSweepConfig config = options.sweep;
      config.methods = split_commas(options.methods);
      config.argv = options.single.argv;
      sweep = bench::run_spawn_sweep(config, [&](const bench::SpawnBenchReport& point) {
        if (!options.json) std::cout << bench::format_table(point) << std::endl;
      });
      for (const auto& skipped : sweep.skipped)
        if (!options.json) std::cout << "skipped " << skipped.label << ": " << skipped.reason << "\n";
    } else {
      bench::SpawnBenchConfig config = options.single;
      config.methods = split_commas(options.methods);
      sweep.points.push_back(bench::run_spawn_bench(config));
      if (!options.json) std::cout << bench::format_table(sweep.points.back());
    }
  }
  if (options.json)
    std::cout << (options.run_sweep ? bench::to_json(sweep) : bench::to_json(sweep.points.back())).dump(2)
              << "\n";
  if (!options.out_dir.empty()) {
    auto files = bench::write_spawn_outputs(sweep, options.out_dir);
    if (!options.json)
      for (const auto& file : files) std::cout << "wrote " << file << "\n";
  }
}

}  // namespace

void run_interruptible(const char* who, const std::function<void()>& action) {
  try {
    action();
  } catch (const bench::Interrupted& e) {
    std::cerr << "\n" << who << ": " << e.what() << "; cleaned up\n";
    std::cout.flush();
    ::signal(e.signal(), SIG_DFL);
    ::raise(e.signal());
  } catch (const std::exception& e) {
    std::cerr << who << ": " << e.what() << "\n";
    set_exit_code(1);
  }
}

void add_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", kBenchSummary);
  bench->require_subcommand(1);
  add_bench_link(*bench);
  add_bench_containers(*bench);
  add_bench_cni(*bench);

  auto* spawn = bench->add_subcommand("spawn", "Run a program N times with every method, side by side");
  auto o = std::make_shared<SpawnOptionsCli>();
  spawn->add_option("--n", o->single.n, "Calls per method (per point with --sweep, where the default is 200)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->each([o](const std::string& v) { o->sweep.n = std::stoi(v); });
  spawn->add_option("--rounds", o->single.rounds, "Rounds the calls are split into")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->each([o](const std::string& v) { o->sweep.rounds = std::stoi(v); });
  spawn->add_option("--rss", o->single.rss_mb, "Grow this process's heap to MB MiB first")
      ->capture_default_str();
  spawn->add_option("--nofile", o->single.nofile, "Raise RLIMIT_NOFILE towards N first (as far as allowed)");
  spawn->add_option("--chroot", o->single.chroot, "Run inside this root directory")
      ->check(CLI::ExistingDirectory);
  spawn->add_option("--methods", o->methods, "Only these methods, comma-separated (brisk always runs)");
  spawn->add_flag("--sweep", o->run_sweep,
                  "Heap 10 MB/1 GB/4 GB, RLIMIT_NOFILE 1024/1048576, chroot into a minimal root, and "
                  "the write-up's workload (ls -l / captured, 1000 calls)");
  spawn->add_option("--heaps", o->sweep.heaps_mb, "With --sweep: parent heap sizes in MiB")
      ->delimiter(',')
      ->capture_default_str();
  spawn->add_option("--nofiles", o->sweep.nofiles, "With --sweep: RLIMIT_NOFILE values to ask for")
      ->delimiter(',')
      ->capture_default_str();
  spawn
      ->add_option("--workload-n", o->sweep.workload_n, "With --sweep: calls of the workload shape (0 skips)")
      ->capture_default_str();
  spawn->add_flag("!--no-chroot", o->sweep.chroot, "With --sweep: skip the chroot point");
  spawn
      ->add_option("--budget", o->sweep.budget_seconds,
                   "With --sweep: seconds per method and point; slower methods make fewer calls (0: none)")
      ->capture_default_str();
  spawn->add_flag("--json", o->json, "Print the report as JSON");
  spawn->add_option("--out", o->out_dir, "Also write spawn.json, spawn.csv and plots into DIR");
  spawn->add_option("program", o->single.argv, "Program and arguments (absolute path)")
      ->capture_default_str();
  spawn->callback([o] { run_interruptible("brisk bench spawn", [&] { run_spawn(*o); }); });
  add_bench_ip(*bench);
  add_bench_startup(*bench);
}

}  // namespace brisk::cli
