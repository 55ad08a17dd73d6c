#include "brisk/cni/version.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace brisk::cni {

std::optional<SpecVersion> SpecVersion::parse(std::string_view text) {
  int parts[3] = {0, 0, 0};
  std::size_t i = 0;
  for (int n = 0; n < 3; ++n) {
    const char* begin = text.data() + i;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, parts[n]);
    if (ec != std::errc{} || ptr == begin || parts[n] < 0) return std::nullopt;
    i = static_cast<std::size_t>(ptr - text.data());
    if (i == text.size()) return SpecVersion{parts[0], parts[1], parts[2]};
    if (text[i] != '.' || n == 2) return std::nullopt;
    ++i;
  }
  return std::nullopt;
}

std::string SpecVersion::to_string() const { return fmt::format("{}.{}.{}", major, minor, patch); }

bool is_supported(std::string_view version) {
  return std::find(kSupportedVersions.begin(), kSupportedVersions.end(), version) != kSupportedVersions.end();
}

}  // namespace brisk::cni
