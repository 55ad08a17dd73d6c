// bench/report_files.h: the small pieces every bench report file needs.
#pragma once

#include <string>
#include <vector>

namespace brisk::bench {

// One CSV line (RFC 4180 quoting where needed), ending in "\n".
std::string csv_row(const std::vector<std::string>& fields);

// Writes `text` to dir/name, creating dir; returns the path. Throws
// std::runtime_error naming the file on failure.
std::string write_text_file(const std::string& dir, const std::string& name, const std::string& text);

}  // namespace brisk::bench
