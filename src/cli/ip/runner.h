// cli/ip/runner.h: runs parsed commands: one netlink connection (in -n's
// namespace), the batch scheduling of changes, and the output the object
// printers (address.cc, route.cc, ...) write shows into.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "cli/ip/ip.h"
#include "cli/ip/nsid_print.h"

namespace brisk::ipcli {

using Json = nlohmann::ordered_json;
using Links = std::map<int, netlink::LinkInfo>;  // by ifindex

class Runner {
 public:
  // own_process: the CLI's single-threaded main, which may enter -n's
  // namespace itself, as ip -n does.
  Runner(Globals globals, std::string source, bool own_process = false)
      : g_(std::move(globals)), source_(std::move(source)), own_process_(own_process) {}

  // Runs every command; returns the exit code.
  int run(std::vector<BatchCommand>& cmds);
  // Appends the JSON array a show collected to the output.
  void dump_json();
  std::string& out() { return out_; }

  // ---- for the object printers ----
  const Globals& globals() const { return g_; }
  bool own_process() const { return own_process_; }
  bool in_batch() const { return !source_.empty(); }
  netlink::NlResult<netlink::Connection*> conn();
  // The connection conn() returns instead of opening a socket: a test's,
  // over a transport that replays recorded kernel replies.
  void use_connection(netlink::Connection c) { conn_.emplace(std::move(c)); }
  // A JSON record of a show (the array is printed after the command).
  void emit(Json record) { json_.push_back(std::move(record)); }
  // Marks the show as one that prints a JSON array, even an empty one.
  void use_json() { json_used_ = true; }
  // Writes what is buffered to stdout (before a child writes there too).
  void flush_out();
  // A line on stderr after what stdout has so far, as a command that
  // reports a failure and goes on (ip nexthop flush) prints it.
  void error_line(const std::string& text);
  netlink::NlResult<Links> links_by_index(bool stats, bool details = false);
  // `dev` and the links its record names (master, parent or peer here), as
  // ip reads them for a show of one device: a GETLINK each, not a dump of
  // every link on a host that has thousands. Empty when `dev` is missing.
  // (Not for -d, whose kind attributes name more links.)
  netlink::NlResult<Links> links_around(const std::string& dev, bool stats);
  // The named namespaces (/run/netns) by the id each has here, as ip's
  // netns map: built on first use; a name that cannot be read is left out.
  // The kernel's refusal of a name is printed the first time only: ip builds
  // its map once, where brisk builds it again after a netns add or del.
  const std::map<int, std::string>& netns_by_id();
  void forget_netns_ids() { netns_by_id_.reset(); }
  // ip's nsid cache for list-id and monitor nsid: netns_by_id() when first
  // asked for, then kept for the run, each name printed from it once.
  NsidNames& nsid_names();

  // ---- for the verbs' queue and run functions ----
  // `link-netns NAME`'s id here, made when it has none, as ip's; a name
  // that opens no namespace is ip's argument error.
  netlink::NlResult<int> link_netnsid(const std::string& name);
  // The namespace a line names (`netns NAME|PID`), opened and held until
  // the batch is flushed; a missing one fails as ip's argument error.
  netlink::NlResult<int> held_netns(const std::string& name_or_pid, const char* op);
  // A failed command's message, then ip's "Command failed FILE:LINE" in a
  // batch (line: the batch line, 0 outside one).
  void report(int line, const std::string& message);
  // A device made outside the batch engine (tuntap add), which a later line
  // of the batch syncs where it first names it.
  void note_created(const std::string& name) { unsynced_.insert(name); }

 private:
  // What one pipeline of a run of changes left: each line's op (none when
  // the line could not be queued), the errors of those that could not, in
  // line order, and the failed ops by index.
  struct ChangeResults {
    std::size_t end = 0;  // one past the last line the pipeline took
    std::vector<std::optional<std::size_t>> slot{};
    std::vector<netlink::NetlinkError> prep_errors{};
    std::vector<std::pair<std::size_t, netlink::NetlinkError>> failures{};
  };
  // run(), one step: the run of changes from cmds[i] (moving i past it),
  // or one held command. The status to exit with, when the run ends there.
  std::optional<int> run_changes(std::vector<BatchCommand>& cmds, std::size_t& i, int& status);
  std::optional<int> run_held(const IpCommand& cmd, int& status);
  // run_held(): what ip does when the command failed with `e`.
  std::optional<int> held_failed(const IpCommand& cmd, const netlink::NetlinkError& e, int& status);
  // How far from cmds[i] one pipeline goes, and whether it stops at its first error.
  std::size_t change_run_end(const std::vector<BatchCommand>& cmds, std::size_t i, bool& stop_mode);
  ChangeResults apply_changes(netlink::Connection& c, std::vector<BatchCommand>& cmds, std::size_t i,
                              std::size_t end, bool stop_mode);
  // ip's exit status for a command that failed with `e`.
  int failure_status(const netlink::NetlinkError& e, const Verb& verb) const;
  std::size_t safe_delete_prefix(const std::vector<BatchCommand>& cmds, std::size_t first);
  // Queues the link-state syncs ip's name lookups would make for `cmd`,
  // before its own op; notes the devices it creates.
  void sync_named_devices(netlink::Batch& batch, const IpCommand& cmd);

  Globals g_;
  std::string source_;  // batch file name for "Command failed FILE:LINE"; empty outside a batch
  bool own_process_ = false;
  UniqueFd netns_fd_;
  std::optional<netlink::Connection> conn_;
  std::vector<UniqueFd> held_fds_;            // peer namespaces named in queued commands, open until flushed
  std::unordered_set<std::string> unsynced_;  // devices this batch made that no line has named yet
  std::string out_;
  Json json_ = Json::array();
  bool json_used_ = false;
  std::optional<std::map<int, std::string>> netns_by_id_;
  bool netns_map_built_ = false;  // once: the refusals it met were printed
  std::optional<NsidNames> nsid_names_;
};

// What each object runs for its non-batched verbs (show, flush, netns).
netlink::NlResult<void> show_links(Runner& r, const IpCommand& cmd);  // link show and addr show
netlink::NlResult<void> flush_addresses(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_routes(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> flush_routes(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> get_route(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_rules(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> flush_rules(Runner& r, const IpCommand& cmd);
// ip rule save: the rule dump after ip's magic word, into the output as is.
netlink::NlResult<void> save_rules(Runner& r, const IpCommand& cmd);
// ip rule restore: each message of the saved stream on stdin (in a batch,
// the batch's text after the line, as ip reads it), sent again. Its errors
// that are not the kernel's carry ip's text in their detail.
netlink::NlResult<void> restore_rules(Runner& r, const IpCommand& cmd);
// The CLI's own ops below mark errors of its own making. Code compares an
// error's op with them by address (e.op == kRuleRestoreOp), which says who
// made it; no text of an error decides what the CLI does.
inline constexpr char kRuleRestoreOp[] = "rule restore";
// ip route save [SELECTOR]: the routes show would print, after ip's magic word.
netlink::NlResult<void> save_routes(Runner& r, const IpCommand& cmd);
// ip route restore and showdump: a saved stream (stdin, or a batch's text
// after the line) added back in ip's order, or printed as show prints it.
netlink::NlResult<void> restore_routes(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_saved_routes(Runner& r, const IpCommand& cmd);
inline constexpr char kRouteRestoreOp[] = "route restore";
inline constexpr char kRouteShowdumpOp[] = "route showdump";
// One rule as ip rule show prints it ("Deleted " first for a removal).
void print_rule(Runner& r, const netlink::RuleInfo& rule, bool deleted);
netlink::NlResult<void> show_neighbours(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> flush_neighbours(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> get_neighbour(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_fdb(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_nexthops(Runner& r, const IpCommand& cmd);         // show, list and get
netlink::NlResult<void> show_nexthop_buckets(Runner& r, const IpCommand& cmd);  // bucket list and get
// One delete per nexthop the selectors pick (groups first when none is
// given), each failure on stderr; then "Flushed N nexthops".
netlink::NlResult<void> flush_nexthops(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_addrlabels(Runner& r, const IpCommand& cmd);
// A delete per label of the family's table, the first failure ending it.
netlink::NlResult<void> flush_addrlabels(Runner& r, const IpCommand& cmd);
// maddr add|del (an ioctl) and show (the namespace's /proc/net lists).
netlink::NlResult<void> change_maddr(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> show_maddrs(Runner& r, const IpCommand& cmd);
// ip netconf show [dev DEV]: a dump (one record under -4/-6 with a device).
netlink::NlResult<void> show_netconf(Runner& r, const IpCommand& cmd);
// ip token list|get [dev DEV], and set|del TOKEN dev DEV.
netlink::NlResult<void> show_tokens(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> change_token(Runner& r, const IpCommand& cmd);
// ip ntable show [dev DEV|none] [name NAME], and change name NAME [dev DEV] VALUES.
netlink::NlResult<void> show_ntables(Runner& r, const IpCommand& cmd);
netlink::NlResult<void> change_ntable(Runner& r, const IpCommand& cmd);
inline constexpr char kAddrlabelFlushOp[] = "addrlabel flush";  // the op of its failure
inline constexpr char kFlushIncomplete[] = "flush rounds";      // ip's flush gave up; the detail is its words
inline constexpr char kNetnsOpen[] = "netns lookup";            // a namespace ip netns could not open
netlink::NlResult<void> run_tuntap(Runner& r, const IpCommand& cmd);  // tuntap add and del
netlink::NlResult<void> show_tuntaps(Runner& r, const IpCommand& cmd);
// ip's perror() text for a tuntap add or del that failed ("ioctl(TUNSETIFF): ...").
std::string tuntap_message(const netlink::NetlinkError& e);
// Prints events until SIGINT or SIGTERM (monitor.cc).
netlink::NlResult<void> run_monitor(Runner& r, const IpCommand& cmd);
// What `ip netns exec` does in its own process before exec.
netlink::NlResult<void> enter_netns_for_exec(const std::string& name);

}  // namespace brisk::ipcli
