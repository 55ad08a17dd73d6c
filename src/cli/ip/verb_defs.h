// cli/ip/verb_defs.h: what an object's module builds its verbs (verb.h)
// from, for the common cases: a change that moves its spec into one batch
// method, and a change that names one device.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "brisk/netlink/batch.h"
#include "cli/ip/ip.h"
#include "cli/ip/verb.h"

namespace brisk::ipcli {

namespace verb_detail {
template <class Spec>
Spec spec_of(std::size_t (netlink::Batch::*)(Spec));
template <class Spec>
Spec owner_of(std::string Spec::*);
}  // namespace verb_detail

// Verb::queue for a change that is one batch method of its spec:
// queue_spec<&netlink::Batch::add_address>.
template <auto Method>
netlink::NlResult<std::size_t> queue_spec(Runner&, netlink::Batch& batch, IpCommand& cmd) {
  using Spec = decltype(verb_detail::spec_of(Method));
  return (batch.*Method)(std::move(cmd.as<Spec>()));
}

// Verb::named_devices for a change whose spec names one device:
// spec_device<&netlink::AddressSpec::dev>.
template <auto Member>
std::vector<std::string> spec_device(const IpCommand& cmd) {
  using Spec = decltype(verb_detail::owner_of(Member));
  const std::string& dev = cmd.as<Spec>().*Member;
  if (dev.empty()) return {};
  return {dev};
}

// A change that moves its spec into one batch method and names the spec's
// device, which it can neither make, rename, move nor remove (an address,
// a neighbour, an fdb entry): device_change<&Batch::add_fdb, &FdbSpec::dev>("fdb add").
template <auto Method, auto Dev>
constexpr Verb device_change(std::string_view name) {
  return {.name = name,
          .queue = queue_spec<Method>,
          .named_devices = spec_device<Dev>,
          .keeps_device_names = true};
}

}  // namespace brisk::ipcli
