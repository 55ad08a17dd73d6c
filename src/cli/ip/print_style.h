// cli/ip/print_style.h: how the text of a show looks beyond its words, as
// ip's global options set it: colours (-c), numbers where names would be
// (-N), and counters a human reads (-h, -iec).
//
// ip keeps these in globals that every printer reads; so does brisk, set
// once per run (Runner::run) from its Globals before anything prints.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

struct PrintStyle {
  bool color = false;    // wrap names and addresses in ip's colours (-c, not with -j)
  bool dark = false;     // the dark-background palette: COLORFGBG's background is 0-6 or 8
  bool numeric = false;  // -N: tables, protocols, scopes, types and groups as numbers
  bool human = false;    // -h: counters as 1.23M
  bool iec = false;      // -iec: with -h, powers of 1024 ("Mi")
};

const PrintStyle& print_style();
// The style `g` asks for: colour only when -c says always, or auto with
// stdout a terminal, and never with -j (ip's check_enable_color).
PrintStyle style_of(const Globals& g);
void set_print_style(const PrintStyle& style);

// ip's colour classes (color.h's enum color_attr).
enum class Paint { ifname, mac, inet, inet6, up, down, none };
// `text` in the colour of `paint`, or as it is when colour is off.
std::string paint(Paint paint, std::string_view text);
// For ip's "%s " fields, whose trailing space is inside the colour: brisk's
// printers begin each field with a space instead, so the span takes the
// space in, and settle_painted() drops the one the next field brings.
std::string paint_spaced(Paint paint, std::string_view text);
// The output with each space that follows a paint_spaced() span removed;
// `text` as it is when colour is off.
std::string settle_painted(std::string text);
// ip's ifa_family_color(): inet, inet6, or none for another family.
Paint family_paint(int family);
// ip's oper_state_color(): UP green, DOWN red, the rest plain.
Paint operstate_paint(uint8_t operstate);

// A counter as ip's print_num() writes it under -h: below the base as it
// is, else three significant digits and a unit ("1.21k", "12.3Mi").
std::string human_count(uint64_t count);

}  // namespace brisk::ipcli
