// Shared by the parser tests: parse words as a command, expecting success or
// a usage error.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/ip/ip.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {

using Words = std::vector<std::string>;

inline IpCommand ok(const Words& words, const Globals& g = {}) {
  auto cmd = parse_command(words, g);
  EXPECT_TRUE(cmd) << (cmd ? "" : cmd.error().message);
  return cmd ? *cmd : IpCommand{};
}

inline UsageError error_of(const Words& words, const Globals& g = {}) {
  auto cmd = parse_command(words, g);
  EXPECT_FALSE(cmd) << "accepted";
  return cmd ? UsageError{} : cmd.error();
}

}  // namespace brisk::ipcli
