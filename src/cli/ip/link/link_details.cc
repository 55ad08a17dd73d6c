// The fields `ip -d link show` adds to every link: promiscuity and MTU
// limits on the link-layer line, the kind lines, then the IPv6 address
// generation mode and the queue and offload limits (iproute2 6.1's order).
#include "cli/ip/link/link_details.h"

#include <linux/if_link.h>

#include "cli/ip/detail_printer.h"

namespace brisk::ipcli {
namespace {

std::string addr_gen_mode_name(uint8_t mode) {
  switch (mode) {
    case IN6_ADDR_GEN_MODE_EUI64:
      return "eui64";
    case IN6_ADDR_GEN_MODE_NONE:
      return "none";
    case IN6_ADDR_GEN_MODE_STABLE_PRIVACY:
      return "stable_secret";
    case IN6_ADDR_GEN_MODE_RANDOM:
      return "random";
  }
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%#.2hhx", mode);
  return buffer;
}

// A kind line: "\n    <kind> " then the kind's attributes; the JSON keeps
// the kind under `kind_key` and its attributes under `data_key`.
void kind_line(const std::string& kind, const std::string& printer_kind, const std::vector<char>& data,
               const char* kind_key, const char* data_key, const std::function<std::string(int)>& name_of,
               std::string* text, DetailPrinter::Json* linkinfo) {
  if (text) *text += "\n    " + printer_kind + " ";
  DetailPrinter::Json fields = DetailPrinter::Json::object();
  if (linkinfo) (*linkinfo)[kind_key] = kind;
  DetailPrinter out(text, linkinfo ? &fields : nullptr);
  if (print_kind_data(printer_kind, data, out, name_of) && linkinfo)
    (*linkinfo)[data_key] = std::move(fields);
}

}  // namespace

void append_link_details(const netlink::LinkInfo& link, bool with_addrgenmode,
                         const std::function<std::string(int)>& name_of, std::string* text,
                         nlohmann::ordered_json* json) {
  if (!link.details) return;
  const netlink::LinkDetails& d = *link.details;
  DetailPrinter out(text, json);
  // ip's own spacing: " promiscuity N " then " allmulti N ", hence the double space.
  if (d.promiscuity) {
    out.json("promiscuity", *d.promiscuity);
    out.text(" promiscuity " + std::to_string(*d.promiscuity) + " ");
  }
  if (d.allmulti) {
    out.json("allmulti", *d.allmulti);
    out.text(" allmulti " + std::to_string(*d.allmulti) + " ");
  }
  if (d.min_mtu) out.field("min_mtu", "minmtu", *d.min_mtu);
  if (d.max_mtu) out.field("max_mtu", "maxmtu", *d.max_mtu);
  if (!link.kind.empty() || !d.slave_kind.empty()) {
    DetailPrinter::Json linkinfo = DetailPrinter::Json::object();
    DetailPrinter::Json* info = json ? &linkinfo : nullptr;
    if (!link.kind.empty())
      kind_line(link.kind, link.kind, d.info_data, "info_kind", "info_data", name_of, text, info);
    if (!d.slave_kind.empty())
      kind_line(d.slave_kind, d.slave_kind + "_slave", d.slave_data, "info_slave_kind", "info_slave_data",
                name_of, text, info);
    if (json) (*json)["linkinfo"] = std::move(linkinfo);
  }
  if (with_addrgenmode && d.addr_gen_mode)
    out.field("inet6_addr_gen_mode", "addrgenmode", addr_gen_mode_name(*d.addr_gen_mode));
  if (d.num_tx_queues) out.field("num_tx_queues", "numtxqueues", *d.num_tx_queues);
  if (d.num_rx_queues) out.field("num_rx_queues", "numrxqueues", *d.num_rx_queues);
  if (d.gso_max_size) out.field("gso_max_size", "gso_max_size", *d.gso_max_size);
  if (d.gso_max_segs) out.field("gso_max_segs", "gso_max_segs", *d.gso_max_segs);
  if (d.tso_max_size) out.field("tso_max_size", "tso_max_size", *d.tso_max_size);
  if (d.tso_max_segs) out.field("tso_max_segs", "tso_max_segs", *d.tso_max_segs);
  if (d.gro_max_size) out.field("gro_max_size", "gro_max_size", *d.gro_max_size);
}

}  // namespace brisk::ipcli
