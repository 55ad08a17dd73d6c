// ip netns: add, attach, delete, list, list-id, exec, identify, pids, set
// and monitor.

#include "brisk/netlink/netns.h"

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "brisk/spawn.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/nsid_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"
#include "cli/ip/until_stopped.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk netns help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kNetnsUsage = R"(Usage: brisk netns list
       brisk netns add NAME
       brisk [ -all ] netns del NAME
       brisk [ -all ] netns exec NAME COMMAND...
       brisk netns attach NAME PID
       brisk netns set NAME { NSID | auto }
       brisk netns identify [ PID ]
       brisk netns pids NAME
       brisk netns monitor
       brisk netns list-id [ target-nsid NSID ] [ nsid NSID ]
Namespaces are bind mounts under /run/netns, shared with ip netns.
monitor prints "add NAME" and "delete NAME" as names come and go there, until
SIGINT or SIGTERM. list-id shows the ids given here to other namespaces (or,
with target-nsid, by the namespace with that id here), by their names.
exec enters the namespace, a /sys of its own and /etc/netns/NAME files over /etc,
then runs COMMAND with no shell.
)";

namespace {

// ip exit(1)s when the kernel refuses list-id's dump, after closing its JSON array.
std::optional<int> list_id_failed(Runner& r, const IpCommand& cmd, const netlink::NetlinkError& e) {
  if (cmd.nsid || !e.kernel) return std::nullopt;
  r.dump_json();
  r.error_line(runtime_message(e) + dump_ended(e, *cmd.verb));
  return 1;
}

// Like ip: the CLI becomes the program, with no fork.
std::optional<int> exec_here(const IpCommand& cmd) {
  if (cmd.every_netns) return std::nullopt;  // -all: a child per namespace
  if (auto entered = enter_netns_for_exec(cmd.name); !entered) {
    std::fprintf(stderr, "%s\n", runtime_message(entered.error()).c_str());
    return 1;
  }
  std::vector<char*> exec_argv;
  for (const auto& a : cmd.exec_argv) exec_argv.push_back(const_cast<char*>(a.c_str()));
  exec_argv.push_back(nullptr);
  ::execvp(exec_argv[0], exec_argv.data());
  std::fprintf(stderr, "exec of \"%s\" failed: %s\n", exec_argv[0], std::strerror(errno));
  return 1;
}

}  // namespace

// Defined at the end, beside what each runs.
extern const Verb kNetnsAdd, kNetnsDel, kNetnsList, kNetnsExec, kNetnsIdentify, kNetnsPids, kNetnsSet,
    kNetnsAttach, kNetnsListId, kNetnsMonitor;

using netlink::NetlinkError;
using netlink::NlResult;

Parsed<std::string> netns_name(const std::string& text) {
  if (text.empty() || text == "." || text == ".." || text.find('/') != std::string::npos ||
      text.size() > NAME_MAX)
    return fatal("Invalid netns name \"" + text + "\"", 255);
  return text;
}

namespace {

// list-id [target-nsid N] [nsid N], each once; as ip, any other word is
// the usage, and a negative id's text names the word after it.
Parsed<IpCommand> parse_list_id(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNetnsListId;
  while (!c.done()) {
    std::string key = c.next();
    bool target = key == "target-nsid";
    if (!target && key != "nsid") return object_help(kNetnsUsage);
    std::optional<int>& id = target ? cmd.target_nsid : cmd.nsid;
    if (id) return duplicate(key, key);
    std::string text;
    TRY_SET(text, c.value(key));
    auto value = int_any_base(text);
    if (!value) return invarg("\"" + key + "\" value is invalid", text);
    if (*value < 0) return invarg("\"" + key + "\" value should be >= 0", c.done() ? "(null)" : c.peek());
    id = *value;
  }
  return cmd;
}

}  // namespace

Parsed<IpCommand> parse_netns(Cursor& c, IpCommand&& cmd, bool all) {
  cmd.verb = &kNetnsList;
  if (c.done()) return cmd;
  std::string verb = c.next();
  // As ip: the word after the verb must be a valid name, whatever the verb
  // (unless -all, where exec's is the program).
  if (!c.done() && !all) TRY_SET(std::ignore, netns_name(c.peek()));
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst")) return cmd;  // ip reads no more
  if (matches(verb, "list-id")) return parse_list_id(c, std::move(cmd));
  if (matches(verb, "monitor")) {
    cmd.verb = &kNetnsMonitor;  // ip reads no more
    return cmd;
  }
  // ip's own checks of these fail the line (status 1), not the command line.
  auto args = [&c] {
    std::vector<std::string> rest;
    while (!c.done()) rest.push_back(c.next());
    return rest;
  };
  if (matches(verb, "identify")) {
    cmd.verb = &kNetnsIdentify;
    auto rest = args();
    if (rest.size() > 1) return refused("extra arguments specified");
    if (!rest.empty()) {
      auto pid = rest[0].find_first_not_of("0123456789") == std::string::npos
                     ? number<uint32_t>("pid", rest[0], INT_MAX)
                     : Parsed<uint32_t>(usage(""));
      if (!pid) return refused("Specified string '" + rest[0] + "' is not a pid");
      cmd.pid = static_cast<pid_t>(*pid);
    }
    return cmd;
  }
  if (matches(verb, "pids")) {
    cmd.verb = &kNetnsPids;
    auto rest = args();
    if (rest.empty()) return refused("No netns name specified");
    if (rest.size() > 1) return refused("extra arguments specified");
    cmd.name = rest[0];
    return cmd;
  }
  if (matches(verb, "set")) {
    cmd.verb = &kNetnsSet;
    auto rest = args();
    if (rest.empty()) return refused("No netns name specified");
    if (rest.size() < 2) return refused("No nsid specified");
    cmd.name = rest[0];
    if (rest[1] != "auto") {
      auto id = int_any_base(rest[1]);
      if (!id) return invarg("Invalid \"netnsid\" value", rest[1]);
      if (*id < 0) return invarg("\"netnsid\" value should be >= 0", rest[1]);
      cmd.nsid = *id;
    }
    return cmd;
  }
  if (matches(verb, "attach")) {
    cmd.verb = &kNetnsAttach;
    auto rest = args();
    if (rest.size() < 2) return refused("No netns name and PID specified");
    cmd.name = rest[0];
    auto pid = int_any_base(rest[1]);
    if (!pid || *pid == 0) return refused("Invalid PID: " + rest[1]);
    cmd.pid = *pid;
    return cmd;
  }
  if (matches(verb, "add"))
    cmd.verb = &kNetnsAdd;
  else if (matches(verb, "delete"))
    cmd.verb = &kNetnsDel;
  else if (matches(verb, "exec"))
    cmd.verb = &kNetnsExec;
  else
    return unknown_command(verb, "netns");
  // -all: exec and delete go through every named namespace (ip's netns_foreach).
  cmd.every_netns = all && cmd.verb != &kNetnsAdd;
  if (!cmd.every_netns) {
    if (c.done()) return refused("No netns name specified");
    TRY_SET(cmd.name, netns_name(c.next()));
  }
  if (cmd.verb == &kNetnsExec) {
    while (!c.done()) cmd.exec_argv.push_back(c.next());
    if (cmd.exec_argv.empty()) return refused("No command specified");
  } else if (!c.done()) {
    return garbage("name", c.peek());
  }
  return cmd;
}

// What `ip netns exec` does before exec: enter the namespace, then the
// library's NetnsView, the same steps a spawned child with Command::netns
// runs. In place: the CLI then becomes the program.
UniqueFd open_run_netns(const std::string& name) {
  return UniqueFd(::open((std::string(kNetnsDir) + "/" + name).c_str(), O_RDONLY | O_CLOEXEC));
}

std::optional<std::string> switch_netns(const std::string& name) {
  UniqueFd fd = open_run_netns(name);
  if (!fd) return "Cannot open network namespace \"" + name + "\": " + std::strerror(errno);
  if (auto entered = netlink::enter_netns(fd.get(), name); !entered)
    return "setting the network namespace \"" + name + "\" failed: " + std::strerror(entered.error().code);
  return std::nullopt;
}

NlResult<void> enter_netns_for_exec(const std::string& name) {
  auto fd = BRISK_TRY(netlink::open_netns(name));
  BRISK_TRY(netlink::enter_netns(fd.get(), name));
  NetnsView view = NetnsView::of(name);
  view.skip_failed_binds = true;  // as ip: say so and go on
  auto applied = apply_netns_view(view);
  if (!applied) {
    const SpawnError& e = applied.error();
    return NetlinkError{.code = e.code, .op = to_string(e.step), .object = e.object};
  }
  for (const SpawnError& skipped : *applied)
    std::fprintf(stderr, "Bind %s failed: %s\n", skipped.object.c_str(), std::strerror(skipped.code));
  return {};
}

namespace {

// Runs `argv` in the named namespace through this same binary (it enters
// the namespace and execs, as a single `netns exec` does), for a batch line
// or -all, where the CLI must survive the program as ip's fork does. Its
// failure is an error with code 0 and the status as detail.
NlResult<void> exec_in_netns(Runner& r, const std::string& name, const std::vector<std::string>& argv) {
  r.flush_out();
  SpawnOptions options{
      .argv = {"brisk", "netns", "exec", name}, .program = "/proc/self/exe", .search_path = false};
  options.argv.insert(options.argv.end(), argv.begin(), argv.end());
  auto child = spawn(options);
  if (!child)
    return NetlinkError{
        .code = child.error().code, .op = "netns exec", .object = name, .detail = child.error().message()};
  auto status = child->wait();
  if (!status) return NetlinkError{.code = status.error().code, .op = "netns exec", .object = name};
  if (!status->success())
    return NetlinkError{.code = 0, .op = "netns exec", .object = name, .detail = status->to_string()};
  return {};
}

// -all netns delete: each named namespace; as ip, the first that cannot be
// removed is reported and ends the walk, and the command still succeeds.
NlResult<void> delete_every_netns(Runner& r) {
  for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
    if (auto deleted = netlink::delete_netns(name); !deleted) {
      r.error_line("Cannot remove namespace file \"" + std::string(kNetnsDir) + "/" + name +
                   "\": " + std::strerror(deleted.error().code));
      break;
    }
  }
  return {};
}

// ip netns list-id: the ids given here (or, with target-nsid, by the
// namespace with that id here), or the one namespace `nsid N` names.
NlResult<void> list_ids(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  NsidNames& names = r.nsid_names();
  std::vector<netlink::NetnsIdEntry> entries;
  if (cmd.nsid) {
    entries.push_back(BRISK_TRY(netlink::find_netns_id(*c, *cmd.nsid, cmd.target_nsid)));
    r.use_json();  // ip opens its array only once the answer is in
  } else {
    r.use_json();  // ip opens the array before the dump: "[]" even when it fails
    // ip -batch does not ask for strict checking of its dumps, so there the
    // kernel ignores target-nsid and lists this namespace's ids.
    entries = BRISK_TRY(netlink::list_netns_ids(*c, r.in_batch() ? std::nullopt : cmd.target_nsid));
  }
  for (const auto& entry : entries) {
    auto name = names.name_of(entry, false);
    if (r.globals().json)
      r.emit(nsid_json(entry, false, name));
    else
      r.out() += nsid_text(entry, false, name);
  }
  return {};
}

// ip netns monitor: "add NAME" and "delete NAME" as names appear under and
// leave /run/netns (made first if missing), until SIGINT or SIGTERM.
NlResult<void> watch_netns_dir(Runner& r) {
  UniqueFd watch(::inotify_init1(IN_CLOEXEC));
  if (!watch) return NetlinkError::from(last_error("inotify_init1"));
  if (::mkdir(kNetnsDir, 0755) != 0 && errno != EEXIST)
    return NetlinkError{.code = errno, .op = "mkdir", .object = kNetnsDir};
  if (::inotify_add_watch(watch.get(), kNetnsDir, IN_CREATE | IN_DELETE) < 0)
    return NetlinkError{.code = errno, .op = "inotify_add_watch", .object = kNetnsDir};
  r.flush_out();
  return until_stopped(watch.get(), [&]() -> NlResult<void> {
    alignas(inotify_event) char buf[4096];
    ssize_t len = ::read(watch.get(), buf, sizeof buf);
    if (len < 0 && errno == EINTR) return {};
    if (len < 0) return NetlinkError::from(last_error("read"));
    for (ssize_t at = 0; at < len;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buf + at);
      if (event->mask & IN_CREATE) r.out() += std::string("add ") + event->name + "\n";
      if (event->mask & IN_DELETE) r.out() += std::string("delete ") + event->name + "\n";
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
    r.flush_out();  // each as it comes, for a reader of a pipe
    if (std::ferror(stdout)) return NetlinkError{.code = EPIPE, .op = "write", .object = "stdout"};
    return {};
  });
}

}  // namespace

namespace {

NlResult<void> run_netns_add(Runner& r, const IpCommand& cmd) {
  r.forget_netns_ids();  // a later line may name it
  return netlink::create_netns(cmd.name, {.on_calling_thread = r.own_process()});
}

NlResult<void> run_netns_del(Runner& r, const IpCommand& cmd) {
  r.forget_netns_ids();
  if (cmd.every_netns) return delete_every_netns(r);
  return netlink::delete_netns(cmd.name);
}

NlResult<void> run_netns_list(Runner& r, const IpCommand&) {
  r.use_json();
  auto c = BRISK_TRY(r.conn());
  r.netns_by_id();  // ip's netns_map_init(), first: it prints what the kernel refuses too
  for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
    // Like ip: "(id: N)" for a namespace that has an id here, each name asked.
    std::optional<int> id = named_netns_id(*c, name);
    if (r.globals().json) {
      Json j{{"name", name}};
      if (id) j["id"] = *id;
      r.emit(std::move(j));
    } else {
      r.out() += name + (id ? " (id: " + std::to_string(*id) + ")" : "") + "\n";
    }
  }
  return {};
}

NlResult<void> run_netns_exec(Runner& r, const IpCommand& cmd) {
  if (!cmd.every_netns) return exec_in_netns(r, cmd.name, cmd.exec_argv);
  // As ip -all: each namespace under a "netns: NAME" heading, whatever
  // the program's status there.
  for (const auto& name : BRISK_TRY(netlink::list_netns(netlink::NetnsOrder::directory))) {
    r.out() += "\nnetns: " + name + "\n";
    auto ran = exec_in_netns(r, name, cmd.exec_argv);
    if (!ran && ran.error().code != 0) return ran;  // the program could not be started
  }
  return {};
}

NlResult<void> run_netns_identify(Runner& r, const IpCommand& cmd) {
  const Globals& g = r.globals();
  // ip reads /proc/self after -n moved it: that namespace, then.
  auto fd = cmd.pid    ? netlink::open_netns_pid(cmd.pid)
            : !g.netns ? netlink::open_netns_path("/proc/self/ns/net")
                       : netlink::open_netns(*g.netns);
  if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen};
  auto names = BRISK_TRY(netlink::netns_names_of(fd->get()));
  r.out() += (names.empty() ? std::string() : names.back()) + "\n";  // ip keeps the last it reads
  return {};
}

NlResult<void> run_netns_pids(Runner& r, const IpCommand& cmd) {
  auto fd = netlink::open_netns(cmd.name);
  if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen};
  for (pid_t pid : BRISK_TRY(netlink::netns_pids(fd->get()))) r.out() += std::to_string(pid) + "\n";
  return {};
}

NlResult<void> run_netns_set(Runner& r, const IpCommand& cmd) {
  auto fd = netlink::open_netns(cmd.name);
  if (!fd) return NetlinkError{.code = fd.error().code, .op = kNetnsOpen, .object = cmd.name};
  auto c = BRISK_TRY(r.conn());
  r.forget_netns_ids();
  return netlink::set_netns_id(*c, fd->get(), cmd.nsid);
}

NlResult<void> run_netns_attach(Runner& r, const IpCommand& cmd) {
  r.forget_netns_ids();
  return netlink::attach_netns(cmd.name, cmd.pid);
}

}  // namespace

const Verb kNetnsAdd{.name = "netns add", .run = run_netns_add};
const Verb kNetnsDel{.name = "netns del", .run = run_netns_del};
const Verb kNetnsList{.name = "netns list", .run = run_netns_list};
const Verb kNetnsExec{.name = "netns exec", .run = run_netns_exec, .replace_process = exec_here};
const Verb kNetnsIdentify{.name = "netns identify", .run = run_netns_identify};
const Verb kNetnsPids{.name = "netns pids", .run = run_netns_pids};
const Verb kNetnsSet{.name = "netns set", .run = run_netns_set};
const Verb kNetnsAttach{.name = "netns attach", .run = run_netns_attach};
const Verb kNetnsListId{.name = "netns list id", .run = list_ids, .failure_exit = list_id_failed};
const Verb kNetnsMonitor{.name = "netns monitor",
                         .run = [](Runner& r, const IpCommand&) { return watch_netns_dir(r); }};

const Verb* const kNetnsVerbs[] = {&kNetnsAdd,  &kNetnsDel, &kNetnsList,   &kNetnsExec,   &kNetnsIdentify,
                                   &kNetnsPids, &kNetnsSet, &kNetnsAttach, &kNetnsListId, &kNetnsMonitor};
const IpObject kNetnsObject{.name = {"netns"},
                            .parse = [](Cursor& c, IpCommand&& cmd,
                                        const Globals& g) { return parse_netns(c, std::move(cmd), g.all); },
                            .verbs = kNetnsVerbs,
                            .usage = [] { return kNetnsUsage; }};

}  // namespace brisk::ipcli
