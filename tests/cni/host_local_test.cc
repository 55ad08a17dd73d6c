// host-local in-process, with no kernel: config checks, the allocator's
// order, the store's bytes, and the index's behaviour when another writer
// (the reference plugin) changes the store.
#include "brisk/cni/host_local.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "brisk/cni/error.h"
#include "cni/lease_store.h"
#include "support/test_support.h"

namespace brisk::cni {
namespace {

using nlohmann::json;

using brisk::test::slurp;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

json conf(const std::string& dir, json ipam) {
  ipam["type"] = "host-local";
  ipam["dataDir"] = dir;
  return {{"cniVersion", "1.0.0"}, {"name", "net"}, {"ipam", ipam}};
}

ErrorCode code_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CniException& e) {
    return e.error().code;
  }
  return static_cast<ErrorCode>(0);
}

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CniException& e) {
    return e.error().msg;
  }
  return "";
}

TEST(HostLocalConfig, DefaultsAreTheReferences) {
  auto c = parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "");
  ASSERT_EQ(c.ranges.size(), 1u);
  const AddressRange& r = c.ranges[0][0];
  EXPECT_EQ(r.gateway.to_string(), "10.1.0.1");
  EXPECT_EQ(r.range_start.to_string(), "10.1.0.1");  // the gateway is skipped, not excluded
  EXPECT_EQ(r.range_end.to_string(), "10.1.0.254");  // not the broadcast address
  auto v6 = parse_host_local_config(conf("/d", {{"ranges", {{{{"subnet", "fd00::/120"}}}}}}), "");
  EXPECT_EQ(v6.ranges[0][0].range_end.to_string(), "fd00::ff");
  EXPECT_EQ(c.data_dir, "/d");
  EXPECT_EQ(parse_host_local_config(json{{"name", "n"}, {"ipam", {{"subnet", "10.0.0.0/8"}}}}, "").data_dir,
            "/var/lib/cni/networks");
}

TEST(HostLocalConfig, RejectsWhatTheReferenceRejects) {
  struct Case {
    json ipam;
    std::string message;
  } cases[] = {
      {json::object(), "no IP ranges specified"},
      {{{"subnet", "10.1.0.0/31"}}, "Network 10.1.0.0/31 too small to allocate from"},
      {{{"subnet", "10.1.0.0/32"}}, "too small"},
      {{{"subnet", "fd00::/127"}}, "too small"},
      {{{"subnet", "10.1.0.5/24"}}, "Network has host bits set"},
      {{{"subnet", "10.1.0.0/24"}, {"rangeStart", "10.2.0.1"}}, "RangeStart 10.2.0.1 not in network"},
      {{{"subnet", "10.1.0.0/24"}, {"rangeEnd", "10.2.0.1"}}, "RangeEnd 10.2.0.1 not in network"},
      // The reference's words for a start after the end, and for a v4-mapped subnet.
      {{{"subnet", "10.9.0.0/24"}, {"rangeStart", "10.9.0.100"}, {"rangeEnd", "10.9.0.50"}},
       "RangeStart 10.9.0.100 not in network 10.9.0.0/24"},
      {{{"subnet", "fd00::/64"}, {"rangeStart", "fd00::20"}, {"rangeEnd", "fd00::10"}},
       "RangeStart fd00::20 not in network fd00::/64"},
      {{{"subnet", "::ffff:10.9.0.0/120"}}, "IPNet IP and Mask version mismatch"},
      {{{"subnet", "nonsense"}}, "invalid CIDR address"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "10.1.0.0/16"}}}}}},
       "range set 0 overlaps with 1"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}, {{"subnet", "10.1.0.0/25"}}}}}}, "overlap"},
      {{{"ranges", {{{{"subnet", "10.1.0.0/24"}}, {{"subnet", "fd00::/64"}}}}}}, "mixed address families"},
      {{{"subnet", 5}}, "\"subnet\" must be a string"},
  };
  for (const auto& c : cases) {
    auto fn = [&] { parse_host_local_config(conf("/d", c.ipam), ""); };
    EXPECT_EQ(code_of(fn), ErrorCode::invalid_config) << c.ipam.dump();
    EXPECT_NE(message_of(fn).find(c.message), std::string::npos) << message_of(fn);
  }
  json old = conf("/d", {{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "10.2.0.0/24"}}}}}});
  old["cniVersion"] = "0.2.0";
  EXPECT_NE(message_of([&] {
              parse_host_local_config(old, "");
            }).find("does not support more than 1 address per family"),
            std::string::npos);
}

TEST(HostLocal, AllocatesRoundRobinAndWritesTheReferencesBytes) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
  Result a = host_local_add(c, "ctr-a", "eth0");
  ASSERT_EQ(a.ips.size(), 1u);
  EXPECT_EQ(a.ips[0].address.to_string(), "10.1.0.2/29");
  EXPECT_EQ(a.ips[0].gateway->to_string(), "10.1.0.1");
  std::string store = dir.path() + "/net";
  EXPECT_EQ(slurp(store + "/10.1.0.2"), "ctr-a\r\neth0");
  EXPECT_EQ(slurp(store + "/last_reserved_ip.0"), "10.1.0.2");
  EXPECT_TRUE(exists(store + "/lock"));
  EXPECT_EQ(host_local_add(c, "ctr-b", "eth0").ips[0].address.to_string(), "10.1.0.3/29");
  // Released addresses are not reused until the range wraps (round-robin).
  EXPECT_EQ(host_local_del(c, "ctr-a", "eth0").size(), 1u);
  EXPECT_FALSE(exists(store + "/10.1.0.2"));
  EXPECT_EQ(host_local_add(c, "ctr-c", "eth0").ips[0].address.to_string(), "10.1.0.4/29");
  EXPECT_EQ(host_local_add(c, "ctr-d", "eth0").ips[0].address.to_string(), "10.1.0.5/29");
  EXPECT_EQ(host_local_add(c, "ctr-e", "eth0").ips[0].address.to_string(), "10.1.0.6/29");
  EXPECT_EQ(host_local_add(c, "ctr-f", "eth0").ips[0].address.to_string(), "10.1.0.2/29");  // wrapped
  // .1 is the gateway, .7 the broadcast: the /29 is full now.
  auto full = [&] { host_local_add(c, "ctr-g", "eth0"); };
  EXPECT_EQ(code_of(full), ErrorCode::try_again_later);
  EXPECT_NE(message_of(full).find("no IP addresses available in range set: 10.1.0.1-10.1.0.6"),
            std::string::npos);
  EXPECT_FALSE(exists(store + "/10.1.0.7"));
}

TEST(HostLocal, RejectsADuplicatePairAndKeepsItsLease) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "ctr", "eth0");
  auto again = [&] { host_local_add(c, "ctr", "eth0"); };
  EXPECT_NE(message_of(again).find("10.1.0.2 has been allocated to ctr, duplicate allocation is not allowed"),
            std::string::npos);
  EXPECT_EQ(slurp(dir.path() + "/net/10.1.0.2"), "ctr\r\neth0");
  EXPECT_EQ(host_local_add(c, "ctr", "eth1").ips[0].address.to_string(),
            "10.1.0.3/24");  // another ifname is fine
  host_local_check(c, "ctr", "eth0");
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 1u);
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 0u);  // a second DEL succeeds
  EXPECT_NE(code_of([&] { host_local_check(c, "ctr", "eth0"); }), static_cast<ErrorCode>(0));
}

TEST(HostLocal, RequestedAddressesAndDualStack) {
  brisk::test::TempDir dir;
  json ipam = {{"ranges", {{{{"subnet", "10.1.0.0/24"}}}, {{{"subnet", "fd00:1::/64"}}}}}};
  auto c = parse_host_local_config(conf(dir.path(), ipam), "IgnoreUnknown=1;IP=10.1.0.77");
  Result r = host_local_add(c, "ctr", "eth0");
  ASSERT_EQ(r.ips.size(), 2u);
  EXPECT_EQ(r.ips[0].address.to_string(), "10.1.0.77/24");
  EXPECT_EQ(r.ips[1].address.to_string(), "fd00:1::2/64");
  EXPECT_EQ(slurp(dir.path() + "/net/last_reserved_ip.1"), "fd00:1::2");
  // A requested address that is taken fails and keeps nothing of this ADD.
  auto other = parse_host_local_config(conf(dir.path(), ipam), "IP=10.1.0.77");
  auto taken = [&] { host_local_add(other, "ctr2", "eth0"); };
  EXPECT_NE(message_of(taken).find("requested IP address 10.1.0.77 is not available"), std::string::npos);
  auto gw = parse_host_local_config(conf(dir.path(), ipam), "IP=10.1.0.1");
  EXPECT_NE(message_of([&] { host_local_add(gw, "ctr3", "eth0"); }).find("is subnet's gateway"),
            std::string::npos);
  auto outside = parse_host_local_config(conf(dir.path(), ipam), "IP=192.168.0.1");
  EXPECT_NE(message_of([&] {
              host_local_add(outside, "ctr4", "eth0");
            }).find("failed to allocate all requested IPs"),
            std::string::npos);
  EXPECT_EQ(host_local_del(c, "ctr", "eth0").size(), 2u);
  // Nothing of the failed ADDs is left: only lock and last_reserved_ip.*.
  brisk::test::TempDir empty;
  std::string listing;
  for (const auto& name : {"10.1.0.77", "10.1.0.2", "fd00:1::2", "fd00:1::3"})
    if (exists(dir.path() + "/net/" + name)) listing += std::string(name) + " ";
  EXPECT_EQ(listing, "");
}

TEST(HostLocal, UnknownCniArgsNeedIgnoreUnknown) {
  auto fn = [] { parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "K8S_POD_NAME=x"); };
  EXPECT_EQ(code_of(fn), ErrorCode::invalid_environment);
  parse_host_local_config(conf("/d", {{"subnet", "10.1.0.0/24"}}), "IgnoreUnknown=1;K8S_POD_NAME=x");
}

// The reference plugin writes leases brisk's index does not know of: the
// stamp no longer matches, so brisk rebuilds before it trusts the index.
TEST(LeaseStore, AForeignWriterCausesARebuildAndItsLeasesAreHonoured) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "mine", "eth0");  // 10.1.0.2
  {
    std::ofstream(dir.path() + "/net/10.1.0.3", std::ios::binary) << "theirs\r\neth0";
    std::ofstream(dir.path() + "/net/last_reserved_ip.0", std::ios::binary | std::ios::trunc) << "10.1.0.3";
  }
  {
    detail::LeaseStore store(dir.path(), "net");
    EXPECT_EQ(store.held_by({"theirs", "eth0"}).size(), 1u);
    EXPECT_EQ(store.rebuilds(), 1u);
  }
  {
    detail::LeaseStore store(dir.path(), "net");  // the stamp matches now: no second rebuild
    EXPECT_EQ(store.held_by({"mine", "eth0"}).size(), 1u);
    EXPECT_EQ(store.rebuilds(), 0u);
  }
  auto dup = [&] { host_local_add(c, "theirs", "eth0"); };
  EXPECT_NE(message_of(dup).find("duplicate allocation"), std::string::npos);
  EXPECT_EQ(host_local_add(c, "next", "eth0").ips[0].address.to_string(), "10.1.0.4/24");
  EXPECT_EQ(host_local_del(c, "theirs", "eth0").size(), 1u);
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.3"));
  // An old-format lease ("<id>" alone) is released by id, as the reference does.
  std::ofstream(dir.path() + "/net/10.1.0.9", std::ios::binary) << "legacy";
  EXPECT_EQ(host_local_del(c, "legacy", "eth0").size(), 1u);
}

// Every file under root, as paths relative to it (no symlink followed).
std::set<std::string> files_under(const std::string& root) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    out.insert(std::filesystem::relative(e.path(), root).string());
  return out;
}

void write_raw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Lease contents are anyone's writing. Contents that look like paths must
// name nothing outside the index when the index is written, on ADD, DEL and
// GC alike, and must still be released by their own key.
TEST(LeaseStore, ContentsThatLookLikePathsNameNothingOutsideTheIndex) {
  brisk::test::TempDir top;
  std::string data = top.path() + "/data";  // the store sits two levels below top
  std::filesystem::create_directories(data);
  auto c = parse_host_local_config(conf(data, {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "first", "eth0");
  for (auto [address, content] :
       std::initializer_list<std::pair<const char*, const char*>>{{"10.1.0.50", "../../../x\r\neth0"},
                                                                  {"10.1.0.51", "../../y\r\n../../z"},
                                                                  {"10.1.0.52", "..\r\n.."},
                                                                  {"10.1.0.53", "stamp\r\n"},
                                                                  {"10.1.0.54", "a/b\r\neth0"}})
    write_raw(data + "/net/" + address, content);
  std::set<std::string> outside_before = files_under(top.path());
  EXPECT_EQ(host_local_add(c, "second", "eth0").ips[0].address.to_string(), "10.1.0.3/24");  // rebuilds
  EXPECT_EQ(host_local_del(c, "../../../x", "eth0").size(), 1u);
  EXPECT_EQ(host_local_del(c, "a/b", "eth0").size(), 1u);
  EXPECT_EQ(host_local_gc(c, {{"first", "eth0"}, {"second", "eth0"}}).size(), 3u);
  for (const auto& path : files_under(top.path())) {
    if (outside_before.count(path)) continue;
    EXPECT_EQ(path.rfind("data/", 0), 0u) << "written outside the data dir: " << path;
  }
  for (const char* escaped : {"x", "y", "z", "x:eth0", "data/x:eth0"})
    EXPECT_FALSE(exists(top.path() + "/" + escaped)) << escaped;
  EXPECT_TRUE(exists(data + "/net/10.1.0.2"));
  EXPECT_TRUE(exists(data + "/net/10.1.0.3"));
  EXPECT_FALSE(exists(data + "/net/10.1.0.50"));
}

// A damaged lease (NUL bytes, what a crash can leave), a symlink or a FIFO
// named like an address: each counts as taken, no read follows or waits on
// it, and every other ADD and DEL goes on working.
TEST(LeaseStore, OddFilesCountAsTakenAndNeverStopTheNetwork) {
  brisk::test::TempDir dir, elsewhere;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/28"}}), "");
  std::string store = dir.path() + "/net";
  host_local_add(c, "first", "eth0");  // 10.1.0.2; makes the store
  write_raw(store + "/10.1.0.3", std::string(10, '\0'));
  write_raw(elsewhere.path() + "/secret", "secret-contents\r\neth0");
  std::filesystem::create_symlink(elsewhere.path() + "/secret", store + "/10.1.0.4");
  ASSERT_EQ(::mkfifo((store + "/10.1.0.5").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((store + "/last_reserved_ip.0.tmp").c_str(), 0644), 0);
  std::filesystem::create_directory(store + "/10.1.0.6");
  EXPECT_EQ(host_local_add(c, "second", "eth0").ips[0].address.to_string(), "10.1.0.7/28");  // .3-.6 taken
  EXPECT_EQ(host_local_del(c, "first", "eth0").size(), 1u);
  EXPECT_EQ(host_local_del(c, "second", "eth0").size(), 1u);
  EXPECT_EQ(host_local_del(c, "secret-contents", "eth0").size(), 0u);  // a symlink is no lease of anyone's
  // The symlink's target was not read into the index, nor touched.
  for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/.brisk-index/net"))
    EXPECT_EQ(slurp(e.path().string()).find("secret"), std::string::npos) << e.path();
  EXPECT_EQ(slurp(elsewhere.path() + "/secret"), "secret-contents\r\neth0");
  EXPECT_TRUE(std::filesystem::is_symlink(store + "/10.1.0.4"));
}

// A FIFO in place of last_reserved_ip.N does not hang the allocator.
TEST(LeaseStore, AFifoForTheLastReservedAddressIsIgnored) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
  host_local_add(c, "first", "eth0");
  std::string last = dir.path() + "/net/last_reserved_ip.0";
  ASSERT_EQ(::unlink(last.c_str()), 0);
  ASSERT_EQ(::mkfifo(last.c_str(), 0644), 0);
  EXPECT_EQ(host_local_add(c, "second", "eth0").ips[0].address.to_string(), "10.1.0.3/29");
}

// The store's lock is never opened through a symlink: that would create a
// file wherever it points.
TEST(LeaseStore, ALockThatIsASymlinkIsRefused) {
  brisk::test::TempDir dir, elsewhere;
  std::filesystem::create_directories(dir.path() + "/net");
  std::filesystem::create_symlink(elsewhere.path() + "/made-here", dir.path() + "/net/lock");
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
  auto add = [&] { host_local_add(c, "first", "eth0"); };
  EXPECT_EQ(code_of(add), ErrorCode::io_failure);
  EXPECT_NE(message_of(add).find("/net/lock"), std::string::npos) << message_of(add);
  EXPECT_FALSE(exists(elsewhere.path() + "/made-here"));
}

// The store's own directories (<dataDir>/<network>, the index and its
// network directory) are never followed through a symlink: whoever can
// write the data dir could otherwise point ADD's writes, and GC's deletes,
// at any directory. Each is refused, and nothing lands where it points.
TEST(LeaseStore, AStoreDirectoryThatIsASymlinkIsRefused) {
  for (const char* swapped : {"net", ".brisk-index", ".brisk-index/net"}) {
    SCOPED_TRACE(swapped);
    brisk::test::TempDir dir, elsewhere;
    if (std::string(swapped) != ".brisk-index")
      std::filesystem::create_directories(dir.path() + "/.brisk-index");
    std::filesystem::create_directory_symlink(elsewhere.path(), dir.path() + "/" + swapped);
    auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
    auto add = [&] { host_local_add(c, "first", "eth0"); };
    EXPECT_EQ(code_of(add), ErrorCode::io_failure);
    EXPECT_NE(message_of(add).find(std::string(swapped) + " is a symlink"), std::string::npos)
        << message_of(add);
    auto del = [&] { host_local_del(c, "first", "eth0"); };
    EXPECT_EQ(code_of(del), ErrorCode::io_failure);
    EXPECT_TRUE(std::filesystem::is_empty(elsewhere.path()));
  }
  // A plain file where a directory should be is refused the same way.
  brisk::test::TempDir dir;
  write_raw(dir.path() + "/net", "not a directory");
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/29"}}), "");
  auto add = [&] { host_local_add(c, "first", "eth0"); };
  EXPECT_NE(message_of(add).find("net is another kind of file"), std::string::npos) << message_of(add);
}

// The data dir itself is the administrator's to place: a symlink there is followed.
TEST(LeaseStore, ADataDirThatIsASymlinkIsFollowed) {
  brisk::test::TempDir dir, elsewhere;
  std::filesystem::create_directory_symlink(elsewhere.path(), dir.path() + "/data");
  auto c = parse_host_local_config(conf(dir.path() + "/data", {{"subnet", "10.1.0.0/29"}}), "");
  EXPECT_EQ(host_local_add(c, "first", "eth0").ips[0].address.to_string(), "10.1.0.2/29");
  EXPECT_TRUE(exists(elsewhere.path() + "/net/10.1.0.2"));
}

TEST(HostLocal, GcReleasesWhatIsNotInUse) {
  brisk::test::TempDir dir;
  auto c = parse_host_local_config(conf(dir.path(), {{"subnet", "10.1.0.0/24"}}), "");
  host_local_add(c, "a", "eth0");
  host_local_add(c, "b", "eth0");
  host_local_add(c, "c", "eth0");
  auto released = host_local_gc(c, {{"b", "eth0"}});
  EXPECT_EQ(released.size(), 2u);
  EXPECT_TRUE(exists(dir.path() + "/net/10.1.0.3"));
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.2"));
  EXPECT_FALSE(exists(dir.path() + "/net/10.1.0.4"));
}

}  // namespace
}  // namespace brisk::cni
