// netlink/internal/delete_prediction.h: what deleting links by name, in
// order, does to each, replayed on one dump of the namespace (list_links):
// the prediction a batch coalesces deletes by, and by which brisk's CLI
// schedules them too. Defined in libbrisk (delete_prediction.cc), not
// exported from it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "brisk/netlink/link.h"

namespace brisk::netlink {

enum class DeleteOutcome : uint8_t {
  deleted,        // it exists, and goes with its peer and what is stacked on it
  missing,        // no such device: ENODEV
  gone_earlier,   // removed by an earlier delete of the run (its peer or lower device): ENODEV
  unpredictable,  // a device without rtnl_link_ops (lo, hardware): the kernel may refuse
};
std::vector<DeleteOutcome> predict_link_deletes(std::span<const LinkInfo> links,
                                                std::span<const std::string> names);

}  // namespace brisk::netlink
