// spawn/program_path.h: PATH search, done in the parent as execvp would do it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "brisk/result.h"

namespace brisk::detail {

// The directories of a PATH value; an empty entry means ".". With no PATH,
// the default of glibc's execvp for a root-capable process.
std::vector<std::string> split_search_path(const std::optional<std::string>& path);

std::string join_path(const std::string& dir, const std::string& name);

// The first regular file named `name` in `dirs` that this process may
// execute. ENOENT when there is none; EACCES when one exists but none may be
// executed (execvp reports the same).
Result<std::string> find_executable(const std::string& name, const std::vector<std::string>& dirs);

}  // namespace brisk::detail
