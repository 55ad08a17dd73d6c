#include "cli/ip/json_layout.h"

namespace brisk::ipcli {
namespace {

// The state machine of iproute2's json_writer: `separator` is what goes
// before the next item (',' once a level has an item, none right after a
// key or an opening bracket).
class Layout {
 public:
  void value(const nlohmann::ordered_json& v) {
    if (v.is_object()) {
      open('{');
      for (const auto& [key, member] : v.items()) {
        end_of_record();
        new_line();
        separator_ = '\0';
        out_ += nlohmann::ordered_json(key).dump() + ": ";
        value(member);
      }
      close('}');
    } else if (v.is_array()) {
      open('[');
      out_ += ' ';
      for (const auto& element : v) value(element);
      if (separator_) out_ += ' ';
      separator_ = '\0';
      close(']');
    } else {
      end_of_record();
      out_ += v.dump();
    }
  }
  std::string take() { return std::move(out_); }

 private:
  void end_of_record() {
    if (separator_) out_ += separator_;
    separator_ = ',';
  }
  void new_line() {
    out_ += '\n';
    out_.append(4 * depth_, ' ');
  }
  void open(char bracket) {
    end_of_record();
    out_ += bracket;
    ++depth_;
    separator_ = '\0';
  }
  void close(char bracket) {
    --depth_;
    if (separator_) new_line();
    out_ += bracket;
    separator_ = ',';
  }

  std::string out_;
  std::size_t depth_ = 0;
  char separator_ = '\0';
};

// How dump() writes a string that starts with the marker byte 0x01.
constexpr std::string_view kRawOpen = "\"\\u0001";

}  // namespace

nlohmann::ordered_json ip_raw_number(const std::string& text) { return "\x01" + text; }

void append_member(nlohmann::ordered_json& object, const std::string& key, nlohmann::ordered_json value) {
  if (!object.is_object() || !object.contains(key)) {
    object[key] = std::move(value);
    return;
  }
  // ordered_json's object is a vector of members; its own insert keeps keys unique.
  object.get_ref<nlohmann::ordered_json::object_t&>().push_back({key, std::move(value)});
}

std::string ip_json_text(const nlohmann::ordered_json& value, bool pretty) {
  std::string text = pretty ? ip_pretty_json(value) : value.dump();
  std::size_t at = text.find(kRawOpen);
  if (at == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  for (; at != std::string::npos; at = text.find(kRawOpen, from)) {
    out.append(text, from, at - from);
    std::size_t start = at + kRawOpen.size(), end = text.find('"', start);
    out.append(text, start, end - start);  // digits and a point: nothing escaped
    from = end + 1;
  }
  out.append(text, from);
  return out;
}

std::string ip_pretty_json(const nlohmann::ordered_json& value) {
  Layout layout;
  layout.value(value);
  return layout.take();
}

}  // namespace brisk::ipcli
