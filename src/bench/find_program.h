// bench/find_program.h: optional tools (gnuplot, ruby) looked up on PATH.
#pragma once

#include <string>

namespace brisk::bench {

// The program's path when `name` is on this process's PATH, else empty.
std::string find_on_path(const std::string& name);

}  // namespace brisk::bench
