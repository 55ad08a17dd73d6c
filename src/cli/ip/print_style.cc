#include "cli/ip/print_style.h"

#include <linux/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace brisk::ipcli {
namespace {

PrintStyle current;

// ip's palettes (lib/color.c), by Paint: light, then dark backgrounds.
constexpr const char* kLight[] = {"\033[36m", "\033[33m", "\033[35m", "\033[34m", "\033[32m", "\033[31m"};
constexpr const char* kDark[] = {"\033[1;36m", "\033[1;33m", "\033[1;35m",
                                 "\033[1;34m", "\033[1;32m", "\033[1;31m"};
constexpr const char* kClear = "\033[0m";

// COLORFGBG is "FG;BG" or "FG;X;BG"; its last field 0-6 or 8 is a dark background.
bool dark_background() {
  const char* value = std::getenv("COLORFGBG");
  const char* last = value ? std::strrchr(value, ';') : nullptr;
  return last && ((last[1] >= '0' && last[1] <= '6') || last[1] == '8') && last[2] == '\0';
}

}  // namespace

const PrintStyle& print_style() { return current; }

PrintStyle style_of(const Globals& g) {
  PrintStyle style{.numeric = g.numeric, .human = g.human, .iec = g.iec};
  if (!g.json &&
      (g.color == ColorMode::always || (g.color == ColorMode::automatic && ::isatty(STDOUT_FILENO)))) {
    style.color = true;
    style.dark = dark_background();
  }
  return style;
}

void set_print_style(const PrintStyle& style) { current = style; }

std::string paint(Paint paint, std::string_view text) {
  if (!current.color || paint == Paint::none) return std::string(text);
  std::string out = (current.dark ? kDark : kLight)[static_cast<int>(paint)];
  out += text;
  out += kClear;
  return out;
}

std::string paint_spaced(Paint paint, std::string_view text) {
  if (!current.color || paint == Paint::none) return std::string(text);
  std::string out = (current.dark ? kDark : kLight)[static_cast<int>(paint)];
  out += text;
  out += ' ';
  out += kClear;
  return out;
}

std::string settle_painted(std::string text) {
  if (!current.color) return text;
  static const std::string spaced = std::string(" ") + kClear + " ";
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(spaced, from)) != std::string::npos; from = at + spaced.size()) {
    out.append(text, from, at - from);
    out.append(spaced, 0, spaced.size() - 1);
  }
  out.append(text, from, std::string::npos);
  return out;
}

Paint family_paint(int family) {
  if (family == AF_INET) return Paint::inet;
  if (family == AF_INET6) return Paint::inet6;
  return Paint::none;
}

Paint operstate_paint(uint8_t operstate) {
  if (operstate == IF_OPER_UP) return Paint::up;
  if (operstate == IF_OPER_DOWN) return Paint::down;
  return Paint::none;
}

std::string human_count(uint64_t count) {
  const uint64_t base = current.iec ? 1024 : 1000;
  if (!current.human || count < base) return std::to_string(count);
  // ip's print_num(): the largest unit the count reaches, then as many
  // decimals as keep three significant digits.
  const char* unit = "kMGTPE";
  uint64_t scale = 1;
  for (;;) {
    scale *= base;
    if (count / base < scale || !unit[1]) break;
    ++unit;
  }
  int precision = 2;
  for (uint64_t limit = 10; precision > 0; --precision, limit *= 10)
    if (count / scale < limit) break;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f%c%s", precision,
                static_cast<double>(count) / static_cast<double>(scale), *unit, current.iec ? "i" : "");
  return text;
}

}  // namespace brisk::ipcli
