#include "bench/find_program.h"

#include <cstdlib>
#include <optional>

#include "spawn/program_path.h"

namespace brisk::bench {

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  auto found = brisk::detail::find_executable(
      name, brisk::detail::split_search_path(path ? std::optional<std::string>(path) : std::nullopt));
  return found ? *found : std::string();
}

}  // namespace brisk::bench
