// netlink/send_thread.h: one helper thread that runs a batch's sends.
//
// A batch hands it a window to execute while the calling thread resolves
// names and builds the next one: the kernel's work (done inside sendmsg, on
// the sending thread) and the library's then overlap on two cores. The
// thread is made on the first start() and ends with the object.
//
// Each side waits for the other by yielding the CPU for a while before it
// sleeps. A window's handoff comes within about a millisecond, and a thread
// woken from sleep is placed beside its waker: the kernel skips the search
// for an idle CPU when the cache domain looks busy (SIS_UTIL), so after the
// first sleep both threads would share one CPU, each running only while the
// other waits, for the rest of the batch. Threads that stay runnable are
// spread over the CPUs by the load balancer instead.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace brisk::netlink::detail {

class SendThread {
 public:
  SendThread() = default;
  ~SendThread();
  SendThread(const SendThread&) = delete;
  SendThread& operator=(const SendThread&) = delete;

  // Runs `job` on the thread; false (and nothing runs) when no thread could
  // be made, so the caller runs it itself. One job at a time: wait() first.
  bool start(std::function<void()> job);
  // Waits for the job start() handed over; everything it wrote is visible
  // to the caller afterwards.
  void wait();

 private:
  enum State : int { idle, busy, quit };
  void loop();
  void set(State to);

  std::atomic<int> state_{idle};  // busy: job_ is handed over and not done
  std::function<void()> job_;     // written by start() while idle, run by the thread while busy
  std::thread thread_;
};

}  // namespace brisk::netlink::detail
