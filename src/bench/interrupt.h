// bench/interrupt.h: Ctrl-C during a benchmark unwinds instead of killing,
// so every RAII guard (heap ballast, temp chroot, rlimit) cleans up first.
//
// While an InterruptScope lives, SIGINT and SIGTERM only record the signal
// (no SA_RESTART, so blocking waits return early); benchmark loops call
// throw_if_interrupted() between spawns. The caller catches Interrupted at
// the top, after the stack has unwound, and ends as the signal would have.
#pragma once

#include <signal.h>

#include <stdexcept>

namespace brisk::bench {

class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

class InterruptScope {
 public:
  InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  ~InterruptScope();  // restores the previous handlers

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

// Inside an InterruptScope, a stretch of work that leaves nothing on disk
// (everything it makes is held by fds) and has no interrupt checks: SIGINT
// and SIGTERM take their default action again until the scope ends.
class DefaultSignalsScope {
 public:
  DefaultSignalsScope();
  DefaultSignalsScope(const DefaultSignalsScope&) = delete;
  DefaultSignalsScope& operator=(const DefaultSignalsScope&) = delete;
  ~DefaultSignalsScope();

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

// The signal received since the scope began, or 0.
int interrupt_signal();
// Records a signal seen indirectly: system() ignores SIGINT while its child
// runs, so a Ctrl-C shows up only as the child's death by SIGINT.
void note_interrupt(int signal);
// Throws Interrupted when a signal was received.
void throw_if_interrupted();

}  // namespace brisk::bench
