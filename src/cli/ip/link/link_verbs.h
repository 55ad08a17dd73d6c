// cli/ip/link_verbs.h: ip link's verbs (link_verbs.cc), which link.cc's
// parser points its commands at.
#pragma once

#include "cli/ip/verb.h"

namespace brisk::ipcli {

extern const Verb kLinkAdd;       // link add
extern const Verb kLinkSet;       // link set|change
extern const Verb kLinkDel;       // link delete DEV
extern const Verb kLinkDelGroup;  // link delete group GROUP
extern const Verb kLinkShow;      // link show|list
extern const Verb kLinkPropAdd;   // link property add
extern const Verb kLinkPropDel;   // link property del

}  // namespace brisk::ipcli
