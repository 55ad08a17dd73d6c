#include "cni/nft.h"

#include <dlfcn.h>
#include <nftables/libnftables.h>

#include <string>

#include "brisk/cni/error.h"

namespace brisk::cni::detail {
namespace {

// libnftables and the four libraries it pulls in are loaded on first use:
// a pod without ipMasq or macspoofchk never needs them, and loading them
// at every start would add to every ADD and DEL.
struct NftApi {
  decltype(&nft_ctx_new) ctx_new = nullptr;
  decltype(&nft_ctx_free) ctx_free = nullptr;
  decltype(&nft_ctx_buffer_output) buffer_output = nullptr;
  decltype(&nft_ctx_buffer_error) buffer_error = nullptr;
  decltype(&nft_ctx_get_output_buffer) output_buffer = nullptr;
  decltype(&nft_ctx_get_error_buffer) error_buffer = nullptr;
  decltype(&nft_ctx_output_set_flags) set_output_flags = nullptr;
  decltype(&nft_run_cmd_from_buffer) run = nullptr;
  std::string error{};  // why loading failed; empty when it worked
};

template <class F>
void bind(void* lib, F& fn, const char* name, std::string& error) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  if (!fn && error.empty()) error = std::string("no symbol ") + name;
}

NftApi load() {
  NftApi api;
  void* lib = ::dlopen("libnftables.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    api.error = why ? why : "dlopen failed";
    return api;
  }
  bind(lib, api.ctx_new, "nft_ctx_new", api.error);
  bind(lib, api.ctx_free, "nft_ctx_free", api.error);
  bind(lib, api.buffer_output, "nft_ctx_buffer_output", api.error);
  bind(lib, api.buffer_error, "nft_ctx_buffer_error", api.error);
  bind(lib, api.output_buffer, "nft_ctx_get_output_buffer", api.error);
  bind(lib, api.error_buffer, "nft_ctx_get_error_buffer", api.error);
  bind(lib, api.set_output_flags, "nft_ctx_output_set_flags", api.error);
  bind(lib, api.run, "nft_run_cmd_from_buffer", api.error);
  return api;  // the library stays loaded for the life of the process
}

const NftApi& api() {
  static const NftApi loaded = load();
  if (!loaded.error.empty())
    fail(ErrorCode::internal,
         "ipMasq, macspoofchk and brisk-portmap need libnftables.so.1 (Debian package libnftables1)",
         loaded.error);
  return loaded;
}

}  // namespace

Nft::Nft(bool json_output) : ctx_(api().ctx_new(NFT_CTX_DEFAULT)) {
  if (!ctx_) fail(ErrorCode::internal, "nftables: cannot make a context");
  api().buffer_output(ctx_);
  api().buffer_error(ctx_);
  if (json_output) api().set_output_flags(ctx_, NFT_CTX_OUTPUT_JSON);
}

Nft::~Nft() { api().ctx_free(ctx_); }

std::string Nft::run(const std::string& commands) {
  if (api().run(ctx_, commands.c_str()) == 0) return {};
  std::string error = api().error_buffer(ctx_);
  while (!error.empty() && error.back() == '\n') error.pop_back();
  return error.empty() ? "nft failed" : error;
}

nlohmann::json Nft::list(const std::string& command) {
  if (!run(command).empty()) return nullptr;
  auto doc = nlohmann::json::parse(api().output_buffer(ctx_), nullptr, false);
  return doc.is_discarded() ? nlohmann::json(nullptr) : doc;
}

bool is_missing(const std::string& error) {
  return error.find("No such file or directory") != std::string::npos;
}

std::string element_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("prefix")) {
    const auto& p = v["prefix"];
    return p.value("addr", "") + "/" + std::to_string(p.value("len", 0));
  }
  if (v.is_object() && v.contains("range") && v["range"].size() == 2)
    return element_text(v["range"][0]) + "-" + element_text(v["range"][1]);
  if (v.is_object() && v.contains("concat")) {
    std::string out;
    for (const auto& part : v["concat"]) out += (out.empty() ? "" : " . ") + element_text(part);
    return out;
  }
  return v.dump();
}

std::vector<SetElement> list_set(const char* family, const char* table, const char* set) {
  Nft nft(true);
  nlohmann::json doc = nft.list(std::string("list set ") + family + " " + table + " " + set);
  std::vector<SetElement> out;
  if (!doc.is_object()) return out;  // no table yet: nothing to list
  for (const auto& item : doc.value("nftables", nlohmann::json::array())) {
    if (!item.contains("set")) continue;
    for (const auto& e : item["set"].value("elem", nlohmann::json::array())) {
      SetElement l;
      nlohmann::json val = e;
      if (e.is_object() && e.contains("elem")) {
        val = e["elem"].value("val", nlohmann::json());
        l.comment = e["elem"].value("comment", "");
      }
      if (val.is_object() && val.contains("concat") && val["concat"].size() == 2) {
        l.value = element_text(val["concat"][0]);
        l.second = element_text(val["concat"][1]);
      } else {
        l.value = element_text(val);
      }
      out.push_back(std::move(l));
    }
  }
  return out;
}

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
