// `brisk run`: run one program (or a batch of them) through the command API.
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>

#include "brisk/command_errors.h"
#include "brisk/netns_dir.h"
#include "cli/commands.h"
#include "cli/run_common.h"

namespace brisk::cli {
namespace {

// Seconds as a decimal number, at least 0; nullopt when malformed.
std::optional<std::chrono::nanoseconds> parse_seconds(const std::string& text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
      value < 0 || value > 1e9)
    return std::nullopt;
  return std::chrono::nanoseconds(static_cast<long long>(value * 1e9));
}

double seconds(std::chrono::nanoseconds ns) { return std::chrono::duration<double>(ns).count(); }

int run_one(const RunArgs& args, const Template& base) {
  Command command(base.spawn, base.run);
  command.spawn_options().argv = args.argv;
  RunOptions& run = command.run_options();
  run.check = false;
  run.input = Input::inherit();
  if (args.json) {
    run.out = Sink::capture();
    run.err = Sink::capture();
  } else {
    run.out = Sink::inherit();
    run.err = Sink::inherit();
  }
  Result<Output, SpawnError> result = SpawnError{};
  try {
    result = command.output();
  } catch (const SpawnFailed& e) {
    result = e.error();
  }
  if (args.json)
    std::cout << result_json(args.argv, result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  if (!result) {
    std::cerr << "brisk run: " << result.error().message() << "\n";
    return exit_code_for(result.error());
  }
  return exit_code_for(result->status);
}

}  // namespace

std::optional<std::string> build_template(const RunArgs& args, Template& out) {
  // If brisk itself is killed, its children get SIGTERM rather than live on
  // unsupervised (and past any --timeout).
  out.spawn.parent_death_signal = SIGTERM;
  out.spawn.cwd = args.cwd;
  out.spawn.chroot = args.chroot;
  if (args.clear_env) out.spawn.inherit_env = false;
  for (const auto& pair : args.env) {
    std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) return "--env '" + pair + "': expected KEY=VALUE";
    out.spawn.env.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
  }
  for (const auto& key : args.unset) {
    if (key.empty() || key.find('=') != std::string::npos)
      return "--unset '" + key + "': expected a variable name";
    out.spawn.env.emplace_back(key, std::nullopt);
  }
  if (!args.timeout.empty()) {
    auto timeout = parse_seconds(args.timeout);
    if (!timeout) return "--timeout '" + args.timeout + "': expected a number of seconds, 0 or more";
    if (timeout->count() > 0) out.run.timeout = *timeout;
  }
  if (!args.kill_after.empty()) {
    auto grace = parse_seconds(args.kill_after);
    if (!grace) return "--kill-after '" + args.kill_after + "': expected a number of seconds, 0 or more";
    out.run.kill_after = *grace;
  }
  if (!args.netns.empty()) {
    std::string path = netns_path(args.netns);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      return "--netns '" + args.netns + "': " + path + ": " + std::strerror(errno);
    add_netns(out.spawn, args.netns);  // what Command::netns does: ip netns exec's view too
  }
  if (!args.user.empty()) {
    std::size_t colon = args.user.find(':');
    std::string name = args.user.substr(0, colon);
    std::string group = colon == std::string::npos ? "" : args.user.substr(colon + 1);
    if (name.empty()) return "--user '" + args.user + "': expected USER[:GROUP]";
    auto credentials = Credentials::for_user(name, group);
    if (!credentials) return "--user '" + args.user + "': " + credentials.error().message();
    out.spawn.credentials = std::move(*credentials);
  }
  if (!args.allow_exit.empty()) {
    auto allowed = AllowedExit::parse(args.allow_exit);
    if (!allowed) return "--allow-exit '" + args.allow_exit + "': expected codes and ranges such as 0,2-4";
    out.run.allowed = *allowed;
  }
  return std::nullopt;
}

int exit_code_for(const CommandStatus& status) {
  if (status.allowed) return 0;
  if (status.timed_out) return 124;
  int code = status.exit.shell_code();
  return code == 0 ? 1 : code;
}

int exit_code_for(const SpawnError& error) {
  switch (error.kind()) {
    case SpawnError::Kind::program_not_found:
      return 127;
    case SpawnError::Kind::permission_denied:
      return 126;
    default:
      return 125;
  }
}

nlohmann::json result_json(const std::vector<std::string>& argv, const Result<Output, SpawnError>& result) {
  nlohmann::json j;
  j["argv"] = argv;
  if (!result) {
    j["error"] = result.error().message();
    j["status"] = exit_code_for(result.error());
    j["success"] = false;
    return j;
  }
  const Output& out = *result;
  j["status"] = exit_code_for(out.status);
  j["success"] = out.status.allowed;
  j["exit_code"] = out.status.exit.code() ? nlohmann::json(*out.status.exit.code()) : nlohmann::json(nullptr);
  j["signal"] =
      out.status.exit.signal() ? nlohmann::json(*out.status.exit.signal()) : nlohmann::json(nullptr);
  j["signal_name"] = out.status.exit.signal() ? nlohmann::json(signal_name(*out.status.exit.signal()))
                                              : nlohmann::json(nullptr);
  j["timed_out"] = out.status.timed_out;
  if (out.status.read_error) j["read_error"] = out.status.read_error->message();
  j["durations"] = {{"wall_s", seconds(out.usage.wall)},
                    {"user_s", seconds(out.usage.user)},
                    {"system_s", seconds(out.usage.system)}};
  j["max_rss_kib"] = out.usage.max_rss_kib;
  j["stdout"] = out.out;
  j["stderr"] = out.err;
  return j;
}

void add_run(CLI::App& app) {
  auto* run = app.add_subcommand("run", "Run a program (or a batch of them) with brisk's command API");
  auto args = std::make_shared<RunArgs>();
  run->add_option("--cwd", args->cwd, "Working directory of the program")->type_name("DIR");
  run->add_option("--chroot", args->chroot, "Change root to DIR first (then cwd inside it)")
      ->type_name("DIR");
  run->add_option("--env", args->env, "Set K=V in the environment (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("K=V");
  run->add_option("--unset", args->unset, "Remove K from the environment (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("K");
  run->add_flag("--clear-env", args->clear_env, "Start from an empty environment");
  run->add_option("--timeout", args->timeout, "Send SIGTERM after SECS (0: none); exit code 124")
      ->type_name("SECS");
  run->add_option("--kill-after", args->kill_after, "Send SIGKILL SECS after the timeout signal (default 2)")
      ->type_name("SECS");
  run->add_option("--netns", args->netns,
                  std::string("Run in network namespace NAME (under ") + kNetnsDir +
                      ") or PATH, with its /sys and /etc/netns/NAME files, as ip netns exec")
      ->type_name("NAME|PATH");
  run->add_option("--user", args->user, "Run as USER[:GROUP]")->type_name("USER[:GROUP]");
  run->add_option("--allow-exit", args->allow_exit,
                  "Exit codes that count as success, e.g. 0,1 or 0-3 (then exit 0)")
      ->type_name("LIST");
  run->add_flag("--json", args->json,
                "Print the result (argv, status, signal, timed_out, durations, output) as JSON");
  run->add_option("--batch", args->batch, "Run one command per line of FILE (- for stdin)")
      ->type_name("FILE|-");
  run->add_option("-j,--jobs", args->jobs, "Batch: at most N commands at once")
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  run->add_flag("--keep-going", args->keep_going, "Batch: keep starting commands after a failure");
  run->add_option("program", args->argv, "-- PROGRAM [ARGS...]")->type_name("PROGRAM ARGS");
  run->footer(
      "Exit code: the program's own (0 when --allow-exit allows it), 128+N after signal N, 124 on timeout,\n"
      "127 program not found, 126 not executable, 125 other failure to start, 2 bad usage.\n"
      "With --batch: 0 only if every command succeeded, else 1 (a summary goes to stderr).");
  run->callback([args] {
    auto usage_error = [](const std::string& message) {
      std::cerr << "brisk run: " << message << "\n";
      set_exit_code(2);
    };
    if (args->batch.empty() == args->argv.empty())
      return usage_error(args->batch.empty() ? "expected -- PROGRAM [ARGS...] or --batch FILE"
                                             : "--batch takes no PROGRAM; put the commands in the file");
    Template base;
    if (auto error = build_template(*args, base)) return usage_error(*error);
    set_exit_code(args->batch.empty() ? run_one(*args, base) : run_batch(*args, base));
  });
}

}  // namespace brisk::cli
