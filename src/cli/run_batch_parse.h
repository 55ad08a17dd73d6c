// cli/run_batch_parse.h: the `brisk run --batch` file format, parsed without
// running anything. Separate from run_batch.cc so the fuzz targets and their
// replay tests (fuzz/) can feed it hostile files.
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brisk::cli {

struct BatchLine {
  std::size_t number = 0;
  std::vector<std::string> argv;
};

// A line that is a JSON array of strings, taken as argv as-is. Returns why
// it is not one, or nothing on success.
std::optional<std::string> parse_json_line(std::string_view text, std::vector<std::string>& argv);

// Parses every line; on the first malformed one returns "NAME:LINE: why".
std::optional<std::string> parse_batch(std::istream& in, const std::string& name,
                                       std::vector<BatchLine>& lines);

}  // namespace brisk::cli
