// cli/ip/verb.h: what one verb of one object is (`route add`, `addr show`):
// how it runs, how a batch may schedule it, and what ip says when it
// fails. Each object's module defines its verbs, and its parser points the
// command at one (IpCommand::verb). The runner, the batch rules and the
// error module read only these fields: none of them names an object or a
// verb, so adding a verb touches its object's file alone.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "brisk/netlink/error.h"

namespace brisk::netlink {
class Batch;
}

namespace brisk::ipcli {

class Runner;
struct IpCommand;

struct Verb {
  std::string_view name;  // the object and the verb ("route add"), as tests name it

  // ---- how it runs: exactly one of queue, run and run_to_exit ----
  // A change: queued into the engine's batch with the changes around it,
  // its spec moved in (a command is queued once). Returns the op's index.
  netlink::NlResult<std::size_t> (*queue)(Runner& r, netlink::Batch& batch, IpCommand& cmd) = nullptr;
  // Anything else runs alone, in its place.
  netlink::NlResult<void> (*run)(Runner& r, const IpCommand& cmd) = nullptr;
  // A command after which ip ends, whatever follows in a batch: runs it,
  // prints what ip prints, and gives the exit status (`status`: the batch's so far).
  int (*run_to_exit)(Runner& r, const IpCommand& cmd, int status) = nullptr;
  // ip runs it in its own process, without a fork, when it is the whole
  // command line (netns exec): does so, returning only on failure.
  std::optional<int> (*replace_process)(const IpCommand& cmd) = nullptr;

  // ---- what a batch may do with it (batch_rules.h) ----
  // The existing devices the line names, which ip looks up by name as it
  // parses it (and so syncs their link state); null: none.
  std::vector<std::string> (*named_devices)(const IpCommand& cmd) = nullptr;
  // The devices the line makes here; null: none.
  std::vector<std::string> (*created_devices)(const IpCommand& cmd) = nullptr;
  // Whether the line names something ip resolves while parsing it, beyond
  // the `vrf` and `link-netns` every command may carry (a master, a
  // nexthop's dev): a missing one is an argument error that ends the batch.
  bool (*resolves_while_parsing)(const IpCommand& cmd) = nullptr;
  bool keeps_device_names = false;       // can neither make, rename, move nor remove a device
  bool exits_on_kernel_refusal = false;  // ip exit(2)s when the kernel refuses it, batch or not
  bool predicted_delete = false;         // a device delete: a run of them is coalesced as far as predicted
  bool reads_rest_of_batch = false;      // in a batch, the text after its line is its input (restore)
  bool looks_up_devices =
      false;  // run alone, and finds its devices as ip parses: missing is an argument error

  // ---- ip's words and status when it fails (ip_errors.h) ----
  // ip's invarg() words for a `dev` it could not find while parsing; null:
  // ip finds the device missing when it runs ("Cannot find device").
  const char* missing_device_words = nullptr;
  bool vrf_is_table = false;                     // a `vrf NAME` picks a table (ip's "Invalid VRF")
  const char* dump_ended = "\nDump terminated";  // after the kernel refused its dump
  int failed_status = 0;                       // its own status when it fails outside a batch; 0: the error's
  bool refused_dump_is_argument_exit = false;  // a refused dump exits 255 (its 1, negated)
  // ip's text for its failure; null: runtime_message() and dump_ended.
  std::string (*failure_text)(const netlink::NetlinkError& e) = nullptr;
  // A failure after which it ends the run its own way; nullopt: the usual way.
  std::optional<int> (*failure_exit)(Runner& r, const IpCommand& cmd,
                                     const netlink::NetlinkError& e) = nullptr;

  bool mutates() const { return queue != nullptr; }
};

// A batch line ip sends and the kernel refuses (UsageError::kernel_refusal),
// known while parsing: it fails in its place.
extern const Verb kRefusedLine;

}  // namespace brisk::ipcli
