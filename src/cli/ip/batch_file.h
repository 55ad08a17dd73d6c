// cli/ip/batch_file.h: reading an -batch file (or "-", stdin).
#pragma once

#include <string>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

// The whole file, or a usage error naming it and errno's text.
Parsed<std::string> read_batch(const std::string& file);

}  // namespace brisk::ipcli
