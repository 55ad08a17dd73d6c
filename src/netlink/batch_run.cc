// run_ops: a batch's ops, pipelined, as a state machine.
//
// Each op moves from queued to one of: rejected (refused before sending),
// failed before it was sent (a name it needs is missing, or it could not be
// built), in flight (its requests wait in the window), done (its requests
// were answered), or cancelled (stop mode met an earlier failure). The run
// itself is `running` until, in stop mode, the first failure is known; it is
// then `stopped`, and every op still queued is cancelled. What was applied
// past that failure in the same window is undone, newest first.
//
// A long batch over a transport that allows it overlaps the two halves of
// the work: one window is in transit, executed on a send thread (the
// kernel does its part inside that thread's sendmsg), while this thread
// resolves names and builds the next. At most one window is in transit;
// the next goes out once it has landed, and not at all if stop mode met a
// failure in it.
//
// A fed run (Batch::flush with `more`) asks for more ops whenever it has
// taken up every op it holds, so the caller's thread makes ops while the
// send thread waits on the kernel.
//
// An op is retired once its result is final: every op before it has been
// settled too, and none is in a window. Its result goes to the run's sink
// then, in index order, and (when asked) the op itself is let go, so a long
// run holds ops and results for its live windows only.
#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "netlink/index_ring.h"
#include "netlink/op.h"
#include "netlink/send_thread.h"

namespace brisk::netlink::detail {
namespace {

class BatchRun {
 public:
  BatchRun(Connection& conn, IndexRing<Op>& ops, const BatchOptions& options, const RunMode& mode,
           const ResultSink& sink)
      : conn_(conn),
        ops_(ops),
        more_(mode.more),
        release_(mode.release_settled),
        sink_(sink),
        window_(conn.window_requests(kAckBudget)),
        stop_mode_(options.stop_at_first_error),
        // Deletes cannot be undone, so a stopping batch sends them one at a time.
        coalesce_(options.coalesce_deletes && !options.stop_at_first_error),
        coalesce_min_(std::max<std::size_t>(options.coalesce_min, 2)),
        overlap_(internal::ConnectionHooks::transport(conn).concurrent_lookups() &&
                 std::max(ops.live(), mode.expected) >= 2 * kOverlapWindow) {
    results_.reserve(ops.live());
    while (results_.end() < ops_.end()) results_.push({});
  }

  void run() {
    for (std::size_t i = ops_.begin(); have(i); ++i) {
      i = step(i);
      retire(i + 1);
    }
    drain();
    retire(ops_.end());
  }

 private:
  enum class Phase {
    running,  // every op is attempted
    stopped,  // stop mode: an op failed, and ended the batch
  };

  // Whether op i exists: asks the feed for more while it is past the end.
  // That may move ops_, so no reference into it is held across a call.
  bool have(std::size_t i) {
    while (i >= ops_.end() && more_ && !fed_dry_) {
      if (!more_()) fed_dry_ = true;
      while (results_.end() < ops_.end()) results_.push({});
    }
    return i < ops_.end();
  }

  // Every op before `next` (the next to be taken up) whose result is final,
  // that is none in a window, goes: its result to the sink, and the op
  // itself when the run releases them.
  void retire(std::size_t next) {
    std::size_t end = next;
    if (!owner_.empty()) end = std::min(end, owner_.front());
    if (in_transit_ && !transit_owner_.empty()) end = std::min(end, transit_owner_.front());
    for (std::size_t i = results_.begin(); i < end; ++i) sink_(i, std::move(results_[i]));
    results_.retire_before(end);
    if (release_) ops_.retire_before(end);
  }

  // Takes op i through its transitions; returns the last op index it consumed.
  std::size_t step(std::size_t i) {
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;
    if (ops_[i].rejected) {
      results_[i] = *ops_[i].rejected;
      failed_unsent(i);
      return i;
    }
    if (coalesce_ && !ops_[i].delete_name.empty()) {
      if (auto end = coalesced_deletes(i)) return *end - 1;
    }
    Op& op = ops_[i];  // after the lookahead above, which may have fed more
    // What cannot be undone goes alone once everything before it is known.
    const bool alone = stop_mode_ && !op.undo;
    if (op.local || alone) drain();
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;  // found by that drain
    if (op.local) {
      run_local(i);
      return i;
    }
    if (!op.needs.empty() && (in_flight_changes_names_ || transit_changes_names_)) drain();
    bool resolved = resolve_needs(i);
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;  // found by a drain in resolve_needs
    if (!resolved) {
      finish(i);
      failed_unsent(i);
      return i;
    }
    if (!send(i)) return i;
    if (alone) {
      drain();
    } else if (in_flight_.size() >= current_window()) {
      if (overlap_)
        ship();
      else
        drain();
    }
    return i;
  }

  // Overlapped, the first window is small, so the kernel starts early.
  static constexpr std::size_t kFirstWindow = 32;
  static constexpr std::size_t kOverlapWindow = 256;
  std::size_t current_window() const {
    if (!overlap_) return window_;
    return std::min(window_, shipped_ ? kOverlapWindow : kFirstWindow);
  }

  NetlinkError cancelled(std::size_t i, const char* what) const {
    return {.code = ECANCELED,
            .op = ops_[i].op,
            .object = ops_[i].object,
            .detail = std::string(what) + ": an earlier operation failed"};
  }
  void cancel(std::size_t i, const char* what) { results_[i] = cancelled(i, what); }

  // The op's own after-effects once its result is known: error context, and
  // the name cache.
  void finish(std::size_t i) {
    Op& op = ops_[i];
    if (!results_[i] && op.explain) op.explain(results_[i].error());
    if (!results_[i] && op.object_is_device) mark_missing_device(results_[i].error());
    if (op.after) op.after(conn_, results_[i]);
  }

  // A run of at least coalesce_min_ plain deletes by name, from i: one group
  // delete. Returns the end of the run, or nothing when it is too short.
  std::optional<std::size_t> coalesced_deletes(std::size_t i) {
    std::size_t end = i;
    while (have(end) && !ops_[end].delete_name.empty() && !ops_[end].rejected) ++end;
    if (end - i < coalesce_min_) return std::nullopt;
    drain();
    std::vector<std::string> names;
    for (std::size_t k = i; k < end; ++k) names.push_back(ops_[k].delete_name);
    auto deleted = bulk_delete(conn_, names);
    for (std::size_t k = i; k < end; ++k) results_[k] = std::move(deleted[k - i]);
    conn_.forget_all_names();
    return end;
  }

  // Tun/tap: done synchronously, outside the pipeline.
  void run_local(std::size_t i) {
    results_[i] = ops_[i].local(conn_);
    finish(i);
    if (stop_mode_ && !results_[i]) stop();
  }

  // Resolves the names op i needs into the cache. A name missing while
  // requests are in flight may be made by one of them: drain and look again.
  bool resolve_needs(std::size_t i) {
    Op& op = ops_[i];
    for (const auto& need : op.needs) {
      // While a window is in transit only the cache and the transport's
      // lookup may be used; a name that needs a GETLINK waits for it.
      auto local = resolve_link_without_socket(conn_, need.name);
      if (!local) land();
      NlResult<int> index = local ? std::move(*local) : resolve_link_by_getlink(conn_, need.name);
      if (!index && index.error().code == ENODEV && (!in_flight_.empty() || in_transit_)) {
        drain();
        index = resolve_link(conn_, need.name);
      }
      if (index) continue;
      NetlinkError e = std::move(index).error();
      if (e.code == ENODEV) {
        bool kernel = e.kernel;
        e = missing_argument(op.op, op.object, need.role, need.name);
        e.kernel = kernel;
      } else {
        e.detail = std::string(argument_name(need.role)) + " '" + need.name + "': " + e.message();
        e.op = op.op;
        e.object = op.object;
        e.ext_ack.clear();
      }
      results_[i] = std::move(e);
      return false;
    }
    return true;
  }

  // Builds op i's requests into the window; false when building failed.
  bool send(std::size_t i) {
    Op& op = ops_[i];
    auto built = op.build(conn_);
    if (!built) {
      NetlinkError e = std::move(built).error();
      if (!*e.op) e.op = op.op;
      if (e.object.empty()) e.object = op.object;
      results_[i] = std::move(e);
      finish(i);
      failed_unsent(i);
      return false;
    }
    for (auto& request : *built) {
      request.message.shrink();
      in_flight_.push_back(std::move(request));
      owner_.push_back(i);
    }
    in_flight_changes_names_ |= op.changes_names;
    return true;
  }

  // Sends the window and waits for every answer (and for the one in
  // transit first): in flight → done.
  void drain() {
    land();
    if (in_flight_.empty()) return;
    conn_.execute(in_flight_);
    settle(in_flight_, owner_);
    in_flight_.clear();
    owner_.clear();
    in_flight_changes_names_ = false;
  }

  // Overlap: the window in flight goes to the send thread, once the one
  // before it has landed; meanwhile this thread prepares the next.
  void ship() {
    land();
    if (in_flight_.empty()) return;  // cancelled: stop mode met a failure
    // A reply handler runs on the thread that receives: such a window is
    // sent from here.
    for (const auto& r : in_flight_)
      if (r.on_reply) return drain();
    transit_ = std::exchange(in_flight_, {});
    transit_owner_ = std::exchange(owner_, {});
    transit_changes_names_ = std::exchange(in_flight_changes_names_, false);
    in_flight_.reserve(kOverlapWindow);
    owner_.reserve(kOverlapWindow);
    ++shipped_;
    if (!sender_) sender_.emplace();
    in_transit_ = true;
    if (!sender_->start([this] { internal::ConnectionHooks::execute_unchecked(conn_, transit_); }))
      internal::ConnectionHooks::execute_unchecked(
          conn_, transit_);  // no thread to be had: sent from here, landed as usual
  }

  // Waits for the window in transit and settles it here: its lost replies
  // re-checked, its ops finished. Should stop mode meet a failure there,
  // what was built for the next window is never sent.
  void land() {
    if (!in_transit_) return;
    sender_->wait();
    in_transit_ = false;
    internal::ConnectionHooks::recheck_lost(conn_, transit_);
    settle(transit_, transit_owner_);
    transit_.clear();
    transit_owner_.clear();
    transit_changes_names_ = false;
    if (phase_ != Phase::stopped) return;
    for (std::size_t k = 0; k < owner_.size(); ++k)
      if (k + 1 == owner_.size() || owner_[k + 1] != owner_[k]) cancel(owner_[k], "not attempted");
    in_flight_.clear();
    owner_.clear();
    in_flight_changes_names_ = false;
  }

  // An executed window's answers become its ops' results; in stop mode the
  // first failure stops the run and what was applied after it is undone.
  void settle(std::vector<Request>& window, const std::vector<std::size_t>& owner) {
    for (std::size_t k = 0; k < window.size(); ++k) {
      auto& result = results_[owner[k]];
      if (result && !window[k].result) result = std::move(window[k].result);
    }
    std::vector<std::size_t> window_ops;  // each op once, in order
    for (std::size_t k = 0; k < owner.size(); ++k) {
      if (k + 1 != owner.size() && owner[k + 1] == owner[k]) continue;
      finish(owner[k]);
      window_ops.push_back(owner[k]);
    }
    if (stop_mode_) {
      for (std::size_t i : window_ops) {
        if (results_[i]) continue;
        stop();
        undo_after(i, window_ops);
        break;
      }
    }
  }

  // Stop mode: op i failed before it was sent. Earlier ops still in flight
  // come first; if none of them failed, this one ends the batch.
  void failed_unsent(std::size_t i) {
    if (!stop_mode_) return;
    NlResult<void> mine = std::move(results_[i]);
    drain();
    if (phase_ == Phase::stopped) {
      cancel(i, "not attempted");
    } else {
      stop();  // this op ends the batch
      results_[i] = std::move(mine);
    }
  }

  void stop() { phase_ = Phase::stopped; }

  // Stop mode: the kernel went on past the window's first failure; put back
  // what the ops after it did, newest first.
  void undo_after(std::size_t failed, std::span<const std::size_t> window_ops) {
    std::vector<Op> undo;
    std::vector<std::size_t> undone;
    for (auto it = window_ops.rbegin(); it != window_ops.rend() && *it > failed; ++it) {
      if (!results_[*it]) {
        cancel(*it, "not applied");  // its own failure changed nothing, and comes second
        continue;
      }
      undo.push_back(ops_[*it].undo());
      undone.push_back(*it);
    }
    auto reverted = run_ops(conn_, undo, {.coalesce_deletes = true});
    for (std::size_t k = 0; k < undone.size(); ++k) {
      NetlinkError e = cancelled(undone[k], "not applied");
      if (!reverted[k]) {
        e = std::move(reverted[k]).error();
        e.detail = "applied after an earlier operation failed, and undoing it failed" +
                   (e.detail.empty() ? std::string() : ": " + e.detail);
        e.op = ops_[undone[k]].op;
        e.object = ops_[undone[k]].object;
      }
      results_[undone[k]] = std::move(e);
    }
  }

  Connection& conn_;
  IndexRing<Op>& ops_;
  const std::function<bool()>& more_;  // the feed; empty: ops_ is all there is
  bool fed_dry_ = false;               // the feed said it has no more
  const bool release_;                 // let each op go once it is retired
  const ResultSink& sink_;             // where each result goes once final
  IndexRing<NlResult<void>> results_;  // of the ops not yet retired
  const std::size_t window_;           // requests per window
  const bool stop_mode_;               // options.stop_at_first_error
  const bool coalesce_;                // runs of deletes become one group delete
  const std::size_t coalesce_min_;     // the shortest run worth it
  Phase phase_ = Phase::running;
  std::vector<Request> in_flight_;
  std::vector<std::size_t> owner_;        // op index of each in-flight request
  bool in_flight_changes_names_ = false;  // resolve nothing before those are done
  const bool overlap_;                    // windows go out from the send thread
  std::size_t shipped_ = 0;               // windows handed to it so far
  // The window the send thread executes, while in_transit_.
  std::vector<Request> transit_;
  std::vector<std::size_t> transit_owner_;
  bool transit_changes_names_ = false;
  bool in_transit_ = false;
  // Last, so that it is destroyed first: should the run unwind with a
  // window in transit, its thread is joined before the window goes.
  std::optional<SendThread> sender_;
};

}  // namespace

void run_ops(Connection& conn, IndexRing<Op>& ops, const BatchOptions& options, const RunMode& mode,
             const ResultSink& sink) {
  BatchRun(conn, ops, options, mode, sink).run();
}

std::vector<NlResult<void>> run_ops(Connection& conn, std::vector<Op>& ops, const BatchOptions& options) {
  IndexRing<Op> ring(std::move(ops));
  std::vector<NlResult<void>> results;
  results.reserve(ring.live());
  run_ops(conn, ring, options, {}, [&](std::size_t, NlResult<void> r) { results.push_back(std::move(r)); });
  ops = ring.take();
  return results;
}

}  // namespace brisk::netlink::detail
