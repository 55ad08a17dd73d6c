#include "cni/ipam.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "brisk/cni/error.h"
#include "brisk/command.h"
#include "cni/files.h"
#include "cni/lease_store.h"

namespace brisk::cni::detail {
namespace {

bool in_process(const IpamContext& ctx) { return ctx.config.ipam_type == "host-local"; }

HostLocalConfig host_local(const IpamContext& ctx) {
  return parse_host_local_config(ctx.config.raw, ctx.env.args);
}

const char* command_name(Command c) {
  switch (c) {
    case Command::add:
      return "ADD";
    case Command::del:
      return "DEL";
    case Command::check:
      return "CHECK";
    case Command::version:
      return "VERSION";
    case Command::status:
      return "STATUS";
    case Command::gc:
      return "GC";
  }
  return "";
}

// invoke.FindInPath: the first CNI_PATH directory holding the plugin.
std::string find_plugin(const IpamContext& ctx) {
  const std::string& type = ctx.config.ipam_type;
  if (type.find('/') != std::string::npos)
    fail(ErrorCode::invalid_config, fmt::format("invalid IPAM type \"{}\"", type));
  for (const std::string& dir : ctx.env.path) {
    std::string candidate = dir + "/" + type;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  fail(ErrorCode::invalid_config,
       fmt::format("failed to find plugin \"{}\" in path [{}]", type, fmt::join(ctx.env.path, " ")));
}

// Runs the IPAM plugin; returns its stdout. A failure becomes the
// plugin's own error object when it printed one.
std::string exec_ipam(const IpamContext& ctx, Command command, const std::string& input) {
  std::string plugin = find_plugin(ctx);
  brisk::Output out = brisk::Command(plugin)
                          .env("CNI_COMMAND", command_name(command))
                          .env("CNI_CONTAINERID", ctx.env.container_id)
                          .env("CNI_NETNS", ctx.env.netns)
                          .env("CNI_IFNAME", ctx.env.ifname)
                          .env("CNI_ARGS", ctx.env.args)
                          .env("CNI_PATH", fmt::format("{}", fmt::join(ctx.env.path, ":")))
                          .stdin_from(brisk::Input::data(input))
                          .stdout_to(brisk::Sink::capture())
                          .stderr_to(brisk::Sink::inherit())
                          .check(false)
                          .output();
  if (out.status.allowed) return out.out;
  auto error = nlohmann::json::parse(out.out, nullptr, false);
  if (!error.is_discarded() && error.is_object() && error.contains("code") &&
      error["code"].is_number_unsigned())
    fail(static_cast<ErrorCode>(error["code"].get<unsigned>()), error.value("msg", ""),
         error.value("details", ""));
  fail(ErrorCode::internal, fmt::format("netplugin failed: \"{}\"", out.status.exit.to_string()), out.out);
}

}  // namespace

void ipam_validate(const IpamContext& ctx) {
  if (in_process(ctx))
    (void)host_local(ctx);
  else
    (void)find_plugin(ctx);
}

Result ipam_add(const IpamContext& ctx) {
  if (in_process(ctx)) return host_local_add(host_local(ctx), ctx.env.container_id, ctx.env.ifname);
  std::string out = exec_ipam(ctx, Command::add, ctx.stdin_data);
  auto json = nlohmann::json::parse(out, nullptr, false);
  if (json.is_discarded()) fail(ErrorCode::decoding_failure, "IPAM plugin returned invalid JSON", out);
  return result_from_json(json);
}

std::vector<netlink::IpAddress> ipam_del(const IpamContext& ctx) {
  if (in_process(ctx)) return host_local_del(host_local(ctx), ctx.env.container_id, ctx.env.ifname);
  exec_ipam(ctx, Command::del, ctx.stdin_data);
  return {};
}

void ipam_check(const IpamContext& ctx) {
  if (in_process(ctx)) return host_local_check(host_local(ctx), ctx.env.container_id, ctx.env.ifname);
  exec_ipam(ctx, Command::check, ctx.stdin_data);
}

void ipam_gc(const IpamContext& ctx, const std::vector<Attachment>& keep) {
  if (in_process(ctx)) {
    host_local_gc(host_local(ctx), keep);
    return;
  }
  exec_ipam(ctx, Command::gc, ctx.stdin_data);
}

void ipam_status(const IpamContext& ctx) {
  if (!in_process(ctx)) {
    exec_ipam(ctx, Command::status, ctx.stdin_data);
    return;
  }
  // Ready when the store can be made and locked.
  HostLocalConfig c = host_local(ctx);
  try {
    LeaseStore store(c.data_dir, c.network);
  } catch (const CniException& e) {
    fail(ErrorCode::plugin_not_available, "host-local store is not usable", e.error().msg);
  }
}

std::optional<netlink::IpPrefix> ipam_subnet_of(const IpamContext& ctx, const netlink::IpAddress& address) {
  if (!in_process(ctx)) return std::nullopt;
  for (const RangeSet& set : host_local(ctx).ranges)
    for (const AddressRange& r : set)
      if (r.contains(address)) return netlink::IpPrefix{address, r.subnet.length};
  return std::nullopt;
}

}  // namespace brisk::cni::detail
