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

}  // namespace

std::string ip_pretty_json(const nlohmann::ordered_json& value) {
  Layout layout;
  layout.value(value);
  return layout.take();
}

}  // namespace brisk::ipcli
