// netlink/link_schema.h: the attributes brisk reads from link messages.
#pragma once

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"

namespace brisk::netlink::detail {

extern const Schema kLinkSchema;      // IFLA_*
extern const Schema kLinkInfoSchema;  // IFLA_INFO_*

// A LinkInfo from an RTM_NEWLINK message; with `details`, its LinkDetails too.
NlResult<LinkInfo> parse_link(const nlmsghdr& message, bool details = false);

// The LinkDetails among a link message's attributes (parsed with kLinkSchema).
NlResult<LinkDetails> parse_link_details(const Attributes& attrs);

// An RTM_GETLINK for one device by name (ifindex 0) or by index.
Message link_get_message(const std::string& name, int ifindex, bool stats);

}  // namespace brisk::netlink::detail
