// ip -batch files: read whole, then split into numbered lines of words as
// ip's getcmdline and makeargs do.
#include "cli/ip/batch_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

namespace {

// makeargs's separators. A test per character: find_first_of() would call
// memchr for each one, and a batch is read a character at a time.
bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

// An upper bound on the words of `line`: runs of non-blanks (a quoted word
// with blanks inside counts more than once), so that its vector is sized once.
std::size_t words_at_most(std::string_view line) {
  std::size_t words = 0;
  bool in_word = false;
  for (char ch : line) {
    words += !blank(ch) && !in_word;
    in_word = !blank(ch);
  }
  return words;
}

}  // namespace

Parsed<bool> BatchSplitter::next(BatchLine& line) {
  while (!text_.empty()) {
    std::size_t nl = text_.find('\n');
    std::string_view raw = text_.substr(0, nl);
    bool had_newline = nl != std::string_view::npos;
    text_ = had_newline ? text_.substr(nl + 1) : std::string_view{};
    ++number_;
    // ip cuts at the first '#' (even inside quotes), then looks for "\\\n".
    std::string_view body = raw;
    bool comment = false;
    if (auto hash = body.find('#'); hash != std::string_view::npos) {
      body = body.substr(0, hash);
      comment = true;
    }
    bool continues = !comment && had_newline && !body.empty() && body.back() == '\\';
    if (continues) body.remove_suffix(1);
    if (continues || !pending_.empty()) pending_.append(body);
    if (continues) {
      if (text_.empty()) return fail(done(UsageError{"missing continuation line", number_}));
      continue;
    }
    // makeargs: blanks separate words; a word starting with a quote runs to the next same quote.
    std::string_view cp = pending_.empty() ? body : std::string_view(pending_);
    line.line = number_;
    line.end = size_ - text_.size();
    line.args.clear();
    line.args.reserve(words_at_most(cp));
    std::size_t at = 0;
    while (true) {
      while (at < cp.size() && blank(cp[at])) ++at;
      if (at == cp.size()) break;
      if (cp[at] == '\'' || cp[at] == '"') {
        std::size_t end = cp.find(cp[at], at + 1);
        if (end == std::string_view::npos)
          return fail(done(UsageError{"unterminated quoted string", number_}));
        line.args.emplace_back(cp.substr(at + 1, end - at - 1));
        at = end + 1;
      } else {
        std::size_t end = at;
        while (end < cp.size() && !blank(cp[end])) ++end;
        line.args.emplace_back(cp.substr(at, end - at));
        if (end == cp.size()) break;
        at = end + 1;
      }
    }
    pending_.clear();
    if (!line.args.empty()) return true;
  }
  return false;
}

UsageError BatchSplitter::done(UsageError error) {
  text_ = {};
  return error;
}

Parsed<std::vector<BatchLine>> split_batch(std::string_view text) {
  std::vector<BatchLine> lines;
  // Sized once: a batch is often thousands of lines.
  lines.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  BatchSplitter splitter(text);
  BatchLine line;
  for (;;) {
    auto more = splitter.next(line);
    if (!more) return fail(std::move(more).error());
    if (!*more) return lines;
    lines.push_back(std::move(line));
    line = {};
  }
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
  // Read straight into the string, sized once for a regular file: growing
  // it by copies would touch every page of a long batch two or three times.
  std::string text;
  struct stat st {};
  std::size_t chunk = 65536;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    chunk = static_cast<std::size_t>(st.st_size) + 1;  // +1: the read that sees the end
  std::size_t used = 0;
  for (;;) {
    // Grown only once full: after a regular file's single read the +1 byte
    // is room enough to see its end, with no second chunk zeroed and copied.
    if (text.size() == used) text.resize(used + chunk);
    ssize_t n = ::read(fd, text.data() + used, text.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      if (fd != STDIN_FILENO) ::close(fd);
      return fail(UsageError{"cannot read \"" + file + "\": " + std::strerror(err)});
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  text.resize(used);
  if (fd != STDIN_FILENO) ::close(fd);
  return text;
}

}  // namespace brisk::ipcli
