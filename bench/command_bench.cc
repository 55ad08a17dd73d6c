// Google Benchmark view of the command API against its baselines, side by
// side in one run (issue 3's targets):
//   command/overhead_*:   output() of /bin/true, both streams captured, vs a bare engine spawn
//   command/*_ratio_interleaved: the same pairs alternated, with the ratio as a counter
//   command/throughput_*: capturing 1 GiB of stdout vs cat reading the same producer
//   command/batch_*:      `brisk run --batch` of 10,000 x /bin/true at -j1 and -j2
//   command/yast_*:       1000 calls of `ls -l /` with LANG=C, captured: brisk, system()
//                         plus temp files (SCR's way) and fork+exec+pipes (Cheetah's way),
//                         directly and chrooted into a minimal root (root only)
// Ratios are left to the reader of the table: every pair runs in the same binary.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "brisk/command.h"
#include "brisk/spawn.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
constexpr long long kGiB = 1LL << 30;

// The brisk CLI next to this binary (build/bench/brisk-gbench -> build/brisk),
// or $BRISK_CLI.
std::string brisk_cli() {
  if (const char* env = std::getenv("BRISK_CLI")) return env;
  return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "brisk").string();
}

void overhead_bare_spawn(benchmark::State& state) {
  brisk::SpawnOptions options{.argv = {"/bin/true"}, .search_path = false};
  for (auto _ : state) {
    auto child = brisk::spawn(options);
    if (!child || !child->wait()->success()) state.SkipWithError("spawn failed");
  }
}

void overhead_output_captured(benchmark::State& state) {
  brisk::Command command({"/bin/true"});
  for (auto _ : state) {
    brisk::Output out = command.output();
    benchmark::DoNotOptimize(out);
  }
}

// Both sides alternated within each iteration, so that load from elsewhere
// on a shared machine hits them alike; the counter is the ratio
// (target: at most 1.15).
void overhead_ratio_interleaved(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  brisk::SpawnOptions options{.argv = {"/bin/true"}, .search_path = false};
  brisk::Command command({"/bin/true"});
  Clock::duration bare{}, captured{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto child = brisk::spawn(options);
    if (!child || !child->wait()->success()) state.SkipWithError("spawn failed");
    auto t1 = Clock::now();
    brisk::Output out = command.output();
    auto t2 = Clock::now();
    benchmark::DoNotOptimize(out);
    bare += t1 - t0;
    captured += t2 - t1;
  }
  state.counters["output_over_bare"] =
      std::chrono::duration<double>(captured) / std::chrono::duration<double>(bare);
}

// The same for 1 GiB: capture against cat, alternated (target: at least 0.7).
void throughput_ratio_interleaved(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  brisk::Command capture({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  brisk::Command cat({"/bin/sh", "-c", "head -c " + std::to_string(kGiB) + " /dev/zero | cat > /dev/null"});
  Clock::duration brisk_time{}, cat_time{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    (void)cat.status();
    auto t1 = Clock::now();
    brisk::Output out = capture.output();
    auto t2 = Clock::now();
    if (out.out.size() != static_cast<std::size_t>(kGiB)) state.SkipWithError("short capture");
    cat_time += t1 - t0;
    brisk_time += t2 - t1;
  }
  state.counters["capture_throughput_over_cat"] =
      std::chrono::duration<double>(cat_time) / std::chrono::duration<double>(brisk_time);
}

void throughput_brisk_capture(benchmark::State& state) {
  brisk::Command command({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  for (auto _ : state) {
    brisk::Output out = command.output();
    if (out.out.size() != static_cast<std::size_t>(kGiB)) state.SkipWithError("short capture");
  }
  state.SetBytesProcessed(state.iterations() * kGiB);
}

void throughput_brisk_chunks(benchmark::State& state) {
  std::size_t bytes = 0;
  brisk::Command command({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  command.stdout_to(brisk::Sink::chunks([&bytes](std::string_view c) { bytes += c.size(); }));
  for (auto _ : state) (void)command.status();
  benchmark::DoNotOptimize(bytes);
  state.SetBytesProcessed(state.iterations() * kGiB);
}

void throughput_cat_pipe(benchmark::State& state) {
  // The same producer piped into cat, which writes to /dev/null.
  brisk::Command command(
      {"/bin/sh", "-c", "head -c " + std::to_string(kGiB) + " /dev/zero | cat > /dev/null"});
  for (auto _ : state) (void)command.status();
  state.SetBytesProcessed(state.iterations() * kGiB);
}

// `brisk run --batch` over a file of `lines` x /bin/true.
void batch(benchmark::State& state) {
  const long lines = state.range(0);
  const long jobs = state.range(1);
  fs::path file = fs::temp_directory_path() / ("brisk-bench-batch-" + std::to_string(::getpid()));
  {
    std::ofstream out(file);
    for (long i = 0; i < lines; ++i) out << "/bin/true\n";
  }
  brisk::Command command({brisk_cli(), "run", "--batch", file.string(), "-j", std::to_string(jobs)});
  command.stderr_to(brisk::Sink::null());
  for (auto _ : state) {
    if (!command.status().success()) state.SkipWithError("batch failed");
  }
  fs::remove(file);
  state.counters["us_per_line"] =
      benchmark::Counter(static_cast<double>(lines) * 1e-6,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The CLI's own start-up, to subtract from the batch figures.
void batch_cli_start(benchmark::State& state) {
  brisk::Command command({brisk_cli(), "--version"});
  command.stdout_to(brisk::Sink::null());
  for (auto _ : state) (void)command.status();
}

// ---- The YaST benchmark's shape -------------------------------------------

const std::vector<std::string> kYastArgv{"/bin/ls", "-l", "/"};

// A minimal root with ls and the libraries ldd lists, built once.
const std::string& minimal_root() {
  static const std::string root = [] {
    std::string dir =
        (fs::temp_directory_path() / ("brisk-bench-root-" + std::to_string(::getpid()))).string();
    auto copy_in = [&dir](const std::string& path) {
      fs::path target = fs::path(dir) / fs::path(path).relative_path();
      fs::create_directories(target.parent_path());
      fs::copy_file(fs::canonical(path), target, fs::copy_options::overwrite_existing);
    };
    copy_in(kYastArgv[0]);
    std::string ldd = brisk::Command({"ldd", kYastArgv[0]}).read();
    std::istringstream words(ldd);
    for (std::string word; words >> word;)
      if (word[0] == '/') copy_in(word);
    std::atexit([] { fs::remove_all(minimal_root()); });
    return dir;
  }();
  return root;
}

std::string chroot_for(const benchmark::State& state) {
  return state.range(0) ? minimal_root() : std::string();
}

void yast_brisk(benchmark::State& state) {
  brisk::Command command(kYastArgv);
  command.env("LANG", "C").env("TERM", "dumb").env("COLUMNS", "1024");
  if (state.range(0)) command.chroot(minimal_root());
  for (auto _ : state) {
    brisk::Output out = command.output();
    if (out.out.empty()) state.SkipWithError("no output");
  }
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// SCR's .target.bash: system() through the shell, output through temp files.
void yast_system_tempfiles(benchmark::State& state) {
  std::string dir = fs::temp_directory_path().string();
  std::string out = dir + "/brisk-bench-out-" + std::to_string(::getpid());
  std::string err = dir + "/brisk-bench-err-" + std::to_string(::getpid());
  std::string root = chroot_for(state);
  std::string line = "LANG=C TERM=dumb COLUMNS=1024 " +
                     (root.empty() ? "" : "/usr/sbin/chroot " + root + " ") + "/bin/ls -l / > " + out +
                     " 2> " + err;
  for (auto _ : state) {
    if (std::system(line.c_str()) != 0) state.SkipWithError("system failed");
    std::string o = slurp(out), e = slurp(err);
    if (o.empty()) state.SkipWithError("no output");
  }
  fs::remove(out);
  fs::remove(err);
}

// Cheetah's way: fork, pipes for both streams, exec, a select loop, waitpid.
void yast_fork_exec_pipes(benchmark::State& state) {
  std::string root = chroot_for(state);
  std::vector<std::string> env_strings{"LANG=C", "TERM=dumb", "COLUMNS=1024"};
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (const auto& a : kYastArgv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto _ : state) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) < 0 || ::pipe2(err, O_CLOEXEC) < 0) state.SkipWithError("pipe");
    pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      if (!root.empty() && (::chroot(root.c_str()) < 0 || ::chdir("/") < 0)) ::_exit(126);
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    std::string o, e;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    char buf[65536];
    int open_count = 2;
    while (open_count > 0) {
      if (::poll(fds, 2, -1) < 0) continue;
      for (auto& pfd : fds) {
        if (pfd.fd < 0 || !pfd.revents) continue;
        ssize_t n = ::read(pfd.fd, buf, sizeof buf);
        if (n <= 0) {
          ::close(pfd.fd);
          pfd.fd = -1;
          --open_count;
        } else {
          (&pfd == &fds[0] ? o : e).append(buf, static_cast<std::size_t>(n));
        }
      }
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (o.empty()) state.SkipWithError("no output");
  }
}

int register_all() {
  using benchmark::kMicrosecond;
  using benchmark::kMillisecond;
  benchmark::RegisterBenchmark("command/overhead_bare_spawn", overhead_bare_spawn)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/overhead_output_captured", overhead_output_captured)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/overhead_ratio_interleaved", overhead_ratio_interleaved)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/throughput_ratio_interleaved_1GiB", throughput_ratio_interleaved)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_brisk_capture_1GiB", throughput_brisk_capture)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_brisk_chunks_1GiB", throughput_brisk_chunks)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_cat_pipe_1GiB", throughput_cat_pipe)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/batch_cli_start", batch_cli_start)->Unit(kMicrosecond)->UseRealTime();
  benchmark::RegisterBenchmark("command/batch_true", batch)
      ->Args({10000, 1})
      ->Args({10000, 2})
      ->ArgNames({"lines", "j"})
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  const bool root = ::geteuid() == 0;
  for (int chrooted : {0, 1}) {
    if (chrooted && !root) continue;  // chroot needs root
    benchmark::RegisterBenchmark("command/yast_brisk", yast_brisk)
        ->Arg(chrooted)
        ->ArgName("chroot")
        ->Iterations(1000)
        ->Unit(kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("command/yast_cheetah_fork_exec_pipes", yast_fork_exec_pipes)
        ->Arg(chrooted)
        ->ArgName("chroot")
        ->Iterations(1000)
        ->Unit(kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("command/yast_scr_system_tempfiles", yast_system_tempfiles)
        ->Arg(chrooted)
        ->ArgName("chroot")
        ->Iterations(1000)
        ->Unit(kMillisecond)
        ->UseRealTime();
  }
  return 0;
}
const int registered = register_all();

}  // namespace
