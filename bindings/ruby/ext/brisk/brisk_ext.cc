// brisk_ext.cc: Brisk::Native.run, the one primitive lib/brisk.rb builds on.
//
// Ruby validates and normalises the options (lib/brisk.rb); this file turns
// them into a brisk::Command or brisk::Pipeline, runs it without the GVL and
// hands back the raw results. Ruby decides success, builds errors and return
// values, so Cheetah's semantics live in one readable place.
//
// Exceptions: C++ exceptions never cross into Ruby, and Ruby exceptions
// (longjmp) never cross C++ frames that own resources. A Ruby callback (IO
// sink, IO stdin, recorder) runs under rb_protect; when it raises, the run is
// unwound with a C++ exception (its destructors kill and reap the children)
// and the Ruby exception is re-raised once back in plain C.
#include <ruby.h>
#include <ruby/thread.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "bench_engine.h"
#include "brisk/cancel.h"
#include "brisk/command.h"
#include "brisk/pipeline.h"
#include "brisk/spawn.h"
#include "wakeup_pool.h"

namespace {

// Modes of :stdout_mode / :stderr_mode, as lib/brisk.rb encodes them.
enum SinkMode { kQuiet = 0, kCapture = 1, kStream = 2 };

ID id_read, id_record_stdin, id_record_stdout, id_record_stderr;

// Thrown inside the GVL-free run when a Ruby callback raised.
struct RubyRaised {};

// Everything one run needs, in plain C++ (built with the GVL held) plus the
// Ruby objects the callbacks use (kept alive by the caller's options hash).
struct Request {
  std::vector<std::vector<std::string>> commands;
  bool stdin_is_io = false;
  std::string stdin_data;
  VALUE stdin_io = Qnil;
  int out_mode = kQuiet, err_mode = kQuiet;
  VALUE out_io = Qnil, err_io = Qnil;
  ID out_writer = 0, err_writer = 0;  // << or write, as lib/brisk.rb chose
  VALUE recorder = Qnil;
  // With a recorder, what is neither streamed nor discarded collects here
  // rather than in brisk's Output, as the chunks pass on to the recorder.
  std::string out_kept, err_kept;
  std::vector<std::pair<std::string, std::optional<std::string>>> env;
  std::optional<std::string> chroot, cwd, netns, user, group;
  std::optional<mode_t> umask;
  std::optional<double> timeout, kill_after;

  // The run, kept across GVL-free waits: Ruby's unblocking function notifies
  // `wake`, the wait returns, Ruby handles the interrupt (raising, which
  // frees the Request and so kills and reaps the run, or not, after which
  // the wait goes on).
  brisk_ruby::PooledWakeup wake;
  std::optional<brisk::Process> process;
  bool done = false;

  // Results.
  brisk::Output output;
  pid_t pid = 0;
  int ruby_state = 0;  // rb_protect state of a callback that raised
  std::optional<brisk::SpawnError> spawn_error;
  std::string argument_error;  // bad user, group or other invalid option
  std::string other_error;
};

// A call into Ruby made from the GVL-free run.
struct Call {
  VALUE receiver;
  ID method;
  std::optional<std::string_view> arg;  // passed as a new String when set
  VALUE arg_value = Qnil;               // passed when arg is unset
  VALUE result = Qnil;
  int state = 0;
};

VALUE call_body(VALUE data) {
  auto* call = reinterpret_cast<Call*>(data);
  VALUE argument = call->arg_value;
  if (call->arg) argument = rb_str_new(call->arg->data(), static_cast<long>(call->arg->size()));
  return rb_funcall(call->receiver, call->method, 1, argument);
}

void* call_with_gvl(void* data) {
  auto* call = static_cast<Call*>(data);
  call->result = rb_protect(call_body, reinterpret_cast<VALUE>(call), &call->state);
  return nullptr;
}

// Runs call under the GVL; unwinds the run if Ruby raised.
VALUE call_ruby(Request& request, Call& call) {
  rb_thread_call_with_gvl(call_with_gvl, &call);
  if (call.state != 0) {
    request.ruby_state = call.state;
    throw RubyRaised{};
  }
  return call.result;
}

// One output stream's handling: where its chunks go and who records them.
struct Stream {
  int mode;
  VALUE io;
  ID writer;
  ID record;
  std::string& kept;
};

// Without a recorder brisk itself captures or discards. With one, each chunk
// goes to the recorder exactly as read (Cheetah's recorders see the
// command's bytes, not lines), after it went to the IO or was kept.
brisk::Sink make_sink(Request& request, const Stream& stream) {
  if (NIL_P(request.recorder)) {
    if (stream.mode == kCapture) return brisk::Sink::capture();
    if (stream.mode != kStream) return brisk::Sink::quiet();
  }
  return brisk::Sink::chunks([&request, stream](std::string_view chunk) {
    if (chunk.empty()) return;
    if (stream.mode == kStream) {
      Call call{stream.io, stream.writer, chunk};
      call_ruby(request, call);
    } else {
      stream.kept.append(chunk);
    }
    if (!NIL_P(request.recorder)) {
      Call call{request.recorder, stream.record, chunk};
      call_ruby(request, call);
    }
  });
}

brisk::Input make_input(Request& request) {
  if (!request.stdin_is_io) {
    if (request.stdin_data.empty()) return brisk::Input::null();
    return brisk::Input::data(request.stdin_data);
  }
  // Any object with read(n) returning a String or nil (File, pipe, StringIO).
  return brisk::Input::callback([&request]() -> std::optional<std::string> {
    Call call{request.stdin_io, id_read, std::nullopt, INT2FIX(65536)};
    VALUE chunk = call_ruby(request, call);
    if (NIL_P(chunk)) return std::nullopt;
    if (!RB_TYPE_P(chunk, T_STRING)) return std::nullopt;
    std::string bytes(RSTRING_PTR(chunk), static_cast<std::size_t>(RSTRING_LEN(chunk)));
    if (!NIL_P(request.recorder) && !bytes.empty()) {
      Call record{request.recorder, id_record_stdin, std::string_view(bytes)};
      call_ruby(request, record);
    }
    return bytes;
  });
}

std::chrono::nanoseconds seconds(double value) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(value));
}

void configure(brisk::Command& command, const Request& request,
               const std::optional<brisk::Credentials>& credentials) {
  for (const auto& [key, value] : request.env) {
    if (value)
      command.env(key, *value);
    else
      command.env_remove(key);
  }
  if (request.chroot) command.chroot(*request.chroot);
  if (request.cwd) command.cwd(*request.cwd);
  if (request.umask) command.umask(*request.umask);
  if (credentials) command.user(*credentials);
  if (request.netns) command.netns(*request.netns);
}

template <class Runnable>
void configure_run(Runnable& runnable, Request& request) {
  runnable.stdin_from(make_input(request))
      .stdout_to(make_sink(request, {request.out_mode, request.out_io, request.out_writer, id_record_stdout,
                                     request.out_kept}))
      .stderr_to(make_sink(request, {request.err_mode, request.err_io, request.err_writer, id_record_stderr,
                                     request.err_kept}))
      .check(false);
  // Cheetah keeps all of an uncaptured stream for ExecutionFailed; brisk
  // keeps its first MiB unless told otherwise.
  runnable.run_options().keep_limit = std::numeric_limits<std::size_t>::max();
  if (request.timeout) runnable.timeout(seconds(*request.timeout));
  if (request.kill_after) runnable.kill_after(seconds(*request.kill_after));
}

// Starts the run; request.process holds it, or request.done is set.
void start(Request& request) {
  std::optional<brisk::Credentials> credentials;
  if (request.user || request.group) {
    // No user but a group: keep our uid, change only the group.
    std::string user = request.user ? *request.user : std::to_string(::getuid());
    auto resolved = brisk::Credentials::for_user(user, request.group ? *request.group : std::string());
    if (!resolved) {
      request.argument_error =
          "cannot resolve user " + user + (request.group ? " and group " + *request.group : std::string());
      return;
    }
    credentials = std::move(resolved).value();
  }
  std::vector<brisk::Command> commands;
  commands.reserve(request.commands.size());
  for (auto& argv : request.commands) {
    commands.emplace_back(argv);
    configure(commands.back(), request, credentials);
  }
  if (commands.size() == 1) {
    configure_run(commands[0], request);
    request.process.emplace(commands[0].spawn());
  } else {
    brisk::Pipeline pipeline(std::move(commands));
    configure_run(pipeline, request);
    request.process.emplace(pipeline.spawn());
  }
  request.pid = request.process->pid();
}

// Waits until the run ends or Ruby has an interrupt to handle.
void wait(Request& request) {
  constexpr auto kForever = std::chrono::hours(24 * 365);
  std::optional<brisk::Output> output = request.process->wait_for(kForever, request.wake.get());
  if (!output) return;
  request.output = std::move(*output);
  request.process.reset();
  request.done = true;
}

void* run_without_gvl(void* data) {
  auto& request = *static_cast<Request*>(data);
  try {
    if (!request.process) start(request);
    if (request.process) {
      wait(request);
    } else {
      request.done = true;  // start() reported an argument error
    }
    return nullptr;
  } catch (const RubyRaised&) {
    // request.ruby_state says what to re-raise.
  } catch (const brisk::InvalidSpawnOptions& e) {
    request.argument_error = e.what();
  } catch (const brisk::SpawnFailed& e) {
    request.spawn_error = e.error();
  } catch (const std::exception& e) {
    request.other_error = e.what();
  }
  request.process.reset();  // kills and reaps whatever still runs
  request.done = true;
  return nullptr;
}

// Ruby's unblocking function: may run on another thread, any number of
// times, and in a signal handler (RB_NOGVL_UBF_ASYNC_SAFE), even just after
// the run has ended; so its argument is the pooled Wakeup, which outlives
// the Request, and notify() is async-signal-safe.
void wake_run(void* data) { static_cast<brisk::Wakeup*>(data)->notify(); }

// The raw wait status, as waitpid() would have returned it.
int raw_status(const brisk::ExitStatus& status) {
  if (status.kind == brisk::ExitStatus::Kind::exited) return (status.value & 0xff) << 8;
  return (status.value & 0x7f) | (status.core_dumped ? 0x80 : 0);
}

// A real Process::Status: Ruby builds one only for $?, so set $? and take it.
VALUE make_status(int raw, pid_t pid) {
  rb_last_status_set(raw, pid);
  return rb_last_status_get();
}

std::optional<std::string> optional_string(VALUE options, const char* key) {
  VALUE value = rb_hash_aref(options, ID2SYM(rb_intern(key)));
  if (NIL_P(value)) return std::nullopt;
  StringValue(value);
  return std::string(RSTRING_PTR(value), static_cast<std::size_t>(RSTRING_LEN(value)));
}

std::optional<double> optional_number(VALUE options, const char* key) {
  VALUE value = rb_hash_aref(options, ID2SYM(rb_intern(key)));
  if (NIL_P(value)) return std::nullopt;
  return NUM2DBL(value);
}

// Fills request from Ruby values. Everything that can raise happens here,
// before any resource exists; lib/brisk.rb has already validated the types,
// so a raise here costs at most the strings copied so far.
void parse(Request& request, VALUE commands, VALUE options) {
  Check_Type(commands, T_ARRAY);
  Check_Type(options, T_HASH);
  for (long i = 0; i < RARRAY_LEN(commands); ++i) {
    VALUE argv = rb_ary_entry(commands, i);
    Check_Type(argv, T_ARRAY);
    std::vector<std::string> words;
    for (long j = 0; j < RARRAY_LEN(argv); ++j) {
      VALUE word = rb_ary_entry(argv, j);
      StringValueCStr(word);  // ArgumentError on NUL bytes
      words.emplace_back(RSTRING_PTR(word), static_cast<std::size_t>(RSTRING_LEN(word)));
    }
    if (words.empty()) rb_raise(rb_eArgError, "empty command");
    request.commands.push_back(std::move(words));
  }
  if (request.commands.empty()) rb_raise(rb_eArgError, "no command given");

  VALUE input = rb_hash_aref(options, ID2SYM(rb_intern("stdin")));
  if (RB_TYPE_P(input, T_STRING)) {
    request.stdin_data.assign(RSTRING_PTR(input), static_cast<std::size_t>(RSTRING_LEN(input)));
  } else if (!NIL_P(input)) {
    request.stdin_is_io = true;
    request.stdin_io = input;
  }
  request.out_mode = NUM2INT(rb_hash_aref(options, ID2SYM(rb_intern("stdout_mode"))));
  request.err_mode = NUM2INT(rb_hash_aref(options, ID2SYM(rb_intern("stderr_mode"))));
  request.out_io = rb_hash_aref(options, ID2SYM(rb_intern("stdout")));
  request.err_io = rb_hash_aref(options, ID2SYM(rb_intern("stderr")));
  request.recorder = rb_hash_aref(options, ID2SYM(rb_intern("recorder")));
  if (request.out_mode == kStream)
    request.out_writer = SYM2ID(rb_hash_aref(options, ID2SYM(rb_intern("stdout_writer"))));
  if (request.err_mode == kStream)
    request.err_writer = SYM2ID(rb_hash_aref(options, ID2SYM(rb_intern("stderr_writer"))));

  VALUE env = rb_hash_aref(options, ID2SYM(rb_intern("env")));
  if (!NIL_P(env)) {
    Check_Type(env, T_ARRAY);
    for (long i = 0; i < RARRAY_LEN(env); ++i) {
      VALUE pair = rb_ary_entry(env, i);
      VALUE key = rb_ary_entry(pair, 0), value = rb_ary_entry(pair, 1);
      StringValueCStr(key);
      std::optional<std::string> text;
      if (!NIL_P(value)) text = std::string(StringValueCStr(value));
      request.env.emplace_back(std::string(RSTRING_PTR(key)), std::move(text));
    }
  }
  request.chroot = optional_string(options, "chroot");
  request.cwd = optional_string(options, "cwd");
  request.netns = optional_string(options, "netns");
  request.user = optional_string(options, "user");
  request.group = optional_string(options, "group");
  VALUE mask = rb_hash_aref(options, ID2SYM(rb_intern("umask")));
  if (!NIL_P(mask)) request.umask = static_cast<mode_t>(NUM2UINT(mask));
  request.timeout = optional_number(options, "timeout");
  request.kill_after = optional_number(options, "kill_after");
}

// Brisk::Native.run(commands, options) -> Hash
//   commands: [[program, arg...], ...] of Strings
//   returns {statuses: [Process::Status per process], stdout:, stderr:,
//            timed_out:} or {spawn_error: errno, program:, message:}
VALUE native_run(VALUE, VALUE commands, VALUE options) {
  Request* request = nullptr;
  try {
    request = new Request();
  } catch (const std::system_error& e) {
    rb_syserr_fail(e.code().value(), e.what());
  }
  // A raise in parse() would leak request; free it on that path.
  int state = 0;
  struct ParseArgs {
    Request* request;
    VALUE commands, options;
  } args{request, commands, options};
  rb_protect(
      [](VALUE data) -> VALUE {
        auto* a = reinterpret_cast<ParseArgs*>(data);
        parse(*a->request, a->commands, a->options);
        return Qnil;
      },
      reinterpret_cast<VALUE>(&args), &state);
  if (state != 0) {
    delete request;
    rb_jump_tag(state);
  }

  // The callbacks' Ruby objects, on the machine stack so that GC neither
  // frees nor moves them while the run holds them in request.
  VALUE stdin_io = request->stdin_io, out_io = request->out_io, err_io = request->err_io;
  VALUE recorder = request->recorder;

  // Ruby raises a pending interrupt (Thread#raise, Timeout, Ctrl-C) on entry
  // to or exit from the GVL-free region; rb_protect catches it, and deleting
  // the request kills and reaps the run's processes. An interrupt that raises
  // nothing (a trap handler, the SIGCHLD of the run's own child) only costs a
  // trip through the loop.
  //
  // The unblocking function is declared async-signal-safe: in a program with
  // only the main thread, Ruby then calls it from its signal handler. Without
  // the flag, Ruby (3.1 here; the code dates from 2.6) starts a helper Thread
  // for every blocking region there, to call the function on a signal, and
  // kills and joins it afterwards: several thread switches per run, the
  // largest part of what the binding added to a short command's cost.
  rb_protect(
      [](VALUE data) -> VALUE {
        auto* r = reinterpret_cast<Request*>(data);
        while (!r->done) {
          rb_nogvl(run_without_gvl, r, wake_run, r->wake.get(), RB_NOGVL_UBF_ASYNC_SAFE);
          r->wake->clear();
        }
        return Qnil;
      },
      reinterpret_cast<VALUE>(request), &state);
  if (state != 0) {
    delete request;
    rb_jump_tag(state);
  }
  RB_GC_GUARD(stdin_io);
  RB_GC_GUARD(out_io);
  RB_GC_GUARD(err_io);
  RB_GC_GUARD(recorder);

  // Turn the results into Ruby values, then free the C++ side before any raise.
  VALUE result = rb_hash_new();
  state = request->ruby_state;
  std::string argument_error = std::move(request->argument_error);
  std::string other_error = std::move(request->other_error);
  if (state == 0 && argument_error.empty() && other_error.empty()) {
    if (request->spawn_error) {
      const brisk::SpawnError& error = *request->spawn_error;
      rb_hash_aset(result, ID2SYM(rb_intern("spawn_error")), INT2NUM(error.code));
      rb_hash_aset(result, ID2SYM(rb_intern("program")), rb_str_new_cstr(error.program.c_str()));
      rb_hash_aset(result, ID2SYM(rb_intern("message")), rb_str_new_cstr(error.message().c_str()));
      rb_hash_aset(result, ID2SYM(rb_intern("exec_failed")),
                   error.kind() == brisk::SpawnError::Kind::program_not_found ||
                           error.kind() == brisk::SpawnError::Kind::permission_denied
                       ? Qtrue
                       : Qfalse);
    } else {
      const brisk::Output& output = request->output;
      VALUE statuses = rb_ary_new_capa(static_cast<long>(output.processes.size()));
      // Members other than the last have no pid the API reports; -1 stands in.
      for (std::size_t i = 0; i < output.processes.size(); ++i) {
        bool last = i + 1 == output.processes.size();
        rb_ary_push(statuses, make_status(raw_status(output.processes[i].status), last ? request->pid : -1));
      }
      rb_hash_aset(result, ID2SYM(rb_intern("statuses")), statuses);
      bool recorded = !NIL_P(request->recorder);
      const std::string& out = recorded ? request->out_kept : output.out;
      const std::string& err = recorded ? request->err_kept : output.err;
      // UTF-8, as Cheetah's StringIO buffers make them; recorded and
      // streamed chunks stay binary, as Cheetah's reads are.
      rb_hash_aset(result, ID2SYM(rb_intern("stdout")),
                   rb_utf8_str_new(out.data(), static_cast<long>(out.size())));
      rb_hash_aset(result, ID2SYM(rb_intern("stderr")),
                   rb_utf8_str_new(err.data(), static_cast<long>(err.size())));
      rb_hash_aset(result, ID2SYM(rb_intern("timed_out")), output.status.timed_out ? Qtrue : Qfalse);
      // Never pass output cut short by a failed read off as the whole of it.
      if (output.status.read_error) other_error = "output lost: " + output.status.read_error->message();
    }
  }
  delete request;
  if (state != 0) rb_jump_tag(state);
  if (!argument_error.empty()) rb_raise(rb_eArgError, "%s", argument_error.c_str());
  if (!other_error.empty()) rb_raise(rb_eRuntimeError, "%s", other_error.c_str());
  return result;
}

// Brisk::Native.status(raw, pid) -> Process::Status (for failures to start).
VALUE native_status(VALUE, VALUE raw, VALUE pid) { return make_status(NUM2INT(raw), NUM2PIDT(pid)); }

}  // namespace

extern "C" __attribute__((visibility("default"))) void Init_brisk_ext() {
  id_read = rb_intern("read");
  id_record_stdin = rb_intern("record_stdin");
  id_record_stdout = rb_intern("record_stdout");
  id_record_stderr = rb_intern("record_stderr");
  VALUE brisk = rb_define_module("Brisk");
  VALUE native = rb_define_module_under(brisk, "Native");
  rb_define_module_function(native, "run", native_run, 2);
  rb_define_module_function(native, "status", native_status, 2);
  brisk_ruby::define_bench_engine(native);
}
