#include "cli/ip/batch_parse.h"

#include <algorithm>
#include <iterator>
#include <system_error>
#include <thread>

#include "cli/ip/batch_rules.h"

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
// part.parsed with room for `room` lines. A plain change keeps its text,
// not its command (BatchCommand), and the vectors are only reserved, never
// filled ahead: the first touch of a page is what a long batch's parse
// mostly cost.
void split_and_parse(Part& part, const Globals& globals, std::size_t room) {
  ParsedBatch& out = part.parsed;
  out.cmds.reserve(room);
  out.ends.reserve(room);
  BatchSplitter splitter(part.text);
  BatchLine line;
  std::size_t begin = 0;  // where the line's text starts: the end of the one before
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
    std::string_view text = part.text.substr(begin, line.end - begin);
    begin = line.end;
    if (cmd) {
      BatchCommand& kept = out.cmds.emplace_back(BatchCommand{.verb = cmd->verb, .line = number});
      if (is_plain_change(*cmd)) {
        kept.text = text;
      } else {
        cmd->line = number;
        kept.held = std::make_unique<IpCommand>(std::move(*cmd));
      }
    } else {
      out.errors.emplace_back(out.cmds.size(), std::move(cmd).error());
      out.errors.back().second.line = number;
      out.cmds.push_back(BatchCommand{.line = number});
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
  for (auto& [index, error] : tail.parsed.errors) index += out.cmds.size();
  append(out.cmds, tail.parsed.cmds);
  append(out.errors, tail.parsed.errors);
  append(out.ends, tail.parsed.ends);
  return out;
}

Parsed<IpCommand> parse_again(const BatchCommand& cmd, const Globals& globals, BatchLine& scratch) {
  if (cmd.held) return *cmd.held;
  BatchSplitter splitter(cmd.text);
  auto more = splitter.next(scratch);
  if (!more) return fail(std::move(more).error());
  if (!*more) return fail(UsageError{.message = "no command on the line", .line = cmd.line});
  auto again = parse_command(scratch.args, globals);
  if (again) again->line = cmd.line;
  return again;
}

}  // namespace brisk::ipcli
