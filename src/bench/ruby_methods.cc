#include "bench/ruby_methods.h"

#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "bench/interrupt.h"
#include "brisk/command.h"
#include "brisk/spawn.h"

namespace brisk::bench {
namespace {

// ARGV: count, then the command. system([cmd, argv0], *args) never goes
// through a shell, whatever the words contain.
constexpr const char* kScript = R"RUBY(
count = Integer(ARGV.shift)
cmd = ARGV
failures = 0
start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
count.times { failures += 1 unless system([cmd[0], cmd[0]], *cmd[1..]) }
took = Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
puts "#{took} #{failures}"
)RUBY";

const std::string& ruby_path() {
  static const std::string path = find_program("ruby").value_or("");
  return path;
}

MethodTiming run_ruby(const SpawnTarget& target, int count, bool as_nobody) {
  std::vector<std::string> argv{ruby_path(), "-e", kScript, std::to_string(count)};
  if (!target.chroot.empty()) argv.insert(argv.end(), {"/usr/sbin/chroot", target.chroot});
  argv.insert(argv.end(), target.argv.begin(), target.argv.end());
  Command command(argv);
  command.cwd("/").stderr_to(Sink::capture()).check(false);
  for (const auto& [key, value] : target.env) command.env(key, value);
  if (as_nobody) command.user(Credentials::for_user("nobody").value());
  Output out = command.output();
  MethodTiming timing;
  if (interrupt_signal()) return timing;  // Ctrl-C reached ruby too; the caller throws Interrupted
  double seconds = 0;
  std::istringstream words(out.out);
  if (!out.status.success() || !(words >> seconds >> timing.failures))
    throw std::runtime_error("ruby " + std::string(as_nobody ? "as nobody" : "as root") + " failed (" +
                             out.status.to_string() + "): " + out.err.substr(0, 300));
  timing.us_per_call = seconds * 1e6 / count;
  return timing;
}

}  // namespace

MethodTiming run_ruby_as_root(const SpawnTarget& target, int count) { return run_ruby(target, count, false); }
MethodTiming run_ruby_as_nobody(const SpawnTarget& target, int count) {
  return run_ruby(target, count, true);
}

std::string ruby_unavailable_as_root(const SpawnTarget&) {
  if (ruby_path().empty()) return "ruby is not on PATH";
  if (::geteuid() != 0) return "not running as root";
  return {};
}

std::string ruby_unavailable_as_nobody(const SpawnTarget& target) {
  if (ruby_path().empty()) return "ruby is not on PATH";
  if (::geteuid() != 0) return "switching to nobody needs root";
  if (!Credentials::for_user("nobody")) return "no user named nobody";
  if (!target.chroot.empty()) return "nobody may not chroot";
  return {};
}

}  // namespace brisk::bench
