// Runs parsed ip-grammar commands through the netlink engine and prints what
// `ip` prints: text or `-j` JSON for shows, one-line errors, batch reports.
#include <dirent.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/icmpv6.h>
#include <linux/rtnetlink.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"
#include "brisk/spawn.h"
#include "sys/namespaces.h"
#include "cli/ip/ip.h"
#include "cli/ip/json_layout.h"
#include "cli/ip/link_details.h"
#include "cli/ip/names.h"

namespace brisk::ipcli {
namespace {

using Json = nlohmann::ordered_json;
using netlink::Connection;
using netlink::NetlinkError;
using netlink::NlResult;

constexpr int kUsageExit = 255;

void write_out(const std::string& text) {
  if (!text.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
}

void print_error_line(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
}

// The kernel's ext-ack text when it gave one, else what failed and why.
std::string runtime_message(const NetlinkError& e) {
  if (!e.ext_ack.empty()) return e.ext_ack;
  // ip's wording for a missing device, named in the engine's detail or as the link acted on.
  if (e.code == ENODEV) {
    auto open = e.detail.find('\''), close = e.detail.find('\'', open + 1);
    if (open != std::string::npos && close != std::string::npos)
      return "Cannot find device \"" + e.detail.substr(open + 1, close - open - 1) + "\"";
    if (std::string_view(e.op).starts_with("link") && !e.object.empty() && e.detail.empty())
      return "Cannot find device \"" + e.object + "\"";
  }
  std::string text = e.op;
  if (!e.object.empty()) text += " " + e.object;
  text += ": ";
  text += e.code ? std::strerror(e.code) : "failed";
  if (!e.detail.empty()) text += ": " + e.detail;
  return text;
}

// ---- names ip prints ----

std::vector<std::string> link_flags(uint32_t flags, bool mdown) {
  std::vector<std::string> out;
  if ((flags & IFF_UP) && !(flags & IFF_RUNNING)) out.emplace_back("NO-CARRIER");
  static const std::pair<uint32_t, const char*> kFlags[] = {
      {IFF_LOOPBACK, "LOOPBACK"}, {IFF_BROADCAST, "BROADCAST"}, {IFF_POINTOPOINT, "POINTOPOINT"},
      {IFF_MULTICAST, "MULTICAST"}, {IFF_NOARP, "NOARP"},         {IFF_ALLMULTI, "ALLMULTI"},
      {IFF_PROMISC, "PROMISC"},   {IFF_NOTRAILERS, "NOTRAILERS"}, {IFF_DEBUG, "DEBUG"},
      {IFF_DYNAMIC, "DYNAMIC"},   {IFF_AUTOMEDIA, "AUTOMEDIA"},   {IFF_PORTSEL, "PORTSEL"},
      {IFF_UP, "UP"},             {IFF_LOWER_UP, "LOWER_UP"},     {IFF_DORMANT, "DORMANT"},
      {IFF_ECHO, "ECHO"}};
  for (auto [bit, name] : kFlags)
    if (flags & bit) out.emplace_back(name);
  if (mdown) out.emplace_back("M-DOWN");
  return out;
}

const char* operstate_name(uint8_t state) {
  static const char* const kNames[] = {"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN", "TESTING", "DORMANT", "UP"};
  return state < std::size(kNames) ? kNames[state] : "UNKNOWN";
}




std::string table_name(uint32_t table) {
  switch (table) {
    case RT_TABLE_MAIN: return "main";
    case RT_TABLE_LOCAL: return "local";
    case RT_TABLE_DEFAULT: return "default";
  }
  return std::to_string(table);
}

std::vector<std::string> nud_names(uint16_t state) {
  static const std::pair<uint16_t, const char*> kStates[] = {
      {NUD_INCOMPLETE, "INCOMPLETE"}, {NUD_REACHABLE, "REACHABLE"}, {NUD_STALE, "STALE"},
      {NUD_DELAY, "DELAY"},           {NUD_PROBE, "PROBE"},         {NUD_FAILED, "FAILED"},
      {NUD_NOARP, "NOARP"},           {NUD_PERMANENT, "PERMANENT"}};
  std::vector<std::string> out;
  for (auto [bit, name] : kStates)
    if (state & bit) out.emplace_back(name);
  if (out.empty()) out.emplace_back("NONE");
  return out;
}

std::string join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += sep;
    out += w;
  }
  return out;
}

const char* linkmode_name(uint8_t mode) {
  switch (mode) {
    case IF_LINK_MODE_DEFAULT: return "DEFAULT";
    case IF_LINK_MODE_DORMANT: return "DORMANT";
    case IF_LINK_MODE_TESTING: return "TESTING";
    default: return "UNKNOWN";
  }
}

// The address flags ip names, in ip's order. A missing IFA_F_PERMANENT on
// IPv6 reads "dynamic"; IPv4 addresses are never flagged permanent.
std::vector<std::string> address_flag_names(uint32_t flags, bool v4) {
  struct Name {
    uint32_t mask;
    const char* name;
    bool v6_only;
  };
  static constexpr Name kNames[] = {
      {IFA_F_SECONDARY, "secondary", false},      {IFA_F_NODAD, "nodad", true},
      {IFA_F_OPTIMISTIC, "optimistic", true},     {IFA_F_DADFAILED, "dadfailed", true},
      {IFA_F_HOMEADDRESS, "home", true},          {IFA_F_DEPRECATED, "deprecated", true},
      {IFA_F_TENTATIVE, "tentative", true},       {IFA_F_PERMANENT, "dynamic", true},
      {IFA_F_MANAGETEMPADDR, "mngtmpaddr", true}, {IFA_F_NOPREFIXROUTE, "noprefixroute", false},
      {IFA_F_MCAUTOJOIN, "autojoin", false},      {IFA_F_STABLE_PRIVACY, "stable-privacy", true},
  };
  std::vector<std::string> names;
  for (const auto& n : kNames) {
    if (n.v6_only && v4) continue;
    bool set = (flags & n.mask) != 0;
    if (n.mask == IFA_F_PERMANENT ? !set : set) names.emplace_back(n.name);
  }
  return names;
}

// "forever", or seconds with ip's "sec" suffix.
std::string lifetime_text(uint32_t seconds) {
  return seconds == netlink::AddressInfo::kForever ? "forever" : std::to_string(seconds) + "sec";
}

// ip -j -s's "stats64" object; -s -s (`detailed`) adds the error counters.
Json stats_json(const netlink::LinkStats& s, bool detailed) {
  Json rx{{"bytes", s.rx_bytes}, {"packets", s.rx_packets}, {"errors", s.rx_errors},
          {"dropped", s.rx_dropped}, {"over_errors", s.rx_over_errors}, {"multicast", s.multicast}};
  Json tx{{"bytes", s.tx_bytes}, {"packets", s.tx_packets}, {"errors", s.tx_errors},
          {"dropped", s.tx_dropped}, {"carrier_errors", s.tx_carrier_errors}, {"collisions", s.collisions}};
  if (detailed) {
    rx["length_errors"] = s.rx_length_errors;
    rx["crc_errors"] = s.rx_crc_errors;
    rx["frame_errors"] = s.rx_frame_errors;
    rx["fifo_errors"] = s.rx_fifo_errors;
    rx["missed_errors"] = s.rx_missed_errors;
    if (s.rx_nohandler) rx["nohandler"] = s.rx_nohandler;
    tx["aborted_errors"] = s.tx_aborted_errors;
    tx["fifo_errors"] = s.tx_fifo_errors;
    tx["window_errors"] = s.tx_window_errors;
    tx["heartbeat_errors"] = s.tx_heartbeat_errors;
    tx["carrier_changes"] = s.carrier_changes;
  }
  return Json{{"rx", std::move(rx)}, {"tx", std::move(tx)}};
}

// ip -s's counter table: right-aligned columns, each as wide as its header
// or its widest number (every row shares the widths). -s -s (`detailed`)
// adds a row of error counters under RX and under TX, aligned from the
// second column on.
std::string stats_text(const netlink::LinkStats& s, bool detailed) {
  using Row = std::array<uint64_t, 6>;
  const Row rx{s.rx_bytes, s.rx_packets, s.rx_errors, s.rx_dropped, s.rx_missed_errors, s.multicast};
  const Row tx{s.tx_bytes, s.tx_packets, s.tx_errors, s.tx_dropped, s.tx_carrier_errors, s.collisions};
  const Row rx_err{0, s.rx_length_errors, s.rx_crc_errors, s.rx_frame_errors, s.rx_fifo_errors, s.rx_over_errors};
  const Row tx_err{0, s.tx_aborted_errors, s.tx_fifo_errors, s.tx_window_errors, s.tx_heartbeat_errors,
                   s.carrier_changes};
  std::array<std::size_t, 7> width{10, 7, 6, 7, 7, 7, 0};
  for (const Row* row : {&rx, &tx, detailed ? &rx_err : nullptr, detailed ? &tx_err : nullptr})
    for (std::size_t i = 0; row && i < row->size(); ++i) width[i] = std::max(width[i], std::to_string((*row)[i]).size());
  bool nohandler = detailed && s.rx_nohandler;
  if (nohandler) width[6] = std::max<std::size_t>(9, std::to_string(s.rx_nohandler).size());
  auto pad = [](const std::string& text, std::size_t w) { return std::string(w - std::min(w, text.size()), ' ') + text; };
  auto table = [&](const char* title, const std::array<const char*, 6>& names, const Row& values) {
    std::string out = std::string("    ") + title + ":" + pad(names[0], width[0] - 3);
    for (std::size_t i = 1; i < names.size(); ++i) out += " " + pad(names[i], width[i]);
    out += " " + std::string(10, ' ') + "\n    ";  // ip's empty "compressed" column
    for (std::size_t i = 0; i < values.size(); ++i) out += pad(std::to_string(values[i]), width[i]) + " ";
    return out + "\n";
  };
  auto errors = [&](const char* title, const std::array<const char*, 5>& names, const Row& values, uint64_t extra) {
    std::string out = std::string("    ") + title + " errors:" + std::string(width[0] - 10, ' ');
    for (std::size_t i = 0; i < names.size(); ++i) out += " " + pad(names[i], width[i + 1]);
    if (extra) out += " " + pad("nohandler", width[6]);
    out += "\n" + std::string(width[0] + 5, ' ');
    for (std::size_t i = 1; i < values.size(); ++i) out += pad(std::to_string(values[i]), width[i]) + " ";
    if (extra) out += pad(std::to_string(extra), width[6]) + " ";
    return out + "\n";
  };
  std::string out = table("RX", {"bytes", "packets", "errors", "dropped", "missed", "mcast"}, rx);
  if (detailed) out += errors("RX", {"length", "crc", "frame", "fifo", "overrun"}, rx_err, nohandler ? s.rx_nohandler : 0);
  out += table("TX", {"bytes", "packets", "errors", "dropped", "carrier", "collsns"}, tx);
  if (detailed) out += errors("TX", {"aborted", "fifo", "window", "heartbt", "transns"}, tx_err, 0);
  return out;
}

// One field of a route in both forms: the JSON key, and " keyword value" text.
void route_field(Json& j, std::string& t, const char* key, const char* keyword, const std::string& value) {
  j[key] = value;
  t += std::string(" ") + keyword + " " + value;
}

// ip prints a full-length prefix without "/len".
std::string dst_text(const netlink::IpPrefix& p) {
  if (p.length == 0) return "default";
  std::string a = p.address.to_string();
  if (p.length == p.address.size() * 8) return a;
  return a + "/" + std::to_string(p.length);
}

class Runner {
 public:
  // own_process: the CLI's single-threaded main, which may enter -n's
  // namespace itself, as ip -n does.
  Runner(Globals globals, std::string source, bool own_process = false)
      : g_(std::move(globals)), source_(std::move(source)), own_process_(own_process) {}

  int run(std::vector<Command>& cmds);
  void dump_json() {
    if (!g_.json || !json_used_) return;
    out_ += (g_.pretty ? ip_pretty_json(json_) : json_.dump()) + "\n";
    json_ = Json::array();
    json_used_ = false;
  }
  std::string& out() { return out_; }

 private:
  NlResult<Connection*> conn();
  NlResult<void> run_show(const Command& cmd);
  NlResult<void> run_netns(const Command& cmd);
  NlResult<void> run_flush(const Command& cmd);
  // Queues a mutating command; a preparation failure is returned instead.
  NlResult<std::size_t> queue(netlink::Batch& batch, const Command& cmd);
  void report(const Command& cmd, const std::string& message);

  NlResult<std::map<int, netlink::LinkInfo>> links_by_index(bool stats, bool details = false);
  std::size_t safe_delete_prefix(const std::vector<Command>& cmds, std::size_t first);
  Json link_json(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all, bool for_addr);
  std::string link_text(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all, bool for_addr);
  // ip -br: name (with its @peer), operstate, then the link-layer address and
  // flags (link show) or each address as ADDR/LEN (addr show, addrs given).
  void brief(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all,
             const std::vector<netlink::AddressInfo>* addrs);
  // The named namespaces (/run/netns) by the id each has here, as ip's
  // netns map: built on first use; a name that cannot be read is left out.
  const std::map<int, std::string>& netns_by_id();

  Globals g_;
  std::string source_;  // batch file name for "Command failed FILE:LINE"; empty outside a batch
  bool own_process_ = false;
  UniqueFd netns_fd_;
  std::optional<Connection> conn_;
  std::vector<UniqueFd> held_fds_;  // peer namespaces named in queued commands, open until flushed
  std::string out_;
  Json json_ = Json::array();
  bool json_used_ = false;
  // `ip -6 addr` without a device reads links through the kernel's IPv6
  // link dump, which carries no qdisc, master or group; ip prints none of them.
  bool inet6_link_dump_ = false;
  // The family of the addr show being printed: -4/-6, or what "to PREFIX" implies.
  int show_family_ = AF_UNSPEC;
  std::optional<std::map<int, std::string>> netns_by_id_;
};

NlResult<Connection*> Runner::conn() {
  if (conn_) return &*conn_;
  if (!g_.netns.empty()) {
    auto fd = netlink::open_netns(g_.netns);
    if (!fd) return std::move(fd).error();
    netns_fd_ = std::move(*fd);
    // The library never moves the caller's thread, so open_in() makes the
    // socket on a helper thread; for a one-command process that thread (its
    // stack, its malloc arena) cost more than the command. The CLI's own
    // process simply enters the namespace.
    if (own_process_) {
      if (auto entered = sys::setns(netns_fd_.get(), CLONE_NEWNET); !entered)
        return NetlinkError{.code = entered.error().code, .op = "setns", .object = g_.netns};
      netns_fd_.reset();
      auto c = Connection::open();
      if (!c) return std::move(c).error();
      conn_.emplace(std::move(*c));
      return &*conn_;
    }
    auto c = Connection::open_in(netns_fd_.get());
    if (!c) return std::move(c).error();
    conn_.emplace(std::move(*c));
  } else {
    auto c = Connection::open();
    if (!c) return std::move(c).error();
    conn_.emplace(std::move(*c));
  }
  return &*conn_;
}

void Runner::report(const Command& cmd, const std::string& message) {
  write_out(out_);
  out_.clear();
  print_error_line(format_error(message));
  if (!source_.empty()) print_error_line("Command failed " + source_ + ":" + std::to_string(cmd.line));
}

NlResult<std::size_t> Runner::queue(netlink::Batch& batch, const Command& cmd) {
  switch (cmd.verb) {
    case Verb::link_add: {
      netlink::LinkAdd spec = cmd.link_add;
      if (!cmd.peer_netns.empty()) {
        auto fd = netlink::open_netns(cmd.peer_netns);
        if (!fd) return std::move(fd).error();
        std::get<netlink::VethOptions>(spec.kind).peer_netns_fd = fd->get();
        held_fds_.push_back(std::move(*fd));
      }
      return batch.add_link(std::move(spec));
    }
    case Verb::link_set: {
      netlink::LinkSet spec = cmd.link_set;
      if (!cmd.set_netns.empty()) {
        if (cmd.set_netns.find_first_not_of("0123456789") == std::string::npos)
          spec.netns_pid = static_cast<pid_t>(std::stol(cmd.set_netns));
        else
          spec.netns_name = cmd.set_netns;
      }
      return batch.set_link(std::move(spec));
    }
    case Verb::link_del: return batch.delete_link(cmd.name);
    case Verb::link_del_group: return batch.delete_link_group(cmd.group);
    case Verb::addr_add: return batch.add_address(cmd.addr);
    case Verb::addr_replace: return batch.replace_address(cmd.addr);
    case Verb::addr_del: return batch.delete_address(cmd.addr);
    case Verb::route_add: return batch.add_route(cmd.route);
    case Verb::route_replace: return batch.replace_route(cmd.route);
    case Verb::route_del: return batch.delete_route(cmd.route);
    case Verb::neigh_add: return batch.add_neighbour(cmd.neigh);
    case Verb::neigh_replace: return batch.replace_neighbour(cmd.neigh);
    case Verb::neigh_del: return batch.delete_neighbour(cmd.neigh);
    case Verb::fdb_add: return batch.add_fdb(cmd.fdb);
    case Verb::fdb_del: return batch.delete_fdb(cmd.fdb);
    default: break;
  }
  return netlink::invalid_argument("queue", "", "not a mutating command");
}

int Runner::run(std::vector<Command>& cmds) {
  int status = 0;
  std::size_t i = 0;
  while (i < cmds.size()) {
    if (cmds[i].mutates()) {
      auto c = conn();
      if (!c) {
        report(cmds[i], runtime_message(c.error()));
        return 1;
      }
      // With -force every line is attempted, so a whole run of changes goes
      // out as one pipeline. Without it a later line must not stay applied
      // once an earlier one failed: the engine's stop mode still pipelines
      // exclusive adds (undoing those sent past a failure) and sends the
      // rest one at a time. Deletes cannot be undone; a run of them goes
      // out coalesced as far as a replay on one dump predicts success.
      std::size_t end = i + 1;
      bool stop_mode = false;
      if (g_.force) {
        while (end < cmds.size() && cmds[end].mutates()) ++end;
      } else if (cmds[i].verb == Verb::link_del) {
        end = i + safe_delete_prefix(cmds, i);
      } else {
        stop_mode = true;
        while (end < cmds.size() && cmds[end].mutates() && cmds[end].verb != Verb::link_del) ++end;
      }
      netlink::Batch batch(**c, {.stop_at_first_error = stop_mode});
      batch.reserve(end - i);
      std::vector<std::optional<std::size_t>> slot(end - i);
      std::vector<std::optional<NetlinkError>> prep_error(end - i);
      for (std::size_t k = i; k < end; ++k) {
        auto idx = queue(batch, cmds[k]);
        if (idx) {
          slot[k - i] = *idx;
        } else {
          prep_error[k - i] = std::move(idx).error();
          if (stop_mode) end = k + 1;  // nothing after it may be applied
        }
      }
      auto results = batch.flush();
      held_fds_.clear();
      bool failed = false;
      for (std::size_t k = i; k < end; ++k) {
        const NetlinkError* error = prep_error[k - i] ? &*prep_error[k - i] : nullptr;
        if (!error && !results[*slot[k - i]]) error = &results[*slot[k - i]].error();
        if (!error || (failed && stop_mode && error->code == ECANCELED)) continue;
        report(cmds[k], runtime_message(*error));
        failed = true;
      }
      if (failed) {
        status = 1;
        if (!g_.force) return status;
      }
      i = end;
      continue;
    }
    NlResult<void> result;
    switch (cmds[i].verb) {
      case Verb::netns_add:
      case Verb::netns_del:
      case Verb::netns_list:
      case Verb::netns_exec: result = run_netns(cmds[i]); break;
      case Verb::addr_flush: result = run_flush(cmds[i]); break;
      default: result = run_show(cmds[i]); break;
    }
    if (!result) {
      report(cmds[i], runtime_message(result.error()));
      status = 1;
      if (!g_.force) return status;
    }
    dump_json();
    write_out(out_);
    out_.clear();
    ++i;
  }
  return status;
}

// How many of the link deletes starting at `first` can be sent together
// (and coalesced into one group delete by the engine) without -force: the
// run up to, not including, the first line predicted to fail or whose
// outcome is uncertain. Each delete waits ~16 ms in rcu_barrier() when sent
// alone, so this is where a batch of deletes gains 50x. The prediction
// replays the deletes on one dump: a veth takes its peer along; a device
// stacked on a deleted one (macvlan, vlan) may vanish with it, so it becomes
// uncertain; a device without a kind (lo, hardware) may refuse deletion.
// Should the kernel disagree anyway (a concurrent change), the real results
// are reported and the batch stops at the first failure as usual.
std::size_t Runner::safe_delete_prefix(const std::vector<Command>& cmds, std::size_t first) {
  std::size_t run = 0;
  while (first + run < cmds.size() && cmds[first + run].verb == Verb::link_del) ++run;
  if (run < 2) return 1;
  auto all = links_by_index(false);
  if (!all) return 1;
  std::map<std::string, int> present;  // name -> ifindex, as the replay goes
  for (const auto& [index, l] : *all)
    if (!l.kind.empty()) present[l.name] = index;
  std::size_t safe = 0;
  for (; safe < run; ++safe) {
    auto it = present.find(cmds[first + safe].name);
    if (it == present.end()) break;
    int index = it->second;
    present.erase(it);
    const auto& victim = all->at(index);
    for (const auto& [other_index, other] : *all) {
      bool peer = victim.kind == "veth" && !victim.link_netnsid && other_index == victim.link;
      bool stacked = other.link == index && !other.link_netnsid;
      if (peer || stacked) present.erase(other.name);
    }
  }
  return std::max<std::size_t>(safe, 1);
}

// ---- show ----

NlResult<std::map<int, netlink::LinkInfo>> Runner::links_by_index(bool stats, bool details) {
  auto c = BRISK_TRY(conn());
  auto links = BRISK_TRY(netlink::list_links(*c, {.stats = stats, .details = details}));
  std::map<int, netlink::LinkInfo> out;
  for (auto& l : links) out.emplace(l.ifindex, std::move(l));
  return out;
}

const char* link_type(const netlink::LinkInfo& l) {
  if (l.flags & IFF_LOOPBACK) return "loopback";
  if (l.address) return "ether";
  return "none";
}

// The peer named after '@', and whether it is down (ip's M-DOWN).
struct PeerInfo {
  std::string name;
  bool other_netns = false;
  bool down = false;
};
std::optional<PeerInfo> peer_of(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all) {
  // The kernel sends no IFLA_LINK for a device that is its own link; a peer
  // in another namespace may well have the same index.
  if (l.link == 0 || (l.link == l.ifindex && !l.link_netnsid)) return std::nullopt;
  if (l.link_netnsid) return PeerInfo{"if" + std::to_string(l.link), true, false};
  auto it = all.find(l.link);
  if (it == all.end()) return PeerInfo{"NONE", false, false};
  return PeerInfo{it->second.name, false, !(it->second.flags & IFF_UP)};
}

// "link" (or "link_index" for a peer in another namespace), then "ifname".
void name_json(Json& j, const netlink::LinkInfo& l, const std::optional<PeerInfo>& peer) {
  if (peer && !peer->other_netns) j["link"] = peer->name;
  if (peer && peer->other_netns) j["link_index"] = l.link;
  j["ifname"] = l.name;
}

std::string name_of(int ifindex, const std::map<int, netlink::LinkInfo>& all) {
  auto it = all.find(ifindex);
  return it == all.end() ? "if" + std::to_string(ifindex) : it->second.name;
}

Json Runner::link_json(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all, bool for_addr) {
  // An ordered_json object is a vector of (const key, value): growing it
  // copies every member, so room for a detailed link's ~40 is made up front.
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(g_.details ? 48 : 16);
  j["ifindex"] = l.ifindex;
  auto peer = peer_of(l, all);
  name_json(j, l, peer);
  j["flags"] = link_flags(l.flags, peer && peer->down);
  j["mtu"] = l.mtu;
  bool v6_addr = for_addr && inet6_link_dump_;
  if (!l.qdisc.empty() && !v6_addr) j["qdisc"] = l.qdisc;
  if (l.master && !v6_addr) j["master"] = name_of(l.master, all);
  j["operstate"] = operstate_name(l.operstate);
  if (!for_addr) j["linkmode"] = linkmode_name(l.linkmode);
  if (!v6_addr) j["group"] = l.group == 0 ? std::string("default") : std::to_string(l.group);
  j["txqlen"] = l.txqueuelen;
  // ip -4/-6 addr leaves out the link layer, unless -d.
  if (for_addr && show_family_ != AF_UNSPEC && !g_.details) return j;
  j["link_type"] = link_type(l);
  if (l.address) j["address"] = l.address->to_string();
  if (v6_addr) return j;  // the IPv6 link dump carries no more (shown with -d only)
  if (l.broadcast) j["broadcast"] = l.broadcast->to_string();
  if (l.link_netnsid) j["link_netnsid"] = *l.link_netnsid;
  append_link_details(l, !for_addr, [&all](int index) { return name_of(index, all); }, nullptr, &j);
  if ((!for_addr || g_.details) && !l.alias.empty()) j["ifalias"] = l.alias;
  if (g_.stats && l.stats && !for_addr) j["stats64"] = stats_json(*l.stats, g_.stats > 1);  // addr show: after addr_info
  return j;
}

std::string Runner::link_text(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all, bool for_addr) {
  auto peer = peer_of(l, all);
  std::string t = std::to_string(l.ifindex) + ": " + l.name;
  if (peer) t += "@" + peer->name;
  t += ": <" + join(link_flags(l.flags, peer && peer->down), ",") + "> mtu " + std::to_string(l.mtu);
  bool v6_addr = for_addr && inet6_link_dump_;  // as in link_json()
  if (!l.qdisc.empty() && !v6_addr) t += " qdisc " + l.qdisc;
  if (l.master && !v6_addr) t += " master " + name_of(l.master, all);
  t += std::string(" state ") + operstate_name(l.operstate);
  if (!for_addr) t += std::string(" mode ") + linkmode_name(l.linkmode);
  if (!v6_addr) t += " group " + (l.group == 0 ? std::string("default") : std::to_string(l.group));
  t += " qlen " + std::to_string(l.txqueuelen) + "\n";
  if (for_addr && show_family_ != AF_UNSPEC && !g_.details) return t;
  t += std::string("    link/") + link_type(l) + " ";
  if (l.address) t += l.address->to_string();
  if (v6_addr) return t + "\n";  // as in link_json()
  if (l.broadcast) t += " brd " + l.broadcast->to_string();
  if (l.link_netnsid) {
    auto named = netns_by_id().find(*l.link_netnsid);
    if (named != netns_by_id().end()) t += " link-netns " + named->second;
    else if (*l.link_netnsid < 0) t += " link-netnsid unknown";
    else t += " link-netnsid " + std::to_string(*l.link_netnsid);
  }
  append_link_details(l, !for_addr, [&all](int index) { return name_of(index, all); }, &t, nullptr);
  t += "\n";
  if ((!for_addr || g_.details) && !l.alias.empty()) t += "    alias " + l.alias + "\n";
  if (g_.stats && l.stats && !for_addr) t += stats_text(*l.stats, g_.stats > 1);  // addr show prints them after the addresses
  return t;
}

// Whether `address` lies in `prefix` (same family, the first length bits equal).
bool within(const netlink::IpAddress& address, const netlink::IpPrefix& prefix) {
  if (address.family != prefix.address.family) return false;
  std::size_t bits = std::min<std::size_t>(prefix.length, address.size() * 8);
  for (std::size_t i = 0; i < bits; i += 8) {
    uint8_t mask = bits - i >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - (bits - i)));
    if ((address.bytes[i / 8] ^ prefix.address.bytes[i / 8]) & mask) return false;
  }
  return true;
}

// Whether addr show/flush's scope and to filters keep `a`.
bool selected(const netlink::AddressInfo& a, const Command& cmd) {
  return (!cmd.scope || a.scope == *cmd.scope) && (!cmd.to || within(a.prefix.address, *cmd.to));
}

// A column of ip's brief forms ("%-16s"): padded, and a wider value pushes
// the rest of the line along.
std::string column(std::string value, std::size_t width) {
  if (value.size() < width) value.append(width - value.size(), ' ');
  return value;
}

// ip -o: a record's line breaks become backslashes, all but the last.
std::string one_line(std::string text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i] == '\n') text[i] = '\\';
  return text;
}

void Runner::brief(const netlink::LinkInfo& l, const std::map<int, netlink::LinkInfo>& all,
                   const std::vector<netlink::AddressInfo>* addrs) {
  auto peer = peer_of(l, all);
  if (g_.json) {
    Json j;
    name_json(j, l, peer);
    j["operstate"] = operstate_name(l.operstate);
    if (addrs) {
      Json infos = Json::array();
      for (const auto& a : *addrs) infos.push_back(Json{{"local", a.prefix.address.to_string()}, {"prefixlen", a.prefix.length}});
      j["addr_info"] = std::move(infos);
    } else {
      if (l.address) j["address"] = l.address->to_string();
      j["flags"] = link_flags(l.flags, peer && peer->down);
    }
    json_.push_back(std::move(j));
    return;
  }
  std::string t = column(peer ? l.name + "@" + peer->name : l.name, 16) + " " + column(operstate_name(l.operstate), 14) + " ";
  if (addrs) {
    for (const auto& a : *addrs) t += a.prefix.address.to_string() + "/" + std::to_string(a.prefix.length) + " ";
  } else {
    if (l.address) t += l.address->to_string() + " ";
    t += "<" + join(link_flags(l.flags, peer && peer->down), ",") + "> ";
  }
  out_ += t + "\n";
}

const std::map<int, std::string>& Runner::netns_by_id() {
  if (netns_by_id_) return *netns_by_id_;
  netns_by_id_.emplace();
  auto c = conn();
  auto names = netlink::list_netns();
  if (!c || !names) return *netns_by_id_;
  for (const auto& name : *names) {
    auto fd = netlink::open_netns(name);
    if (!fd) continue;
    auto id = netlink::netns_id(**c, fd->get());
    if (id && *id) netns_by_id_->emplace(**id, name);
  }
  return *netns_by_id_;
}

NlResult<void> device_missing(const std::string& dev) {
  return NetlinkError{.code = ENODEV, .op = "show", .object = dev, .ext_ack = "Device \"" + dev + "\" does not exist"};
}

NlResult<void> Runner::run_show(const Command& cmd) {
  auto c = BRISK_TRY(conn());
  json_used_ = true;
  switch (cmd.verb) {
    case Verb::link_show:
    case Verb::addr_show: {
      bool addr = cmd.verb == Verb::addr_show;
      inet6_link_dump_ = addr && g_.family == AF_INET6 && cmd.dev.empty();  // -6 itself, not "to"
      auto all = BRISK_TRY(links_by_index(g_.stats, g_.details));
      std::map<int, std::vector<netlink::AddressInfo>> addrs;
      show_family_ = cmd.family;
      std::set<int> filtered_out;  // links that had addresses, none of them in scope
      if (addr) {
        for (auto& a : BRISK_TRY(netlink::list_addresses(*c, {.family = cmd.family}))) {
          if (!selected(a, cmd)) {
            filtered_out.insert(a.ifindex);
            continue;
          }
          addrs[a.ifindex].push_back(std::move(a));
        }
      }
      bool found = cmd.dev.empty();
      for (const auto& [index, l] : all) {
        if (!cmd.dev.empty() && l.name != cmd.dev) continue;
        found = true;
        if (cmd.up_only && !(l.flags & IFF_UP)) continue;
        if (!cmd.master.empty() && (l.master == 0 || name_of(l.master, all) != cmd.master)) continue;
        if (!cmd.kind.empty() && l.kind != cmd.kind) continue;
        // As ip: with a family (-4/-6, or to PREFIX's) only the links with such
        // addresses; with a scope, not those whose addresses it all left out.
        if (addr && addrs[index].empty() && (cmd.family != AF_UNSPEC || filtered_out.count(index))) continue;
        if (g_.brief) {
          brief(l, all, addr ? &addrs[index] : nullptr);
          continue;
        }
        // Only the form that is printed: -d makes each link's record long.
        Json j = g_.json ? link_json(l, all, addr) : Json::object();
        // ip -o addr prints each address on its own line, under no link header.
        bool address_lines = addr && g_.oneline && !g_.json;
        std::string text = g_.json || address_lines ? std::string() : link_text(l, all, addr);
        if (addr) {
          Json infos = Json::array();
          for (const auto& a : addrs[index]) {
            bool v4 = a.prefix.address.family == AF_INET;
            Json ai;
            ai["family"] = v4 ? "inet" : "inet6";
            ai["local"] = a.prefix.address.to_string();
            ai["prefixlen"] = a.prefix.length;
            if (a.broadcast) ai["broadcast"] = a.broadcast->to_string();
            ai["scope"] = scope_name(a.scope);
            std::string line = std::string("    ") + (v4 ? "inet " : "inet6 ") + a.prefix.address.to_string() + "/" +
                               std::to_string(a.prefix.length);
            if (a.broadcast) line += " brd " + a.broadcast->to_string();
            line += " scope " + scope_name(a.scope) + " ";
            for (const auto& flag : address_flag_names(a.flags, v4)) {
              ai[flag] = true;
              line += flag + " ";
            }
            if (!a.label.empty()) {
              ai["label"] = a.label;
              line += a.label;
            }
            ai["valid_life_time"] = a.valid_lifetime;
            ai["preferred_life_time"] = a.preferred_lifetime;
            line += "\n       valid_lft " + lifetime_text(a.valid_lifetime) + " preferred_lft " +
                    lifetime_text(a.preferred_lifetime) + "\n";
            text += address_lines ? std::to_string(index) + ": " + l.name + one_line(line) : line;
            infos.push_back(std::move(ai));
          }
          j["addr_info"] = std::move(infos);
          if (g_.stats && l.stats && !address_lines) {
            text += stats_text(*l.stats, g_.stats > 1);
            j["stats64"] = stats_json(*l.stats, g_.stats > 1);
          }
        }
        if (g_.oneline && !address_lines) text = one_line(text);
        if (g_.json) json_.push_back(std::move(j));
        else out_ += text;
      }
      if (!found) return device_missing(cmd.dev);
      return {};
    }
    case Verb::route_get: {
      auto r = BRISK_TRY(netlink::get_route(*c, cmd.route_query));
      auto all = BRISK_TRY(links_by_index(false));
      // Laid out as ip prints a cloned route: the answer, then its cache line.
      Json j;
      std::string t;
      if (r.type != RTN_UNICAST) {
        j["type"] = rtn_type_name(r.type);
        t += rtn_type_name(r.type) + " ";
      }
      j["dst"] = r.dst.address.to_string();
      t += r.dst.address.to_string();
      if (r.src) route_field(j, t, "from", "from", r.src->to_string());
      if (r.gateway) route_field(j, t, "gateway", "via", r.gateway->to_string());
      if (r.oif) route_field(j, t, "dev", "dev", name_of(r.oif, all));
      if (r.table != RT_TABLE_MAIN && r.table != RT_TABLE_LOCAL) route_field(j, t, "table", "table", table_name(r.table));
      if (r.prefsrc) route_field(j, t, "prefsrc", "src", r.prefsrc->to_string());
      j["flags"] = Json::array();
      if (r.mark) {
        j["mark"] = *r.mark;
        t += " mark " + std::to_string(*r.mark);
      }
      if (r.iif) route_field(j, t, "iif", "iif", name_of(r.iif, all));
      if (r.uid) {
        j["uid"] = *r.uid;
        t += " uid " + std::to_string(*r.uid);
      }
      // The routing-cache flags ip prints after "cache" (RTCF_*, the upper bits of rtm_flags).
      std::vector<std::string> cache;
      if (r.flags & 0x80000000u) cache.emplace_back("local");       // RTCF_LOCAL
      if (r.flags & 0x10000000u) cache.emplace_back("broadcast");   // RTCF_BROADCAST
      if (r.flags & 0x20000000u) cache.emplace_back("multicast");   // RTCF_MULTICAST
      j["cache"] = cache;
      t += " \n    cache ";
      if (!cache.empty()) t += "<" + join(cache, ",") + "> ";
      if (g_.json) json_.push_back(std::move(j));
      else out_ += t + "\n";
      return {};
    }
    case Verb::route_show: {
      auto all = BRISK_TRY(links_by_index(false));
      // Like ip: IPv4 unless -6, but both families for every table; "dev"
      // and "table" are printed only where the filter leaves them open.
      bool every_table = cmd.route.table == RT_TABLE_UNSPEC;
      int family = cmd.family != AF_UNSPEC ? cmd.family : every_table ? AF_UNSPEC : AF_INET;
      netlink::RouteFilter filter{.family = family, .table = cmd.route.table, .dev = cmd.route.dev};
      for (const auto& r : BRISK_TRY(netlink::list_routes(*c, filter))) {
        if ((cmd.route_protocol && r.protocol != *cmd.route_protocol) || (cmd.route_scope && r.scope != *cmd.route_scope) ||
            (cmd.route_type && r.type != *cmd.route_type))
          continue;
        Json j;
        std::string t;
        // -d spells out what ip leaves implicit otherwise: unicast, proto boot, scope global.
        if (r.type != RTN_UNICAST || g_.details) {
          j["type"] = rtn_type_name(r.type);
          t += rtn_type_name(r.type) + " ";
        }
        j["dst"] = dst_text(r.dst);
        t += dst_text(r.dst);
        if (r.gateway) route_field(j, t, "gateway", "via", r.gateway->to_string());
        if (r.oif && cmd.route.dev.empty()) route_field(j, t, "dev", "dev", name_of(r.oif, all));
        if (every_table && (r.table != RT_TABLE_MAIN || g_.details))
          route_field(j, t, "table", "table", table_name(r.table));
        // A protocol or scope the filter fixes is not printed, as in ip.
        if ((r.protocol != RTPROT_BOOT || g_.details) && !cmd.route_protocol)
          route_field(j, t, "protocol", "proto", protocol_name(r.protocol));
        if ((r.scope != RT_SCOPE_UNIVERSE || g_.details) && !cmd.route_scope)
          route_field(j, t, "scope", "scope", scope_name(r.scope));
        if (r.prefsrc) route_field(j, t, "prefsrc", "src", r.prefsrc->to_string());
        // The kernel sends an IPv6 route's metric always, an IPv4 route's only when set; ip prints what it got.
        if (r.metric || r.dst.address.family == AF_INET6) {
          j["metric"] = r.metric;
          t += " metric " + std::to_string(r.metric);
        }
        std::vector<std::string> flags;
        if (r.flags & RTNH_F_DEAD) flags.emplace_back("dead");
        if (r.flags & RTNH_F_ONLINK) flags.emplace_back("onlink");
        if (r.flags & RTNH_F_PERVASIVE) flags.emplace_back("pervasive");
        if (r.flags & RTNH_F_OFFLOAD) flags.emplace_back("offload");
        if (r.flags & RTNH_F_LINKDOWN) flags.emplace_back("linkdown");
        for (const auto& f : flags) t += " " + f;
        j["flags"] = flags;
        std::string end = " \n";
        if (r.pref) {  // IPv6: ip ends the line with it, without the trailing space
          static const std::map<uint8_t, const char*> kPrefs{{ICMPV6_ROUTER_PREF_LOW, "low"},
                                                              {ICMPV6_ROUTER_PREF_MEDIUM, "medium"},
                                                              {ICMPV6_ROUTER_PREF_HIGH, "high"}};
          auto name = kPrefs.find(*r.pref);
          if (name != kPrefs.end()) {
            j["pref"] = name->second;
            end = std::string(" pref ") + name->second + "\n";
          } else {
            j["pref"] = *r.pref;
            end = " " + std::to_string(*r.pref) + "\n";
          }
        }
        if (g_.json) json_.push_back(std::move(j));
        else out_ += t + end;
      }
      return {};
    }
    case Verb::neigh_show: {
      auto all = BRISK_TRY(links_by_index(false));
      for (const auto& n : BRISK_TRY(netlink::list_neighbours(*c, {.dev = cmd.dev, .family = cmd.family}))) {
        // As ip: by default every state but NOARP and none; proxy and
        // externally learned entries whatever their state.
        uint32_t wanted = cmd.nud.value_or(~uint32_t(NUD_NOARP) & ~0x100u);
        bool shown = (n.state & wanted) || (n.flags & (NTF_PROXY | NTF_EXT_LEARNED)) || (n.state == 0 && (wanted & 0x100));
        if (!shown) continue;
        Json j;
        j["dst"] = n.address.to_string();
        if (cmd.dev.empty()) j["dev"] = name_of(n.ifindex, all);
        if (n.lladdr) j["lladdr"] = n.lladdr->to_string();
        if (g_.brief) {  // ip -br: "%-39s %-16s %s", the device only without a dev filter
          if (g_.json) {
            json_.push_back(std::move(j));
            continue;
          }
          std::string t = column(n.address.to_string(), 39) + " ";
          if (cmd.dev.empty()) t += column(name_of(n.ifindex, all), 16) + " ";
          out_ += t + (n.lladdr ? n.lladdr->to_string() : "") + "\n";
          continue;
        }
        std::string t = n.address.to_string();
        if (cmd.dev.empty()) t += " dev " + name_of(n.ifindex, all);
        if (n.lladdr) t += " lladdr " + n.lladdr->to_string();
        for (auto [bit, name] : {std::pair{NTF_ROUTER, "router"}, {NTF_PROXY, "proxy"}, {NTF_EXT_LEARNED, "extern_learn"},
                                 {NTF_OFFLOADED, "offload"}}) {
          if (!(n.flags & bit)) continue;
          j[name] = nullptr;
          t += std::string(" ") + name;
        }
        j["state"] = nud_names(n.state);
        t += " " + join(nud_names(n.state), " ");
        if (g_.json) json_.push_back(std::move(j));
        else out_ += t + " \n";
      }
      return {};
    }
    case Verb::fdb_show: {
      auto all = BRISK_TRY(links_by_index(false));
      for (const auto& f : BRISK_TRY(netlink::list_fdb(*c, cmd.master))) {
        Json j;
        j["mac"] = f.lladdr.to_string();
        j["ifname"] = name_of(f.ifindex, all);
        std::string t = f.lladdr.to_string() + " dev " + name_of(f.ifindex, all);
        if (f.vlan) {
          j["vlan"] = *f.vlan;
          t += " vlan " + std::to_string(*f.vlan);
        }
        std::vector<std::string> flags;
        if (f.flags & NTF_SELF) flags.emplace_back("self");
        for (const auto& fl : flags) t += " " + fl;
        j["flags"] = flags;
        if (f.master) {
          j["master"] = name_of(f.master, all);
          t += " master " + name_of(f.master, all);
        }
        std::string state = (f.state & NUD_PERMANENT) ? "permanent" : (f.state & NUD_NOARP) ? "static" : "";
        if (!state.empty()) {
          j["state"] = state;
          t += " " + state;
        }
        if (g_.json) json_.push_back(std::move(j));
        else out_ += t + "\n";
      }
      return {};
    }
    default: break;
  }
  return {};
}

NlResult<void> Runner::run_flush(const Command& cmd) {
  auto c = BRISK_TRY(conn());
  return netlink::flush_addresses(*c, cmd.dev, cmd.family, [&cmd](const netlink::AddressInfo& a) {
    return selected(a, cmd);
  });
}

// ---- netns ----

// What `ip netns exec` does before exec: enter the namespace, take a private
// mount namespace so nothing leaks back, show the namespace's own /sys, and
// bind /etc/netns/NAME/* over /etc/*. Runs in the CLI process itself, which
// is single-threaded here (unshare(CLONE_NEWNS) refuses a shared fs).
NlResult<void> enter_netns_for_exec(const std::string& name) {
  auto fd = BRISK_TRY(netlink::open_netns(name));
  auto sys_error = [&](const char* call, std::string object) {
    return NetlinkError{.code = errno, .op = call, .object = std::move(object)};
  };
  if (::setns(fd.get(), CLONE_NEWNET) != 0) return sys_error("setns", name);
  if (::unshare(CLONE_NEWNS) != 0) return sys_error("unshare", "mount namespace");
  if (::mount("", "/", "none", MS_SLAVE | MS_REC, nullptr) != 0) return sys_error("mount", "/ (rslave)");
  unsigned long flags = 0;
  if (::umount2("/sys", MNT_DETACH) != 0) {
    // Could not detach it: a read-only /sys cannot be shadowed read-write.
    struct statvfs st {};
    if (::statvfs("/sys", &st) == 0 && (st.f_flag & ST_RDONLY)) flags = MS_RDONLY;
  }
  if (::mount(name.c_str(), "/sys", "sysfs", flags, nullptr) != 0) return sys_error("mount", "/sys");
  std::string dir = "/etc/netns/" + name;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      std::string from = dir + "/" + e->d_name, to = std::string("/etc/") + e->d_name;
      // As ip: a file without a counterpart in /etc cannot be bound; say so and go on.
      if (::mount(from.c_str(), to.c_str(), "none", MS_BIND, nullptr) != 0)
        std::fprintf(stderr, "Bind %s -> %s failed: %s\n", from.c_str(), to.c_str(), std::strerror(errno));
    }
    ::closedir(d);
  }
  return {};
}

NlResult<void> Runner::run_netns(const Command& cmd) {
  switch (cmd.verb) {
    case Verb::netns_add:
      netns_by_id_.reset();  // a later line may name it
      return netlink::create_netns(cmd.name, {.on_calling_thread = own_process_});
    case Verb::netns_del:
      netns_by_id_.reset();
      return netlink::delete_netns(cmd.name);
    case Verb::netns_list: {
      json_used_ = true;
      // Like ip: "(id: N)" for a namespace that has an id here.
      std::map<std::string, int> ids;
      for (const auto& [id, name] : netns_by_id()) ids.emplace(name, id);
      for (const auto& name : BRISK_TRY(netlink::list_netns())) {
        auto id = ids.find(name);
        if (g_.json) {
          Json j{{"name", name}};
          if (id != ids.end()) j["id"] = id->second;
          json_.push_back(std::move(j));
        } else {
          out_ += name + (id != ids.end() ? " (id: " + std::to_string(id->second) + ")" : "") + "\n";
        }
      }
      return {};
    }
    case Verb::netns_exec: {
      // In a batch the CLI must survive the command: run this same binary for
      // that one line (it enters the namespace and execs, as below) and pass
      // the exit status on, as ip -batch forks for it.
      write_out(out_);
      out_.clear();
      std::fflush(stdout);
      SpawnOptions options{.argv = {"brisk", "netns", "exec", cmd.name}, .program = "/proc/self/exe",
                           .search_path = false};
      options.argv.insert(options.argv.end(), cmd.exec_argv.begin(), cmd.exec_argv.end());
      auto child = spawn(options);
      if (!child) return NetlinkError{.code = child.error().code, .op = "netns exec", .object = cmd.name,
                                      .detail = child.error().message()};
      auto status = child->wait();
      if (!status) return NetlinkError{.code = status.error().code, .op = "netns exec", .object = cmd.name};
      if (!status->success())
        return NetlinkError{.code = 0, .op = "netns exec", .object = cmd.name, .detail = status->to_string()};
      return {};
    }
    default: break;
  }
  return {};
}

Parsed<std::string> read_batch(const std::string& file) {
  int fd = file == "-" ? STDIN_FILENO : ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(UsageError{"cannot open file \"" + file + "\" for reading: " + std::strerror(errno)});
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      if (fd != STDIN_FILENO) ::close(fd);
      return fail(UsageError{"cannot read \"" + file + "\": " + std::strerror(err)});
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (fd != STDIN_FILENO) ::close(fd);
  return text;
}

int usage_exit(const UsageError& e, const std::string& source) {
  // ip prints a requested usage text to stderr and exits 255 as well.
  if (e.help) {
    std::fputs(e.message.c_str(), stderr);
    return kUsageExit;
  }
  std::fprintf(stderr, "%s\n", format_error(e.message).c_str());
  if (!source.empty() && e.line) std::fprintf(stderr, "Command failed %s:%d\n", source.c_str(), e.line);
  return kUsageExit;
}

}  // namespace

int ip_main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  auto inv = parse_globals(args);
  if (!inv) return usage_exit(inv.error(), "");
  const Globals& g = inv->globals;
  if (g.version) {
    std::printf("brisk ip utility, brisk-%s\n", BRISK_VERSION_STRING);
    return 0;
  }
  std::vector<Command> cmds;
  std::string source;
  if (g.batch) {
    source = *g.batch;
    auto text = read_batch(source);
    if (!text) {
      std::fprintf(stderr, "%s\n", format_error(text.error().message).c_str());
      return 1;
    }
    auto lines = split_batch(*text);
    if (!lines) return usage_exit(lines.error(), source);
    // Every line is parsed before anything is sent; report every bad line.
    std::vector<UsageError> errors;
    cmds.reserve(lines->size());  // a Command is large: growing would move them all, again and again
    for (const auto& line : *lines) {
      auto cmd = parse_command(line.args, g);
      if (!cmd) {
        errors.push_back({cmd.error().message, line.line});
        continue;
      }
      cmd->line = line.line;
      cmds.push_back(std::move(*cmd));
    }
    if (!errors.empty()) {
      for (const auto& e : errors) usage_exit(e, source);
      return kUsageExit;
    }
  } else {
    auto cmd = parse_command(inv->args, g);
    if (!cmd) return usage_exit(cmd.error(), "");
    if (cmd->verb == Verb::netns_exec) {
      // Like ip: the CLI becomes the program, with no fork.
      if (auto entered = enter_netns_for_exec(cmd->name); !entered) {
        std::fprintf(stderr, "%s\n", format_error(runtime_message(entered.error())).c_str());
        return 1;
      }
      std::vector<char*> exec_argv;
      for (auto& a : cmd->exec_argv) exec_argv.push_back(a.data());
      exec_argv.push_back(nullptr);
      ::execvp(exec_argv[0], exec_argv.data());
      std::fprintf(stderr, "exec of \"%s\" failed: %s\n", exec_argv[0], std::strerror(errno));
      return 1;
    }
    cmds.push_back(std::move(*cmd));
  }
  Runner runner(g, source, /*own_process=*/true);
  int status = runner.run(cmds);
  write_out(runner.out());
  std::fflush(stdout);
  return status;
}

}  // namespace brisk::ipcli
