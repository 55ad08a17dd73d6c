#include "cli/ip/batch_parse.h"

#include <algorithm>
#include <system_error>
#include <thread>

namespace brisk::ipcli {
namespace {

// Below this a second thread costs more than it saves.
constexpr std::size_t kParallelBytes = 64 * 1024;

// Where a second thread may start: just past a newline near the middle
// that ends a line for certain (no backslash before it to join the next);
// 0 when there is none.
std::size_t cut_point(std::string_view text) {
  for (std::size_t at = text.find('\n', text.size() / 2); at != std::string_view::npos;
       at = text.find('\n', at + 1))
    if (at > 0 && text[at - 1] != '\\' && at + 1 < text.size()) return at + 1;
  return 0;
}

// One part of the batch, `offset` bytes and `lines_before` newlines into it.
struct Part {
  std::string_view text;
  std::size_t offset = 0;
  int lines_before = 0;
  std::optional<UsageError> split_error{};
  std::size_t count = 0;  // lines with words
};

// Splits `part` and parses its lines into out from `first`; the caller has
// made room for every newline of the part, and one more.
void split_and_parse(Part& part, const Globals& globals, ParsedBatch& out, std::size_t first) {
  auto lines = split_batch(part.text);
  if (!lines) {
    part.split_error = std::move(lines).error();
    part.split_error->line += part.lines_before;
    return;
  }
  part.count = lines->size();
  for (std::size_t k = 0; k < lines->size(); ++k) {
    const BatchLine& line = (*lines)[k];
    int number = line.line + part.lines_before;
    auto cmd = parse_command(line.args, globals);
    if (cmd) {
      out.cmds[first + k] = std::move(*cmd);
      out.cmds[first + k].line = number;
    } else {
      out.errors[first + k] = std::move(cmd).error();
      out.errors[first + k]->line = number;
    }
    out.ends[first + k] = line.end + part.offset;
  }
}

}  // namespace

Parsed<ParsedBatch> parse_batch(std::string_view text, const Globals& globals) {
  std::size_t cut = text.size() >= kParallelBytes ? cut_point(text) : 0;
  Part head{.text = text.substr(0, cut ? cut : text.size())};
  Part tail{.text = cut ? text.substr(cut) : std::string_view{}, .offset = cut};
  // Room for a line per newline (blank and comment lines leave a gap).
  auto newlines = [](std::string_view t) {
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
  };
  std::size_t head_room = newlines(head.text) + 1;
  tail.lines_before = static_cast<int>(head_room - 1);
  std::size_t room = head_room + (cut ? newlines(tail.text) + 1 : 0);
  ParsedBatch out;
  out.cmds.resize(room);
  out.errors.resize(room);
  out.ends.resize(room);
  std::thread second;
  if (cut) {
    try {
      second = std::thread([&] { split_and_parse(tail, globals, out, head_room); });
    } catch (const std::system_error&) {
      split_and_parse(tail, globals, out, head_room);  // no thread to be had
    }
  }
  split_and_parse(head, globals, out, 0);
  if (second.joinable()) second.join();
  if (head.split_error) return fail(std::move(*head.split_error));
  if (tail.split_error) return fail(std::move(*tail.split_error));
  // Close the gaps: after the tail's lines, then after the head's.
  auto close = [&](auto& v) {
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(head_room + tail.count), v.end());
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(head.count),
            v.begin() + static_cast<std::ptrdiff_t>(head_room));
  };
  close(out.cmds);
  close(out.errors);
  close(out.ends);
  return out;
}

}  // namespace brisk::ipcli
