// The link kind registry: filled before main by each kind file's
// BRISK_LINK_KIND, read-only after.
#include "cli/ip/link/link_kind.h"

#include <linux/netlink.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace brisk::ipcli {
namespace {

// Function-local, so it exists whichever kind file's registrar runs first.
std::vector<const LinkKindModule*>& registry() {
  static std::vector<const LinkKindModule*> modules;
  return modules;
}

std::vector<std::string>& conflicts() {
  static std::vector<std::string> names;
  return names;
}

}  // namespace

bool register_link_kind(const LinkKindModule& module) {
  auto& modules = registry();
  auto at = std::lower_bound(modules.begin(), modules.end(), module.name,
                             [](const LinkKindModule* m, std::string_view name) { return m->name < name; });
  if (at != modules.end() && (*at)->name == module.name) {
    conflicts().emplace_back(module.name);
    return false;
  }
  modules.insert(at, &module);
  return true;
}

std::span<const std::string> link_kind_conflicts() { return conflicts(); }

std::span<const LinkKindModule* const> link_kinds() { return registry(); }

const LinkKindModule* find_link_kind(std::string_view name) {
  const auto& modules = registry();
  auto at = std::lower_bound(modules.begin(), modules.end(), name,
                             [](const LinkKindModule* m, std::string_view n) { return m->name < n; });
  return at != modules.end() && (*at)->name == name ? *at : nullptr;
}

KindDevice kind_device(const netlink::LinkKind& kind) {
  for (const auto* module : registry()) {
    if (!module->named_device) continue;
    if (auto device = module->named_device(kind); !device.name.empty()) return device;
  }
  return {};
}

void put_attr(std::vector<char>& data, uint16_t type, std::span<const uint8_t> value) {
  nlattr header{.nla_len = static_cast<uint16_t>(NLA_HDRLEN + value.size()), .nla_type = type};
  std::size_t at = data.size();
  data.resize(at + NLA_ALIGN(header.nla_len));  // zero padding, as the kernel pads
  std::memcpy(data.data() + at, &header, sizeof header);
  if (!value.empty()) std::memcpy(data.data() + at + NLA_HDRLEN, value.data(), value.size());
}

void put_u32(std::vector<char>& data, uint16_t type, uint32_t value) {
  put_attr(data, type, {reinterpret_cast<const uint8_t*>(&value), sizeof value});
}

std::string second_device(const netlink::LinkKind& kind) {
  for (const auto* module : registry()) {
    if (!module->second_device) continue;
    if (auto name = module->second_device(kind); !name.empty()) return name;
  }
  return {};
}

}  // namespace brisk::ipcli
