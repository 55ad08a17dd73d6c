// ip's table of objects (iproute2's cmds[] in ip.c): the one place that
// lists them, in ip's order, so that an abbreviation means what it means
// to ip. Each object's module defines its entry.
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {

// ip's "t", "tu" and "tun" are its tunnel object, which brisk lacks (hence
// tuntap's 4 letters); neigh ("n", "ne") and netns come before nexthop,
// maddress ("m") before monitor, and tuntap before token.
constexpr const IpObject* kTable[] = {&kAddressObject, &kAddrlabelObject, &kMaddrObject,  &kRouteObject,
                                      &kRuleObject,    &kNeighObject,     &kNtableObject, &kLinkObject,
                                      &kNetnsObject,   &kNetconfObject,   &kFdbObject,    &kNexthopObject,
                                      &kTuntapObject,  &kTokenObject,     &kMonitorObject};

bool names(const ObjectWord& w, std::string_view word) {
  return !w.word.empty() && word.size() >= w.shortest && matches(word, w.word);
}

}  // namespace

bool IpObject::is_named(std::string_view word) const { return names(name, word) || names(alias, word); }

std::span<const IpObject* const> ip_objects() { return kTable; }

const IpObject* object_named(std::string_view word) {
  for (const IpObject* object : kTable)
    if (object->is_named(word)) return object;
  return nullptr;
}

const Verb* verb_named(std::string_view name) {
  for (const IpObject* object : kTable)
    for (const Verb* verb : object->verbs)
      if (verb->name == name) return verb;
  return nullptr;
}

}  // namespace brisk::ipcli
