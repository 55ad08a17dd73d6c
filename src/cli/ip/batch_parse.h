// cli/ip/batch_parse.h: a batch file's lines split and parsed, a long one
// on two threads.
//
// Every line is parsed before anything is sent (a syntax error anywhere
// refuses the whole file), so parsing is all a batch does before the
// kernel sees its first request. A long file is cut in two at a line
// boundary, and each half is split and parsed on its own thread: a line's
// parse depends on nothing but its words and the global options.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

struct ParsedBatch {
  // One per line with words, in order, numbered; where the line did not
  // parse, an unparsed one (verb unparsed, nothing held) beside its error.
  // A plain change's text is a view of the batch's.
  std::vector<BatchCommand> cmds;
  // The lines' parse errors, numbered, with their index in cmds, in order:
  // few, so not a slot per line (a long batch's pages are what it costs).
  std::vector<std::pair<std::size_t, UsageError>> errors;
  std::vector<std::size_t> ends;  // BatchLine::end of each line
};

// split_batch(), then parse_command() for each line. The error is
// split_batch's (the first in the file), when it fails.
Parsed<ParsedBatch> parse_batch(std::string_view text, const Globals& globals);

// A batch command whole: the held one, or a plain change parsed again from
// its text (split into `scratch`, whose storage is reused line to line).
// The parse is the one that validated the line, so it succeeds again.
Parsed<IpCommand> parse_again(const BatchCommand& cmd, const Globals& globals, BatchLine& scratch);

}  // namespace brisk::ipcli
