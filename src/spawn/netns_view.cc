// spawn/netns_view.cc: the parent side of NetnsView: naming, the /etc
// listing, and applying the view to the calling thread.
#include "spawn/netns_view.h"

#include <sched.h>

#include "brisk/netns_dir.h"
#include "sys/syscalls.h"

namespace brisk {
namespace detail {

Result<void> prepare_netns_view(const NetnsView& view, NetnsViewStorage& storage, NetnsViewPlan& plan) {
  storage.sysfs_source = view.sysfs_source.empty() ? "sysfs" : view.sysfs_source;
  if (!view.etc_dir.empty()) {
    auto entries = sys::list_dir(view.etc_dir);
    if (!entries && entries.error().code != ENOENT && entries.error().code != ENOTDIR) return entries.error();
    if (entries)
      for (const auto& entry : *entries) {
        storage.from.push_back(view.etc_dir + "/" + entry);
        storage.to.push_back("/etc/" + entry);
      }
  }
  for (std::size_t i = 0; i < storage.from.size(); ++i) {
    storage.from_ptrs.push_back(storage.from[i].c_str());
    storage.to_ptrs.push_back(storage.to[i].c_str());
  }
  plan.enabled = true;
  plan.sysfs_source = storage.sysfs_source.c_str();
  plan.bind_from = storage.from_ptrs.data();
  plan.bind_to = storage.to_ptrs.data();
  plan.bind_count = storage.from_ptrs.size();
  plan.skip_failed_binds = view.skip_failed_binds;
  return {};
}

std::string netns_view_object(const NetnsViewStorage& storage, SpawnStep step, std::size_t index) {
  switch (step) {
    case SpawnStep::mount_namespace:
      return index == 0 ? "unshare(CLONE_NEWNS)" : "/ (rslave)";
    case SpawnStep::sysfs:
      return "/sys";
    case SpawnStep::bind_etc:
      return index < storage.from.size() ? storage.from[index] + " -> " + storage.to[index] : std::string();
    default:
      return {};
  }
}

}  // namespace detail

NetnsView NetnsView::of(const std::string& name_or_path) {
  NetnsView view;
  if (is_netns_name(name_or_path)) {
    view.sysfs_source = name_or_path;  // as ip mounts it
    view.etc_dir = std::string(kNetnsEtcDir) + "/" + name_or_path;
  }
  return view;
}

void add_netns(SpawnOptions& options, const std::string& name_or_path, const NetnsOptions& how) {
  options.namespaces.push_back({CLONE_NEWNET, -1, netns_path(name_or_path)});
  options.netns_view.reset();
  if (!how.view) return;
  options.netns_view = NetnsView::of(name_or_path);
  options.netns_view->skip_failed_binds = how.skip_failed_binds;
}

Result<std::vector<SpawnError>, SpawnError> apply_netns_view(const NetnsView& view) {
  detail::NetnsViewStorage storage;
  detail::NetnsViewPlan plan;
  if (auto prepared = detail::prepare_netns_view(view, storage, plan); !prepared)
    return SpawnError{.step = SpawnStep::prepare, .code = prepared.error().code, .object = view.etc_dir};
  struct Skipped {
    const detail::NetnsViewStorage* storage;
    std::vector<SpawnError> errors;
  } skipped{&storage, {}};
  auto record = [](void* context, std::size_t index, long rc) {
    auto* s = static_cast<Skipped*>(context);
    s->errors.push_back({.step = SpawnStep::bind_etc,
                         .code = static_cast<int>(-rc),
                         .object = detail::netns_view_object(*s->storage, SpawnStep::bind_etc, index)});
  };
  SpawnStep step = SpawnStep::none;
  long index = 0;
  if (long rc = detail::run_netns_view(plan, &step, &index, record, &skipped); rc < 0)
    return SpawnError{.step = step,
                      .code = static_cast<int>(-rc),
                      .object = detail::netns_view_object(storage, step, static_cast<std::size_t>(index))};
  return std::move(skipped.errors);
}

}  // namespace brisk
