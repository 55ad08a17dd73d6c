// brisk/command.h: run a program the way management software needs to.
//
// A fluent builder in the style of Rust's std::process::Command, with the
// conveniences of Ruby's Cheetah: captured output, allowed exit statuses,
// errors that carry everything needed to report them, logging, and timeouts.
// It is built on brisk::spawn(), so no shell is ever involved.
//
//   using namespace std::chrono_literals;
//   std::string units = brisk::Command("systemctl")
//                           .args({"list-units", "--plain", "--no-legend"})
//                           .env("LANG", "C")
//                           .chroot("/mnt")
//                           .timeout(5s)
//                           .read();  // throws brisk::ExecutionFailed on failure
//
//   brisk::Output out = brisk::Command("grep").args({"-q", "x", "/etc/hosts"})
//                           .allow_exit({0, 1}).output();
//   if (out.status.exit.code() == 1) ...
//
// One run drives every pipe and pidfd from one poll() loop in the calling
// thread, so capturing both streams while feeding stdin never deadlocks.
// A Command is a value: copy it, reuse it, print it (a shell-quoted line).
//
// A run ends when every process has exited and every pipe brisk reads is
// closed, as a shell's $(...) does: a daemon that keeps stdout open holds the
// run until it exits, or until the timeout's SIGKILL phase, after which brisk
// stops waiting for descendants it cannot reach.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "brisk/child.h"
#include "brisk/exit_status.h"
#include "brisk/export.h"
#include "brisk/fd.h"
#include "brisk/spawn.h"

namespace brisk {

class Recorder;
class CancelToken;
class Wakeup;

// Where the child's stdin comes from.
class BRISK_EXPORT Input {
 public:
  enum class Kind {
    inherit,   // the parent's stdin
    null,      // /dev/null: immediate end of file
    data,      // a string, written by the event loop
    file,      // a file, opened read-only and given to the child
    fd,        // a descriptor of the caller's (not owned), given to the child
    callback,  // chunks pulled from a function until it returns nullopt
    pipe,      // a pipe whose write end the caller takes with Process::take_stdin()
  };
  using Source = std::function<std::optional<std::string>()>;

  static Input inherit() { return Input(Kind::inherit); }
  static Input null() { return Input(Kind::null); }
  static Input data(std::string bytes);
  static Input file(std::string path);
  static Input fd(int descriptor);
  static Input callback(Source next_chunk);
  // Reads the stream in chunks as the child consumes them. The stream must
  // outlive the run.
  static Input stream(std::istream& in);
  static Input pipe() { return Input(Kind::pipe); }

  Kind kind() const { return kind_; }
  const std::string& text() const { return text_; }  // data bytes or file path
  int descriptor() const { return fd_; }
  const Source& source() const { return source_; }

 private:
  explicit Input(Kind kind) : kind_(kind) {}
  Kind kind_ = Kind::null;
  std::string text_{};
  int fd_ = -1;
  Source source_{};
};

// Where the child's stdout or stderr goes.
class BRISK_EXPORT Sink {
 public:
  enum class Kind {
    inherit,  // the parent's descriptor
    null,     // /dev/null; nothing is kept
    quiet,    // read and discarded, but the first bytes are kept for errors and the recorder (Cheetah's nil)
    capture,  // read into Output::out or Output::err
    file,     // a file, created or truncated (or appended), given to the child
    fd,       // a descriptor of the caller's (not owned), given to the child
    chunks,   // each chunk as read, to a function
    lines,    // each line without its newline, to a function
    merge,    // stderr only: the same destination as stdout (2>&1)
    tee,      // captured and also written to the parent's same descriptor
    pipe,     // a pipe whose read end the caller takes with Process::take_stdout()/take_stderr()
  };
  using Callback = std::function<void(std::string_view)>;

  static Sink inherit() { return Sink(Kind::inherit); }
  static Sink null() { return Sink(Kind::null); }
  static Sink quiet() { return Sink(Kind::quiet); }
  static Sink capture() { return Sink(Kind::capture); }
  static Sink file(std::string path, bool append = false);
  static Sink fd(int descriptor);
  static Sink chunks(Callback on_chunk);
  static Sink lines(Callback on_line);
  static Sink merge() { return Sink(Kind::merge); }
  static Sink tee() { return Sink(Kind::tee); }
  static Sink pipe() { return Sink(Kind::pipe); }

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  bool append() const { return append_; }
  int descriptor() const { return fd_; }
  const Callback& callback() const { return callback_; }

 private:
  explicit Sink(Kind kind) : kind_(kind) {}
  Kind kind_ = Kind::quiet;
  std::string path_{};
  bool append_ = false;
  int fd_ = -1;
  Callback callback_{};
};

// The exit codes that count as success: any mix of codes and ranges.
// A death by signal is never allowed.
class BRISK_EXPORT AllowedExit {
 public:
  AllowedExit() : AllowedExit(0) {}
  AllowedExit(int code) : ranges_{{code, code}} {}  // NOLINT: implicit on purpose, allow_exit(1)
  AllowedExit(std::initializer_list<int> codes);
  // Every code from first to last inclusive.
  static AllowedExit range(int first, int last);
  // Adds the codes of another set.
  AllowedExit& operator|=(const AllowedExit& other);

  bool allows(int code) const;
  bool allows(const ExitStatus& status) const;
  // "0", "0,1", "0-3,7".
  std::string to_string() const;
  // Parses to_string()'s format; nullopt when malformed.
  static std::optional<AllowedExit> parse(std::string_view text);

 private:
  std::vector<std::pair<int, int>> ranges_;
};

// How a run ended.
struct BRISK_EXPORT CommandStatus {
  ExitStatus exit{};       // the deciding process's end: the command's, or per the pipeline mode
  bool timed_out = false;  // the timeout expired and the command was signalled
  bool cancelled = false;  // the run's CancelToken fired and the command was signalled
  bool allowed = false;    // exit is in the allowed set, and the run neither timed out nor was cancelled
                           // nor lost output to a read error
  // Reading the command's output failed (object "stdout" or "stderr"): what
  // was read before is kept, the rest is lost, and the run counts as failed.
  std::optional<SysError> read_error{};

  bool success() const { return allowed; }
  // "exit code 0", "signal 9 (SIGKILL)", "timed out, signal 15 (SIGTERM)",
  // "cancelled, signal 15 (SIGTERM)", "exit code 0, output lost: read
  // stdout: Input/output error".
  std::string to_string() const;
};

// Time and CPU one process (or a whole run) used.
struct Usage {
  std::chrono::nanoseconds wall{};    // from spawn to reaping
  std::chrono::nanoseconds user{};    // user CPU, from waitid's rusage
  std::chrono::nanoseconds system{};  // system CPU, from waitid's rusage
  long max_rss_kib = 0;               // peak resident set (largest member for a run)
};

// One process of a run.
struct ProcessResult {
  std::vector<std::string> argv{};  // as given to the command
  ExitStatus status{};              // this process's own end, whatever decided the run's status
  Usage usage{};                    // its wall time and CPU
};

// Everything a finished run produced.
struct Output {
  CommandStatus status{};
  std::string out{};  // stdout when captured (capture, tee), else the bytes kept for errors
  std::string err{};  // the same for stderr
  std::vector<ProcessResult> processes{};  // one per command, in pipeline order
  Usage usage{};                           // wall time of the run; CPU summed over its processes
};

// Settings of a run, shared by Command and Pipeline. Process-wide defaults:
// see brisk/command_log.h.
struct RunOptions {
  Input input = Input::null();  // stdin of the (first) command
  Sink out = Sink::quiet();     // stdout of the (last) command
  Sink err = Sink::quiet();     // stderr of every command
  AllowedExit allowed{};        // exit codes that count as success
  bool check = true;            // throw ExecutionFailed/TimedOut when the status is not allowed
  std::optional<std::chrono::nanoseconds> timeout{};  // deadline from the start; none by default
  // Grace between the polite signal and SIGKILL.
  std::chrono::nanoseconds kill_after = std::chrono::seconds(2);
  int timeout_signal = SIGTERM;  // the polite signal sent at the deadline
  // A process group of its own (overriding setsid and process_group), so
  // that timeouts and dropping a Process reach grandchildren too.
  bool new_process_group = false;
  bool pipefail = false;                 // pipelines: the first failing member decides, not the last
  std::size_t keep_limit = 1 << 20;      // bytes of quiet or callback output kept for errors
  std::shared_ptr<Recorder> recorder{};  // receives command lines, data and status; none by default
  // Stops the run from another thread or a signal handler, like a timeout
  // expiring now (brisk/cancel.h); none by default.
  std::shared_ptr<CancelToken> cancel{};
};

class Process;

// The run setters Command and Pipeline share, written once: each returns
// the builder it was called on (Command& or Pipeline&), so chains keep
// their type.
template <class Self>
class RunSettings {
 public:
  Self& stdin_from(Input input) { return set(&RunOptions::input, std::move(input)); }
  Self& stdout_to(Sink sink) { return set(&RunOptions::out, std::move(sink)); }
  Self& stderr_to(Sink sink) { return set(&RunOptions::err, std::move(sink)); }
  Self& allow_exit(AllowedExit codes) { return set(&RunOptions::allowed, std::move(codes)); }
  // false: output() and status() return any status instead of throwing.
  Self& check(bool on) { return set(&RunOptions::check, on); }
  Self& timeout(std::chrono::nanoseconds limit) { return set(&RunOptions::timeout, limit); }
  Self& kill_after(std::chrono::nanoseconds grace) { return set(&RunOptions::kill_after, grace); }
  Self& timeout_signal(int signal) { return set(&RunOptions::timeout_signal, signal); }
  // A process group of its own (a pipeline's members join the first's):
  // timeouts and dropping the Process reach every descendant.
  Self& new_process_group(bool on = true) { return set(&RunOptions::new_process_group, on); }
  Self& recorder(std::shared_ptr<Recorder> recorder) {
    return set(&RunOptions::recorder, std::move(recorder));
  }
  Self& cancel_on(std::shared_ptr<CancelToken> token) { return set(&RunOptions::cancel, std::move(token)); }

  const RunOptions& run_options() const { return run_; }
  RunOptions& run_options() { return run_; }

 protected:
  RunSettings() = default;
  explicit RunSettings(RunOptions run) : run_(std::move(run)) {}
  RunOptions run_;

 private:
  template <class Field, class Value>
  Self& set(Field RunOptions::*field, Value&& value) {
    run_.*field = std::forward<Value>(value);
    return static_cast<Self&>(*this);
  }
};

class BRISK_EXPORT Command : public RunSettings<Command> {
 public:
  // Starts from the process-wide defaults (brisk::command_defaults()).
  explicit Command(std::string program);
  Command(std::initializer_list<std::string> argv);
  explicit Command(std::vector<std::string> argv);
  // Full control: the engine's options plus the run settings, no defaults applied.
  Command(SpawnOptions spawn, RunOptions run);

  Command& arg(std::string value);
  Command& args(std::initializer_list<std::string> values);
  Command& args(const std::vector<std::string>& values);

  Command& env(std::string key, std::string value);
  Command& env_remove(std::string key);
  // Starts from an empty environment (variables set afterwards still apply).
  Command& env_clear();
  Command& cwd(std::string dir);
  // The child chroots here, then changes to cwd (or /) inside it.
  Command& chroot(std::string root);
  Command& umask(mode_t mask);
  Command& user(Credentials credentials);
  // A network namespace: a name under /run/netns (as iproute2 names them) or
  // a path. By default the program also gets what `ip netns exec` gives it
  // (see NetnsView in brisk/spawn.h): a private mount namespace with its
  // namespace's /sys and, for a name, /etc/netns/NAME/* bound over /etc, so
  // that it reads that namespace's resolv.conf. {.view = false}: setns only.
  Command& netns(const std::string& name_or_path, NetnsOptions how = {});
  Command& rlimit(int resource, rlim_t soft, rlim_t hard);

  // stdin_from, stdout_to, stderr_to, allow_exit, check, timeout,
  // kill_after, timeout_signal, new_process_group, recorder, cancel_on and
  // run_options() come from RunSettings.

  // Runs to completion. Throws SpawnFailed (or a subclass) when the program
  // cannot start, TimedOut or ExecutionFailed when the status is not allowed
  // (unless check(false)). stdout and stderr are captured unless set otherwise.
  Output output() const;
  // Runs to completion with the configured sinks (quiet by default).
  CommandStatus status() const;
  // Runs to completion and returns stdout; always checks the status.
  std::string read() const;
  // Starts the command and returns at once; Process::wait() finishes it.
  Process spawn() const;

  const std::vector<std::string>& argv() const { return spawn_.argv; }
  const SpawnOptions& spawn_options() const { return spawn_; }
  SpawnOptions& spawn_options() { return spawn_; }

  // The command as a shell-quoted line, with its env changes and cwd in front:
  // "cd /srv && LANG=C ls -l 'my file'".
  std::string to_string() const;

 private:
  SpawnOptions spawn_;
};

BRISK_EXPORT std::ostream& operator<<(std::ostream& out, const Command& command);

namespace detail {
class Execution;
}

// A running command or pipeline.
class BRISK_EXPORT Process {
 public:
  // Made by Command::spawn() and Pipeline::spawn() only.
  BRISK_HIDDEN explicit Process(std::unique_ptr<detail::Execution> execution);
  Process(Process&&) noexcept;
  Process& operator=(Process&&) noexcept;
  // Kills and reaps whatever still runs (with new_process_group, the whole group).
  ~Process();

  // The pid of the (last) process; informational only: signal through kill().
  pid_t pid() const;
  // Signals every process of the run through its pidfd.
  Result<void> kill(int signal = SIGKILL);

  // The caller's ends of Input::pipe() and Sink::pipe(); invalid otherwise or
  // once taken. Close the stdin end to let the child see end of file; drain a
  // taken stdout or stderr (or close it) before wait(), which does not read it.
  UniqueFd take_stdin();
  UniqueFd take_stdout();
  UniqueFd take_stderr();

  // Drives the pipes until every process exits, reaps them, and applies the
  // status check of the run options. Timeouts are enforced only while this
  // runs (they count from spawn()), since nothing else drives the process.
  Output wait();
  // Drives the pipes for at most `limit`, or until `wake` (brisk/cancel.h)
  // is notified; returns what wait() would once the run has finished (and
  // then the Process is spent, like after wait()), or nothing while it still
  // runs. Throws as wait() does.
  std::optional<Output> wait_for(std::chrono::nanoseconds limit, const Wakeup* wake = nullptr);
  // Never blocks: handles what is ready now (up to about 1 MiB per pipe, so
  // that a chatty child cannot keep the caller here), then answers as
  // wait_for().
  std::optional<Output> try_wait();

 private:
  // Drives until the run finishes or `until` passes; `rounds` bounds the
  // poll rounds that may follow once `until` has passed.
  std::optional<Output> drive_until(std::chrono::steady_clock::time_point until, int rounds,
                                    const Wakeup* wake = nullptr);

  std::unique_ptr<detail::Execution> execution_;
};

}  // namespace brisk
