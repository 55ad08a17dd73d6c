// The value parsers shared by every object: names, addresses, prefixes and
// flags, with ip's error texts.
#include "cli/ip/parse_util.h"

#include <cerrno>
#include <cstdio>
#include <vector>

#include "brisk/netlink/address.h"
#include "cli/ip/names.h"
#include "cli/ip/prefix_forms.h"

namespace brisk::ipcli {

Failure<UsageError> usage(std::string message) { return fail(UsageError{std::move(message)}); }

Failure<UsageError> object_help(std::string_view usage) {
  return fail(UsageError{.message = std::string(usage), .help = true});
}

Failure<UsageError> duplicate(const std::string& key, const std::string& value) {
  return fatal("Error: duplicate \"" + key + "\": \"" + value + "\" is the second value.", 255);
}

Failure<UsageError> garbage(const std::string& key, const std::string& word) {
  return usage("either \"" + key + "\" is duplicate, or \"" + word + "\" is a garbage");
}

Failure<UsageError> invalid(const std::string& what, const std::string& value) {
  return usage("argument \"" + value + "\" is wrong: " + what);
}

Failure<UsageError> refused(std::string text, int exit_code) {
  return fail(
      UsageError{.message = std::move(text), .exact = true, .exit_code = exit_code, .line_failure = true});
}

Failure<UsageError> unknown_command(const std::string& verb, const std::string& object) {
  return fatal("Command \"" + verb + "\" is unknown, try \"brisk " + object + " help\".", 255);
}

Failure<UsageError> fatal(std::string text, int exit_code) {
  return fail(UsageError{.message = std::move(text), .exact = true, .exit_code = exit_code});
}

Failure<UsageError> invarg(const std::string& what, const std::string& value) {
  return fail(UsageError{.message = "Error: argument \"" + value + "\" is wrong: " + what, .exact = true});
}

Parsed<std::string> link_name(const std::string& key, const std::string& text) {
  if (auto ok = netlink::validate_link_name(text, "name"); !ok) {
    if (text.size() > 15)
      return usage("argument \"" + text + "\" is wrong: \"" + key + "\" not a valid ifname");
    return invalid("\"" + key + "\" not a valid ifname", text);
  }
  return text;
}

Parsed<std::string> device_name(const std::string& key, const std::string& text) {
  if (netlink::validate_altname(text, "name")) return text;
  return invarg("\"" + key + "\" not a valid ifname", text);
}

Parsed<std::string> mac(const std::string& key, const std::string& text) {
  if (!netlink::MacAddress::parse(text)) return invalid("invalid \"" + key + "\" address", text);
  return text;
}

Parsed<std::string> ll_address(const std::string& text) {
  std::vector<unsigned> bytes;
  std::string_view rest = text;
  while (true) {
    auto colon = rest.find(':');
    std::string part(rest.substr(0, colon));
    unsigned byte = 0;
    // sscanf's %x, as ip reads each part: "0x1f", " 2" and "2zz" pass.
    if (std::sscanf(part.c_str(), "%x", &byte) != 1 || byte > 255)
      return refused("\"" + part + "\" is invalid lladdr.");
    bytes.push_back(byte);
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (text.find('.') != std::string::npos || bytes.size() != 6)
    return invalid("brisk takes a 6-byte link-layer address", text);
  char canonical[18];
  std::snprintf(canonical, sizeof canonical, "%02x:%02x:%02x:%02x:%02x:%02x", bytes[0], bytes[1], bytes[2],
                bytes[3], bytes[4], bytes[5]);
  return std::string(canonical);
}

namespace {

// ip's family_name_verbose().
const char* family_words(int family) { return family == AF_UNSPEC ? "any valid" : family_name(family); }

}  // namespace

// ip's get_addr(): a malformed address, or one of another family, ends ip with status 1.
Parsed<std::string> ip_address(const std::string&, const std::string& text, int family) {
  auto parsed = netlink::IpAddress::parse(text);
  if (!parsed || (family != AF_UNSPEC && parsed->family != family))
    return fatal(
        std::string("Error: ") + family_words(family) + " address is expected rather than \"" + text + "\".",
        1);
  return text;
}

// ip's get_prefix(), likewise.
Parsed<std::string> ip_prefix(const std::string&, const std::string& text, int family) {
  if (family == AF_PACKET)  // -0
    return fatal("Error: \"" + text + "\" may be inet prefix, but it is not allowed in this context.", 1);
  // Every form ip's get_prefix() takes, as the library's "a.b.c.d/len".
  auto canonical = canonical_prefix(text);
  auto parsed = netlink::IpPrefix::parse(canonical.value_or(""));
  if (!canonical || !parsed || (family != AF_UNSPEC && parsed->address.family != family))
    return fatal(
        std::string("Error: ") + family_words(family) + " prefix is expected rather than \"" + text + "\".",
        1);
  return *canonical;
}

Parsed<bool> on_off(const std::string& key, const std::string& text) {
  if (text == "1" || text == "on") return true;
  if (text == "0" || text == "off") return false;
  return refused("Error: argument of \"" + key + "\" must be \"on\" or \"off\", not \"" + text + "\"");
}

Parsed<bool> one_of_off_on(const std::string& key, const std::string& text) {
  if (matches(text, "off")) return false;
  if (matches(text, "on")) return true;
  // ip's parser returns -EINVAL, which a single command exits with.
  return refused("Error: argument of \"" + key + "\" must be one of \"off\", \"on\", not \"" + text + "\"",
                 EINVAL);
}

Parsed<uint8_t> scope_value(const std::string& text) {
  if (auto scope = scope_number(text)) return *scope;
  return number<uint8_t>("scope", text);
}

Parsed<uint8_t> protocol_value(const std::string& text) {
  if (auto protocol = protocol_number(text)) return *protocol;
  return invarg("\"protocol\" value is invalid\n", text);
}

Parsed<std::optional<uint8_t>> protocol_selector(const std::string& text) {
  if (auto protocol = protocol_number(text)) return std::optional<uint8_t>(*protocol);
  if (text == "all") return std::optional<uint8_t>{};
  return invarg("invalid \"protocol\"\n", text);
}

Parsed<std::string> Cursor::value(const std::string&) {
  // ip's incomplete_command().
  if (done())
    return fail(UsageError{.message = "Command line is not complete. Try option \"help\"", .exact = true});
  return next();
}

Parsed<std::string> Cursor::link_name(const std::string& key) {
  return read(key, [&key](const std::string& text) { return ipcli::link_name(key, text); });
}
Parsed<std::string> Cursor::sole_link_name(const std::string& key, const std::string& already) {
  return read(key, [&key, &already](const std::string& text) -> Parsed<std::string> {
    if (!already.empty()) return garbage(key, text);
    return ipcli::link_name(key, text);
  });
}
Parsed<std::string> Cursor::device(const std::string& key) {
  return read(key, [&key](const std::string& text) { return ipcli::device_name(key, text); });
}
Parsed<std::string> Cursor::sole_device(const std::string& key, const std::string& already) {
  return read(key, [&key, &already](const std::string& text) -> Parsed<std::string> {
    if (!already.empty()) return garbage(key, text);
    return ipcli::device_name(key, text);
  });
}
Parsed<std::string> Cursor::ll_address(const std::string& key) { return read(key, ipcli::ll_address); }
Parsed<std::string> Cursor::mac(const std::string& key) {
  return read(key, [&key](const std::string& text) { return ipcli::mac(key, text); });
}
Parsed<std::string> Cursor::address(const std::string& key, int family) {
  return read(key, [&key, family](const std::string& text) { return ip_address(key, text, family); });
}
Parsed<std::string> Cursor::prefix(const std::string& key, int family) {
  return read(key, [&key, family](const std::string& text) { return ip_prefix(key, text, family); });
}
Parsed<bool> Cursor::on_off(const std::string& key) {
  return read(key, [&key](const std::string& text) { return ipcli::on_off(key, text); });
}
Parsed<uint8_t> Cursor::scope(const std::string& key) { return read(key, scope_value); }

Parsed<uint32_t> realms_value(const std::string& text, const std::string& what) {
  auto slash = text.find('/');
  std::optional<uint32_t> src = 0, dst = 0;
  if (slash != std::string::npos) src = realm_number(text.substr(0, slash));
  std::string dst_text = slash == std::string::npos ? text : text.substr(slash + 1);
  if (!dst_text.empty()) dst = realm_number(dst_text);
  if (src && dst) return *src << 16 | *dst;
  if (auto raw = number<uint32_t>("realms", text)) return *raw;
  return invarg(what, text);
}

}  // namespace brisk::ipcli
