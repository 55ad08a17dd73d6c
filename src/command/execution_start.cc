// command/execution_start.cc: starting a run: its pipes, files and processes.
#include <fcntl.h>
#include <unistd.h>

#include <optional>
#include <utility>

#include "brisk/cancel.h"
#include "brisk/command_log.h"
#include "command/execution.h"
#include "sys/io.h"
#include "sys/syscalls.h"

namespace brisk::detail {
namespace {

SpawnError prepare_error(const Command& command, int code, std::string object) {
  SpawnError error;
  error.step = SpawnStep::prepare;
  error.code = code;
  error.program = command.argv().empty() ? std::string() : command.argv()[0];
  error.object = std::move(object);
  return error;
}

bool fd_is_open(int fd) { return ::fcntl(fd, F_GETFD) >= 0; }

// /dev/null, opened once per process: the engine would otherwise open and
// close it on every spawn whose stdin or output is null. -1 if it cannot be
// opened, and the engine's own /dev/null is used instead.
int shared_dev_null() {
  static const int fd = [] {
    auto opened = sys::open("/dev/null", O_RDWR);
    return opened ? opened->release() : -1;
  }();
  return fd;
}

// Why a run must not start at all: nothing to run, or a token that already
// fired (run_all's queue drains fast).
std::optional<SpawnError> refusal(std::span<const Command> commands, const RunOptions& run) {
  SpawnError error;
  error.step = SpawnStep::validate;
  if (commands.empty()) {
    error.code = EINVAL;
    error.detail = "no command to run";
    return error;
  }
  if (run.cancel && run.cancel->cancelled()) {
    error.code = ECANCELED;
    error.program = commands.front().argv().empty() ? "" : commands.front().argv().front();
    error.detail = "cancelled before it started";
    return error;
  }
  return std::nullopt;
}

// Holds a descriptor a child receives until start() returns (the parent's
// copy then closes) and returns its number.
int keep(std::vector<UniqueFd>& child_ends, UniqueFd fd) {
  int raw = fd.get();
  child_ends.push_back(std::move(fd));
  return raw;
}

}  // namespace

Result<std::unique_ptr<Execution>, SpawnError> Execution::start(std::span<const Command> commands,
                                                                const RunOptions& run) {
  std::unique_ptr<Execution> e(new Execution(run));
  if (auto refused = refusal(commands, run)) return std::move(*refused);
  for (const auto& command : commands) e->argvs_.push_back(command.argv());
  if (run.recorder) run.recorder->record_commands(describe(commands));

  // Descriptors the children receive; the parent's copies close when start() returns.
  std::vector<UniqueFd> child_ends;
  auto stdin_fd = e->open_stdin(run, commands.front(), child_ends);
  if (!stdin_fd) return stdin_fd.error();
  auto outputs = e->open_outputs(run, commands.back(), child_ends);
  if (!outputs) return outputs.error();

  e->started_ = Clock::now();
  if (run.timeout) e->deadline_ = e->started_ + *run.timeout;
  e->own_group_ = run.new_process_group;
  auto spawned = e->spawn_members(commands, run, {*stdin_fd, outputs->first, outputs->second}, child_ends);
  if (!spawned) return spawned.error();
  return e;
}

Result<int, SpawnError> Execution::open_stdin(const RunOptions& run, const Command& first,
                                              std::vector<UniqueFd>& child_ends) {
  switch (run.input.kind()) {
    case Input::Kind::inherit:
      return fd_is_open(0) ? 0 : -1;
    case Input::Kind::null:
      return shared_dev_null();
    case Input::Kind::data:
      if (run.input.text().empty()) return shared_dev_null();  // the same as /dev/null, without a pipe
      [[fallthrough]];
    case Input::Kind::callback:
    case Input::Kind::pipe: {
      auto pipe = sys::pipe();
      if (!pipe) return prepare_error(first, pipe.error().code, "stdin pipe");
      int read_fd = keep(child_ends, std::move(pipe->read));
      if (run.input.kind() == Input::Kind::pipe) {
        handed_[0] = std::move(pipe->write);
        return read_fd;
      }
      if (auto nb = sys::set_nonblocking(pipe->write.get()); !nb)
        return prepare_error(first, nb.error().code, "stdin pipe");
      in_.fd = std::move(pipe->write);
      if (run.input.kind() == Input::Kind::data) {
        in_.data = run.input.text();
        record_input(in_.data, true);
      } else {
        in_.source = run.input.source();
      }
      return read_fd;
    }
    case Input::Kind::file: {
      auto file = sys::open(run.input.text(), O_RDONLY);
      if (!file) return prepare_error(first, file.error().code, run.input.text());
      return keep(child_ends, std::move(*file));
    }
    case Input::Kind::fd:
      return run.input.descriptor();
  }
  return -1;
}

Result<std::pair<int, int>, SpawnError> Execution::open_outputs(const RunOptions& run, const Command& last,
                                                                std::vector<UniqueFd>& child_ends) {
  if (run.out.kind() == Sink::Kind::merge) {
    SpawnError error = prepare_error(last, EINVAL, "stdout");
    error.step = SpawnStep::validate;
    error.detail = "Sink::merge() is for stderr only";
    return error;
  }
  auto stdout_fd = open_sink(run, run.out, 1, out_, last, child_ends);
  if (!stdout_fd) return stdout_fd.error();
  if (run.err.kind() == Sink::Kind::merge) return std::pair{*stdout_fd, *stdout_fd};
  auto stderr_fd = open_sink(run, run.err, 2, err_, last, child_ends);
  if (!stderr_fd) return stderr_fd.error();
  return std::pair{*stdout_fd, *stderr_fd};
}

Result<int, SpawnError> Execution::open_sink(const RunOptions& run, const Sink& sink, int slot,
                                             Reader& reader, const Command& last,
                                             std::vector<UniqueFd>& child_ends) {
  switch (sink.kind()) {
    case Sink::Kind::inherit:
      return fd_is_open(slot) ? slot : -1;
    case Sink::Kind::null:
      return shared_dev_null();
    case Sink::Kind::merge:  // resolved by open_outputs
      return -1;
    case Sink::Kind::file: {
      int flags = O_WRONLY | O_CREAT | (sink.append() ? O_APPEND : O_TRUNC);
      auto file = sys::open(sink.path(), flags, 0644);
      if (!file) return prepare_error(last, file.error().code, sink.path());
      return keep(child_ends, std::move(*file));
    }
    case Sink::Kind::fd:
      return sink.descriptor();
    case Sink::Kind::pipe: {
      auto pipe = sys::pipe();
      if (!pipe) return prepare_error(last, pipe.error().code, "output pipe");
      handed_[slot] = std::move(pipe->read);
      return keep(child_ends, std::move(pipe->write));
    }
    case Sink::Kind::quiet:
    case Sink::Kind::capture:
    case Sink::Kind::chunks:
    case Sink::Kind::lines:
    case Sink::Kind::tee: {
      auto pipe = sys::pipe();
      if (!pipe) return prepare_error(last, pipe.error().code, "output pipe");
      reader.fd = std::move(pipe->read);
      reader.kind = sink.kind();
      reader.callback = sink.callback();
      reader.is_stderr = slot == 2;
      reader.text = slot == 2 ? &output_.err : &output_.out;
      reader.split_lines = sink.kind() == Sink::Kind::lines || run.recorder != nullptr;
      if (sink.kind() == Sink::Kind::tee && fd_is_open(slot)) reader.forward_fd = slot;
      reader.held_write = std::move(pipe->write);
      return reader.held_write.get();
    }
  }
  return -1;
}

Result<void, SpawnError> Execution::spawn_members(std::span<const Command> commands, const RunOptions& run,
                                                  Stdio stdio, std::vector<UniqueFd>& child_ends) {
  const std::size_t n = commands.size();
  int next_stdin = stdio.in;
  for (std::size_t i = 0; i < n; ++i) {
    SpawnOptions options = commands[i].spawn_options();
    options.inherit_stdio = false;
    int this_stdout = stdio.out;
    UniqueFd link_read;
    if (i + 1 < n) {
      auto link = sys::pipe();
      if (!link) return prepare_error(commands[i], link.error().code, "pipeline pipe");
      link_read = std::move(link->read);
      this_stdout = keep(child_ends, std::move(link->write));
    }
    if (next_stdin >= 0) options.fds.push_back({0, next_stdin});
    if (this_stdout >= 0) options.fds.push_back({1, this_stdout});
    if (stdio.err >= 0) options.fds.push_back({2, stdio.err});
    if (run.new_process_group) {
      options.setsid = false;
      options.process_group = i == 0 ? 0 : members_[0].child.pid();
    }
    auto child = spawn(options);
    if (!child) return child.error();
    members_.push_back({std::move(*child), false, Clock::now(), {}});
    if (i + 1 < n) {
      // The next member reads this link; the parent's copy of its write end
      // must close (with child_ends, when start() returns) or the reader
      // never sees EOF.
      next_stdin = keep(child_ends, std::move(link_read));
    }
  }
  return {};
}

}  // namespace brisk::detail
