// Fuzz target: a `brisk run --batch` file. Lines go through the same parser
// the CLI uses (cli/run_batch_parse.cc: shell words, or a JSON array when the
// line starts with '['), and the whole input through split_shell_words,
// whose output must survive a quote/split round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "brisk/shell_words.h"
#include "cli/run_batch_parse.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);

  std::istringstream in(text);
  std::vector<brisk::cli::BatchLine> lines;
  auto error = brisk::cli::parse_batch(in, "fuzz", lines);
  if (error) FUZZ_CHECK(error->rfind("fuzz:", 0) == 0);
  std::size_t previous = 0;
  for (const auto& line : lines) {
    FUZZ_CHECK(!line.argv.empty());  // blank and comment lines are skipped, never empty commands
    FUZZ_CHECK(line.number > previous);
    previous = line.number;
  }

  auto words = brisk::split_shell_words(text);
  if (!words) {
    FUZZ_CHECK(words.error().column >= 1 && words.error().column <= size);
    return 0;
  }
  // What join_quoted prints in an error message must split back to the same argv.
  auto again = brisk::split_shell_words(brisk::join_quoted(*words));
  FUZZ_CHECK(static_cast<bool>(again));
  FUZZ_CHECK(*again == *words);
  return 0;
}
