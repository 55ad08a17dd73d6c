// ip -batch files: read whole, then split into numbered lines of words as
// ip's getcmdline and makeargs do.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/ip/batch_file.h"
#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

Parsed<std::vector<BatchLine>> split_batch(std::string_view text) {
  std::vector<BatchLine> lines;
  int number = 0;
  std::string pending;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    bool had_newline = nl != std::string_view::npos;
    text = had_newline ? text.substr(nl + 1) : std::string_view{};
    ++number;
    // ip cuts at the first '#' (even inside quotes), then looks for "\\\n".
    std::string_view body = raw;
    bool comment = false;
    if (auto hash = body.find('#'); hash != std::string_view::npos) {
      body = body.substr(0, hash);
      comment = true;
    }
    bool continues = !comment && had_newline && !body.empty() && body.back() == '\\';
    if (continues) body.remove_suffix(1);
    pending.append(body);
    if (continues) {
      if (text.empty()) return fail(UsageError{"missing continuation line", number});
      continue;
    }
    // makeargs: blanks separate words; a word starting with a quote runs to the next same quote.
    BatchLine line{.line = number};
    std::string_view cp = pending;
    constexpr std::string_view ws = " \t\r\n";
    while (true) {
      std::size_t start = cp.find_first_not_of(ws);
      if (start == std::string_view::npos) break;
      cp.remove_prefix(start);
      if (cp[0] == '\'' || cp[0] == '"') {
        char quote = cp[0];
        std::size_t end = cp.find(quote, 1);
        if (end == std::string_view::npos) return fail(UsageError{"unterminated quoted string", number});
        line.args.emplace_back(cp.substr(1, end - 1));
        cp.remove_prefix(end + 1);
      } else {
        std::size_t end = cp.find_first_of(ws);
        line.args.emplace_back(cp.substr(0, end));
        if (end == std::string_view::npos) break;
        cp.remove_prefix(end + 1);
      }
    }
    pending.clear();
    if (!line.args.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

std::string format_error(std::string_view message, bool exact) {
  if (exact) return std::string(message);
  std::string text = "Error: ";
  text += message;
  if (text.back() != '.') text += '.';
  return text;
}

Parsed<std::string> read_batch(const std::string& file) {
  int fd = file == "-" ? STDIN_FILENO : ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(UsageError{"cannot open file \"" + file + "\" for reading: " + std::strerror(errno)});
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      if (fd != STDIN_FILENO) ::close(fd);
      return fail(UsageError{"cannot read \"" + file + "\": " + std::strerror(err)});
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (fd != STDIN_FILENO) ::close(fd);
  return text;
}

}  // namespace brisk::ipcli
