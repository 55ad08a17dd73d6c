// command/execution.cc: an Execution reacting to its events, and finishing.
#include "command/execution.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "brisk/cancel.h"
#include "brisk/command_log.h"
#include "sys/io.h"
#include "sys/syscalls.h"

namespace brisk::detail {
namespace {

// A pipe holds 64 KiB by default, so one read never returns more.
constexpr std::size_t kReadBuffer = std::size_t{64} << 10;

// Big captures grow fourfold rather than twofold: reserve() only maps
// address space, so the spare capacity costs nothing until touched, while
// each growth step copies what was captured so far into freshly zeroed pages.
void append_captured(std::string& text, std::string_view chunk) {
  constexpr std::size_t kFastGrowthFrom = 1 << 20;
  if (text.size() + chunk.size() > text.capacity() && text.capacity() >= kFastGrowthFrom / 2)
    text.reserve(std::max(text.capacity() * 4, text.size() + chunk.size()));
  text.append(chunk);
}

// Calls emit for each complete line of chunk, carrying an unterminated tail
// in partial. Whole lines are emitted straight from the chunk.
template <class Emit>
void split_lines(std::string& partial, std::string_view chunk, Emit&& emit) {
  std::size_t begin = 0;
  for (std::size_t nl; (nl = chunk.find('\n', begin)) != std::string_view::npos; begin = nl + 1) {
    if (partial.empty()) {
      emit(chunk.substr(begin, nl - begin));
    } else {
      partial.append(chunk.substr(begin, nl - begin));
      emit(std::string_view(partial));
      partial.clear();
    }
  }
  partial.append(chunk.substr(begin));
}

std::chrono::nanoseconds timeval_ns(const timeval& tv) {
  return std::chrono::seconds(tv.tv_sec) + std::chrono::microseconds(tv.tv_usec);
}

}  // namespace

Execution::Execution(const RunOptions& run) : run_(run) {}

Execution::~Execution() {
  // Children still running are killed and reaped by their Child destructors
  // (DropPolicy::kill_and_reap). A group of our own is taken down whole when
  // the run is abandoned before finish(), even if only descendants remain:
  // the unreaped leader still holds the group id.
  if (own_group_ && !reaped_ && !members_.empty())
    (void)sys::signal_process_group(members_[0].child.pidfd(), members_[0].child.pid(), SIGKILL);
}

pid_t Execution::last_pid() const { return members_.empty() ? -1 : members_.back().child.pid(); }

bool Execution::all_exited() const {
  return std::all_of(members_.begin(), members_.end(), [](const Member& m) { return m.exited; });
}

void Execution::add_polls(std::vector<pollfd>& fds) {
  slots_.clear();
  if (run_.cancel && !cancelled_) {
    fds.push_back({run_.cancel->fd(), POLLIN, 0});
    slots_.push_back(Slot::cancel);
  }
  if (in_.fd) {
    fds.push_back({in_.fd.get(), POLLOUT, 0});
    slots_.push_back(Slot::in);
  }
  if (out_.fd) {
    fds.push_back({out_.fd.get(), POLLIN, 0});
    slots_.push_back(Slot::out);
  }
  if (err_.fd) {
    fds.push_back({err_.fd.get(), POLLIN, 0});
    slots_.push_back(Slot::err);
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].exited) continue;
    fds.push_back({members_[i].child.pidfd(), POLLIN, 0});
    slots_.push_back(static_cast<Slot>(i));
  }
}

void Execution::dispatch(std::span<const pollfd> fds) {
  for (std::size_t k = 0; k < fds.size() && k < slots_.size(); ++k) {
    if (fds[k].revents == 0) continue;
    switch (slots_[k]) {
      case Slot::cancel:
        // After a timeout the stop is already under way; either way the
        // grace ends in SIGKILL and, once our processes are gone, in no
        // longer waiting for descendants that hold the pipes.
        cancelled_ = true;
        if (!timed_out_) begin_stop(Clock::now());
        break;
      case Slot::in:
        on_writable();
        break;
      case Slot::out:
        on_readable(out_);
        break;
      case Slot::err:
        on_readable(err_);
        break;
      default: {
        auto& member = members_[static_cast<std::size_t>(slots_[k])];
        member.exited = true;
        member.ended = Clock::now();
      }
    }
  }
  // Nobody is left to read stdin once every process has exited.
  if (in_.fd && all_exited()) in_.fd.reset();
  if (all_exited()) {
    out_.held_write.reset();
    err_.held_write.reset();
  }
  // After SIGKILL, descendants outside our reach may still hold the pipes:
  // stop waiting for them once our own processes are gone.
  if (killed_ && all_exited()) {
    drain(out_);
    drain(err_);
  }
}

void Execution::on_readable(Reader& reader) {
  // Per run, not per thread: a callback may start a nested run while its
  // chunk still points into this buffer. Not zeroed, and small enough to
  // come from the heap rather than a fresh mmap.
  if (!buffer_) buffer_.reset(new char[kReadBuffer]);
  auto n = sys::read(reader.fd.get(), {buffer_.get(), kReadBuffer});
  if (!n && !read_error_) {
    // Nothing more can come from this pipe: say so rather than pass what
    // was read off as the whole output.
    read_error_ = std::move(n).error();
    read_error_->object = reader.is_stderr ? "stderr" : "stdout";
  }
  if (!n || *n == 0) {
    end_of_stream(reader);
    return;
  }
  deliver(reader, {buffer_.get(), *n});
}

void Execution::deliver(Reader& reader, std::string_view chunk) {
  switch (reader.kind) {
    case Sink::Kind::capture:
      append_captured(*reader.text, chunk);
      break;
    case Sink::Kind::tee:
      append_captured(*reader.text, chunk);
      if (reader.forward_fd >= 0) (void)sys::write_all(reader.forward_fd, chunk);
      break;
    case Sink::Kind::chunks:
      reader.callback(chunk);
      [[fallthrough]];
    default:  // quiet, lines: keep the first bytes for errors and the caller
      if (reader.text->size() < run_.keep_limit)
        reader.text->append(chunk.substr(0, run_.keep_limit - reader.text->size()));
      break;
  }
  if (!reader.split_lines) return;
  split_lines(reader.partial, chunk, [this, &reader](std::string_view line) { emit_line(reader, line); });
}

void Execution::emit_line(Reader& reader, std::string_view line) {
  if (reader.kind == Sink::Kind::lines) reader.callback(line);
  if (run_.recorder) {
    if (reader.is_stderr) {
      run_.recorder->record_stderr(line);
    } else {
      run_.recorder->record_stdout(line);
    }
  }
}

void Execution::drain(Reader& reader) {
  while (reader.fd) {
    pollfd pfd{reader.fd.get(), POLLIN, 0};
    auto ready = sys::poll({&pfd, 1}, 0);
    if (!ready || *ready == 0) break;
    on_readable(reader);
  }
  if (reader.fd) end_of_stream(reader);
}

void Execution::end_of_stream(Reader& reader) {
  reader.fd.reset();
  if (reader.split_lines && !reader.partial.empty()) {
    emit_line(reader, reader.partial);
    reader.partial.clear();
  }
}

void Execution::record_input(std::string_view data, bool last) {
  if (!run_.recorder) return;
  split_lines(in_.partial, data, [this](std::string_view line) { run_.recorder->record_stdin(line); });
  if (last && !in_.partial.empty()) {
    run_.recorder->record_stdin(in_.partial);
    in_.partial.clear();
  }
}

void Execution::on_writable() {
  if (in_.offset == in_.data.size()) {
    if (!in_.source) {
      in_.fd.reset();  // all written: the child sees end of file
      return;
    }
    auto next = in_.source();
    if (!next) {
      in_.fd.reset();
      record_input({}, true);
      return;
    }
    in_.data = std::move(*next);
    in_.offset = 0;
    record_input(in_.data, false);
    if (in_.data.empty()) return;
  }
  ssize_t n = ::write(in_.fd.get(), in_.data.data() + in_.offset, in_.data.size() - in_.offset);
  if (n > 0) {
    in_.offset += static_cast<std::size_t>(n);
  } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
    in_.fd.reset();  // EPIPE: the child closed its stdin; it decides what that means
  }
}

void Execution::begin_stop(Clock::time_point now) {
  signal_all(run_.timeout_signal);
  kill_deadline_ = now + run_.kill_after;
}

std::optional<Clock::time_point> Execution::next_timer() const {
  if (deadline_ && !timed_out_ && !cancelled_) return deadline_;
  if (kill_deadline_ && !killed_) return kill_deadline_;
  return std::nullopt;
}

void Execution::fire_timers(Clock::time_point now) {
  if (deadline_ && !timed_out_ && !cancelled_ && now >= *deadline_) {
    timed_out_ = true;
    begin_stop(now);
  }
  if (kill_deadline_ && !killed_ && now >= *kill_deadline_) {
    killed_ = true;
    signal_all(SIGKILL);
    dispatch({});  // stop waiting on pipes if our processes are all gone already
  }
}

void Execution::signal_all(int signal) {
  // A group of our own is signalled whole, while its leader is unreaped.
  if (own_group_ && !members_.empty())
    (void)sys::signal_process_group(members_[0].child.pidfd(), members_[0].child.pid(), signal);
  for (auto& member : members_)
    if (!member.exited) (void)member.child.kill(signal);
}

Result<void> Execution::kill(int signal) {
  Result<void> result;
  for (auto& member : members_) {
    if (member.exited) continue;
    auto sent = member.child.kill(signal);
    if (!sent && sent.error().code != ESRCH) result = sent.error();
  }
  return result;
}

UniqueFd Execution::take_handed(int child_fd) { return std::move(handed_[child_fd]); }

void Execution::close_handed() {
  for (auto& fd : handed_) fd.reset();
}

bool Execution::finished() const { return all_exited() && !out_.fd && !err_.fd; }

Output Execution::finish() {
  reaped_ = true;
  record_input({}, true);  // a callback's last line, if the child stopped reading first
  in_.fd.reset();
  out_.fd.reset();
  err_.fd.reset();
  Clock::time_point now = Clock::now();
  output_.processes.clear();
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& member = members_[i];
    auto status = member.child.wait();
    ProcessResult result;
    result.argv = argvs_[i];
    // wait() only fails for a released child, which an Execution never has.
    result.status = status ? *status : ExitStatus::from_signal(SIGKILL);
    const struct rusage& ru = member.child.rusage();
    result.usage.wall = (member.exited ? member.ended : now) - member.started;
    result.usage.user = timeval_ns(ru.ru_utime);
    result.usage.system = timeval_ns(ru.ru_stime);
    result.usage.max_rss_kib = ru.ru_maxrss;
    output_.usage.user += result.usage.user;
    output_.usage.system += result.usage.system;
    output_.usage.max_rss_kib = std::max(output_.usage.max_rss_kib, result.usage.max_rss_kib);
    output_.processes.push_back(std::move(result));
  }
  output_.usage.wall = now - started_;

  const ExitStatus* deciding = &output_.processes.back().status;
  if (run_.pipefail) {
    for (const auto& p : output_.processes) {
      if (!run_.allowed.allows(p.status)) {
        deciding = &p.status;
        break;
      }
    }
  }
  output_.status.exit = *deciding;
  output_.status.timed_out = timed_out_;
  output_.status.cancelled = cancelled_;
  output_.status.read_error = read_error_;
  output_.status.allowed = !timed_out_ && !cancelled_ && !read_error_ && run_.allowed.allows(*deciding);
  if (run_.recorder) run_.recorder->record_status(output_.status);
  return std::move(output_);
}

}  // namespace brisk::detail
