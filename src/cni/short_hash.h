// short_hash.h: a stable 64-bit FNV-1a hash, for names that must fit a
// limit (index file names, nft comments) yet stay the same run to run.
#pragma once

#include <cstdint>
#include <string_view>

namespace brisk::cni::detail {

inline uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace brisk::cni::detail
