// command/execution_start.cc: starting a run: its pipes, files and processes.
#include <fcntl.h>
#include <unistd.h>

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

}  // namespace

Result<std::unique_ptr<Execution>, SpawnError> Execution::start(std::span<const Command> commands,
                                                                const RunOptions& run) {
  std::unique_ptr<Execution> e(new Execution(run));
  const std::size_t n = commands.size();
  if (n == 0) {
    SpawnError error;
    error.step = SpawnStep::validate;
    error.code = EINVAL;
    error.detail = "no command to run";
    return error;
  }
  // A token that already fired: nothing starts (run_all's queue drains fast).
  if (run.cancel && run.cancel->cancelled()) {
    SpawnError error;
    error.step = SpawnStep::validate;
    error.code = ECANCELED;
    error.program = commands.front().argv().empty() ? "" : commands.front().argv().front();
    error.detail = "cancelled before it started";
    return error;
  }
  for (const auto& command : commands) e->argvs_.push_back(command.argv());
  if (run.recorder) run.recorder->record_commands(describe(commands));

  // Descriptors the children receive; the parent's copies close when start() returns.
  std::vector<UniqueFd> child_ends;
  auto keep = [&child_ends](UniqueFd fd) {
    int raw = fd.get();
    child_ends.push_back(std::move(fd));
    return raw;
  };
  const Command& first = commands.front();
  const Command& last = commands.back();

  // stdin of the first command; -1 leaves it to the engine's /dev/null.
  int stdin_fd = -1;
  switch (run.input.kind()) {
    case Input::Kind::inherit:
      if (fd_is_open(0)) stdin_fd = 0;
      break;
    case Input::Kind::null:
      stdin_fd = shared_dev_null();
      break;
    case Input::Kind::data:
      if (run.input.text().empty()) {  // the same as /dev/null, without a pipe
        stdin_fd = shared_dev_null();
        break;
      }
      [[fallthrough]];
    case Input::Kind::callback:
    case Input::Kind::pipe: {
      auto pipe = sys::pipe();
      if (!pipe) return prepare_error(first, pipe.error().code, "stdin pipe");
      stdin_fd = keep(std::move(pipe->read));
      if (run.input.kind() == Input::Kind::pipe) {
        e->handed_[0] = std::move(pipe->write);
        break;
      }
      if (auto nb = sys::set_nonblocking(pipe->write.get()); !nb)
        return prepare_error(first, nb.error().code, "stdin pipe");
      e->in_.fd = std::move(pipe->write);
      if (run.input.kind() == Input::Kind::data) {
        e->in_.data = run.input.text();
        e->record_input(e->in_.data, true);
      } else {
        e->in_.source = run.input.source();
      }
      break;
    }
    case Input::Kind::file: {
      auto file = sys::open(run.input.text(), O_RDONLY);
      if (!file) return prepare_error(first, file.error().code, run.input.text());
      stdin_fd = keep(std::move(*file));
      break;
    }
    case Input::Kind::fd:
      stdin_fd = run.input.descriptor();
      break;
  }

  // stdout of the last command and stderr of all; `slot` is 1 or 2.
  auto sink_fd = [&](const Sink& sink, int slot, Reader& reader) -> Result<int, SpawnError> {
    switch (sink.kind()) {
      case Sink::Kind::inherit:
        return fd_is_open(slot) ? slot : -1;
      case Sink::Kind::null:
        return shared_dev_null();
      case Sink::Kind::merge:  // resolved by the caller
        return -1;
      case Sink::Kind::file: {
        int flags = O_WRONLY | O_CREAT | (sink.append() ? O_APPEND : O_TRUNC);
        auto file = sys::open(sink.path(), flags, 0644);
        if (!file) return prepare_error(last, file.error().code, sink.path());
        return keep(std::move(*file));
      }
      case Sink::Kind::fd:
        return sink.descriptor();
      case Sink::Kind::pipe: {
        auto pipe = sys::pipe();
        if (!pipe) return prepare_error(last, pipe.error().code, "output pipe");
        e->handed_[slot] = std::move(pipe->read);
        return keep(std::move(pipe->write));
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
        reader.text = slot == 2 ? &e->output_.err : &e->output_.out;
        reader.split_lines = sink.kind() == Sink::Kind::lines || run.recorder != nullptr;
        if (sink.kind() == Sink::Kind::tee && fd_is_open(slot)) reader.forward_fd = slot;
        reader.held_write = std::move(pipe->write);
        return reader.held_write.get();
      }
    }
    return -1;
  };
  if (run.out.kind() == Sink::Kind::merge) {
    SpawnError error = prepare_error(last, EINVAL, "stdout");
    error.step = SpawnStep::validate;
    error.detail = "Sink::merge() is for stderr only";
    return error;
  }
  auto stdout_fd = sink_fd(run.out, 1, e->out_);
  if (!stdout_fd) return stdout_fd.error();
  int stderr_fd = -1;
  if (run.err.kind() == Sink::Kind::merge) {
    stderr_fd = *stdout_fd;
  } else {
    auto fd = sink_fd(run.err, 2, e->err_);
    if (!fd) return fd.error();
    stderr_fd = *fd;
  }

  e->started_ = Clock::now();
  if (run.timeout) e->deadline_ = e->started_ + *run.timeout;
  e->own_group_ = run.new_process_group;
  int next_stdin = stdin_fd;
  for (std::size_t i = 0; i < n; ++i) {
    SpawnOptions options = commands[i].spawn_options();
    options.inherit_stdio = false;
    int this_stdout = *stdout_fd;
    UniqueFd link_read;
    if (i + 1 < n) {
      auto link = sys::pipe();
      if (!link) return prepare_error(commands[i], link.error().code, "pipeline pipe");
      link_read = std::move(link->read);
      this_stdout = keep(std::move(link->write));
    }
    if (next_stdin >= 0) options.fds.push_back({0, next_stdin});
    if (this_stdout >= 0) options.fds.push_back({1, this_stdout});
    if (stderr_fd >= 0) options.fds.push_back({2, stderr_fd});
    if (run.new_process_group) {
      options.setsid = false;
      options.process_group = i == 0 ? 0 : e->members_[0].child.pid();
    }
    auto child = spawn(options);
    if (!child) return child.error();
    e->members_.push_back({std::move(*child), false, Clock::now(), {}});
    if (i + 1 < n) {
      // The next member reads this link; the parent's copy of its write end
      // must close (below, with child_ends) or the reader never sees EOF.
      next_stdin = keep(std::move(link_read));
    }
  }
  return e;
}

}  // namespace brisk::detail
