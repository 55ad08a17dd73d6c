#include "cli/ip/batch_parse.h"

#include <algorithm>
#include <iterator>
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

// One part of the batch, `offset` bytes and `lines_before` newlines into it,
// and its lines once parsed.
struct Part {
  std::string_view text;
  std::size_t offset = 0;
  int lines_before = 0;
  std::optional<UsageError> split_error{};
  ParsedBatch parsed{};
};

// Splits `part` a line at a time and parses each line as it comes, into
// part.parsed with room for `room` lines. The vectors are only reserved,
// never filled ahead: a parsed line is ~1 KB, and the first touch of a page
// is what a long batch's parse mostly costs.
void split_and_parse(Part& part, const Globals& globals, std::size_t room) {
  ParsedBatch& out = part.parsed;
  out.cmds.reserve(room);
  out.errors.reserve(room);
  out.ends.reserve(room);
  BatchSplitter splitter(part.text);
  BatchLine line;
  for (;;) {
    auto more = splitter.next(line);
    if (!more) {
      part.split_error = std::move(more).error();
      part.split_error->line += part.lines_before;
      return;
    }
    if (!*more) return;
    int number = line.line + part.lines_before;
    auto cmd = parse_command(line.args, globals);
    if (cmd) {
      out.cmds.push_back(std::move(*cmd));
      out.cmds.back().line = number;
      out.errors.emplace_back();
    } else {
      out.cmds.emplace_back();
      out.errors.push_back(std::move(cmd).error());
      out.errors.back()->line = number;
    }
    out.ends.push_back(line.end + part.offset);
  }
}

}  // namespace

Parsed<ParsedBatch> parse_batch(std::string_view text, const Globals& globals) {
  std::size_t cut = text.size() >= kParallelBytes ? cut_point(text) : 0;
  Part head{.text = text.substr(0, cut ? cut : text.size())};
  Part tail{.text = cut ? text.substr(cut) : std::string_view{}, .offset = cut};
  // At most a line per newline, and one more.
  auto newlines = [](std::string_view t) {
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
  };
  std::size_t head_newlines = newlines(head.text);
  tail.lines_before = static_cast<int>(head_newlines);
  std::size_t tail_room = cut ? newlines(tail.text) + 1 : 0;
  std::thread second;
  if (cut) {
    try {
      second = std::thread([&] { split_and_parse(tail, globals, tail_room); });
    } catch (const std::system_error&) {
      split_and_parse(tail, globals, tail_room);  // no thread to be had
    }
  }
  // The head's vectors take the tail's lines after it, so room for both.
  split_and_parse(head, globals, head_newlines + 1 + tail_room);
  if (second.joinable()) second.join();
  if (head.split_error) return fail(std::move(*head.split_error));
  if (tail.split_error) return fail(std::move(*tail.split_error));
  ParsedBatch out = std::move(head.parsed);
  auto append = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  append(out.cmds, tail.parsed.cmds);
  append(out.errors, tail.parsed.errors);
  append(out.ends, tail.parsed.ends);
  return out;
}

}  // namespace brisk::ipcli
