// Fuzz target: a JSON-array line of `brisk run --batch` (["prog", "arg"...]),
// parsed by cli/run_batch_parse.cc. An accepted line is a non-empty argv that
// survives being written back as JSON and parsed again.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli/run_batch_parse.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> argv;
  auto error = brisk::cli::parse_json_line(text, argv);
  if (error) {
    FUZZ_CHECK(!error->empty());
    return 0;
  }
  FUZZ_CHECK(!argv.empty());
  std::vector<std::string> again;
  FUZZ_CHECK(!brisk::cli::parse_json_line(nlohmann::json(argv).dump(), again));
  FUZZ_CHECK(again == argv);
  return 0;
}
