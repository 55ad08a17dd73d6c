// cli/ip/saved_stream.h: the binary files of ip's `rule save` and `route
// save`: a magic word, then the kernel's dump messages as received. Read
// here as ip's rtnl_from_file() reads them, with its error texts.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "brisk/netlink/error.h"
#include "cli/ip/ip.h"

namespace brisk::ipcli {

// An error whose detail is ip's text for a stream it refused (op names the
// verb): EINVAL when refused before its first message (a terminal, no
// magic word), EBADMSG past it; ip's restores end -1 and -2 for these.
netlink::NetlinkError bad_stream(const char* op, std::string text, bool at_start = false);

// What a restore reads: the batch's text after its line (ip reads a batch
// from its stdin), or all of stdin, which must not be a terminal; `storage`
// holds the latter.
netlink::NlResult<std::string_view> restore_input(const IpCommand& cmd, const char* op,
                                                  const char* terminal_text, std::string& storage);

// Checks the magic word, then calls fn on each message in turn; the first
// error (ip's for a malformed stream, or fn's) ends it.
netlink::NlResult<void> each_saved_message(std::string_view data, uint32_t magic, const char* op,
                                           const std::function<netlink::NlResult<void>(const nlmsghdr&)>& fn);

}  // namespace brisk::ipcli
