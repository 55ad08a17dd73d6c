// The executable's side of a plugin: reads the environment and stdin,
// writes what run() returns. Shared by brisk-bridge and brisk-portmap.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

#include "cni/plugin_edge.h"

namespace brisk::cni::detail {
namespace {

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

int plugin_main(PluginOutput (*run)(const PluginInput&), const char* about) {
  PluginInput input;
  input.getenv = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  // VERSION and the about text need no stdin; a runtime may leave it open.
  const char* command = std::getenv("CNI_COMMAND");
  if (command && *command && std::string(command) != "VERSION") {
    char buffer[65536];
    for (;;) {
      ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      input.stdin_data.append(buffer, static_cast<std::size_t>(n));
    }
  }
  input.about = about;
  PluginOutput out = run(input);
  if (!write_all(STDOUT_FILENO, out.stdout_data) || !write_all(STDERR_FILENO, out.stderr_data)) return 1;
  return out.exit_code;
}

}  // namespace brisk::cni::detail
