// netlink/ack.h: turning an NLMSG_ERROR reply into a result.
#pragma once

#include <linux/netlink.h>

#include <span>

#include "brisk/netlink/error.h"

namespace brisk::netlink {

// The result an NLMSG_ERROR message carries: success for error 0 (an ACK),
// otherwise a NetlinkError with errno, the extended-ACK text and the
// offending attribute's offset, whose type is read from `request`, our copy
// of the message the kernel answered. op and object name the request.
NlResult<void> parse_ack(const nlmsghdr& reply, std::span<const char> request, const char* op,
                         const std::string& object);

// The result an NLMSG_DONE ending a dump carries: the kernel puts a
// negative errno there (and, with NLM_F_ACK_TLVS, its text after it) when it
// refused the dump part way, or at its start under strict checking.
NlResult<void> parse_dump_done(const nlmsghdr& done, const char* op, const std::string& object);

}  // namespace brisk::netlink
