#include "cli/run_batch_parse.h"

#include <nlohmann/json.hpp>

#include "brisk/shell_words.h"

namespace brisk::cli {

std::optional<std::string> parse_json_line(std::string_view text, std::vector<std::string>& argv) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return "invalid JSON array";
  if (!j.is_array()) return "expected a JSON array of strings";
  for (const auto& item : j) {
    if (!item.is_string()) return "expected a JSON array of strings";
    argv.push_back(item.get<std::string>());
  }
  if (argv.empty()) return "empty JSON array";
  return std::nullopt;
}

std::optional<std::string> parse_batch(std::istream& in, const std::string& name,
                                       std::vector<BatchLine>& lines) {
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    std::size_t start = text.find_first_not_of(" \t\r");
    if (start == std::string::npos || text[start] == '#') continue;
    BatchLine line{number, {}};
    if (text[start] == '[') {
      if (auto error = parse_json_line(std::string_view(text).substr(start), line.argv))
        return name + ":" + std::to_string(number) + ": " + *error;
    } else {
      auto words = split_shell_words(text);
      if (!words) return name + ":" + std::to_string(number) + ": " + words.error().message();
      line.argv = std::move(*words);
      if (line.argv.empty()) continue;
    }
    lines.push_back(std::move(line));
  }
  if (in.bad()) return name + ": read error";
  return std::nullopt;
}

}  // namespace brisk::cli
