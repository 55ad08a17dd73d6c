// bench_engine.cc: Brisk::Native.bench_engine(argv, count, capture) -> Float
//
// Runs argv `count` times from C++ with the GVL released and returns the
// seconds the loop took. It measures the floor under Brisk.run: the same
// spawns made by the engine with nothing from Ruby per call, so bench.rb can
// show the best speed-up any binding could reach.
//   capture false: brisk::spawn + Child::wait, nothing redirected (the engine
//                  alone, as `brisk bench spawn` measures it);
//   capture true:  a brisk::Command with stdin from /dev/null and both output
//                  streams captured, waited with a Wakeup, as Native.run does.
// Every run must exit 0: a bench whose program fails measures nothing.
// Raises SystemCallError when a spawn fails, RuntimeError when a run does
// not exit 0. Interrupts (Ctrl-C, Thread#raise) are seen between runs, and
// while a captured run waits.
// Ruby calls the unblocking function for its own SIGCHLD too, so nearly every
// run makes one trip back to Ruby and in again, as a Brisk.run does.
#include "bench_engine.h"

#include <ruby/thread.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "brisk/cancel.h"
#include "brisk/command.h"
#include "brisk/spawn.h"
#include "wakeup_pool.h"

namespace brisk_ruby {
namespace {

struct Loop {
  std::vector<std::string> argv;
  long count = 0;
  bool capture = false;
  PooledWakeup wake;  // notified by Ruby's unblocking function
  std::atomic<bool> stop{false};
  // A captured run whose wait an interrupt cut short: Ruby's own SIGCHLD
  // does that to nearly every run, so the wait resumes in the next chunk
  // (as Native.run's does); dropped (killed and reaped) if Ruby raises.
  std::optional<brisk::Process> pending;

  long done = 0;
  std::chrono::steady_clock::duration elapsed{};
  std::optional<brisk::SpawnError> spawn_error;
  std::string failure;  // a run that did not exit 0, or another C++ error
};

// One run; true once it has ended.
bool run_bare(Loop& loop, const brisk::SpawnOptions& options) {
  auto child = brisk::spawn(options);
  if (!child) {
    loop.spawn_error = child.error();
    return false;
  }
  auto status = child->wait();
  if (!status) {
    loop.failure = status.error().message();
  } else if (!status->success()) {
    loop.failure = options.argv[0] + ": " + status->to_string();
  }
  return true;
}

bool run_captured(Loop& loop, const brisk::Command& command) {
  constexpr auto kForever = std::chrono::hours(24 * 365);
  if (!loop.pending) loop.pending.emplace(command.spawn());
  std::optional<brisk::Output> output = loop.pending->wait_for(kForever, loop.wake.get());
  if (!output) return false;  // woken: Ruby handles the interrupt, then the wait goes on
  loop.pending.reset();
  if (!output->status.success()) loop.failure = command.argv()[0] + ": " + output->status.to_string();
  return true;
}

void* run_loop(void* data) {
  auto& loop = *static_cast<Loop*>(data);
  brisk::SpawnOptions options{.argv = loop.argv};
  brisk::Command command(loop.argv);
  command.stdin_from(brisk::Input::null())
      .stdout_to(brisk::Sink::capture())
      .stderr_to(brisk::Sink::capture())
      .check(false);
  command.run_options().keep_limit = std::numeric_limits<std::size_t>::max();

  auto started = std::chrono::steady_clock::now();
  try {
    while (loop.done < loop.count && !loop.stop.load(std::memory_order_acquire) && !loop.spawn_error &&
           loop.failure.empty()) {
      bool ended = loop.capture ? run_captured(loop, command) : run_bare(loop, options);
      if (ended && !loop.spawn_error) ++loop.done;
      if (!ended) break;
    }
  } catch (const brisk::SpawnFailed& e) {
    loop.spawn_error = e.error();
  } catch (const std::exception& e) {
    loop.failure = e.what();
  }
  loop.elapsed += std::chrono::steady_clock::now() - started;
  return nullptr;
}

// Ruby's unblocking function; async-signal-safe (an atomic store and notify()).
void interrupt_loop(void* data) {
  auto& loop = *static_cast<Loop*>(data);
  loop.stop.store(true, std::memory_order_release);
  loop.wake->notify();
}

std::vector<std::string> parse_argv(VALUE argv) {
  Check_Type(argv, T_ARRAY);
  if (RARRAY_LEN(argv) == 0) rb_raise(rb_eArgError, "empty command");
  std::vector<std::string> words;
  for (long i = 0; i < RARRAY_LEN(argv); ++i) {
    VALUE word = rb_ary_entry(argv, i);
    Check_Type(word, T_STRING);
    StringValueCStr(word);  // ArgumentError on NUL bytes
    words.emplace_back(RSTRING_PTR(word), static_cast<std::size_t>(RSTRING_LEN(word)));
  }
  return words;
}

// The raise for a failed loop; everything C++ is already freed.
[[noreturn]] void raise_failure(int spawn_errno, const std::string& message) {
  if (spawn_errno != 0) rb_syserr_fail(spawn_errno, message.c_str());
  rb_raise(rb_eRuntimeError, "%s", message.c_str());
}

VALUE native_bench_engine(VALUE, VALUE argv, VALUE count, VALUE capture) {
  if (!RB_INTEGER_TYPE_P(count)) rb_raise(rb_eTypeError, "count must be an Integer");
  long runs = NUM2LONG(count);
  if (runs < 1) rb_raise(rb_eArgError, "count must be at least 1");
  if (capture != Qtrue && capture != Qfalse) rb_raise(rb_eTypeError, "capture must be true or false");
  std::vector<std::string> words = parse_argv(argv);  // raises before anything is allocated by us

  Loop* loop = nullptr;
  try {
    loop = new Loop{};
  } catch (const std::system_error& e) {  // no eventfd for the Wakeup
    rb_syserr_fail(e.code().value(), e.what());
  } catch (const std::bad_alloc&) {
    rb_memerror();
  }
  loop->argv = std::move(words);
  loop->count = runs;
  loop->capture = capture == Qtrue;
  // An interrupt that raises nothing (a trap handler, SIGCHLD) stops a
  // chunk of the loop; the next chunk goes on from where it stopped.
  int state = 0;
  rb_protect(
      [](VALUE data) -> VALUE {
        auto* l = reinterpret_cast<Loop*>(data);
        while (l->done < l->count && !l->spawn_error && l->failure.empty()) {
          rb_nogvl(run_loop, l, interrupt_loop, l, RB_NOGVL_UBF_ASYNC_SAFE);
          l->stop.store(false, std::memory_order_relaxed);
          l->wake->clear();
        }
        return Qnil;
      },
      reinterpret_cast<VALUE>(loop), &state);
  double seconds = std::chrono::duration<double>(loop->elapsed).count();
  int spawn_errno = loop->spawn_error ? loop->spawn_error->code : 0;
  std::string message = loop->spawn_error ? loop->spawn_error->message() : loop->failure;
  delete loop;
  if (state != 0) rb_jump_tag(state);
  if (!message.empty()) raise_failure(spawn_errno, message);
  return DBL2NUM(seconds);
}

}  // namespace

void define_bench_engine(VALUE native) {
  rb_define_module_function(native, "bench_engine", native_bench_engine, 3);
}

}  // namespace brisk_ruby
