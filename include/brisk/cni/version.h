// brisk/cni/version.h: CNI spec versions, parsed and compared.
#pragma once

#include <array>
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace brisk::cni {

struct SpecVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  // "1.0.0", "0.4.0"; a missing minor or patch counts as 0 ("1.0"). nullopt when malformed.
  static std::optional<SpecVersion> parse(std::string_view text);
  std::string to_string() const;
  auto operator<=>(const SpecVersion&) const = default;
};

// Every version brisk-bridge speaks, oldest first; the last is the newest.
inline constexpr std::array<std::string_view, 7> kSupportedVersions = {"0.1.0", "0.2.0", "0.3.0", "0.3.1",
                                                                       "0.4.0", "1.0.0", "1.1.0"};
bool is_supported(std::string_view version);

}  // namespace brisk::cni
