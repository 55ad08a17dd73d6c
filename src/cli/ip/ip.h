// cli/ip/ip.h: brisk's iproute2-compatible front end (`brisk link|addr|route|
// rule|neigh|netns|fdb|tuntap|monitor ...`, `-batch`, `-force`, `-n`, `-j`).
//
// Parsing is pure (no kernel, no I/O) so every grammar rule and error case is
// unit-tested; running a parsed command goes through the netlink engine.
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"
#include "brisk/result.h"
#include "cli/ip/verb.h"
#include "netlink/internal/addrlabel.h"
#include "netlink/internal/neigh_table.h"
#include "netlink/internal/nexthop.h"

namespace brisk::ipcli {

// A usage error: exit code 255, nothing sent. `message` is printed as
// "Error: <message>." (the final '.' is added when missing).
struct UsageError {
  std::string message;
  int line = 0;         // batch line number; 0 outside a batch
  bool help = false;    // message is a usage text asked for with `help`, printed as is
  bool exact = false;   // message is ip's whole text ("Error: ..." or not), printed as is
  int exit_code = 255;  // ip's status for it: 255 (exit(-1)), or 1 where ip exits 1 (get_addr)
  // ip's parser returned an error instead of exiting: in a batch the line
  // is a failed command ("Command failed FILE:LINE", status 1, and -force
  // reads on); otherwise ip ends right there. Either way brisk applies none
  // of the batch (ip_main.cc).
  bool line_failure = false;
  // ip sends such a line and the kernel refuses it (brisk's parser knows the
  // answer): not a syntax error, so in a batch it fails in its place.
  bool kernel_refusal = false;
};

// Result::value() on a usage error throws this (found by ADL).
[[noreturn]] inline void throw_error(const UsageError& e) { throw std::runtime_error(e.message); }

template <class T>
using Parsed = Result<T, UsageError>;

// How monitor stamps an event: not, with ip's "Timestamp: ..." line (-t),
// or with a "[YYYY-MM-DDTHH:MM:SS.uuuuuu] " prefix (-ts).
enum class Timestamp { none, long_line, short_prefix };

// -color[=always|auto|never]: ip's colours, by default never.
enum class ColorMode { never, automatic, always };

struct Globals {
  std::optional<std::string> netns{};     // -n NAME (may be empty, as ip takes it)
  bool json = false;                      // -j
  bool pretty = false;                    // -p
  bool force = false;                     // -force
  bool details = false;                   // -d
  int stats = 0;                          // -s, given twice for the error counters too
  bool brief = false;                     // -br: link and addr show, a line per device
  bool oneline = false;                   // -o: link and addr show, a line per record
  bool version = false;                   // -V
  int family = AF_UNSPEC;                 // -4 / -6 / -0 (AF_PACKET) / -M / -B, or -f NAME
  std::optional<std::string> batch{};     // -batch FILE|-
  Timestamp timestamp = Timestamp::none;  // -t / -ts: monitor stamps each event
  int flush_loops = 10;                   // -l N: addr flush's rounds at most; 0: until done
  ColorMode color = ColorMode::never;     // -c[olor][=WHEN]
  bool human = false;                     // -h: -s counters as 1.23M
  bool iec = false;                       // -iec: -h in powers of 1024
  bool numeric = false;                   // -N: numbers, not names, for tables, protocols, scopes, ...
  bool all = false;                       // -a: netns exec and delete in every named namespace
  std::optional<uint32_t> rcvbuf{};       // -rc N: the netlink socket's receive buffer, in bytes
};

// The global options and where the object starts in argv (argv[0] is the program).
struct Invocation {
  Globals globals{};
  std::vector<std::string> args{};  // the object and its arguments
};
// Enters the namespace `-n NAME` names, as ip's netns_switch(); ip's words
// when it cannot (the process is then left as it was).
using NetnsSwitch = std::function<std::optional<std::string>(const std::string& name)>;
// The options in order, as ip's option loop takes them: `-V` ends it there
// (what follows is not read), and `enter` is called at each `-n` as it is
// met, so an option after it that fails does so inside the namespace, and
// one before it fails first. Without `enter`, the last -n is kept in
// Globals::netns for the caller to enter.
Parsed<Invocation> parse_globals(std::span<const std::string> argv, const NetnsSwitch& enter = {});

// `brisk help`: the grammar brisk accepts (help.cc).
std::string_view general_usage();
// ip's usage text for bridge options, printed after an unknown one.
std::string_view bridge_usage();

// True when `arg` (argv[1]) belongs to the ip grammar: an ip-style global
// option or one of the objects brisk implements, abbreviated as ip allows,
// or any other single-dash option (an unknown ip option). Not brisk's own
// --help, nor "-h" or "-help" when `alone` (the only argument).
bool is_ip_invocation(std::string_view arg, bool alone = false);

// `route get`: the lookup, and what ip does around it.
struct RouteGet {
  netlink::RouteQuery query{};
  bool connected = false;  // `connected`: print the answer, then ask again and print that too
  std::string vrf{};       // `vrf NAME`: must be a VRF device (query.oif names it)
};

// `maddr add|del`: a link-layer multicast address of a device.
struct MaddrChange {
  std::string dev{};
  std::vector<uint8_t> address{};  // 6 bytes; zeros when none was named, as ip sends then
};

// ntable change: a neighbour table's values, or one device's in it.
struct NtableChange {
  netlink::NeighTableChange change{};  // ifindex filled in from dev when run
  std::string dev{};                   // `dev DEV`: that device's parameters
};

// token set|del: the IPv6 token given to a device.
struct TokenChange {
  std::string dev{};
  std::string token = "::";  // an IPv6 address; :: takes the token away (del)
};

// `monitor`'s objects; none named means all of them.
struct MonitorSpec {
  bool link = false;
  bool address = false;
  bool route = false;
  bool neigh = false;
  bool rule = false;
  bool netconf = false;  // RTM_NEWNETCONF: a device's (or all's, default's) forwarding, rp_filter, ...
  bool nsid = false;     // RTM_NEWNSID: an id given to (or taken from) a peer namespace
  bool mroute = false;   // multicast routes (ipmr's RTM_NEWROUTE)
  bool prefix = false;   // RTM_NEWPREFIX: an IPv6 prefix a router advertised
  bool nexthop = false;  // RTM_NEWNEXTHOP: nexthop objects
  bool stats = false;    // RTM_NEWSTATS: a device's hardware stats turned on or off
  bool label = false;    // prefix each event with its object ("[LINK]"): `label`, or `all`
  std::string dev{};     // dev DEVICE: only its links, addresses, routes (by oif) and neighbours
};

// route show/flush selectors beyond dev, table, proto, scope and type,
// with ip's semantics (iproute.c's filter_nlmsg).
struct RouteMatch {
  // A selector's prefix as ip's get_prefix() reads it: "default" has the
  // command's family (maybe none) and a length given; "all"/"any" neither.
  struct Prefix {
    int family = AF_UNSPEC;
    std::array<uint8_t, 16> bytes{};
    int bits = 0;
    bool length_given = false;
  };
  std::optional<Prefix> root{};       // [to] root P: routes within P
  std::optional<Prefix> match{};      // [to] match P: routes that cover P (exact P: both)
  std::optional<Prefix> via{};        // via [inet|inet6] P: the gateway within P
  std::optional<Prefix> prefsrc{};    // src P: the preferred source within P
  std::optional<uint32_t> metric{};   // metric|priority|preference N
  std::optional<uint32_t> mark{};     // mark N
  std::optional<uint8_t> tos{};       // tos|dsfield TOS
  std::string iif{};                  // iif DEV
  std::optional<Prefix> src_root{};   // from root P: source-specific routes within P
  std::optional<Prefix> src_match{};  // from match P (exact P: both)
  uint32_t realms = 0;                // realms [FROM/]TO, compared under realm_mask
  uint32_t realm_mask = 0;            // the realm halves given; 0: no realms selector
  std::string vrf{};                  // vrf NAME: that VRF's table, its local and broadcast routes left out
  bool cloned = false;                // cached|cloned: the cache's exceptions instead of the table's routes
};

// What `rule restore` reads. ip reads a batch file as its stdin (freopen),
// so a restore in a batch reads the batch's text after its own line.
struct RestoreInput {
  bool from_batch = false;
  std::string text{};  // from_batch: the batch text after the restore's line
};

// One parsed command. Only the fields its verb uses are set.
//
// The engine's spec (a route, an address, ...) a verb works on is held in
// one variant: a batch keeps every parsed line until it runs, and one
// member per kind made each line 2.4 kB of memory to touch and move.
// A show's or a flush's selectors. Only those commands have any, and a
// batch holds a command per line, so a command keeps them boxed
// (IpCommand::filter()).
struct ShowFilter {
  std::string dev{};                     // show/flush dev DEV
  std::string master{};                  // link/addr/neigh show master DEV
  bool no_master = false;                // link/addr/neigh show nomaster
  std::string vrf{};                     // link/addr/neigh show vrf NAME: a master that must be a VRF
  std::string kind{};                    // link/addr show type KIND
  std::string slave_kind{};              // link/addr show type KIND_slave: ports of a KIND master
  std::optional<uint32_t> show_group{};  // link/addr show group GROUP
  bool up_only = false;
  std::optional<uint8_t> scope{};         // addr show scope SCOPE
  std::optional<netlink::IpPrefix> to{};  // addr/neigh show to PREFIX (its family becomes the command's)
  uint32_t addr_flags = 0;                // addr show/flush FLAG...: the IFA_F_* bits wanted set...
  uint32_t addr_flag_mask = 0;            // ...among these (primary is secondary unset, dynamic permanent)
  std::string label_pattern{};            // addr show/flush label PATTERN (fnmatch)
  std::optional<uint32_t> nud{};          // neigh show nud STATE...: NUD_* bits, 0x100 for "none"
  bool neigh_proxy = false;               // neigh show/flush proxy: the proxy entries (NTF_PROXY)
  bool neigh_unused = false;              // neigh show/flush unused: entries nothing refers to
  std::optional<uint8_t> protocol{};      // route/neigh show proto PROTO (RTPROT_*)
  std::optional<uint8_t> route_scope{};   // route show scope SCOPE
  std::optional<uint8_t> route_type{};    // route show type TYPE (RTN_*)
  std::shared_ptr<const RouteMatch> route_match{};  // route show/flush's other selectors; null: none
  bool rule_from_filter = false;                    // rule show/flush from PREFIX (rule.from; empty: all)
  bool rule_to_filter = false;                      // rule show/flush to PREFIX (rule.to)
  std::optional<uint8_t> rule_tos_filter{};         // rule show/flush tos TOS (0 selects too)
  bool nexthop_groups = false;  // nexthop show/flush groups: only groups (the kernel's filter)
  bool nexthop_fdb = false;     // nexthop show/flush fdb: only fdb nexthops (likewise)
  std::optional<uint32_t>
      nexthop_protocol{};            // nexthop show/flush protocol NUMBER (compared with nh_protocol)
  uint32_t nexthop_bucket_nhid = 0;  // nexthop bucket list nhid ID: the buckets sending to it
  std::optional<uint16_t> nexthop_bucket_index{};  // nexthop bucket get id ID index N: that one bucket
};

// A T on the heap, made on first write, copied with its owner: keeps a
// large and mostly absent part of an aggregate out of its size.
template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : held_(other.held_ ? std::make_unique<T>(*other.held_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) held_ = other.held_ ? std::make_unique<T>(*other.held_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;
  T& get() {
    if (!held_) held_ = std::make_unique<T>();
    return *held_;
  }
  const T& get() const {
    static const T empty{};
    return held_ ? *held_ : empty;
  }
  bool held() const { return held_ != nullptr; }

 private:
  std::unique_ptr<T> held_;
};

struct IpCommand {
  using Spec = std::variant<std::monostate, netlink::LinkAdd, netlink::LinkSet, netlink::AltnameChange,
                            netlink::AddressSpec, netlink::RouteSpec, RouteGet, netlink::RuleSpec,
                            netlink::NeighbourSpec, netlink::FdbSpec, netlink::TunOptions, MonitorSpec,
                            RestoreInput, netlink::NexthopObjectSpec, netlink::AddrLabelSpec, MaddrChange,
                            TokenChange, NtableChange>;

  const Verb* verb = nullptr;        // what it does (its object's module defines it)
  int line = 0;                      // batch line; 0 for a command line
  Spec spec{};                       // the verb's spec; see the accessors below
  std::string add_netns{};           // link add: the device made in this namespace (a name, or a PID)
  std::string peer_netns{};          // veth peer created in this namespace (a name, or a PID)
  std::string set_netns{};           // `link set ... netns NAME|PID`
  std::string name{};                // link del, netns add/del/exec, tuntap add/del
  bool every_netns = false;          // netns exec/del under -all: each named namespace, no name given
  std::vector<std::string> vrfs{};   // `vrf NAME`s of link add|set and route changes: VRF devices when run
  std::string link_netns{};          // link add|set `link-netns NAME`: that namespace's id here, when run
  std::string peer_link_netns{};     // the same for a veth peer
  uint32_t group = 0;                // link del group
  pid_t pid = 0;                     // netns identify (0: this process) and attach
  std::optional<int> nsid{};         // netns set (nullopt: auto, the kernel picks); list-id's `nsid N`
  std::optional<int> target_nsid{};  // netns list-id `target-nsid N`: the ids that namespace gave
  Boxed<ShowFilter> filters{};       // show/flush selectors: filter()
  std::string warning{};             // what ip prints to stderr as it reads the line
  int family = AF_UNSPEC;
  std::vector<std::string> exec_argv{};
  std::optional<UsageError> parse_error{};  // kRefusedLine: why

  bool mutates() const { return verb && verb->mutates(); }  // a change, queued into the engine's batch

  ShowFilter& filter() { return filters.get(); }  // made on first use
  const ShowFilter& filter() const { return filters.get(); }

  // The spec as kind T: made (empty) on first use by the parser; read as an
  // empty T when the command holds another kind (a show without selectors).
  template <class T>
  T& as() {
    if (!std::holds_alternative<T>(spec)) spec.emplace<T>();
    return std::get<T>(spec);
  }
  template <class T>
  const T& as() const {
    static const T empty{};
    const T* held = std::get_if<T>(&spec);
    return held ? *held : empty;
  }
  netlink::LinkAdd& link_add() { return as<netlink::LinkAdd>(); }
  const netlink::LinkAdd& link_add() const { return as<netlink::LinkAdd>(); }
  netlink::LinkSet& link_set() { return as<netlink::LinkSet>(); }
  const netlink::LinkSet& link_set() const { return as<netlink::LinkSet>(); }
  netlink::AltnameChange& altnames() { return as<netlink::AltnameChange>(); }  // link property add|del
  const netlink::AltnameChange& altnames() const { return as<netlink::AltnameChange>(); }
  netlink::AddressSpec& addr() { return as<netlink::AddressSpec>(); }
  const netlink::AddressSpec& addr() const { return as<netlink::AddressSpec>(); }
  netlink::RouteSpec& route() { return as<netlink::RouteSpec>(); }  // route changes; route show's selectors
  const netlink::RouteSpec& route() const { return as<netlink::RouteSpec>(); }
  RouteGet& route_get() { return as<RouteGet>(); }
  const RouteGet& route_get() const { return as<RouteGet>(); }
  netlink::RouteQuery& route_query() { return route_get().query; }
  const netlink::RouteQuery& route_query() const { return route_get().query; }
  netlink::RuleSpec& rule() { return as<netlink::RuleSpec>(); }  // rule add/del; rule show/flush's selector
  const netlink::RuleSpec& rule() const { return as<netlink::RuleSpec>(); }
  netlink::NeighbourSpec& neigh() { return as<netlink::NeighbourSpec>(); }
  const netlink::NeighbourSpec& neigh() const { return as<netlink::NeighbourSpec>(); }
  netlink::FdbSpec& fdb() { return as<netlink::FdbSpec>(); }
  const netlink::FdbSpec& fdb() const { return as<netlink::FdbSpec>(); }
  netlink::TunOptions& tun() { return as<netlink::TunOptions>(); }  // tuntap add|del (device: `name`)
  const netlink::TunOptions& tun() const { return as<netlink::TunOptions>(); }
  MonitorSpec& monitor() { return as<MonitorSpec>(); }
  const MonitorSpec& monitor() const { return as<MonitorSpec>(); }
  // nexthop add|replace|del; show|flush's `id` (one object, by get or delete).
  netlink::NexthopObjectSpec& nexthop() { return as<netlink::NexthopObjectSpec>(); }
  const netlink::NexthopObjectSpec& nexthop() const { return as<netlink::NexthopObjectSpec>(); }
  netlink::AddrLabelSpec& addrlabel() { return as<netlink::AddrLabelSpec>(); }  // addrlabel add|del
  const netlink::AddrLabelSpec& addrlabel() const { return as<netlink::AddrLabelSpec>(); }
  MaddrChange& maddr() { return as<MaddrChange>(); }  // maddr add|del
  const MaddrChange& maddr() const { return as<MaddrChange>(); }
  TokenChange& token() { return as<TokenChange>(); }  // token set|del
  const TokenChange& token() const { return as<TokenChange>(); }
  NtableChange& ntable() { return as<NtableChange>(); }  // ntable change
  const NtableChange& ntable() const { return as<NtableChange>(); }
  RestoreInput& restore_input() { return as<RestoreInput>(); }  // rule restore
  const RestoreInput& restore_input() const { return as<RestoreInput>(); }
};

// A command as a batch holds it until it runs. A batch is mostly plain
// changes (is_plain_change), by the thousand: such a line keeps only its
// verb and its text, and is parsed again when it is queued, while the
// kernel works on the lines before it. Validating a long file then touches
// no memory per line: a parsed command is ~750 bytes, and the first touch
// of those pages cost the parse more than the parsing did.
struct BatchCommand {
  const Verb* verb = nullptr;  // the line's; set for a plain change
  int line = 0;                // batch line; 0 for a command line
  std::string_view text{};     // a plain change's text: its line(s), and what precedes them since the last
  std::unique_ptr<IpCommand> held{};  // every other command, whole; null for a plain change

  // What is not held is a plain change, or a line that did not parse.
  bool mutates() const { return held ? held->mutates() : verb && verb->mutates(); }
};

// Parses one command: args[0] is the object ("link", "a", ...).
Parsed<IpCommand> parse_command(std::span<const std::string> args, const Globals& globals);

// One non-empty command line of a batch file, split into words.
struct BatchLine {
  int line = 0;
  std::vector<std::string> args{};
  std::size_t end = 0;  // offset in the batch text just past the line (and its newline)
};
// Splits a batch file the way ip's getcmdline/makeargs do: '#' starts a
// comment anywhere, a trailing backslash joins the next line (the command is
// numbered by its last line), words are split on blanks, and a word that
// starts with ' or " runs to the matching quote.
Parsed<std::vector<BatchLine>> split_batch(std::string_view text);

// split_batch() a line at a time, so that a long batch needs the words of
// one line at once: next() fills `line` (reusing its storage) and says
// whether there was one left. After an error, the splitter is done.
class BatchSplitter {
 public:
  explicit BatchSplitter(std::string_view text) : text_(text), size_(text.size()) {}
  Parsed<bool> next(BatchLine& line);

 private:
  UsageError done(UsageError error);  // ends the splitting with `error`
  std::string_view text_;             // what is left to split
  std::size_t size_;                  // of the whole text, for BatchLine::end
  int number_ = 0;                    // lines read so far
  std::string pending_;               // a line joined by continuations
};

// "Error: <message>." for an error; with `exact`, the message itself (ip's
// whole text, which may end in its own newline).
std::string format_error(std::string_view message, bool exact = false);

// The whole front end: argv as main() got it. Returns the exit code.
int ip_main(int argc, char** argv);

}  // namespace brisk::ipcli
