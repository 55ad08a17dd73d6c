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

}  // namespace brisk::ipcli
