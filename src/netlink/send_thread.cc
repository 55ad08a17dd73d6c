#include "netlink/send_thread.h"

#include <chrono>
#include <system_error>
#include <utility>

namespace brisk::netlink::detail {
namespace {

// How long a side yields before it sleeps: longer than a window's build or
// send takes, so that a batch's handoffs seldom sleep (see the header).
constexpr auto kYieldFor = std::chrono::milliseconds(2);

// Waits until state leaves `from`: yielding first, then asleep. Returns
// what it became.
int await_change(std::atomic<int>& state, int from) {
  auto until = std::chrono::steady_clock::now() + kYieldFor;
  int now = state.load(std::memory_order_acquire);
  while (now == from && std::chrono::steady_clock::now() < until) {
    std::this_thread::yield();
    now = state.load(std::memory_order_acquire);
  }
  while (now == from) {
    state.wait(from, std::memory_order_acquire);
    now = state.load(std::memory_order_acquire);
  }
  return now;
}

}  // namespace

SendThread::~SendThread() {
  if (!thread_.joinable()) return;
  wait();
  set(quit);
  thread_.join();
}

void SendThread::set(State to) {
  state_.store(to, std::memory_order_release);
  state_.notify_all();
}

bool SendThread::start(std::function<void()> job) {
  if (!thread_.joinable()) {
    try {
      thread_ = std::thread([this] { loop(); });
    } catch (const std::system_error&) {
      return false;  // EAGAIN: no thread to be had, the caller sends itself
    }
  }
  job_ = std::move(job);  // the thread reads it only once it sees busy
  set(busy);
  return true;
}

void SendThread::wait() {
  if (state_.load(std::memory_order_acquire) == busy) await_change(state_, busy);
}

void SendThread::loop() {
  while (await_change(state_, idle) == busy) {
    {
      auto job = std::move(job_);
      job();
    }  // what the job holds goes before the caller is told it is done
    set(idle);
  }
}

}  // namespace brisk::netlink::detail
