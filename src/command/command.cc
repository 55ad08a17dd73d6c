// command/command.cc: the Command builder and its terminal operations.
#include "brisk/command.h"

#include <ostream>

#include "brisk/cancel.h"
#include "brisk/command_errors.h"
#include "brisk/command_log.h"
#include "brisk/shell_words.h"
#include "command/execution.h"

namespace brisk {

Command::Command(std::string program) : Command(std::vector<std::string>{std::move(program)}) {}

Command::Command(std::initializer_list<std::string> argv) : Command(std::vector<std::string>(argv)) {}

Command::Command(std::vector<std::string> argv) {
  CommandDefaults defaults = command_defaults();
  spawn_.argv = std::move(argv);
  spawn_.env = std::move(defaults.env);
  run_ = std::move(defaults.run);
}

Command::Command(SpawnOptions spawn, RunOptions run)
    : RunSettings(std::move(run)), spawn_(std::move(spawn)) {}

Command& Command::arg(std::string value) {
  spawn_.argv.push_back(std::move(value));
  return *this;
}

Command& Command::args(std::initializer_list<std::string> values) {
  spawn_.argv.insert(spawn_.argv.end(), values.begin(), values.end());
  return *this;
}

Command& Command::args(const std::vector<std::string>& values) {
  spawn_.argv.insert(spawn_.argv.end(), values.begin(), values.end());
  return *this;
}

Command& Command::env(std::string key, std::string value) {
  spawn_.env.emplace_back(std::move(key), std::move(value));
  return *this;
}

Command& Command::env_remove(std::string key) {
  spawn_.env.emplace_back(std::move(key), std::nullopt);
  return *this;
}

Command& Command::env_clear() {
  spawn_.inherit_env = false;
  spawn_.env.clear();
  return *this;
}

Command& Command::cwd(std::string dir) {
  spawn_.cwd = std::move(dir);
  return *this;
}

Command& Command::chroot(std::string root) {
  spawn_.chroot = std::move(root);
  return *this;
}

Command& Command::umask(mode_t mask) {
  spawn_.umask = mask;
  return *this;
}

Command& Command::user(Credentials credentials) {
  spawn_.credentials = std::move(credentials);
  return *this;
}

Command& Command::netns(const std::string& name_or_path, NetnsOptions how) {
  add_netns(spawn_, name_or_path, how);
  return *this;
}

Command& Command::rlimit(int resource, rlim_t soft, rlim_t hard) {
  spawn_.rlimits.push_back({resource, soft, hard});
  return *this;
}

Output Command::output() const { return detail::run_checked({this, 1}, detail::capturing(run_)); }

CommandStatus Command::status() const { return detail::run_checked({this, 1}, run_).status; }

std::string Command::read() const {
  RunOptions run = detail::capturing(run_);
  run.out = Sink::capture();
  run.check = true;
  return detail::run_checked({this, 1}, run).out;
}

Process Command::spawn() const {
  auto execution = detail::Execution::start({this, 1}, run_);
  if (!execution) throw_error(execution.error());
  return Process(std::move(*execution));
}

std::string Command::to_string() const {
  std::string line;
  if (!spawn_.chroot.empty()) line += "chroot " + quote(spawn_.chroot) + " ";
  if (!spawn_.cwd.empty()) line += "cd " + quote(spawn_.cwd) + " && ";
  bool unsets = !spawn_.inherit_env;
  for (const auto& change : spawn_.env) unsets = unsets || !change.second;
  if (unsets) {
    // Only env(1) can express unsetting; use its syntax.
    line += "env ";
    if (!spawn_.inherit_env) line += "-i ";
    for (const auto& [key, value] : spawn_.env)
      if (!value) line += "-u " + quote(key) + " ";
  }
  for (const auto& [key, value] : spawn_.env)
    if (value) line += quote(key + "=" + *value) + " ";
  return line + join_quoted(spawn_.argv);
}

std::ostream& operator<<(std::ostream& out, const Command& command) { return out << command.to_string(); }

std::string CommandStatus::to_string() const {
  std::string lost = read_error ? ", output lost: " + read_error->message() : "";
  if (timed_out) return "timed out, " + exit.to_string() + lost;
  if (cancelled) return "cancelled, " + exit.to_string() + lost;
  return exit.to_string() + lost;
}

}  // namespace brisk
