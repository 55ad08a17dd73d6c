// Fuzz target: a host-local lease store as anyone who can write it may
// leave it. The input, split at each "\n\n", gives the contents of up to 8
// lease files (10.1.0.2, 10.1.0.3, ...). The store is scanned, every lease
// looked up and released by the key its own content names, and then an
// address reserved. Whatever the contents:
//   - nothing is written outside the store's data directory, not even for a
//     while (the store sits four directories deep in a tree whose other
//     entries must not change);
//   - every lease the scan reads is found by its key, and gone once released;
//   - nothing throws but a CniException.
#include "cni/lease_store.h"

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "brisk/cni/error.h"
#include "fuzz_check.h"

namespace fs = std::filesystem;
using brisk::cni::CniException;
using brisk::cni::detail::LeaseKey;
using brisk::cni::detail::LeaseStore;
using brisk::netlink::IpAddress;

namespace {

// The tree the store lives in: <root>/a/b/c/data, made once per process
// and removed at exit. The path is kept in plain storage: the exit handler
// runs after function-local statics are destroyed.
char g_root[256];

const fs::path& root() {
  static const fs::path made = [] {
    std::string pattern = (fs::temp_directory_path() / "brisk-fuzz-lease-XXXXXX").string();
    FUZZ_CHECK(pattern.size() < sizeof g_root && ::mkdtemp(pattern.data()) != nullptr);
    pattern.copy(g_root, pattern.size());
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(g_root, ignored);
    });
    return fs::path(pattern);
  }();
  return made;
}

std::set<std::string> tree_outside(const fs::path& data) {
  std::set<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root()); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path() == data) {
      it.disable_recursion_pending();
      continue;
    }
    out.insert(it->path().string());
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, std::size_t size) {
  const fs::path data = root() / "a" / "b" / "c" / "data";
  fs::remove_all(data);
  fs::create_directories(data / "net");
  const std::set<std::string> before = tree_outside(data);

  std::string_view text(reinterpret_cast<const char*>(bytes), size);
  for (int i = 0; i < 8 && !text.empty(); ++i) {
    std::size_t cut = text.find("\n\n");
    std::string_view part = text.substr(0, cut);
    std::ofstream(data / "net" / ("10.1.0." + std::to_string(2 + i)), std::ios::binary)
        .write(part.data(), static_cast<std::streamsize>(part.size()));
    text = cut == std::string_view::npos ? std::string_view{} : text.substr(cut + 2);
  }
  try {
    LeaseStore store(data.string(), "net");
    auto leases = store.scan();
    for (const auto& [key, addresses] : leases) {
      std::set<std::string> held, scanned;
      for (const auto& a : store.held_by(key)) held.insert(a.to_string());
      for (const auto& a : addresses) scanned.insert(a.to_string());
      FUZZ_CHECK(held == scanned);
    }
    // Checked here too: a name that escaped, written by the lookups' index
    // rebuild, would be deleted again by the releases below.
    FUZZ_CHECK(tree_outside(data) == before);
    for (const auto& [key, addresses] : leases) {
      store.release(key);
      for (const auto& a : addresses) FUZZ_CHECK(!fs::exists(data / "net" / a.to_string()));
    }
    (void)store.reserve(*IpAddress::parse("10.1.0.20"), LeaseKey{"fuzz", "eth0"}, 0);
  } catch (const CniException& e) {
    FUZZ_CHECK(!e.error().msg.empty());
  }
  FUZZ_CHECK(tree_outside(data) == before);
  return 0;
}
