// ip tuntap (and its alias ip tap): add, delete and show tun/tap devices
// through /dev/net/tun, with ip 6.1's keywords, error texts and output.
#include <dirent.h>
#include <grp.h>
#include <linux/if_tun.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "brisk/netlink/tun.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk tuntap help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kTuntapUsage =
    R"(Usage: brisk tuntap { add | del | show | list | lst | help } [ dev PHYS_DEV ]
       [ mode { tun | tap } ] [ user USER ] [ group GROUP ]
       [ one_queue ] [ pi ] [ vnet_hdr ] [ multi_queue ] [ name NAME ]

Where: USER  := { STRING | NUMBER }
       GROUP := { STRING | NUMBER }
brisk tap is the same object. Without a name add lets the kernel pick tunN or tapN.
)";

namespace {

netlink::NlResult<void> add_tuntap(Runner& r, const IpCommand& cmd) {
  BRISK_TRY(run_tuntap(r, cmd));
  r.note_created(cmd.name);
  return {};
}

}  // namespace

// /dev/net/tun, not rtnetlink: run one at a time, outside a batch.
const Verb kTuntapAdd{.name = "tuntap add", .run = add_tuntap, .failure_text = tuntap_message};
const Verb kTuntapDel{.name = "tuntap del", .run = run_tuntap, .failure_text = tuntap_message};
const Verb kTuntapShow{.name = "tuntap show", .run = show_tuntaps};

namespace {

using netlink::NlResult;

// ip's texts outside its "Error: ..." family, each exit 255.
Failure<UsageError> plain(std::string text) {
  return fail(UsageError{.message = std::move(text), .exact = true});
}

// ip's get_ifname(): 1..15 bytes, no '/' or white space (the kernel checks the rest).
bool ifname_ok(const std::string& name) {
  if (name.empty() || name.size() >= 16) return false;
  for (unsigned char ch : name)
    if (ch == '/' || std::isspace(ch)) return false;
  return true;
}

// A user or group as ip takes it: a whole decimal number (strtol's, so a
// sign and leading blanks pass, and the value wraps to 32 bits), else a name
// from the passwd or group database. -1 means none, as for ip.
Parsed<std::optional<uint32_t>> owner_value(const std::string& text, bool user) {
  if (!text.empty()) {
    char* end = nullptr;
    long id = std::strtol(text.c_str(), &end, 10);
    if (!*end) {
      auto wrapped = static_cast<uint32_t>(static_cast<unsigned long>(id));
      if (wrapped == UINT32_MAX) return std::optional<uint32_t>{};
      return std::optional<uint32_t>(wrapped);
    }
  }
  std::vector<char> buffer(16384);
  if (user) {
    passwd pw{}, *found = nullptr;
    if (::getpwnam_r(text.c_str(), &pw, buffer.data(), buffer.size(), &found) == 0 && found)
      return std::optional<uint32_t>(pw.pw_uid);
    return plain("invalid user \"" + text + "\"");
  }
  group gr{}, *found = nullptr;
  if (::getgrnam_r(text.c_str(), &gr, buffer.data(), buffer.size(), &found) == 0 && found)
    return std::optional<uint32_t>(gr.gr_gid);
  return plain("invalid group \"" + text + "\"");
}

Parsed<std::string> next_arg(Cursor& c) {
  if (c.done()) return plain("Command line is not complete. Try option \"help\"");
  return c.next();
}

// ip's parse_args(): keywords by prefix, in ip's order ("m" is mode, "p"
// pi); user and group only for add; any other word is the name.
Parsed<IpCommand> parse_tuntap_change(Cursor& c, IpCommand&& cmd, const Verb* verb) {
  cmd.verb = verb;
  bool add = verb == &kTuntapAdd;
  auto& tun = cmd.tun();
  bool tun_mode = false, tap_mode = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "mode")) {
      TRY_SET(v, next_arg(c));
      if (matches(v, "tun")) {
        if (tap_mode) return plain("You managed to ask for more than one tunnel mode.");
        tun_mode = true;
      } else if (matches(v, "tap")) {
        if (tun_mode) return plain("You managed to ask for more than one tunnel mode.");
        tap_mode = true;
      } else {
        return plain("Unknown tunnel mode \"" + v + "\"");
      }
    } else if (add && matches(key, "user")) {
      TRY_SET(v, next_arg(c));
      TRY_SET(tun.owner, owner_value(v, true));
    } else if (add && matches(key, "group")) {
      TRY_SET(v, next_arg(c));
      TRY_SET(tun.group, owner_value(v, false));
    } else if (matches(key, "pi")) {
      tun.pi = true;
    } else if (matches(key, "one_queue")) {
      tun.one_queue = true;
    } else if (matches(key, "vnet_hdr")) {
      tun.vnet_hdr = true;
    } else if (matches(key, "multi_queue")) {
      tun.multi_queue = true;
    } else if (matches(key, "dev")) {
      // Unlike a bare name, dev may replace one already given.
      TRY_SET(v, next_arg(c));
      if (!ifname_ok(v)) return invarg("\"dev\" not a valid ifname", v);
      cmd.name = v;
    } else {
      if (matches(key, "name")) {
        TRY_SET(v, next_arg(c));
      } else if (matches(key, "help")) {
        return object_help(kTuntapUsage);
      } else {
        v = key;
      }
      if (!cmd.name.empty()) return garbage("name", v);
      if (!ifname_ok(v)) return invarg("\"name\" not a valid ifname", v);
      cmd.name = v;
    }
  }
  if (!tun_mode && !tap_mode) return refused("You failed to specify a tunnel mode");
  tun.tap = tap_mode;
  return cmd;
}

// ---- show ----

// tun_flags as ip prints them: the known bits by name ("filter" is
// IFF_NOFILTER unset, which is IFF_NO_PI's bit), the rest in hex.
std::vector<std::string> flag_words(uint32_t flags) {
  std::vector<std::string> words;
  if (flags & IFF_TUN) words.emplace_back("tun");
  if (flags & IFF_TAP) words.emplace_back("tap");
  if (!(flags & IFF_NO_PI)) words.emplace_back("pi");
  if (flags & IFF_ONE_QUEUE) words.emplace_back("one_queue");
  if (flags & IFF_MULTI_QUEUE) words.emplace_back("multi_queue");
  if (flags & IFF_VNET_HDR) words.emplace_back("vnet_hdr");
  if (flags & IFF_PERSIST) words.emplace_back("persist");
  if (!(flags & IFF_NOFILTER)) words.emplace_back("filter");
  uint32_t rest = flags & ~uint32_t(IFF_TUN | IFF_TAP | IFF_NO_PI | IFF_ONE_QUEUE | IFF_MULTI_QUEUE |
                                    IFF_VNET_HDR | IFF_PERSIST | IFF_NOFILTER);
  if (rest) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "%#x", rest);
    words.emplace_back(hex);
  }
  return words;
}

struct Attached {
  std::string name;  // the process's comm
  int pid = 0;
};

// Another process's comm, as ip's get_task_name(); nullopt when unreadable.
std::optional<std::string> task_name(int pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/comm";
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (!f) return std::nullopt;
  char buffer[64] = {};
  bool ok = std::fgets(buffer, sizeof buffer, f) != nullptr;
  std::fclose(f);
  if (!ok) return std::nullopt;
  std::string name(buffer);
  if (!name.empty() && name.back() == '\n') name.pop_back();
  return name;
}

// The processes with a /dev/net/tun fd attached to `dev` (fdinfo "iff:"),
// as ip -d lists them: every /proc/PID/fd but ours.
std::vector<Attached> attached_processes(const std::string& dev) {
  std::vector<Attached> out;
  DIR* proc = ::opendir("/proc");
  if (!proc) return out;
  while (dirent* p = ::readdir(proc)) {
    if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
    int pid = std::atoi(p->d_name);
    if (pid == ::getpid()) continue;
    std::string fd_dir = std::string("/proc/") + p->d_name + "/fd";
    DIR* fds = ::opendir(fd_dir.c_str());
    if (!fds) continue;
    while (dirent* f = ::readdir(fds)) {
      if (f->d_name[0] < '0' || f->d_name[0] > '9') continue;
      char target[32];
      ssize_t n = ::readlinkat(::dirfd(fds), f->d_name, target, sizeof target - 1);
      if (n < 0) continue;
      target[n] = '\0';
      if (std::strcmp(target, "/dev/net/tun") != 0) continue;
      std::string info = std::string("/proc/") + p->d_name + "/fdinfo/" + f->d_name;
      std::FILE* file = std::fopen(info.c_str(), "re");
      if (!file) continue;
      char line[256];
      while (std::fgets(line, sizeof line, file)) {
        char key[64], value[64];
        if (std::sscanf(line, "%63[^:]: %63s", key, value) == 2 && std::strcmp(key, "iff") == 0 &&
            dev == value)
          out.push_back({task_name(pid).value_or("<NULL>"), pid});
      }
      std::fclose(file);
    }
    ::closedir(fds);
  }
  ::closedir(proc);
  return out;
}

}  // namespace

Parsed<IpCommand> parse_tuntap(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kTuntapShow;
  if (c.done()) return cmd;
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_tuntap_change(c, std::move(cmd), &kTuntapAdd);
  if (matches(verb, "delete")) return parse_tuntap_change(c, std::move(cmd), &kTuntapDel);
  // ip's show takes no filter: whatever follows is ignored.
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list")) return cmd;
  if (matches(verb, "help")) return object_help(kTuntapUsage);
  return plain("Command \"" + verb + "\" is unknown, try \"brisk tuntap help\".");
}

NlResult<void> run_tuntap(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  if (cmd.verb == &kTuntapAdd) {
    BRISK_TRY(netlink::add_tun(*c, cmd.name, cmd.tun()));
    return {};
  }
  return netlink::delete_tun(*c, cmd.name, cmd.tun());
}

NlResult<void> show_tuntaps(Runner& r, const IpCommand&) {
  auto c = BRISK_TRY(r.conn());
  auto tuns = BRISK_TRY(netlink::list_tuns(*c));
  bool details = r.globals().details;
  r.use_json();
  for (const auto& t : tuns) {
    auto words = flag_words(t.flags);
    if (r.globals().json) {
      Json j{{"ifname", t.name}, {"flags", words}};
      if (t.owner) j["user"] = *t.owner;
      if (t.group) j["group"] = *t.group;
      if (details) {
        Json processes = Json::array();
        for (const auto& p : attached_processes(t.name))
          processes.push_back({{"name", p.name}, {"pid", p.pid}});
        j["processes"] = std::move(processes);
      }
      r.emit(std::move(j));
      continue;
    }
    std::string& out = r.out();
    out += t.name + ":";
    for (const auto& w : words) out += " " + w;
    if (t.owner) out += " user " + std::to_string(*t.owner);
    if (t.group) out += " group " + std::to_string(*t.group);
    if (details) {
      out += "\n\tAttached to processes:";
      for (const auto& p : attached_processes(t.name)) out += p.name + "(" + std::to_string(p.pid) + ")";
    }
    out += "\n";
  }
  return {};
}

// ip's perror() text for a failed add or delete: "ioctl(TUNSETIFF): Device or resource busy".
std::string tuntap_message(const netlink::NetlinkError& e) {
  return std::string(e.op) + ": " + std::strerror(e.code);
}

const Verb* const kTuntapVerbs[] = {&kTuntapAdd, &kTuntapDel, &kTuntapShow};
const IpObject kTuntapObject{
    .name = {"tuntap", 4},
    .alias = {"tap", 2},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_tuntap(c, std::move(cmd)); },
    .verbs = kTuntapVerbs,
    .usage = [] { return kTuntapUsage; }};

}  // namespace brisk::ipcli
