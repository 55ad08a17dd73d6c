#include "cni/nft.h"

#include <nftables/libnftables.h>

#include "brisk/cni/error.h"

namespace brisk::cni::detail {

Nft::Nft(bool json_output) : ctx_(nft_ctx_new(NFT_CTX_DEFAULT)) {
  if (!ctx_) fail(ErrorCode::internal, "nftables: cannot make a context");
  nft_ctx_buffer_output(ctx_);
  nft_ctx_buffer_error(ctx_);
  if (json_output) nft_ctx_output_set_flags(ctx_, NFT_CTX_OUTPUT_JSON);
}

Nft::~Nft() { nft_ctx_free(ctx_); }

std::string Nft::run(const std::string& commands) {
  if (nft_run_cmd_from_buffer(ctx_, commands.c_str()) == 0) return {};
  std::string error = nft_ctx_get_error_buffer(ctx_);
  while (!error.empty() && error.back() == '\n') error.pop_back();
  return error.empty() ? "nft failed" : error;
}

nlohmann::json Nft::list(const std::string& command) {
  if (!run(command).empty()) return nullptr;
  auto doc = nlohmann::json::parse(nft_ctx_get_output_buffer(ctx_), nullptr, false);
  return doc.is_discarded() ? nlohmann::json(nullptr) : doc;
}

bool is_missing(const std::string& error) { return error.find("No such file or directory") != std::string::npos; }

void delete_tolerating_missing(const std::vector<std::string>& commands) {
  if (commands.empty()) return;
  Nft nft;
  std::string all;
  for (const auto& c : commands) all += c + "\n";
  if (nft.run(all).empty()) return;
  for (const auto& c : commands) {
    std::string error = nft.run(c);
    if (!error.empty() && !is_missing(error)) fail(ErrorCode::internal, "nftables: " + c, error);
  }
}

}  // namespace brisk::cni::detail
