// Fuzz target: an `ip -batch` file for `brisk link|addr|route|neigh|...`.
// split_batch splits it as iproute2 does; every line is then parsed as a
// command (parse_command, the grammar with its abbreviations and values),
// and as a whole command line (parse_globals). Parsing never touches the
// kernel, so hostile batch files are safe to feed here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/ip/ip.h"
#include "fuzz_check.h"

namespace ip = brisk::ipcli;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto lines = ip::split_batch(text);
  if (!lines) {
    FUZZ_CHECK(lines.error().line >= 1);
    FUZZ_CHECK(!ip::format_error(lines.error().message).empty());
    return 0;
  }
  ip::Globals globals;
  int previous = 0;
  for (const auto& line : *lines) {
    FUZZ_CHECK(!line.args.empty());
    FUZZ_CHECK(line.line > previous);
    previous = line.line;
    auto command = ip::parse_command(line.args, globals);
    if (!command) {
      FUZZ_CHECK(!ip::format_error(command.error().message).empty());
    } else {
      (void)command->mutates();
    }
    // The same words as a command line: "brisk <words>".
    std::vector<std::string> argv{"brisk"};
    argv.insert(argv.end(), line.args.begin(), line.args.end());
    (void)ip::is_ip_invocation(argv[1]);
    auto invocation = ip::parse_globals(argv);
    if (invocation && !invocation->args.empty())
      (void)ip::parse_command(invocation->args, invocation->globals);
  }
  return 0;
}
