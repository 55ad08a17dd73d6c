// ip_errors.h: what the CLI says, and with which status it ends, when an
// operation fails. Every decision here is made on NetlinkError's typed
// facts (code, kernel, dump, missing, file_step) and on the command's verb,
// never on an error's words (lint.no_decisions_on_error_text).
#pragma once

#include <optional>
#include <string>

#include "brisk/netlink/error.h"
#include "cli/ip/ip.h"

namespace brisk::ipcli {

// ip's status for an argument error (its exit(-1)).
inline constexpr int kArgumentExit = 255;

// ip's text when `e` is a missing argument that ip looks up as it parses
// the line: an argument error, which ends ip's batch, -force or not.
std::optional<std::string> argument_error(const netlink::NetlinkError& e, const Verb& verb);
// The device ip would have failed to find while parsing the line, when `e`
// is one.
std::optional<std::string> missing_device(const netlink::NetlinkError& e);
// A kernel refusal after which ip exit(2)s, batch or not.
bool ends_on_refusal(const netlink::NetlinkError& e, const Verb& verb);
// ip netns's words for what failed on the file system: the namespace file
// it could not make, bind or remove, or a namespace it could not open.
std::optional<std::string> netns_message(const netlink::NetlinkError& e);
// What ip adds after the kernel refused a dump: the show's words, or its flush's.
std::string dump_ended(const netlink::NetlinkError& e, const Verb& verb);
// ip's exit status for a failed command (in_batch: a line of -batch).
int exit_status(const netlink::NetlinkError& e, const Verb& verb, bool in_batch);
// The line ip prints for a failed request: the kernel's ext-ack text as
// "Error: TEXT.", ip's words for a missing device, the kernel's bare errno
// as "RTNETLINK answers: TEXT", or what brisk's own check refused and why.
std::string runtime_message(const netlink::NetlinkError& e);

}  // namespace brisk::ipcli
