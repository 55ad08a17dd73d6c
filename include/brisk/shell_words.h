// brisk/shell_words.h: POSIX-shell quoting without a shell.
//
// quote() makes an argument safe to paste into a shell, for logs and error
// messages; split_shell_words() does the reverse for one line of a batch file:
// single quotes, double quotes and backslashes as a POSIX shell reads them,
// but no expansion of any kind ($, `, ~, globs) and no operators (|, ;, > are
// ordinary characters). A word starting with # begins a comment.
//
//   brisk::quote("it's")                        // 'it'\''s'
//   brisk::split_shell_words(R"(a "b c" 'd')")  // {"a", "b c", "d"}
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "brisk/export.h"
#include "brisk/result.h"

namespace brisk {

// Returns the argument unchanged when it needs no quoting, else single-quoted.
BRISK_EXPORT std::string quote(std::string_view arg);
// The arguments quoted and joined by spaces: a line a shell would split back.
BRISK_EXPORT std::string join_quoted(std::span<const std::string> args);

// Why a line could not be split.
struct BRISK_EXPORT ShellWordsError {
  std::size_t column = 0;  // 1-based position of the offending character
  std::string what{};      // "unterminated single quote", ...

  std::string message() const;  // "column 7: unterminated single quote"
};

// Thrown by Result::value(): std::invalid_argument with the message.
[[noreturn]] BRISK_EXPORT BRISK_EXPORT void throw_error(const ShellWordsError& error);

// Splits one line into words. An empty result means a blank or comment line.
BRISK_EXPORT Result<std::vector<std::string>, ShellWordsError> split_shell_words(std::string_view line);

}  // namespace brisk
