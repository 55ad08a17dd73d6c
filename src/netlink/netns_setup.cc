// netlink/netns_setup.cc: setup_netns_many (see brisk/netlink/netns_setup.h).
//
// Round r's namespaces are made on a thread of their own while round r-1's
// operations run on the caller's, where that pays (overlap_policy.h);
// otherwise on a helper thread the caller waits for. Each round's host side is one run of
// pipelined ops; each container's inside is one on the socket made in it.
#include "brisk/netlink/netns_setup.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "brisk/netlink/netns.h"
#include "netlink/netns_internal.h"
#include "netlink/op.h"
#include "netlink/overlap_policy.h"

namespace brisk::netlink {
namespace {

// A round's namespaces, made with their fds and sockets, on a thread of
// their own (overlapping the caller) or on a helper the caller waits for.
class RoundMaker {
 public:
  RoundMaker() = default;
  RoundMaker(const RoundMaker&) = delete;
  RoundMaker& operator=(const RoundMaker&) = delete;
  ~RoundMaker() { wait(); }

  void start(std::span<const std::string> names, bool overlap) {
    names_ = names;
    if (overlap) {
      try {
        // The thread ends in the last namespace it made: nothing to return to.
        thread_ = std::thread([this] { make(detail::NetnsThread::disposable); });
        return;
      } catch (const std::system_error&) {
        // No thread to be had: make them now, as without overlap.
      }
    }
    make(detail::NetnsThread::helper);
  }
  // Waits for the namespaces; results and opened are then complete.
  void wait() {
    if (thread_.joinable()) thread_.join();
  }

  void clear() {
    results.clear();
    opened.clear();
  }

  std::vector<NlResult<void>> results;
  std::vector<detail::OpenedNetns> opened;

 private:
  void make(detail::NetnsThread thread) { results = detail::create_netns_each_on(names_, thread, &opened); }

  std::span<const std::string> names_{};
  std::thread thread_;
};

NetlinkError cancelled(const std::string& name, const char* what, const std::string& culprit) {
  return NetlinkError{.code = ECANCELED,
                      .op = "netns setup",
                      .object = name,
                      .detail = std::string(what) + ": container " + culprit + " failed first"};
}

// Names the container in an operation's error (its object is a device or an address).
NetlinkError in_container(NetlinkError e, const std::string& name) {
  std::string where = "in container " + name;
  e.detail = e.detail.empty() ? where : e.detail + " (" + where + ")";
  return e;
}

class FleetSetup {
 public:
  FleetSetup(Connection& host, std::span<const NetnsSetup> containers, std::vector<std::string> names,
             const NetnsSetupOptions& options)
      : host_(host),
        containers_(containers),
        names_(std::move(names)),
        options_(options),
        results_(containers.size()) {}

  std::vector<NlResult<void>> run() {
    const std::size_t rounds = (containers_.size() + options_.round - 1) / options_.round;
    RoundMaker makers[2];
    // Round 0 has nothing to overlap with: the caller waits for it either way.
    if (rounds > 0) makers[0].start(round_names(0), options_.overlap == NetnsOverlap::always);
    for (std::size_t r = 0; r < rounds; ++r) {
      RoundMaker& now = makers[r % 2];
      RoundMaker& next = makers[(r + 1) % 2];
      now.wait();
      const bool more = r + 1 < rounds;
      const bool overlap = more && overlap_next(round_names(r + 1).size());
      if (overlap) next.start(round_names(r + 1), true);
      set_up_round(r, now);
      now.clear();  // closes the round's fds, and leaves nothing for abandon_round to find
      if (culprit_) {
        for (std::size_t i = (r + 1) * options_.round; i < containers_.size(); ++i)
          results_[i] = cancelled(names_[i], "not attempted", names_[*culprit_]);
        if (more) abandon_round(r + 1, next);
        break;
      }
      if (options_.on_round) options_.on_round(std::min(containers_.size(), (r + 1) * options_.round));
      if (more && !overlap) next.start(round_names(r + 1), false);
    }
    return std::move(results_);
  }

 private:
  // Whether the next round (of `size` containers) is made on a second
  // thread; automatic keeps its last decision until the meter can say more.
  bool overlap_next(std::size_t size) {
    if (options_.overlap != NetnsOverlap::automatic) return options_.overlap == NetnsOverlap::always;
    if (!meter_) meter_.emplace();
    if (meter_->cpus() < detail::kOverlapMinCpus) return false;  // it never reads /proc/stat then
    if (auto idle = meter_->idle_since_last())
      overlapping_ = detail::overlap_pays(
          {.cpus = meter_->cpus(), .idle_cpus = *idle, .overlapping = overlapping_, .round = size});
    return overlapping_ && size >= detail::kOverlapMinRound;
  }

  // Where each container's operations sit in its round's host ops.
  struct Slot {
    std::size_t host_first = 0, host_last = 0;    // from `host`
    std::size_t after_first = 0, after_last = 0;  // from `host_after`
    bool made = false;                            // its namespace is ours
    bool failed = false;
    bool queued = false;     // its host side was queued
    bool cancelled = false;  // begun after the container that stopped the run
  };

  std::span<const std::string> round_names(std::size_t r) const {
    std::size_t first = r * options_.round;
    return std::span<const std::string>(names_).subspan(first,
                                                        std::min(options_.round, names_.size() - first));
  }

  void set_up_round(std::size_t r, RoundMaker& made) {
    const std::size_t base = r * options_.round;
    const std::size_t n = made.results.size();
    std::vector<Slot> slots(n);
    auto fail = [&](std::size_t k, NetlinkError e) {
      slots[k].failed = true;
      results_[base + k] = std::move(e);
      if (options_.stop_on_error && !culprit_) culprit_ = base + k;
    };

    Batch host_batch(host_);
    for (std::size_t k = 0; k < n; ++k) {
      if (!made.results[k]) {
        fail(k, std::move(made.results[k]).error());
        continue;
      }
      slots[k].made = true;
      if (after_culprit(base + k)) continue;  // stopping: nothing more is queued
      const NetnsSetup& c = containers_[base + k];
      slots[k].queued = true;
      slots[k].host_first = host_batch.size();
      if (c.host) c.host(host_batch, made.opened[k].ns.get());
      slots[k].host_last = host_batch.size();
    }
    for (std::size_t k = 0; k < n; ++k) {
      const NetnsSetup& c = containers_[base + k];
      if (!slots[k].made || after_culprit(base + k) || !c.host_after) continue;
      slots[k].after_first = host_batch.size();
      c.host_after(host_batch);
      slots[k].after_last = host_batch.size();
    }
    auto host_ops = detail::BatchAccess::take(host_batch);
    auto host_results = detail::run_ops(host_, host_ops, detail::BatchAccess::options(host_batch));
    for (std::size_t k = 0; k < n; ++k) {
      if (!slots[k].made || slots[k].failed) continue;
      for (auto [first, last] : {std::pair{slots[k].host_first, slots[k].host_last},
                                 std::pair{slots[k].after_first, slots[k].after_last}}) {
        for (std::size_t i = first; i < last && !slots[k].failed; ++i)
          if (!host_results[i]) fail(k, in_container(std::move(host_results[i]).error(), names_[base + k]));
      }
    }

    for (std::size_t k = 0; k < n; ++k) {
      if (!slots[k].made || slots[k].failed) continue;
      if (after_culprit(base + k)) {
        slots[k].failed = slots[k].cancelled = true;
        results_[base + k] =
            cancelled(names_[base + k], slots[k].queued ? "not applied" : "not attempted", names_[*culprit_]);
        continue;
      }
      const NetnsSetup& c = containers_[base + k];
      if (!c.inside) continue;
      auto conn = Connection::adopt(std::move(made.opened[k].rtnl), made.opened[k].ns.get(),
                                    options_.inside_connection);
      if (!conn) {
        fail(k, in_container(std::move(conn).error(), names_[base + k]));
        continue;
      }
      Batch inside(*conn);
      c.inside(inside);
      for (auto& result : inside.flush())
        if (!result && !slots[k].failed) fail(k, in_container(std::move(result).error(), names_[base + k]));
    }

    undo_failed(base, slots, host_ops, host_results);
  }

  // Puts back what failed containers (and those cancelled after one) did:
  // their host-side additions newest first, in one run, then their namespaces.
  void undo_failed(std::size_t base, const std::vector<Slot>& slots, std::vector<detail::Op>& host_ops,
                   const std::vector<NlResult<void>>& host_results) {
    std::vector<detail::Op> undo;
    std::vector<std::size_t> undo_owner;  // the slot each undo op is for
    std::vector<std::size_t> drop;        // slots whose namespace goes
    for (std::size_t k = slots.size(); k-- > 0;) {
      const Slot& s = slots[k];
      if (!s.made || !s.failed) continue;
      // What is reported as not applied is undone whatever undo_failed says.
      if (!options_.undo_failed && !s.cancelled) continue;
      for (auto [first, last] :
           {std::pair{s.after_first, s.after_last}, std::pair{s.host_first, s.host_last}}) {
        for (std::size_t i = last; i-- > first;) {
          if (!host_results[i] || !host_ops[i].undo) continue;
          undo.push_back(host_ops[i].undo());
          undo_owner.push_back(k);
        }
      }
      drop.push_back(k);
    }
    auto undone = detail::run_ops(host_, undo, {});
    for (std::size_t u = 0; u < undone.size(); ++u)
      if (!undone[u]) note_undo_failure(base + undo_owner[u], undone[u].error());
    for (std::size_t k : drop)
      if (auto deleted = delete_netns(names_[base + k]); !deleted)
        note_undo_failure(base + k, deleted.error());
  }

  void note_undo_failure(std::size_t i, const NetlinkError& e) {
    auto& detail = results_[i].error().detail;
    detail += (detail.empty() ? "" : "; ") + std::string("undoing it failed: ") + e.message();
  }

  // The round made ahead of a stop (if it was): its namespaces go again, unused.
  void abandon_round(std::size_t r, RoundMaker& made) {
    made.wait();
    const std::size_t base = r * options_.round;
    for (std::size_t k = 0; k < made.results.size(); ++k)
      if (made.results[k]) (void)delete_netns(names_[base + k]);
  }

  bool after_culprit(std::size_t i) const { return culprit_ && i > *culprit_; }

  Connection& host_;
  std::span<const NetnsSetup> containers_;
  std::vector<std::string> names_;
  const NetnsSetupOptions& options_;
  std::vector<NlResult<void>> results_;
  std::optional<std::size_t> culprit_{};      // stop_on_error: the first container that failed
  std::optional<detail::IdleMeter> meter_{};  // NetnsOverlap::automatic's view of the machine
  bool overlapping_ = false;                  // its last decision
};

}  // namespace

NlResult<std::vector<NlResult<void>>> setup_netns_many(Connection& host,
                                                       std::span<const NetnsSetup> containers,
                                                       const NetnsSetupOptions& options) {
  if (options.round == 0)
    return invalid_argument("netns setup", "round", "a round takes at least one container");
  std::vector<std::string> names;
  names.reserve(containers.size());
  std::unordered_set<std::string_view> seen;
  for (const auto& c : containers) {
    if (auto valid = validate_netns_name(c.name); !valid) {
      valid.error().op = "netns setup";
      return std::move(valid).error();
    }
    if (!seen.insert(c.name).second)
      return invalid_argument("netns setup", c.name, "two containers have this name");
    names.push_back(c.name);
  }
  return FleetSetup(host, containers, std::move(names), options).run();
}

}  // namespace brisk::netlink
