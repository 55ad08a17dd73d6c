// CNI_* validation, as libcni's pkg/skel and pkg/utils do it, so that a
// runtime sees the same codes from brisk-bridge as from the reference.
#include "brisk/cni/environment.h"

#include <fmt/format.h>

#include <algorithm>

#include "brisk/cni/error.h"

namespace brisk::cni {
namespace {

// ^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$, the spec's container id and network name.
bool valid_cni_name(std::string_view s) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (s.empty() || !alnum(s[0])) return false;
  return std::all_of(s.begin(), s.end(),
                     [&](char c) { return alnum(c) || c == '_' || c == '.' || c == '-'; });
}

std::optional<Command> parse_command(std::string_view s) {
  if (s == "ADD") return Command::add;
  if (s == "DEL") return Command::del;
  if (s == "CHECK") return Command::check;
  if (s == "VERSION") return Command::version;
  if (s == "STATUS") return Command::status;
  if (s == "GC") return Command::gc;
  return std::nullopt;
}

bool truthy(std::string_view v) {
  return v == "1" || v == "true" || v == "True" || v == "TRUE" || v == "t" || v == "T";
}

}  // namespace

void validate_container_id(std::string_view id) {
  if (id.empty()) fail(ErrorCode::unknown_container, "missing containerID");
  if (!valid_cni_name(id))
    fail(ErrorCode::invalid_environment, "invalid characters in containerID", std::string(id));
}

void validate_network_name(std::string_view name) {
  if (name.empty()) fail(ErrorCode::invalid_config, "missing network name");
  if (!valid_cni_name(name))
    fail(ErrorCode::invalid_config, "invalid characters found in network name", std::string(name));
}

void validate_interface_name(std::string_view name) {
  if (name.empty()) fail(ErrorCode::invalid_environment, "interface name is empty");
  if (name.size() > 15)
    fail(ErrorCode::invalid_environment, "interface name is too long",
         "interface name should be less than 16 characters");
  if (name == "." || name == "..") fail(ErrorCode::invalid_environment, "interface name is . or ..");
  for (unsigned char c : name)
    if (c == '/' || c == ':' || c == ' ' || (c >= '\t' && c <= '\r'))
      fail(ErrorCode::invalid_environment, "interface name contains / or : or whitespace characters");
}

std::optional<Environment> read_environment(const GetEnv& getenv) {
  auto get = [&](const char* name) { return getenv(name).value_or(""); };
  std::string command_text = get("CNI_COMMAND");
  if (command_text.empty()) return std::nullopt;
  std::optional<Command> command = parse_command(command_text);
  if (!command) fail(ErrorCode::invalid_environment, fmt::format("unknown CNI_COMMAND: {}", command_text));

  Environment env;
  env.command = *command;
  env.container_id = get("CNI_CONTAINERID");
  env.netns = get("CNI_NETNS");
  env.ifname = get("CNI_IFNAME");
  env.args = get("CNI_ARGS");
  std::string path = get("CNI_PATH");

  // Which variables each command needs, as skel requires them. GC and
  // STATUS (spec 1.1) are given only CNI_COMMAND and CNI_PATH.
  bool per_attachment =
      env.command == Command::add || env.command == Command::del || env.command == Command::check;
  std::vector<std::string> missing;
  if (per_attachment && env.container_id.empty()) missing.push_back("CNI_CONTAINERID");
  if ((env.command == Command::add || env.command == Command::check) && env.netns.empty())
    missing.push_back("CNI_NETNS");
  if (per_attachment && env.ifname.empty()) missing.push_back("CNI_IFNAME");
  if (per_attachment && path.empty()) missing.push_back("CNI_PATH");
  if (!missing.empty())
    fail(ErrorCode::invalid_environment,
         fmt::format("required env variables [{}] missing", fmt::join(missing, ",")));

  for (std::size_t start = 0; start <= path.size() && !path.empty();) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    if (end > start) env.path.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (per_attachment) {
    validate_container_id(env.container_id);
    validate_interface_name(env.ifname);
  }
  return env;
}

std::map<std::string, std::string> parse_cni_args(std::string_view args,
                                                  const std::vector<std::string>& known) {
  std::map<std::string, std::string> pairs;
  if (args.empty()) return pairs;
  std::size_t start = 0;
  while (start <= args.size()) {
    std::size_t end = args.find(';', start);
    if (end == std::string_view::npos) end = args.size();
    std::string_view pair = args.substr(start, end - start);
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || pair.find('=', eq + 1) != std::string_view::npos)
      fail(ErrorCode::invalid_environment, fmt::format("ARGS: invalid pair \"{}\"", pair));
    pairs[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
    start = end + 1;
  }
  bool ignore_unknown = pairs.count("IgnoreUnknown") && truthy(pairs["IgnoreUnknown"]);
  if (pairs.count("IgnoreUnknown") && !ignore_unknown && pairs["IgnoreUnknown"] != "0" &&
      pairs["IgnoreUnknown"] != "false" && pairs["IgnoreUnknown"] != "False" && pairs["IgnoreUnknown"] != "f")
    fail(ErrorCode::invalid_environment,
         fmt::format("ARGS: IgnoreUnknown is not a boolean: \"{}\"", pairs["IgnoreUnknown"]));
  if (!ignore_unknown) {
    for (const auto& [key, value] : pairs) {
      if (key == "IgnoreUnknown") continue;
      if (std::find(known.begin(), known.end(), key) == known.end())
        fail(ErrorCode::invalid_environment, fmt::format("ARGS: unknown args [\"{}\"]", key),
             "set IgnoreUnknown=1 in CNI_ARGS to ignore keys the plugin does not read");
    }
  }
  return pairs;
}

}  // namespace brisk::cni
