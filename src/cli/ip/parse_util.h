// cli/ip/parse_util.h: the pieces every object's parser is made of: ip's
// keyword matching, its usage errors, and one call per keyword and value
// (Cursor::number, Cursor::link_name, ...), each value validated as it is
// read so a bad batch line is refused before anything is sent.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

using Args = std::span<const std::string>;

// A usage error (exit 255) with `message`.
Failure<UsageError> usage(std::string message);
// ip's usage() of an object: its help text, printed as `OBJECT help` asks.
Failure<UsageError> object_help(std::string_view usage);

// word == keyword, without the strlen and compare() of std::string's
// operator== on a literal: each word of a batch line meets a chain of these.
inline bool is(const std::string& word, std::string_view keyword) {
  return std::string_view(word) == keyword;
}

// ip's matches(): a non-empty prefix of the keyword. Inline, so that a
// literal keyword's length is known where it is called, not measured.
inline bool matches(std::string_view arg, std::string_view word) {
  return !arg.empty() && arg.size() <= word.size() && word.substr(0, arg.size()) == arg;
}

// ip's "either KEY is duplicate, or WORD is a garbage".
Failure<UsageError> garbage(const std::string& key, const std::string& word);

// ip's duparg(): "duplicate KEY: VALUE is the second value".
Failure<UsageError> duplicate(const std::string& key, const std::string& value);

// "argument VALUE is wrong: WHAT." in brisk's words, where ip has none.
Failure<UsageError> invalid(const std::string& what, const std::string& value);
// ip's invarg(): "argument VALUE is wrong: WHAT", exactly; many of ip's
// WHATs end in a newline of their own, printed as a blank line.
Failure<UsageError> invarg(const std::string& what, const std::string& value);

// An unsigned decimal or 0x-hex number of at most `max`, as ip's get_unsigned().
template <class T>
Parsed<T> number(const std::string& key, const std::string& text, T max = std::numeric_limits<T>::max()) {
  uint64_t value = 0;
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || value > uint64_t(max))
    return invarg("Invalid \"" + key + "\" value\n", text);  // ip link's wording
  return static_cast<T>(value);
}

// A name for a new device (or a rename): at most 15 bytes.
Parsed<std::string> link_name(const std::string& key, const std::string& text);
// A name for an existing device, which may be an altname of any length (as
// ip's check_altifname: no '/' or whitespace); the kernel looks it up.
Parsed<std::string> device_name(const std::string& key, const std::string& text);
Parsed<std::string> mac(const std::string& key, const std::string& text);
// ip's ll_addr_a2n(): hex bytes split by ':', each as sscanf's %x reads it
// ("2:0:0:0:0:1"), written back as "02:00:00:00:00:01"; a bad byte is ip's
// failed line ("\"zz\" is invalid lladdr."). brisk takes 6-byte addresses.
Parsed<std::string> ll_address(const std::string& text);
Parsed<std::string> ip_address(const std::string& key, const std::string& text, int family);
Parsed<std::string> ip_prefix(const std::string& key, const std::string& text, int family);
Parsed<bool> on_off(const std::string& key, const std::string& text);
// ip's parse_on_off(): "off" or "on", each by any prefix ("o" is off); a
// failed line with its "must be one of" text otherwise (status 22, EINVAL,
// for a single command; 1 in a batch).
Parsed<bool> one_of_off_on(const std::string& key, const std::string& text);
Parsed<uint8_t> scope_value(const std::string& text);  // a scope name or number
// A protocol to set (RTPROT_*): a name of rt_protos, or a number.
Parsed<uint8_t> protocol_value(const std::string& text);
// ip's get_rt_realms_or_raw(): "[SRC/]DST" by realm names or numbers, else
// one raw number, as RTA_FLOW's (SRC << 16) | DST; `what` is ip's invarg text.
Parsed<uint32_t> realms_value(const std::string& text, const std::string& what);
// A show's protocol selector: likewise, or "all" for any (nullopt).
Parsed<std::optional<uint8_t>> protocol_selector(const std::string& text);

// A command ip's parser refuses by returning an error, with its text as is
// and its status ("preferred_lft is greater than valid_lft"): a failed line
// in a batch, after which -force goes on.
Failure<UsageError> refused(std::string text, int exit_code = 1);
// What ip's parser ends the process with, exit(exit_code), text as is
// ("Error: inet prefix is expected rather than ...").
Failure<UsageError> fatal(std::string text, int exit_code);
// ip's "Command "VERB" is unknown, try "ip OBJECT help"." (exit 255), in brisk's name.
Failure<UsageError> unknown_command(const std::string& verb, const std::string& object);

// Walks the words after the verb; each keyword's value is read, and
// checked, in one call.
class Cursor {
 public:
  explicit Cursor(Args args) : args_(args) {}
  bool done() const { return i_ >= args_.size(); }
  std::size_t left() const { return done() ? 0 : args_.size() - i_; }  // words not yet read
  const std::string& peek() const { return args_[i_]; }
  const std::string& next() { return args_[i_++]; }
  // The word after keyword `key`, or ip's "Command line is not complete".
  Parsed<std::string> value(const std::string& key);
  // The value after `key`, checked by `parse` (text -> Parsed<T>).
  template <class Parse>
  auto read(const std::string& key, Parse&& parse) -> decltype(parse(std::string())) {
    auto text = value(key);
    if (!text) return text.error();
    return parse(*text);
  }
  template <class T>
  Parsed<T> number(const std::string& key, T max = std::numeric_limits<T>::max()) {
    return read(key, [&key, max](const std::string& text) { return ipcli::number<T>(key, text, max); });
  }
  Parsed<std::string> link_name(const std::string& key);
  // A new device's name that may be given once: a second one is ip's "duplicate, or garbage".
  Parsed<std::string> sole_link_name(const std::string& key, const std::string& already);
  // An existing device (device_name), named once.
  Parsed<std::string> device(const std::string& key);
  Parsed<std::string> sole_device(const std::string& key, const std::string& already);
  Parsed<std::string> mac(const std::string& key);
  Parsed<std::string> ll_address(const std::string& key);
  Parsed<std::string> address(const std::string& key, int family);
  Parsed<std::string> prefix(const std::string& key, int family);
  Parsed<bool> on_off(const std::string& key);
  Parsed<uint8_t> scope(const std::string& key);

 private:
  Args args_;
  std::size_t i_ = 0;
};

// Assigns a parsed value, or returns its usage error from the parser.
#define TRY_SET(target, expr)               \
  do {                                      \
    auto try_set_ = (expr);                 \
    if (!try_set_) return try_set_.error(); \
    target = std::move(*try_set_);          \
  } while (0)

}  // namespace brisk::ipcli
