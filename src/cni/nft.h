// nft.h: libnftables, with both of its output streams kept in buffers
// (a library prints nothing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

struct nft_ctx;

namespace brisk::cni::detail {

class Nft {
 public:
  explicit Nft(bool json_output = false);
  ~Nft();
  Nft(const Nft&) = delete;
  Nft& operator=(const Nft&) = delete;

  // Runs nft commands as one transaction; the error text, empty on success.
  std::string run(const std::string& commands);
  // Runs a list command with JSON output; null when it failed (no table).
  nlohmann::json list(const std::string& command);

 private:
  nft_ctx* ctx_;
};

// Runs delete commands as one transaction; should one of them find
// nothing (a repeated DEL), runs them one by one, ignoring those.
void delete_tolerating_missing(const std::vector<std::string>& commands);

// True for nft's answer to deleting what is not there.
bool is_missing(const std::string& error);

}  // namespace brisk::cni::detail
