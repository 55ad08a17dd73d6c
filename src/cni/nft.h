// nft.h: libnftables, with both of its output streams kept in buffers
// (a library prints nothing).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// One element of a set: its key (for a two-part concatenation, both
// parts) and its comment, as text nft would take back.
struct SetElement {
  std::string value{};   // the key, or the concatenation's first part
  std::string second{};  // the concatenation's second part; empty for a plain key
  std::string comment{};
};
// A key or value of nft's JSON as nft's text: "10.1.0.5", a prefix as
// "10.1.0.0/16", a range as "a-b", a concatenation as "tcp . 8080".
std::string element_text(const nlohmann::json& v);

// The elements of `family table set`; none when the set does not exist.
std::vector<SetElement> list_set(const char* family, const char* table, const char* set);

// Runs delete commands as one transaction; should one of them find
// nothing (a repeated DEL), runs them one by one, ignoring those.
void delete_tolerating_missing(const std::vector<std::string>& commands);

// True for nft's answer to deleting what is not there.
bool is_missing(const std::string& error);

}  // namespace brisk::cni::detail
