// process.cc: one Command, Pipeline or run_all from a Spec that Python filled in.
//
// Python (brisk/_run.py) turns subprocess-style arguments into a Spec: every
// path and argument already bytes, every stream a mode and a descriptor. The
// run itself happens without the GIL. The main thread wakes every 100 ms to
// let Python handle signals, so Ctrl-C stops a long run as it stops
// subprocess.run: the children are killed and reaped, and the exception goes
// on.
#include <pybind11/stl.h>
#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.h"
#include "brisk/command.h"
#include "brisk/pipeline.h"
#include "brisk/run_all.h"
#include "brisk/spawn.h"

namespace py = pybind11;

namespace brisk::python {
namespace {

// Where a stream goes, as brisk/_run.py encodes subprocess's constants.
enum class Stream : int {
  inherit = 0,  // None: the parent's descriptor
  null = 1,     // DEVNULL
  capture = 2,  // PIPE
  fd = 3,       // a descriptor of the caller's (an int or a file's fileno())
  merge = 4,    // stderr only: STDOUT
  data = 5,     // stdin only: input=
};

// One command as Python describes it. Fields hold bytes as std::string.
struct Spec {
  std::vector<std::string> argv{};                     // the arguments, argv[0] first
  std::string executable{};                            // the program to run; empty: argv[0]
  int stdin_mode = static_cast<int>(Stream::inherit);  // a Stream
  int stdin_fd = -1;                                   // with Stream::fd
  std::string input{};                                 // with Stream::data
  int stdout_mode = static_cast<int>(Stream::inherit);
  int stdout_fd = -1;
  int stderr_mode = static_cast<int>(Stream::inherit);
  int stderr_fd = -1;
  std::optional<double> timeout{};  // seconds from the start; none: no limit
  std::optional<double>
      kill_after{};  // SIGTERM at the timeout, SIGKILL this much later; none: SIGKILL at once
  // The whole environment when set; none: the parent's.
  std::optional<std::vector<std::pair<std::string, std::string>>> env{};
  std::string cwd{};           // working directory; empty: the parent's (or / in a chroot)
  std::string chroot{};        // new root; empty: none
  std::string netns{};         // a name under /run/netns or a path; empty: none
  bool netns_view = true;      // with netns: ip netns exec's /sys and /etc (false: setns only)
  std::optional<uid_t> uid{};  // switch to this user
  std::optional<gid_t> gid{};  // and group
  std::optional<std::vector<gid_t>> groups{};  // supplementary groups; none: [] when uid or gid is set
  std::vector<std::tuple<int, rlim_t, rlim_t>> rlimits{};  // (resource, soft, hard)
  std::optional<mode_t> umask{};                           // none: the parent's
  bool new_session = false;                                // setsid (start_new_session)
  std::vector<int> pass_fds{};                             // descriptors kept open, at the same numbers
};

// What a run produced, or why it could not start.
struct RunResult {
  int returncode = 0;              // exit code, or -signal as subprocess reports it
  std::vector<int> returncodes{};  // one per process, pipeline order
  std::optional<py::bytes> out{};  // captured stdout
  std::optional<py::bytes> err{};  // captured stderr
  bool timed_out = false;          // the timeout expired and the run was killed
  std::string read_error{};        // captured output lost to a read error: its text
  // A start failure: (kind, step, errno, program, object, message); empty otherwise.
  std::optional<std::tuple<std::string, std::string, int, std::string, std::string, std::string>>
      spawn_error{};
};

std::chrono::nanoseconds seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

Input input_of(const Spec& spec) {
  switch (static_cast<Stream>(spec.stdin_mode)) {
    case Stream::null:
      return Input::null();
    case Stream::fd:
      return Input::fd(spec.stdin_fd);
    case Stream::data:
      return Input::data(spec.input);
    default:
      return Input::inherit();
  }
}

Sink sink_of(int mode, int fd) {
  switch (static_cast<Stream>(mode)) {
    case Stream::null:
      return Sink::null();
    case Stream::capture:
      return Sink::capture();
    case Stream::fd:
      return Sink::fd(fd);
    case Stream::merge:
      return Sink::merge();
    default:
      return Sink::inherit();
  }
}

// The run settings a Spec carries: streams and the timeout.
void apply_run(const Spec& spec, RunOptions& run) {
  run.input = input_of(spec);
  run.out = sink_of(spec.stdout_mode, spec.stdout_fd);
  run.err = sink_of(spec.stderr_mode, spec.stderr_fd);
  run.check = false;  // Python decides what a status means
  if (spec.timeout) run.timeout = seconds(*spec.timeout);
  if (spec.kill_after) {
    run.timeout_signal = SIGTERM;
    run.kill_after = seconds(*spec.kill_after);
  } else {
    run.timeout_signal = SIGKILL;  // subprocess.run kills at the timeout
    run.kill_after = std::chrono::seconds(0);
  }
}

Command command_of(const Spec& spec) {
  SpawnOptions so;
  so.argv = spec.argv;
  so.program = spec.executable;
  if (spec.env) {
    so.inherit_env = false;
    for (const auto& [k, v] : *spec.env) so.env.emplace_back(k, v);
  }
  so.cwd = spec.cwd;
  so.chroot = spec.chroot;
  so.umask = spec.umask;
  so.setsid = spec.new_session;
  for (const auto& [resource, soft, hard] : spec.rlimits) so.rlimits.push_back({resource, soft, hard});
  if (spec.uid || spec.gid || spec.groups) {
    Credentials c;
    c.uid = spec.uid.value_or(geteuid());
    c.gid = spec.gid.value_or(getegid());
    c.groups = spec.groups.value_or(std::vector<gid_t>{});
    so.credentials = c;
  }
  for (int fd : spec.pass_fds) so.fds.push_back({fd, fd});
  if (!spec.netns.empty()) add_netns(so, spec.netns, {.view = spec.netns_view});
  RunOptions run;
  apply_run(spec, run);
  return Command(std::move(so), std::move(run));
}

int returncode_of(const ExitStatus& status) {
  if (auto sig = status.signal()) return -*sig;
  return status.code().value_or(0);
}

std::tuple<std::string, std::string, int, std::string, std::string, std::string> describe(
    const SpawnError& e) {
  const char* kind = "other";
  switch (e.kind()) {
    case SpawnError::Kind::invalid_argument:
      kind = "invalid_argument";
      break;
    case SpawnError::Kind::program_not_found:
      kind = "program_not_found";
      break;
    case SpawnError::Kind::permission_denied:
      kind = "permission_denied";
      break;
    case SpawnError::Kind::bad_cwd:
      kind = "bad_cwd";
      break;
    case SpawnError::Kind::bad_chroot:
      kind = "bad_chroot";
      break;
    case SpawnError::Kind::other:
      break;
  }
  return {kind, to_string(e.step), e.code, e.program, e.object, e.message()};
}

// Fills a result from an Output; needs the GIL (it makes bytes objects).
RunResult result_of(Output&& out, const Spec& last, const Spec& first_err) {
  RunResult r;
  r.returncode = returncode_of(out.status.exit);
  for (const auto& p : out.processes) r.returncodes.push_back(returncode_of(p.status));
  r.timed_out = out.status.timed_out;
  if (out.status.read_error) r.read_error = out.status.read_error->message();
  if (static_cast<Stream>(last.stdout_mode) == Stream::capture) r.out = py::bytes(out.out);
  if (static_cast<Stream>(first_err.stderr_mode) == Stream::capture) r.err = py::bytes(out.err);
  return r;
}

// Drives a started run to its end without the GIL, waking every 100 ms so
// that Python can run its signal handlers (on the main thread; elsewhere
// PyErr_CheckSignals does nothing). When one raises, ~Process kills and
// reaps the run and the exception goes on.
Output drive(Process& process) {
  for (;;) {
    std::optional<Output> done;
    {
      py::gil_scoped_release nogil;
      done = process.wait_for(std::chrono::milliseconds(100));
    }
    if (done) return std::move(*done);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

template <class Runnable>
RunResult start_and_drive(const Runnable& runnable, const Spec& last, const Spec& first) {
  std::optional<Process> process;
  try {
    py::gil_scoped_release nogil;
    process.emplace(runnable.spawn());
  } catch (const SpawnFailed& e) {
    RunResult r;
    r.spawn_error = describe(e.error());
    return r;
  }
  return result_of(drive(*process), last, first);
}

RunResult run_one(const Spec& spec) { return start_and_drive(command_of(spec), spec, spec); }

// Members give their own arguments, environment and places; `run` gives the
// pipeline's stdin, stdout, stderr and timeout.
RunResult run_pipeline(const std::vector<Spec>& members, const Spec& run, bool pipefail) {
  if (members.empty()) throw py::value_error("a pipeline needs at least one command");
  std::vector<Command> commands;
  for (const auto& m : members) commands.push_back(command_of(m));
  Pipeline pipeline(std::move(commands));
  apply_run(run, pipeline.run_options());
  pipeline.pipefail(pipefail);
  return start_and_drive(pipeline, run, run);
}

std::vector<RunResult> run_many(const std::vector<Spec>& specs, std::size_t jobs) {
  std::vector<Command> commands;
  for (const auto& s : specs) commands.push_back(command_of(s));
  std::vector<Result<Output, SpawnError>> outcomes;
  {
    py::gil_scoped_release nogil;
    outcomes = run_all(commands, {.max_parallel = std::max<std::size_t>(jobs, 1)});
  }
  std::vector<RunResult> results;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i]) {
      results.push_back(result_of(std::move(outcomes[i].value()), specs[i], specs[i]));
    } else {
      RunResult r;
      r.spawn_error = describe(outcomes[i].error());
      results.push_back(std::move(r));
    }
  }
  return results;
}

}  // namespace

void register_process(py::module_& m) {
  py::class_<Spec>(m, "Spec", "One command, as brisk/_run.py describes it")
      .def(py::init<>())
      .def_readwrite("argv", &Spec::argv)
      .def_readwrite("executable", &Spec::executable)
      .def_readwrite("stdin_mode", &Spec::stdin_mode)
      .def_readwrite("stdin_fd", &Spec::stdin_fd)
      .def_readwrite("input", &Spec::input)
      .def_readwrite("stdout_mode", &Spec::stdout_mode)
      .def_readwrite("stdout_fd", &Spec::stdout_fd)
      .def_readwrite("stderr_mode", &Spec::stderr_mode)
      .def_readwrite("stderr_fd", &Spec::stderr_fd)
      .def_readwrite("timeout", &Spec::timeout)
      .def_readwrite("kill_after", &Spec::kill_after)
      .def_readwrite("env", &Spec::env)
      .def_readwrite("cwd", &Spec::cwd)
      .def_readwrite("chroot", &Spec::chroot)
      .def_readwrite("netns", &Spec::netns)
      .def_readwrite("netns_view", &Spec::netns_view)
      .def_readwrite("uid", &Spec::uid)
      .def_readwrite("gid", &Spec::gid)
      .def_readwrite("groups", &Spec::groups)
      .def_readwrite("rlimits", &Spec::rlimits)
      .def_readwrite("umask", &Spec::umask)
      .def_readwrite("new_session", &Spec::new_session)
      .def_readwrite("pass_fds", &Spec::pass_fds);
  py::class_<RunResult>(m, "RunResult", "What a run produced, or why it did not start")
      .def_readonly("returncode", &RunResult::returncode)
      .def_readonly("returncodes", &RunResult::returncodes)
      .def_readonly("stdout", &RunResult::out)
      .def_readonly("stderr", &RunResult::err)
      .def_readonly("timed_out", &RunResult::timed_out)
      .def_readonly("read_error", &RunResult::read_error)
      .def_readonly("spawn_error", &RunResult::spawn_error);
  m.def("run", &run_one, py::arg("spec"), "Runs one command to its end");
  m.def("run_pipeline", &run_pipeline, py::arg("members"), py::arg("run"), py::arg("pipefail"),
        "Runs commands joined stdout to stdin");
  m.def("run_all", &run_many, py::arg("specs"), py::arg("jobs"), "Runs commands, `jobs` at a time");
}

}  // namespace brisk::python
