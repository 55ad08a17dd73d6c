#include <grp.h>
#include <pwd.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "brisk/spawn.h"

namespace brisk {
namespace {

template <class Id>
std::optional<Id> parse_id(std::string_view text) {
  Id id{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return id;
}

SysError no_such(const char* call, std::string_view what, std::string_view name) {
  return SysError{
      .code = ENOENT, .call = call, .object = std::string(name), .detail = "no such " + std::string(what)};
}

// Calls a getXXX_r lookup, growing the buffer while it answers ERANGE.
// Returns the lookup's error number; *found is null when there is no entry.
template <class Lookup>
int lookup_with_buffer(std::vector<char>& buffer, Lookup lookup) {
  for (;;) {
    int rc = lookup(buffer.data(), buffer.size());
    if (rc != ERANGE || buffer.size() > (1u << 24)) return rc;
    buffer.resize(buffer.size() * 4);
  }
}

}  // namespace

Result<Credentials> Credentials::for_user(std::string_view user, std::string_view group) {
  std::vector<char> buffer(4096);
  Credentials creds;
  std::string name(user);
  passwd pw{};
  passwd* found = nullptr;
  const auto uid = parse_id<uid_t>(user);
  int rc = lookup_with_buffer(buffer, [&](char* buf, size_t len) {
    return uid ? ::getpwuid_r(*uid, &pw, buf, len, &found)
               : ::getpwnam_r(name.c_str(), &pw, buf, len, &found);
  });
  if (rc != 0) return SysError{.code = rc, .call = "getpwnam_r", .object = name};
  if (found) {
    creds.uid = pw.pw_uid;
    creds.gid = pw.pw_gid;
    int count = 32;
    std::vector<gid_t> groups(static_cast<size_t>(count));
    while (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &count) < 0)
      groups.resize(static_cast<size_t>(count));
    groups.resize(static_cast<size_t>(count));
    creds.groups = std::move(groups);
  } else if (uid) {
    creds.uid = *uid;  // a bare uid without an entry: its own number as group, no others
    creds.gid = static_cast<gid_t>(*uid);
  } else {
    return no_such("getpwnam_r", "user", user);
  }

  if (group.empty()) return creds;
  if (auto gid = parse_id<gid_t>(group)) {
    creds.gid = *gid;
  } else {
    std::string gname(group);
    struct group gr {};
    struct group* gfound = nullptr;
    rc = lookup_with_buffer(
        buffer, [&](char* buf, size_t len) { return ::getgrnam_r(gname.c_str(), &gr, buf, len, &gfound); });
    if (rc != 0) return SysError{.code = rc, .call = "getgrnam_r", .object = gname};
    if (!gfound) return no_such("getgrnam_r", "group", group);
    creds.gid = gr.gr_gid;
  }
  if (std::find(creds.groups.begin(), creds.groups.end(), creds.gid) == creds.groups.end())
    creds.groups.insert(creds.groups.begin(), creds.gid);
  return creds;
}

}  // namespace brisk
