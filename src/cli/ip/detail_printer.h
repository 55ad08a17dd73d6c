// cli/ip/detail_printer.h: writes one value in both of ip's forms at once,
// as iproute2's print_*(PRINT_ANY, key, "word %s ", value) does: "word value "
// in the text, key: value in the JSON object.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "cli/ip/json_layout.h"

namespace brisk::ipcli {

class DetailPrinter {
 public:
  using Json = nlohmann::ordered_json;
  // Either form may be null: a show prints one of them, and building the
  // other for thousands of links would double the work.
  DetailPrinter(std::string* text, Json* json) : text_(text), json_(json) {}

  // A number or string: "word value " and key: value.
  void field(const char* key, const char* word, uint64_t value) {
    if (json_) (*json_)[key] = value;
    if (text_) append(word, std::to_string(value));
  }
  void field(const char* key, const char* word, const std::string& value) {
    if (json_) (*json_)[key] = value;
    if (text_) append(word, value);
  }
  // "word on|off " and key: true|false.
  void on_off(const char* key, const char* word, bool on) {
    if (json_) (*json_)[key] = on;
    if (text_) append(word, on ? "on" : "off");
  }
  // ip's print_0xhex("%#llx"): "0" for zero, else "0x..."; a string in JSON too.
  void hex(const char* key, const char* word, uint64_t value) { field(key, word, hex_text(value)); }
  // A bridge timer in hundredths of a second: "word %4i.%.2i " and a number.
  void timer(const char* key, uint64_t centis) {
    char value[32];
    std::snprintf(value, sizeof value, "%u.%.2u", static_cast<unsigned>(centis / 100),
                  static_cast<unsigned>(centis % 100));
    char padded[40];
    std::snprintf(padded, sizeof padded, "%7s", value);  // ip's "%4i.%.2i"
    if (text_) append(key, padded);
    // The number as ip writes it: "0.00", not a double's "0.0".
    if (json_) (*json_)[key] = ip_raw_number(value);
  }
  void text(const std::string& words) {
    if (text_) *text_ += words;
  }
  void json(const char* key, Json value) {
    if (json_) (*json_)[key] = std::move(value);
  }

  static std::string hex_text(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%#llx", static_cast<unsigned long long>(value));
    return buffer;
  }

 private:
  void append(const char* word, std::string_view value) {
    *text_ += word;
    *text_ += ' ';
    *text_ += value;
    *text_ += ' ';
  }
  std::string* text_;
  Json* json_;
};

// Prints the attributes of a kind's IFLA_INFO_DATA (or, for "<kind>_slave",
// of a port's IFLA_INFO_SLAVE_DATA) as ip 6.1 does. Returns false for kinds
// ip has no printer for (veth, ...), which show no data object.
bool print_kind_data(const std::string& kind, std::span<const char> data, DetailPrinter& out,
                     const std::function<std::string(int)>& name_of);

}  // namespace brisk::ipcli
