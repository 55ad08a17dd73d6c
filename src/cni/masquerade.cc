#include "cni/masquerade.h"

#include <fmt/format.h>

#include "brisk/cni/error.h"
#include "cni/ip_math.h"
#include "cni/nft.h"
#include "cni/short_hash.h"

namespace brisk::cni::detail {
namespace {

constexpr const char* kTable = "brisk_cni";

const char* family_of(const netlink::IpPrefix& p) { return p.address.family == AF_INET ? "ip" : "ip6"; }

std::string setup(const char* family) {
  bool v4 = std::string(family) == "ip";
  const char* addr = v4 ? "ipv4_addr" : "ipv6_addr";
  const char* match = v4 ? "ip" : "ip6";
  const char* multicast = v4 ? "224.0.0.0/4" : "ff00::/8";
  // Every statement is idempotent, and the chain is flushed and refilled
  // in the same transaction, so concurrent ADDs always leave two rules.
  return fmt::format(
      "add table {0} {1}\n"
      "add chain {0} {1} postrouting {{ type nat hook postrouting priority srcnat; policy accept; }}\n"
      "add set {0} {1} pods {{ type {2}; }}\n"
      "add set {0} {1} local {{ type {2} . {2}; flags interval; }}\n"
      "flush chain {0} {1} postrouting\n"
      "add rule {0} {1} postrouting {3} saddr . {3} daddr @local accept\n"
      "add rule {0} {1} postrouting {3} saddr @pods {3} daddr != {4} masquerade\n",
      family, kTable, addr, match, multicast);
}

std::string subnet_text(const netlink::IpPrefix& p) {
  return fmt::format("{}/{}", network_of(p).to_string(), p.length);
}

std::string pods_element(const MasqEntry& e, bool with_comment) {
  if (!with_comment) return e.address.address.to_string();
  return fmt::format("{} comment \"{}\"", e.address.address.to_string(),
                     masquerade_comment(e.network, e.container_id, e.ifname));
}

std::string local_element(const MasqEntry& e) {
  return fmt::format("{} . {}", e.address.address.to_string(), subnet_text(e.address));
}

bool plain(const std::string& s) { return s.find_first_of("\"\\ ") == std::string::npos; }

std::string network_tag(const std::string& network) {
  return plain(network) && network.size() <= 40 ? network : fmt::format("#{:016x}", fnv1a(network));
}

std::vector<std::string> delete_commands(const std::vector<MasqEntry>& entries) {
  std::vector<std::string> commands;
  for (const auto& e : entries) {
    commands.push_back(fmt::format("delete element {} {} pods {{ {} }}", family_of(e.address), kTable,
                                   pods_element(e, false)));
    commands.push_back(
        fmt::format("delete element {} {} local {{ {} }}", family_of(e.address), kTable, local_element(e)));
  }
  return commands;
}

}  // namespace

std::string masquerade_comment(const std::string& network, const std::string& container_id,
                               const std::string& ifname) {
  std::string id = plain(container_id) && container_id.size() <= 64
                       ? container_id
                       : fmt::format("#{:016x}", fnv1a(container_id));
  std::string dev = plain(ifname) ? ifname : fmt::format("#{:016x}", fnv1a(ifname));
  return fmt::format("{} {} {}", network_tag(network), id, dev);
}

void masquerade_add(const std::vector<MasqEntry>& entries) {
  if (entries.empty()) return;
  std::string elements, setups;
  bool families[2] = {false, false};
  for (const auto& e : entries) {
    families[e.address.address.family == AF_INET ? 0 : 1] = true;
    elements +=
        fmt::format("add element {} {} pods {{ {} }}\n", family_of(e.address), kTable, pods_element(e, true));
    elements +=
        fmt::format("add element {} {} local {{ {} }}\n", family_of(e.address), kTable, local_element(e));
  }
  // Usually the tables are there: two elements are the whole transaction.
  // Rewriting the rules every time would cost a rule replacement, whose
  // release the kernel makes the caller wait for (12 ms measured here).
  Nft nft;
  if (nft.run(elements).empty()) return;
  if (families[0]) setups += setup("ip");
  if (families[1]) setups += setup("ip6");
  std::string error = nft.run(setups + elements);
  if (!error.empty()) fail(ErrorCode::internal, "failed to set up masquerading (nftables)", error);
}

void masquerade_del(const std::vector<MasqEntry>& entries) {
  delete_tolerating_missing(delete_commands(entries));
}

std::vector<MasqEntry> masquerade_find(const std::string& network, const std::string& container_id,
                                       const std::string& ifname) {
  std::string comment = masquerade_comment(network, container_id, ifname);
  std::vector<MasqEntry> found;
  for (const char* family : {"ip", "ip6"}) {
    std::vector<SetElement> locals = list_set(family, kTable, "local");
    for (const SetElement& pod : list_set(family, kTable, "pods")) {
      if (pod.comment != comment) continue;
      for (const SetElement& l : locals) {
        auto subnet = netlink::IpPrefix::parse(l.second);
        auto address = netlink::IpAddress::parse(pod.value);
        if (l.value == pod.value && subnet && address)
          found.push_back({{*address, subnet->length}, network, container_id, ifname});
      }
    }
  }
  return found;
}

void masquerade_gc(const std::string& network, const std::vector<Attachment>& keep) {
  std::vector<std::string> wanted;
  for (const auto& a : keep) wanted.push_back(masquerade_comment(network, a.container_id, a.ifname));
  std::string tag = network_tag(network) + " ";
  std::vector<std::string> commands;
  for (const char* family : {"ip", "ip6"}) {
    std::vector<SetElement> locals = list_set(family, kTable, "local");
    for (const SetElement& pod : list_set(family, kTable, "pods")) {
      if (pod.comment.rfind(tag, 0) != 0) continue;  // another network's
      if (std::find(wanted.begin(), wanted.end(), pod.comment) != wanted.end()) continue;
      commands.push_back(fmt::format("delete element {} {} pods {{ {} }}", family, kTable, pod.value));
      for (const SetElement& l : locals)
        if (l.value == pod.value)
          commands.push_back(
              fmt::format("delete element {} {} local {{ {} . {} }}", family, kTable, l.value, l.second));
    }
  }
  delete_tolerating_missing(commands);
}

}  // namespace brisk::cni::detail
