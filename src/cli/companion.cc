#include "cli/companion.h"

#include <filesystem>

#include "brisk/spawn.h"

namespace brisk::cli {
namespace {

namespace fs = std::filesystem;

// installed_dir: where the other program is installed, relative to the
// directory this one is installed in (from CMake's install directories).
Result<std::vector<std::string>> candidates(const char* name, const char* installed_dir) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return SysError{.code = ec.value(), .call = "readlink", .object = "/proc/self/exe"};
  fs::path dir = self.parent_path();
  return std::vector<std::string>{(dir / name).string(),
                                  (dir / installed_dir / name).lexically_normal().string()};
}

}  // namespace

Result<std::vector<std::string>> bench_program_candidates() {
  return candidates(kBenchProgram, BRISK_LIBEXEC_FROM_BIN);
}

Result<std::vector<std::string>> cli_program_candidates() {
  return candidates(kCliProgram, BRISK_BIN_FROM_LIBEXEC);
}

std::string first_executable(const std::vector<std::string>& candidates) {
  for (const auto& path : candidates)
    if (find_program(path)) return path;  // each has a slash: checked as is
  return "";
}

std::string join_paths(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& path : paths) out += (out.empty() ? "" : " or ") + path;
  return out;
}

}  // namespace brisk::cli
