// run_ops: a batch's ops, pipelined, as a state machine.
//
// Each op moves from queued to one of: rejected (refused before sending),
// failed before it was sent (a name it needs is missing, or it could not be
// built), in flight (its requests wait in the window), done (its requests
// were answered), or cancelled (stop mode met an earlier failure). The run
// itself is `running` until, in stop mode, the first failure is known; it is
// then `stopped`, and every op still queued is cancelled. What was applied
// past that failure in the same window is undone, newest first.
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netlink/op.h"

namespace brisk::netlink::detail {
namespace {

class BatchRun {
 public:
  BatchRun(Connection& conn, std::vector<Op>& ops, const BatchOptions& options)
      : conn_(conn),
        ops_(ops),
        results_(ops.size()),
        window_(conn.window_requests(kAckBudget)),
        stop_mode_(options.stop_at_first_error),
        // Deletes cannot be undone, so a stopping batch sends them one at a time.
        coalesce_(options.coalesce_deletes && !options.stop_at_first_error),
        coalesce_min_(std::max<std::size_t>(options.coalesce_min, 2)) {}

  std::vector<NlResult<void>> run() {
    for (std::size_t i = 0; i < ops_.size(); ++i) i = step(i);
    drain();
    return std::move(results_);
  }

 private:
  enum class Phase {
    running,  // every op is attempted
    stopped,  // stop mode: an op failed, and ended the batch
  };

  // Takes op i through its transitions; returns the last op index it consumed.
  std::size_t step(std::size_t i) {
    Op& op = ops_[i];
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;
    if (op.rejected) {
      results_[i] = *op.rejected;
      failed_unsent(i);
      return i;
    }
    if (coalesce_ && !op.delete_name.empty()) {
      if (auto end = coalesced_deletes(i)) return *end - 1;
    }
    // What cannot be undone goes alone once everything before it is known.
    const bool alone = stop_mode_ && !op.undo;
    if (op.local || alone) drain();
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;  // found by that drain
    if (op.local) {
      run_local(i);
      return i;
    }
    if (!op.needs.empty() && in_flight_changes_names_) drain();
    bool resolved = resolve_needs(i);
    if (phase_ == Phase::stopped) return cancel(i, "not attempted"), i;  // found by a drain in resolve_needs
    if (!resolved) {
      finish(i);
      failed_unsent(i);
      return i;
    }
    if (!send(i)) return i;
    if (in_flight_.size() >= window_ || alone) drain();
    return i;
  }

  NetlinkError cancelled(std::size_t i, const char* what) const {
    return {.code = ECANCELED, .op = ops_[i].op, .object = ops_[i].object,
            .detail = std::string(what) + ": an earlier operation failed"};
  }
  void cancel(std::size_t i, const char* what) { results_[i] = cancelled(i, what); }

  // The op's own after-effects once its result is known: error context, and
  // the name cache.
  void finish(std::size_t i) {
    Op& op = ops_[i];
    if (!results_[i] && op.explain) op.explain(results_[i].error());
    if (op.after) op.after(conn_, results_[i]);
  }

  // A run of at least coalesce_min_ plain deletes by name, from i: one group
  // delete. Returns the end of the run, or nothing when it is too short.
  std::optional<std::size_t> coalesced_deletes(std::size_t i) {
    std::size_t end = i;
    while (end < ops_.size() && !ops_[end].delete_name.empty() && !ops_[end].rejected) ++end;
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
      auto index = resolve_link(conn_, need.name);
      if (!index && index.error().code == ENODEV && !in_flight_.empty()) {
        drain();
        index = resolve_link(conn_, need.name);
      }
      if (index) continue;
      NetlinkError e = std::move(index).error();
      e.detail = std::string(need.role) + " '" + need.name + "'" +
                 (e.code == ENODEV ? " does not exist" : ": " + e.message());
      e.op = op.op;
      e.object = op.object;
      e.ext_ack.clear();
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

  // Sends the window and waits for every answer: in flight → done.
  void drain() {
    if (in_flight_.empty()) return;
    conn_.execute(in_flight_);
    for (std::size_t k = 0; k < in_flight_.size(); ++k) {
      auto& result = results_[owner_[k]];
      if (result && !in_flight_[k].result) result = std::move(in_flight_[k].result);
    }
    std::vector<std::size_t> window_ops;  // each op once, in order
    for (std::size_t k = 0; k < owner_.size(); ++k) {
      if (k + 1 != owner_.size() && owner_[k + 1] == owner_[k]) continue;
      finish(owner_[k]);
      window_ops.push_back(owner_[k]);
    }
    in_flight_.clear();
    owner_.clear();
    in_flight_changes_names_ = false;
    if (!stop_mode_) return;
    for (std::size_t i : window_ops) {
      if (results_[i]) continue;
      stop();
      undo_after(i, window_ops);
      break;
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
  std::vector<Op>& ops_;
  std::vector<NlResult<void>> results_;
  const std::size_t window_;       // requests per window
  const bool stop_mode_;           // options.stop_at_first_error
  const bool coalesce_;            // runs of deletes become one group delete
  const std::size_t coalesce_min_;  // the shortest run worth it
  Phase phase_ = Phase::running;
  std::vector<Request> in_flight_;
  std::vector<std::size_t> owner_;  // op index of each in-flight request
  bool in_flight_changes_names_ = false;  // resolve nothing before those are done
};

}  // namespace

std::vector<NlResult<void>> run_ops(Connection& conn, std::vector<Op>& ops, const BatchOptions& options) {
  return BatchRun(conn, ops, options).run();
}

}  // namespace brisk::netlink::detail
