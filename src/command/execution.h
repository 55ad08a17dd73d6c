// command/execution.h: one run of a command or pipeline, as the event loop
// sees it.
//
// An Execution owns the children (by pidfd) and the parent's ends of their
// pipes. It never blocks: the loop asks it which descriptors to poll and when
// its next timer is due, then hands it the results. Children are reaped only
// in finish(), once every one has exited and every pipe is closed, so that a
// process group leader stays unreaped (its pgid held) for as long as the
// timeout may still signal its group.
#pragma once

#include <poll.h>

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "brisk/command.h"

namespace brisk::detail {

using Clock = std::chrono::steady_clock;

class Execution {
 public:
  // Starts every command, connected in a pipeline when there are several.
  // On failure, whatever was started is killed and reaped.
  static Result<std::unique_ptr<Execution>, SpawnError> start(std::span<const Command> commands,
                                                              const RunOptions& run);
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;
  ~Execution();

  // Appends the descriptors to poll now.
  void add_polls(std::vector<pollfd>& fds);
  // Handles the results for the descriptors add_polls() appended, in order.
  void dispatch(std::span<const pollfd> fds);
  // When the next timeout phase is due, if any.
  std::optional<Clock::time_point> next_timer() const;
  void fire_timers(Clock::time_point now);
  // Every process has exited and every pipe the loop reads has closed.
  bool finished() const;
  // Whether writes to a pipe may raise SIGPIPE (the loop blocks it then).
  bool writes_stdin() const { return in_.fd.valid(); }
  // Reaps every process and returns the result (status not checked).
  Output finish();

  const std::vector<std::vector<std::string>>& commands() const { return argvs_; }
  const RunOptions& run() const { return run_; }
  pid_t last_pid() const;
  Result<void> kill(int signal);
  UniqueFd take_handed(int child_fd);
  // Closes the caller's pipe ends nobody took, so that the child sees end of
  // file on stdin and EPIPE on output instead of blocking forever.
  void close_handed();

 private:
  struct Member {
    Child child;
    bool exited = false;
    Clock::time_point started{};
    Clock::time_point ended{};
  };
  struct Reader {
    UniqueFd fd;
    Sink::Kind kind = Sink::Kind::quiet;
    Sink::Callback callback{};
    std::string* text = nullptr;  // Output::out or Output::err
    std::string partial{};        // an unterminated line, when lines are split
    bool split_lines = false;     // for a lines sink or the recorder
    bool is_stderr = false;
    int forward_fd = -1;  // tee: the parent's descriptor
    // The parent's copy of the pipe's write end, held while any process of
    // the run lives: the child's exit then raises no end of file before the
    // pidfd reports the exit, which saves a wakeup per run. Closed once every
    // process has exited; end of file still waits for other holders.
    UniqueFd held_write;
  };
  struct Writer {
    UniqueFd fd;
    std::string data{};
    std::size_t offset = 0;
    Input::Source source{};
    std::string partial{};  // an unterminated line not yet recorded
  };
  enum class Slot : int { cancel = -4, in = -3, out = -2, err = -1 };  // members are 0..n-1

  // The descriptors every member's stdio comes from; -1 leaves one to the engine's /dev/null.
  struct Stdio {
    int in = -1;   // the first member's stdin
    int out = -1;  // the last member's stdout
    int err = -1;  // every member's stderr
  };

  explicit Execution(const RunOptions& run);
  // start()'s steps, in order. Each descriptor a child receives is held in
  // `child_ends`, whose copies close when start() returns; each returns the
  // descriptor the children get (-1: the engine's /dev/null).
  Result<int, SpawnError> open_stdin(const RunOptions& run, const Command& first,
                                     std::vector<UniqueFd>& child_ends);
  // stdout and stderr; a merged stderr is stdout's.
  Result<std::pair<int, int>, SpawnError> open_outputs(const RunOptions& run, const Command& last,
                                                       std::vector<UniqueFd>& child_ends);
  // One output; `slot` is 1 or 2, `reader` the one it fills for a sink the loop reads.
  Result<int, SpawnError> open_sink(const RunOptions& run, const Sink& sink, int slot, Reader& reader,
                                    const Command& last, std::vector<UniqueFd>& child_ends);
  // Spawns each command, linked to the next by a pipe.
  Result<void, SpawnError> spawn_members(std::span<const Command> commands, const RunOptions& run,
                                         Stdio stdio, std::vector<UniqueFd>& child_ends);
  void on_readable(Reader& reader);
  void deliver(Reader& reader, std::string_view chunk);
  void emit_line(Reader& reader, std::string_view line);
  void end_of_stream(Reader& reader);
  // Reads what is buffered without blocking, then closes.
  void drain(Reader& reader);
  void on_writable();
  // Passes fed stdin to the recorder line by line; `last` flushes the tail.
  void record_input(std::string_view data, bool last);
  void signal_all(int signal);
  // The polite signal now, SIGKILL after the grace: for a timeout or a cancel.
  void begin_stop(Clock::time_point now);
  bool all_exited() const;

  RunOptions run_;
  std::vector<std::vector<std::string>> argvs_;
  std::vector<Member> members_;
  bool own_group_ = false;
  bool reaped_ = false;  // finish() ran: the leader's pgid may be reused now
  Reader out_;
  Reader err_;
  Writer in_;
  UniqueFd handed_[3];       // caller's ends for Input::pipe() and Sink::pipe()
  std::vector<Slot> slots_;  // what each descriptor of the last add_polls() was
  Output output_;
  Clock::time_point started_{};
  std::optional<Clock::time_point> deadline_{};
  std::optional<Clock::time_point> kill_deadline_{};
  bool timed_out_ = false;
  bool cancelled_ = false;
  bool killed_ = false;
  std::unique_ptr<char[]> buffer_;      // read buffer, allocated at the first read
  std::optional<SysError> read_error_;  // the first failed read of an output pipe
};

// Runs the loop until the execution finishes.
void drive(Execution& execution);
// One round of the loop over several executions: polls until something is
// ready, a timer is due, `until` passes or `wake_fd` (when not -1) becomes
// readable, then dispatches. Returns whether any descriptor was ready.
bool poll_once(std::span<Execution* const> executions, std::optional<Clock::time_point> until = std::nullopt,
               int wake_fd = -1);

// Blocks SIGPIPE in this thread while stdin pipes are written, and consumes a
// SIGPIPE the writes raised, so that a child closing its stdin early cannot
// kill the caller. Does nothing when `active` is false.
class SigpipeGuard {
 public:
  explicit SigpipeGuard(bool active);
  ~SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  bool active_ = false;
  bool was_pending_ = false;
  sigset_t old_mask_{};
};

// Runs to the end and applies the status check; throws SpawnFailed on a start failure.
Output run_checked(std::span<const Command> commands, const RunOptions& run);
// output() and read() capture the streams the caller left quiet.
RunOptions capturing(RunOptions run);
// The line recorded and printed for a run.
std::string describe(std::span<const Command> commands);

}  // namespace brisk::detail
