// netlink/send_thread.h: one helper thread that runs a batch's sends.
//
// A batch hands it a window to execute while the calling thread resolves
// names and builds the next one: the kernel's work (done inside sendmsg, on
// the sending thread) and the library's then overlap on two cores. The
// thread is made on the first start() and ends with the object.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
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
  void loop();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;  // handed over, not yet finished
  bool busy_ = false;          // job_ is set and not done
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace brisk::netlink::detail
