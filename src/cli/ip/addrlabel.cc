// ip addrlabel, as ip 6.1's ipaddrlabel.c reads and prints it: add and del
// (queued in a batch like any change), list (a dump of the family's table,
// IPv6 unless -4 or -6 says otherwise) and flush (a dump, then a delete
// per label, the kernel's defaults too).
#include <cstdint>

#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk addrlabel help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kAddrlabelUsage =
    R"(Usage: brisk addrlabel { add | del } prefix PREFIX [ dev DEV ] [ label LABEL ]
       brisk addrlabel [ list | flush | help ]
The table is IPv6's (the kernel keeps no other); flush empties it, defaults too.
)";

namespace {
bool addrlabel_names_dev(const IpCommand& cmd) { return !cmd.addrlabel().dev.empty(); }

netlink::NlResult<std::size_t> addrlabel_queue_add(Runner&, netlink::Batch& batch, IpCommand& cmd) {
  return netlink::add_addrlabel(batch, std::move(cmd.addrlabel()));
}
netlink::NlResult<std::size_t> addrlabel_queue_del(Runner&, netlink::Batch& batch, IpCommand& cmd) {
  return netlink::delete_addrlabel(batch, std::move(cmd.addrlabel()));
}

// addrlabel looks its `dev` up as it parses, with words of its own.
constexpr Verb addrlabel_change(std::string_view name,
                                netlink::NlResult<std::size_t> (*queue)(Runner&, netlink::Batch&,
                                                                        IpCommand&)) {
  return {.name = name,
          .queue = queue,
          .named_devices = spec_device<&netlink::AddrLabelSpec::dev>,
          .resolves_while_parsing = addrlabel_names_dev,
          .keeps_device_names = true,
          .missing_device_words = "dev is invalid\n"};
}
}  // namespace

const Verb kAddrlabelAdd = addrlabel_change("addrlabel add", addrlabel_queue_add);
const Verb kAddrlabelDel = addrlabel_change("addrlabel del", addrlabel_queue_del);
// ip's do_cmd negates what these return: list's 1, flush's -1.
const Verb kAddrlabelShow{.name = "addrlabel show",
                          .run = show_addrlabels,
                          .missing_device_words = "dev is invalid\n",
                          .failed_status = kArgumentExit};
const Verb kAddrlabelFlush{.name = "addrlabel flush",
                           .run = flush_addrlabels,
                           .missing_device_words = "dev is invalid\n",
                           .dump_ended = "\nFlush terminated",
                           .failed_status = 1};

namespace {

using netlink::NlResult;

// ipaddrlabel_modify(): prefix, dev and label; any other word is skipped,
// as ip skips it. Both prefix and label must be there.
Parsed<IpCommand> parse_addrlabel_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  netlink::AddrLabelSpec& spec = cmd.addrlabel();
  bool labelled = false;
  while (!c.done()) {
    std::string key = c.next();
    if (is(key, "prefix")) {
      TRY_SET(spec.prefix, c.prefix(key, family));
    } else if (is(key, "dev")) {
      TRY_SET(spec.dev, c.device(key));
    } else if (is(key, "label")) {
      TRY_SET(spec.label, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        auto value = unsigned_any_base(text);
        if (!value || *value >= UINT32_MAX) return invarg("label is invalid\n", text);
        return static_cast<uint32_t>(*value);
      }));
      labelled = true;
    }
  }
  if (spec.prefix.empty()) return refused("Not enough information: \"prefix\" argument is required.", 1);
  if (!labelled) return refused("Not enough information: \"label\" argument is required.", 1);
  spec.family = family == AF_UNSPEC ? AF_INET6 : family;
  return std::move(cmd);
}

int table_family(const IpCommand& cmd) { return cmd.family == AF_UNSPEC ? AF_INET6 : cmd.family; }

}  // namespace

Parsed<IpCommand> parse_addrlabel(Cursor& c, IpCommand&& cmd, int family) {
  cmd.family = family;
  if (c.done()) {
    cmd.verb = &kAddrlabelShow;
    return std::move(cmd);
  }
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "lst") || matches(verb, "show")) {
    cmd.verb = &kAddrlabelShow;
    if (!c.done()) return refused("\"brisk addrlabel show\" does not take any arguments.", 1);
    return std::move(cmd);
  }
  if (matches(verb, "add")) return parse_addrlabel_change(c, std::move(cmd), &kAddrlabelAdd, family);
  if (matches(verb, "delete")) return parse_addrlabel_change(c, std::move(cmd), &kAddrlabelDel, family);
  if (matches(verb, "flush")) {
    cmd.verb = &kAddrlabelFlush;
    if (!c.done()) return refused("\"brisk addrlabel flush\" does not allow extra arguments", 1);
    return std::move(cmd);
  }
  if (matches(verb, "help")) return object_help(kAddrlabelUsage);
  return unknown_command(verb, "addrlabel");
}

std::string addrlabel_record(const netlink::AddrLabelInfo& l, const Links& all, Json& j) {
  std::string address = l.prefix.address.to_string();
  j["address"] = address;
  j["prefixlen"] = l.prefix.length;
  std::string t = "prefix " + address + "/" + std::to_string(l.prefix.length) + " ";
  if (l.ifindex) {
    j["ifname"] = name_of(l.ifindex, all);
    t += "dev " + name_of(l.ifindex, all) + " ";
  }
  j["label"] = l.label;
  return t + "label " + std::to_string(l.label) + " \n";
}

NlResult<void> show_addrlabels(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  auto labels = BRISK_TRY(netlink::list_addrlabels(*c, table_family(cmd)));
  if (labels.empty()) return {};
  const Links& all = BRISK_TRY(r.links_by_index(false));
  for (const auto& l : labels) {
    Json j;
    std::string t = addrlabel_record(l, all, j);
    if (r.globals().json)
      r.emit(std::move(j));
    else
      r.out() += t;
  }
  return {};
}

NlResult<void> flush_addrlabels(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  // Whatever fails, the dump or a delete, ip reports as its flush ending.
  auto flush_failed = [](netlink::NetlinkError e) {
    if (e.kernel) e.op = kAddrlabelFlushOp;
    return e;
  };
  auto listed = netlink::list_addrlabels(*c, table_family(cmd));
  if (!listed) return flush_failed(std::move(listed).error());
  auto& labels = *listed;
  if (labels.empty()) return {};
  const Links& all = BRISK_TRY(r.links_by_index(false));
  // As ip: one at a time, and the flush ends at the first that fails.
  netlink::Batch batch(*c, {.stop_at_first_error = true});
  for (const auto& l : labels)
    netlink::delete_addrlabel(batch, {.family = l.family,
                                      .prefix = l.prefix.to_string(),
                                      .dev = l.ifindex ? name_of(l.ifindex, all) : "",
                                      .label = l.label});
  for (auto& result : batch.flush())
    if (!result) return flush_failed(std::move(result).error());
  return {};
}

const Verb* const kAddrlabelVerbs[] = {&kAddrlabelAdd, &kAddrlabelDel, &kAddrlabelShow, &kAddrlabelFlush};
const IpObject kAddrlabelObject{
    .name = {"addrlabel"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_addrlabel(c, std::move(cmd), g.family); },
    .verbs = kAddrlabelVerbs,
    .usage = [] { return kAddrlabelUsage; }};

}  // namespace brisk::ipcli
