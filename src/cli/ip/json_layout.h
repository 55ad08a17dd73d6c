// cli/ip/json_layout.h: `-j -p` laid out as iproute2's json_writer lays it
// out, so that pretty output reads, and diffs, the same as ip's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace brisk::ipcli {

// Objects break a line before each member, indented four spaces per level;
// arrays stay on one line ("[ 1,2 ]"), and an object inside an array opens
// on the array's line ("[ {"). No trailing newline.
std::string ip_pretty_json(const nlohmann::ordered_json& value);

// A number ip writes in a fixed format ("0.00", where a JSON double would
// print "0.0"): held as marked text, and written bare by ip_json_text.
nlohmann::ordered_json ip_raw_number(const std::string& text);

// Adds `key` to `object` even when it holds one already: ip's writer does
// not look, and prints a route's encap "dst" after the route's own.
void append_member(nlohmann::ordered_json& object, const std::string& key, nlohmann::ordered_json value);

// The JSON as ip writes it: compact, or in -p's layout; raw numbers bare.
std::string ip_json_text(const nlohmann::ordered_json& value, bool pretty);

}  // namespace brisk::ipcli
