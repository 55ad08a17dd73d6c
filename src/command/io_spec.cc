// command/io_spec.cc: Input, Sink and AllowedExit.
#include <algorithm>
#include <charconv>
#include <istream>
#include <memory>

#include "brisk/command.h"

namespace brisk {

Input Input::data(std::string bytes) {
  Input input(Kind::data);
  input.text_ = std::move(bytes);
  return input;
}

Input Input::file(std::string path) {
  Input input(Kind::file);
  input.text_ = std::move(path);
  return input;
}

Input Input::fd(int descriptor) {
  Input input(Kind::fd);
  input.fd_ = descriptor;
  return input;
}

Input Input::callback(Source next_chunk) {
  Input input(Kind::callback);
  input.source_ = std::move(next_chunk);
  return input;
}

Input Input::stream(std::istream& in) {
  return callback([&in]() -> std::optional<std::string> {
    std::string chunk(std::size_t{64} << 10, '\0');
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.resize(static_cast<std::size_t>(in.gcount()));
    if (chunk.empty()) return std::nullopt;
    return chunk;
  });
}

Sink Sink::file(std::string path, bool append) {
  Sink sink(Kind::file);
  sink.path_ = std::move(path);
  sink.append_ = append;
  return sink;
}

Sink Sink::fd(int descriptor) {
  Sink sink(Kind::fd);
  sink.fd_ = descriptor;
  return sink;
}

Sink Sink::chunks(Callback on_chunk) {
  Sink sink(Kind::chunks);
  sink.callback_ = std::move(on_chunk);
  return sink;
}

Sink Sink::lines(Callback on_line) {
  Sink sink(Kind::lines);
  sink.callback_ = std::move(on_line);
  return sink;
}

AllowedExit::AllowedExit(std::initializer_list<int> codes) {
  for (int code : codes) ranges_.emplace_back(code, code);
}

AllowedExit AllowedExit::range(int first, int last) {
  AllowedExit allowed;
  allowed.ranges_ = {{std::min(first, last), std::max(first, last)}};
  return allowed;
}

AllowedExit& AllowedExit::operator|=(const AllowedExit& other) {
  ranges_.insert(ranges_.end(), other.ranges_.begin(), other.ranges_.end());
  return *this;
}

bool AllowedExit::allows(int code) const {
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [code](const auto& r) { return code >= r.first && code <= r.second; });
}

bool AllowedExit::allows(const ExitStatus& status) const {
  return status.kind == ExitStatus::Kind::exited && allows(status.value);
}

std::string AllowedExit::to_string() const {
  std::string text;
  for (const auto& [first, last] : ranges_) {
    if (!text.empty()) text += ',';
    text += std::to_string(first);
    if (last != first) text += "-" + std::to_string(last);
  }
  return text;
}

std::optional<AllowedExit> AllowedExit::parse(std::string_view text) {
  auto number = [](std::string_view s) -> std::optional<int> {
    int value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || value < 0 || value > 255) return std::nullopt;
    return value;
  };
  std::optional<AllowedExit> result;
  while (true) {
    std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    std::size_t dash = item.find('-');
    auto first = number(item.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *first > *last) return std::nullopt;
    AllowedExit piece = AllowedExit::range(*first, *last);
    if (result) {
      *result |= piece;
    } else {
      result = piece;
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return result;
}

}  // namespace brisk
