// ip_errors.cc: the one place where what failed (NetlinkError's typed
// facts, and the command's object) becomes ip 6.1's words and exit status.
#include "cli/ip/ip_errors.h"

#include <cerrno>
#include <cstring>

#include "cli/ip/batch_rules.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

using netlink::NetlinkError;

// ip's text when `e` is a missing argument that ip looks up as it parses
// the line: an argument error, which ends ip's batch. Which one it is, and
// so ip's words, depends on the argument and on the command's object.
std::optional<std::string> argument_error(const NetlinkError& e, const Verb& verb) {
  if (e.code != ENODEV || e.missing == netlink::Argument::none) return std::nullopt;
  const std::string& name = e.missing_name;
  auto wrong = [&](const char* why) { return "Error: argument \"" + name + "\" is wrong: " + why; };
  switch (e.missing) {
    case netlink::Argument::device:
      // Objects that look their devices up as they parse, with words of their own.
      if (verb.missing_device_words) return wrong(verb.missing_device_words);
      return std::nullopt;  // ip finds it missing when it runs: "Cannot find device"
    case netlink::Argument::master:
    case netlink::Argument::backup_port:
      return wrong("Device does not exist\n");
    case netlink::Argument::vrf:
      return wrong(verb.vrf_is_table ? "Invalid VRF\n" : "Not a valid VRF name\n");
    case netlink::Argument::netns:
      return wrong("Invalid \"netns\" value\n");
    case netlink::Argument::link_netns:
      return wrong("Invalid \"link-netns\" value\n");
    case netlink::Argument::nexthop_device:
      return "Cannot find device \"" + name + "\"\nError: cannot parse nexthop";
    case netlink::Argument::vxlan_device:
      return "Cannot find device \"" + name + "\"";
    case netlink::Argument::link:
    case netlink::Argument::none:
      return std::nullopt;
  }
  return std::nullopt;
}

// The device ip would have failed to find while parsing the line, when `e`
// is one: whatever argument named it, or the link a link op acted on.
std::optional<std::string> missing_device(const NetlinkError& e) {
  if (e.code != ENODEV || !e.ext_ack.empty() || e.missing == netlink::Argument::none) return std::nullopt;
  return e.missing_name;
}

// A kernel refusal after which ip exit(2)s, batch or not (exits_on_kernel_refusal).
bool ends_on_refusal(const NetlinkError& e, const Verb& verb) {
  return e.kernel && !missing_device(e) && verb.exits_on_kernel_refusal;
}

// ip netns's words for what failed on the file system: the namespace file
// it could not make, bind or remove, or a namespace it could not open.
std::optional<std::string> netns_message(const NetlinkError& e) {
  std::string reason = std::strerror(e.code);
  if (e.op == kNetnsOpen)
    return "Cannot open network namespace" + (e.object.empty() ? std::string() : " \"" + e.object + "\"") +
           ": " + reason;
  switch (e.file_step) {
    case netlink::FileStep::create:
      return "Cannot create namespace file \"" + e.path + "\": " + reason;
    case netlink::FileStep::bind:
      // ip's words for netns add, which binds its own thread's namespace.
      return "Bind " + (e.path == "/proc/thread-self/ns/net" ? std::string("/proc/self/ns/net") : e.path) +
             " -> " + netns_path(e.object) + " failed: " + reason;
    case netlink::FileStep::remove:
      return "Cannot remove namespace file \"" + e.path + "\": " + reason;
    case netlink::FileStep::none:
      break;
  }
  return std::nullopt;
}

// What ip says after the kernel refused a dump (at its start or part way):
// the show's words, or its flush's.
std::string dump_ended(const NetlinkError& e, const Verb& verb) {
  if (!e.kernel || (!e.dump && e.op != kAddrlabelFlushOp)) return "";
  return verb.dump_ended;
}

int exit_status(const NetlinkError& e, const Verb& verb, bool in_batch) {
  // A failed batch line makes the batch 1, whatever failed.
  if (in_batch) return 1;
  // Commands whose own return ip's do_cmd negates (addrlabel list's 1,
  // nexthop and addrlabel flush's -1), and rule show's 1 for a refused dump.
  if (verb.failed_status) return verb.failed_status;
  if (verb.refused_dump_is_argument_exit && e.dump) return kArgumentExit;
  if (e.op == kFlushIncomplete) return kArgumentExit;  // the flush's 1, negated
  // ip's do_cmd negates the -2 of a failed rtnl_talk; a device it could not
  // find is its parser's exit(1).
  return e.kernel && !missing_device(e) ? 2 : 1;
}

std::string runtime_message(const NetlinkError& e) {
  if (e.op == kFlushIncomplete) return e.detail;
  if (auto text = netns_message(e)) return *text;
  if (e.code == ENODEV && e.op == kDeviceShow) return "Device \"" + e.object + "\" does not exist.";
  if (!e.ext_ack.empty()) return format_error(e.ext_ack);
  if (auto dev = missing_device(e)) return "Cannot find device \"" + *dev + "\"";
  // The kernel's errno without a text of its own, as ip prints it.
  if (e.kernel) return std::string("RTNETLINK answers: ") + std::strerror(e.code);
  std::string text = e.op;
  if (!e.object.empty()) text += " " + e.object;
  text += ": ";
  text += e.code ? std::strerror(e.code) : "failed";
  if (!e.detail.empty()) text += ": " + e.detail;
  return format_error(text);
}

}  // namespace brisk::ipcli
