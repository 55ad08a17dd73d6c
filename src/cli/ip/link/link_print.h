// cli/ip/link_print.h: a link as `ip link show` and `ip addr show` print it
// (ip's print_linkinfo): the header line, the link layer, -d's details,
// -s's counters, and ip -br's one line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/ip/runner.h"

namespace brisk::ipcli {

// How a link is being printed.
struct LinkView {
  const Globals& globals;    // -d, -s, -j
  const Links& all;          // every link, to name masters and peers
  Runner* runner = nullptr;  // names netns ids for link-netns, on first need
  bool for_addr = false;     // under addr show (or monitor): no "mode", counters after the addresses
  bool inet6_dump = false;   // read through the kernel's IPv6 link dump: no qdisc, master or group
  int family = AF_UNSPEC;    // addr show's family (-4/-6 or to's): no link layer unless -d
  bool queue = true;         // "qlen": link and addr show print it, monitor does not
};

Json link_json(const netlink::LinkInfo& l, const LinkView& view);
std::string link_text(const netlink::LinkInfo& l, const LinkView& view);
// ip -br: name (with its @peer), operstate, then the link-layer address and
// flags (link show) or each address as ADDR/LEN (addr show, addrs given);
// a JSON record or a text line.
void print_brief(Runner& r, const netlink::LinkInfo& l, const Links& all,
                 const std::vector<netlink::AddressInfo>* addrs);

// ip -s's counters; -s -s (`detailed`) adds the error counters.
Json stats_json(const netlink::LinkStats& s, bool detailed);
std::string stats_text(const netlink::LinkStats& s, bool detailed);

// The words `state` and `mode` print, read back by `link add|set … state|mode`
// (any case, as ip): IF_OPER_* and IF_LINK_MODE_DEFAULT|DORMANT.
std::optional<uint8_t> operstate_number(const std::string& word);
std::optional<uint8_t> linkmode_number(const std::string& word);

}  // namespace brisk::ipcli
