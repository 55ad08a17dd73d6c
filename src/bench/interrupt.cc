#include "bench/interrupt.h"

#include <string.h>

#include <atomic>
#include <string>

namespace brisk::bench {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

void record(int signal) { g_signal.store(signal, std::memory_order_relaxed); }

}  // namespace

Interrupted::Interrupted(int signal)
    : std::runtime_error(std::string("interrupted by ") + ::strsignal(signal)), signal_(signal) {}

InterruptScope::InterruptScope() {
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = record;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked wait returns EINTR and the loop checks the flag
  ::sigaction(SIGINT, &action, &old_int_);
  ::sigaction(SIGTERM, &action, &old_term_);
}

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

DefaultSignalsScope::DefaultSignalsScope() {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &old_int_);
  ::sigaction(SIGTERM, &action, &old_term_);
}

DefaultSignalsScope::~DefaultSignalsScope() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

void note_interrupt(int signal) { record(signal); }

void throw_if_interrupted() {
  if (int signal = interrupt_signal()) throw Interrupted(signal);
}

}  // namespace brisk::bench
