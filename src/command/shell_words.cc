#include "brisk/shell_words.h"

#include <stdexcept>

namespace brisk {
namespace {

// Characters that never need quoting in a POSIX shell.
bool is_plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/' || c == ',' || c == ':' || c == '+' || c == '=' || c == '@' || c == '%';
}

}  // namespace

std::string quote(std::string_view arg) {
  if (arg.empty()) return "''";
  bool plain = true;
  for (char c : arg) plain = plain && is_plain(c);
  if (plain) return std::string(arg);
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string join_quoted(std::span<const std::string> args) {
  std::string line;
  for (const auto& arg : args) {
    if (!line.empty()) line += ' ';
    line += quote(arg);
  }
  return line;
}

std::string ShellWordsError::message() const { return "column " + std::to_string(column) + ": " + what; }

void throw_error(const ShellWordsError& error) { throw std::invalid_argument(error.message()); }

Result<std::vector<std::string>, ShellWordsError> split_shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // distinguishes '' (an empty word) from nothing
  size_t i = 0;
  auto error = [](size_t at, const char* what) { return ShellWordsError{at + 1, what}; };
  while (i < line.size()) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '#' && !in_word) {
      break;  // a comment runs to the end of the line
    } else if (c == '\'') {
      size_t close = line.find('\'', i + 1);
      if (close == std::string_view::npos) return error(i, "unterminated single quote");
      word.append(line.substr(i + 1, close - i - 1));
      in_word = true;
      i = close + 1;
    } else if (c == '"') {
      size_t start = i++;
      for (;;) {
        if (i >= line.size()) return error(start, "unterminated double quote");
        char d = line[i];
        if (d == '"') break;
        if (d == '\\' && i + 1 < line.size()) {
          char next = line[i + 1];
          // Inside double quotes a backslash escapes only these; else it stays.
          if (next == '"' || next == '\\' || next == '$' || next == '`') {
            word += next;
            i += 2;
            continue;
          }
          if (next == '\n') {
            i += 2;
            continue;
          }
        }
        word += d;
        ++i;
      }
      in_word = true;
      ++i;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) return error(i, "backslash at end of line");
      if (line[i + 1] != '\n') {
        word += line[i + 1];
        in_word = true;
      }
      i += 2;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace brisk
