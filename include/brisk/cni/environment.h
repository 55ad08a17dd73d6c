// brisk/cni/environment.h: the CNI_* variables a runtime passes, validated
// as libcni's skel validates them.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brisk::cni {

enum class Command { add, del, check, version, status, gc };

struct Environment {
  Command command = Command::version;  // CNI_COMMAND
  std::string container_id{};          // CNI_CONTAINERID
  std::string netns{};                 // CNI_NETNS: a path; may be empty on DEL
  std::string ifname{};                // CNI_IFNAME
  std::string args{};                  // CNI_ARGS, raw ("K=V;K=V")
  std::vector<std::string> path{};     // CNI_PATH, split on ':'
};

// Reads and validates the variables the command needs. An unset
// CNI_COMMAND returns nullopt (the caller prints its about text); every
// other problem throws CniException with code 3, 4 or 7.
using GetEnv = std::function<std::optional<std::string>(const char* name)>;
std::optional<Environment> read_environment(const GetEnv& getenv);

// Name checks shared with the config parser.
void validate_container_id(std::string_view id);
void validate_interface_name(std::string_view name);
void validate_network_name(std::string_view name);

// CNI_ARGS as "K=V" pairs. `known` lists the keys this plugin reads; any
// other key is an error unless IgnoreUnknown is 1 or true.
std::map<std::string, std::string> parse_cni_args(std::string_view args,
                                                  const std::vector<std::string>& known);

}  // namespace brisk::cni
