// docs/examples/netns_fleet.cc: a container manager's network setup, many
// containers at once, with brisk::netlink::setup_netns_many; then a
// teardown that leaves the host ends' names free when it returns.
//
//   netns_fleet COUNT [PREFIX]
//
// Makes COUNT named namespaces PREFIX0, PREFIX1, ... (as `ip netns add`),
// each with a veth pair: the host end PREFIX-h<i> with 10.200.x.y/31, and
// eth0 inside with the other address, up, and a default route via the host
// end. Prints one line per container that failed, a summary, then removes
// everything it made. Run it as root in a throwaway namespace, e.g.
//   unshare --mount --net sh -c 'mount -t tmpfs none /run && netns_fleet 100'
#include <brisk/netlink/batch.h>
#include <brisk/netlink/connection.h>
#include <brisk/netlink/netns.h>
#include <brisk/netlink/netns_setup.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace nl = brisk::netlink;

namespace {

// Container i's /31 in 10.200.0.0/16: the host end takes the even address.
std::string address(int i, int end) {
  int a = 2 * i + end;
  return "10.200." + std::to_string(a / 256) + "." + std::to_string(a % 256);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || std::atoi(argv[1]) <= 0 || std::atoi(argv[1]) > 32768) {
    std::fprintf(stderr, "usage: netns_fleet COUNT [PREFIX]  (COUNT: 1 to 32768)\n");
    return 2;
  }
  const int count = std::atoi(argv[1]);
  const std::string prefix = argc == 3 ? argv[2] : "fleet";
  auto host = nl::Connection::open();
  if (!host) {
    std::fprintf(stderr, "netns_fleet: %s\n", host.error().message().c_str());
    return 1;
  }

  std::vector<nl::NetnsSetup> fleet;
  for (int i = 0; i < count; ++i) {
    std::string host_end = prefix + "-h" + std::to_string(i);
    fleet.push_back({
        .name = prefix + std::to_string(i),
        // The veth, its peer made directly inside the new namespace.
        .host =
            [host_end](nl::Batch& b, int netns_fd) {
              b.add_link({.name = host_end,
                          .kind = nl::VethOptions{.peer = "eth0", .peer_netns_fd = netns_fd},
                          .common = {.up = true}});
            },
        // Queued after every veth of the round, so the name is made by then.
        .host_after =
            [host_end, i](nl::Batch& b) {
              b.add_address({.dev = host_end, .prefix = address(i, 0) + "/31"});
            },
        .inside =
            [i](nl::Batch& b) {
              b.add_address({.dev = "eth0", .prefix = address(i, 1) + "/31"});
              b.set_link({.name = "eth0", .up = true});
              b.add_route({.prefix = "default", .via = address(i, 0)});
            },
    });
  }

  // A bad argument (here: none) would be refused before anything is made.
  auto results = nl::setup_netns_many(*host, fleet, {.round = 64});
  if (!results) {
    std::fprintf(stderr, "netns_fleet: %s\n", results.error().message().c_str());
    return 2;
  }
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    if ((*results)[i]) continue;
    ++failed;  // undone: nothing of it is left
    std::fprintf(stderr, "%s: %s\n", fleet[i].name.c_str(), (*results)[i].error().message().c_str());
  }
  std::printf("%d containers set up, %d failed\n", count - failed, failed);

  // Teardown: the host ends first, in one Batch, which deletes them (and
  // their peers) with one group delete, so their names are free on return;
  // then the namespaces, which the kernel frees in the background. Deleting
  // only the namespaces settles as soon (the kernel's cleanup takes each
  // veth pair with its namespace) and spares this thread the deletes' CPU,
  // but the host ends then vanish a little later (docs/performance.md).
  nl::Batch ends(*host);
  for (int i = 0; i < count; ++i)
    if ((*results)[i]) ends.delete_link(prefix + "-h" + std::to_string(i));
  int left = 0;
  for (const auto& r : ends.flush()) left += !r;
  for (int i = 0; i < count; ++i)
    if ((*results)[i]) left += !nl::delete_netns(fleet[i].name);
  if (left) std::fprintf(stderr, "netns_fleet: %d teardown steps failed\n", left);
  return failed || left ? 1 : 0;
}
