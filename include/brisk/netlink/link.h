// brisk/netlink/link.h: network devices (links).
//
// Each operation is a typed call usable alone (add_link(conn, spec)) or
// queued into a Batch (batch.add_link(spec)) that is flushed as a pipeline.
// Devices are addressed by name with ifindex 0 wherever the kernel accepts
// it; masters and parent links are resolved once per name (resolve_link:
// one ioctl(SIOCGIFINDEX), one RTM_GETLINK only where the ioctl is refused),
// cached on the connection. Nothing here ever dumps to find a name.
//
//   auto conn = Connection::open_in(ns_fd).value();
//   add_link(conn, {.name = "br0", .kind = BridgeOptions{.stp = false}, .common = {.up = true}}).value();
//   add_link(conn, {.name = "veth0",
//                   .kind = VethOptions{.peer = "eth0", .peer_netns_fd = container_ns},
//                   .common = {.master = "br0", .up = true}}).value();
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// Options every kind of link accepts at creation.
// Device settings `ip link add` and `set` share beyond the basics; only
// what is set is sent.
struct LinkTuning {
  std::optional<uint32_t> gso_max_size{};   // IFLA_GSO_MAX_SIZE: the largest GSO packet, in bytes
  std::optional<uint32_t> gso_max_segs{};   // IFLA_GSO_MAX_SEGS: the most segments in one
  std::optional<uint32_t> gro_max_size{};   // IFLA_GRO_MAX_SIZE: the largest GRO packet, in bytes
  std::optional<uint32_t> num_tx_queues{};  // IFLA_NUM_TX_QUEUES (the kernel takes it at creation)
  std::optional<uint32_t> num_rx_queues{};  // IFLA_NUM_RX_QUEUES (likewise)
  // IN6_ADDR_GEN_MODE_*: how the kernel makes the device's IPv6 link-local
  // address (NONE: it makes none, as container runtimes ask of a veth).
  std::optional<uint8_t> addr_gen_mode{};
  std::optional<bool> carrier{};          // IFLA_CARRIER, where the driver lets it be set (dummy, tun)
  std::optional<bool> protodown{};        // IFLA_PROTO_DOWN, where the driver supports it
  std::optional<bool> dynamic{};          // IFF_DYNAMIC: the address may change
  std::optional<bool> trailers{};         // false sets IFF_NOTRAILERS
  std::optional<bool> promisc{};          // IFF_PROMISC: receive every frame (counted, as ip does)
  std::optional<bool> arp{};              // false sets IFF_NOARP
  std::optional<bool> multicast{};        // IFF_MULTICAST
  std::optional<bool> allmulticast{};     // IFF_ALLMULTI: receive every multicast frame
  std::optional<uint8_t> operstate{};     // IFLA_OPERSTATE: IF_OPER_* (RFC 2863), as `state UP|DORMANT|...`
  std::optional<uint8_t> link_mode{};     // IFLA_LINKMODE: IF_LINK_MODE_DEFAULT, _DORMANT or _TESTING
  std::optional<int32_t> link_netnsid{};  // IFLA_LINK_NETNSID: the id, here, of the lower device's namespace
  // IFLA_PROTO_DOWN_REASON: one reason bit (0..31) turned on or off.
  std::optional<std::pair<uint8_t, bool>> protodown_reason{};
  std::string broadcast{};  // IFLA_BROADCAST: the link-layer broadcast address; empty: unchanged
  bool xdp_off = false;     // detach the device's XDP program (IFLA_XDP, fd -1)
  uint32_t xdp_flags = 0;   // XDP_FLAGS_*_MODE of the program to detach; 0: any

  bool operator==(const LinkTuning&) const = default;
};

struct LinkCommon {
  std::optional<uint32_t> mtu{};         // bytes; the kernel checks the kind's range
  std::string address{};                 // MAC "xx:xx:xx:xx:xx:xx"; empty: the kernel picks one
  std::optional<uint32_t> txqueuelen{};  // transmit queue length in packets
  std::string master{};                  // bridge (or other master) to enslave to; empty: none
  std::string alias{};                   // ifalias text; empty: none
  std::optional<uint32_t> group{};       // device group; default group 0
  bool up = false;                       // bring the device up as it is created
  int32_t index = 0;                     // the new device's ifindex; 0: the kernel picks one
  LinkTuning tuning{};                   // the rest of what ip link add takes

  bool operator==(const LinkCommon&) const = default;
};

struct VethOptions {
  std::string peer{};      // the other end's name; empty: the kernel names it vethN (a scan of every name)
  int peer_netns_fd = -1;  // create the peer directly in this namespace (fd not owned); -1: here
  // The peer's own settings, sent as the device's are (mtu, address,
  // txqueuelen, group, index, tuning). Its master and alias are refused:
  // the kernel ignores both on a peer, so set them once it exists. Its `up`
  // goes to the kernel, which refuses to open a veth end before both exist
  // (ENOTCONN): bring the peer up afterwards from its own namespace.
  LinkCommon peer_common{};
};

// Each field set is sent; at creation the rest take the kernel's defaults,
// in a change (LinkSet::kind) the rest stay as they are.
struct BridgeOptions {
  std::optional<bool> stp{};                     // spanning tree on or off
  std::optional<uint32_t> forward_delay{};       // in centiseconds, as `ip link ... forward_delay`
  std::optional<uint32_t> hello_time{};          // STP hello interval, centiseconds
  std::optional<uint32_t> max_age{};             // STP message age limit, centiseconds
  std::optional<uint32_t> ageing_time{};         // FDB entry lifetime, centiseconds
  std::optional<uint16_t> priority{};            // STP bridge priority
  std::optional<bool> vlan_filtering{};          // 802.1Q filtering on the bridge's ports
  std::optional<uint16_t> vlan_default_pvid{};   // PVID given to new ports (0: none)
  std::optional<bool> mcast_snooping{};          // IGMP/MLD snooping
  std::optional<bool> mcast_querier{};           // send IGMP/MLD queries
  std::optional<bool> nf_call_iptables{};        // bridged IPv4 through iptables
  std::optional<bool> nf_call_ip6tables{};       // bridged IPv6 through ip6tables
  std::optional<bool> nf_call_arptables{};       // bridged ARP through arptables
  std::optional<uint16_t> group_fwd_mask{};      // link-local groups forwarded: bit N for 01:80:c2:00:00:0N
  std::optional<std::string> group_address{};    // the STP group address, a MAC (01:80:c2:00:00:0X)
  std::optional<bool> no_linklocal_learn{};      // learn no source from link-local frames (a multi-boolopt)
  bool fdb_flush = false;                        // flush the bridge's learned FDB entries (a change)
  std::optional<uint16_t> vlan_protocol{};       // ETH_P_8021Q or ETH_P_8021AD, host order
  std::optional<bool> vlan_stats_enabled{};      // per-VLAN counters
  std::optional<bool> vlan_stats_per_port{};     // those counters kept per port
  std::optional<uint8_t> mcast_router{};         // 0 off, 1 learned (default), 2 always
  std::optional<bool> mcast_vlan_snooping{};     // snooping per VLAN (a multi-boolopt)
  std::optional<bool> mcast_query_use_ifaddr{};  // queries from the bridge's own IP address
  std::optional<uint32_t> mcast_hash_elasticity{};
  std::optional<uint32_t> mcast_hash_max{};  // the multicast database's size
  std::optional<uint32_t> mcast_last_member_count{};
  std::optional<uint32_t> mcast_startup_query_count{};
  // Multicast timers, in centiseconds as ip takes them.
  std::optional<uint64_t> mcast_last_member_interval{};
  std::optional<uint64_t> mcast_membership_interval{};
  std::optional<uint64_t> mcast_querier_interval{};
  std::optional<uint64_t> mcast_query_interval{};
  std::optional<uint64_t> mcast_query_response_interval{};
  std::optional<uint64_t> mcast_startup_query_interval{};
  std::optional<bool> mcast_stats_enabled{};    // multicast counters
  std::optional<uint8_t> mcast_igmp_version{};  // 2 or 3
  std::optional<uint8_t> mcast_mld_version{};   // 1 or 2
};

// A bridge port's options, as `ip link set DEV type bridge_slave` sets them
// (IFLA_INFO_SLAVE_DATA); only what is set is sent.
struct BridgePortOptions {
  std::optional<uint8_t> state{};      // BR_STATE_*: disabled 0, listening, learning, forwarding, blocking 4
  std::optional<uint16_t> priority{};  // STP port priority
  std::optional<uint32_t> cost{};      // STP path cost
  std::optional<uint8_t> mcast_router{};     // 0 off, 1 learned (default), 2 always, 3 temporary
  std::optional<uint16_t> group_fwd_mask{};  // link-local groups forwarded: bit N for 01:80:c2:00:00:0N
  std::optional<std::string> backup_port{};  // the port that takes over its traffic; "" clears it
  bool fdb_flush = false;                    // flush the port's learned FDB entries
  std::optional<bool> hairpin{};             // IFLA_BRPORT_MODE: frames may leave where they came in
  std::optional<bool> guard{};               // drop STP BPDUs received on it
  std::optional<bool> root_block{};          // IFLA_BRPORT_PROTECT: never the root port
  std::optional<bool> fast_leave{};          // leave a multicast group on the first IGMP leave
  std::optional<bool> learning{};            // learn source MACs seen on it
  std::optional<bool> flood{};               // IFLA_BRPORT_UNICAST_FLOOD: flood unknown unicast to it
  std::optional<bool> mcast_flood{};         // flood unknown multicast to it
  std::optional<bool> bcast_flood{};         // flood broadcast to it
  std::optional<bool> mcast_to_unicast{};    // IFLA_BRPORT_MCAST_TO_UCAST
  std::optional<bool> proxy_arp{};           // IFLA_BRPORT_PROXYARP
  std::optional<bool> proxy_arp_wifi{};      // IFLA_BRPORT_PROXYARP_WIFI
  std::optional<bool> neigh_suppress{};      // answer ARP/ND from the bridge's neighbour entries
  std::optional<bool> vlan_tunnel{};         // map VLANs to tunnel ids
  std::optional<bool> isolated{};            // no traffic to other isolated ports
  std::optional<bool> locked{};              // only hosts with an FDB entry may send
};

enum class MacvlanMode : uint32_t { private_ = 1, vepa = 2, bridge = 4, passthru = 8, source = 16 };

// What `macaddr` does to a source-mode macvlan's list of allowed senders.
enum class MacvlanMacaddr : uint32_t { add = 0, del = 1, flush = 2, set = 3 };

struct MacvlanOptions {
  std::string link{};                    // the lower device; required to create
  std::optional<MacvlanMode> mode{};     // how siblings reach each other; empty: the kernel's (vepa), as ip
  bool tap = false;                      // macvtap instead of macvlan
  std::optional<uint16_t> flags{};       // MACVLAN_FLAG_NOPROMISC (passthru only), MACVLAN_FLAG_NODST
  std::optional<uint32_t> bcqueuelen{};  // the broadcast/multicast receive queue's length
  // Source mode: the change to its sender list, and the MACs it names (one
  // for add and del, any number for set, none for flush).
  std::optional<MacvlanMacaddr> macaddr{};
  std::vector<std::string> macaddrs{};
};

struct VxlanOptions {
  std::optional<uint32_t> id{};         // VNI, 0..16777215: required to create; a change may only repeat it
  std::optional<uint16_t> dstport{};    // UDP port; the kernel's default is 8472
  std::string local{};                  // source address; empty: any
  std::string remote{};                 // unicast peer; exclusive with group
  std::string group{};                  // multicast group; needs dev
  std::string dev{};                    // device for the underlay
  std::optional<uint8_t> ttl{};         // outer TTL; 0: the kernel's choice ("auto")
  bool ttl_inherit = false;             // outer TTL copied from the inner packet (IFLA_VXLAN_TTL_INHERIT)
  std::optional<bool> learning{};       // learn remote MACs from traffic
  std::optional<uint8_t> tos{};         // outer TOS; 1: copied from the inner packet ("inherit")
  std::optional<uint8_t> df{};          // outer DF bit: VXLAN_DF_UNSET, VXLAN_DF_SET or VXLAN_DF_INHERIT
  std::optional<uint32_t> flowlabel{};  // outer IPv6 flow label, 20 bits
  std::optional<uint32_t> ageing{};     // seconds an fdb entry lives; 0: forever
  std::optional<uint32_t> max_addresses{};                      // fdb entries at most; 0: no limit
  std::optional<std::pair<uint16_t, uint16_t>> source_ports{};  // UDP source port range, low and high
  std::optional<bool> proxy{};              // answer ARP/ND from the fdb (IFLA_VXLAN_PROXY)
  std::optional<bool> rsc{};                // route short-circuit
  std::optional<bool> l2miss{};             // netlink notifications of fdb misses
  std::optional<bool> l3miss{};             // netlink notifications of IP misses
  std::optional<bool> udp_csum{};           // UDP checksums over IPv4
  std::optional<bool> udp6_zero_csum_tx{};  // send IPv6 UDP without a checksum
  std::optional<bool> udp6_zero_csum_rx{};  // accept IPv6 UDP without a checksum
  std::optional<bool> remcsum_tx{};         // remote checksum offload, sending
  std::optional<bool> remcsum_rx{};         // remote checksum offload, receiving
  std::optional<bool> external{};           // metadata mode (IFLA_VXLAN_COLLECT_METADATA): the VNI per packet
  std::optional<bool> vnifilter{};          // per-VNI filtering; only with external
  bool gbp = false;                         // Group Based Policy extension
  bool gpe = false;                         // Generic Protocol Extension
};

struct VlanOptions {
  std::string link{};          // the lower device; required
  uint16_t id = 0;             // VLAN id, 0..4095
  uint16_t protocol = 0x8100;  // 0x8100 (802.1Q) or 0x88a8 (802.1ad)
};

// Made through /dev/net/tun (TUNSETIFF) in the connection's namespace, and
// always persistent: a non-persistent device would vanish with brisk's fd.
struct TunOptions {
  bool tap = false;              // a layer-2 tap instead of a layer-3 tun
  std::optional<uid_t> owner{};  // user allowed to attach without CAP_NET_ADMIN
  std::optional<gid_t> group{};  // group allowed to attach
  bool pi = false;               // frames carry the 4-byte packet information header (IFF_NO_PI unset)
  bool vnet_hdr = false;         // IFF_VNET_HDR: frames carry a virtio_net_hdr (offloads)
  bool multi_queue = false;      // IFF_MULTI_QUEUE: several fds may attach, one queue each
  bool one_queue = false;        // IFF_ONE_QUEUE: kept in tun_flags, otherwise ignored by the kernel
};

// Any other kind by its rtnetlink name ("dummy", "bond", "vrf", ...): the
// escape hatch for kinds the typed options above do not model. Its options,
// if any, are the caller's own IFLA_INFO_DATA, sent verbatim: a stream of
// netlink attributes (IFLA_VRF_TABLE, ...), each padded to 4 bytes, as
// LinkDetails::info_data reads them back. A kind this kernel lacks fails
// with EOPNOTSUPP.
// `brisk link add vrf1 type vrf table 10` sends
// OtherKind{.kind = "vrf", .info_data = <IFLA_VRF_TABLE: u32 10>}.
struct OtherKind {
  std::string kind{};
  std::vector<char> info_data{};  // the IFLA_INFO_DATA payload; empty: none sent
};

using LinkKind = std::variant<VethOptions, BridgeOptions, MacvlanOptions, VxlanOptions, VlanOptions,
                              TunOptions, OtherKind>;

struct LinkAdd {
  std::string name{};   // 1..15 bytes, no '/', ':', whitespace or '%' (templates are refused)
  LinkKind kind{};      // what to create, with its options
  LinkCommon common{};  // options every kind accepts
  // Create the device directly in this namespace (fd not owned), as `ip link
  // add NAME netns NS`; -1: the connection's. Its name and ifindex are then
  // the other namespace's: the add is not undone or rechecked from here.
  int netns_fd = -1;
};

// Changes to one device; only the fields that are set are sent.
struct LinkSet {
  std::string name{};             // the device to change; empty with `group`: every device in that group
  std::optional<bool> up{};       // up or down
  std::optional<uint32_t> mtu{};  // new MTU
  std::string address{};          // new MAC; empty: unchanged
  std::string new_name{};         // rename to this; empty: unchanged
  std::optional<std::string> master{};  // enslave to this device; "" releases (nomaster)
  int netns_fd = -1;                    // move into the namespace of this fd (not owned)
  std::optional<pid_t> netns_pid{};     // move into the namespace of this process
  std::string netns_name{};             // move into this named namespace (/run/netns/<name>)
  int32_t new_index = 0;  // with a move: the device's ifindex there (IFLA_NEW_IFINDEX); 0: kept if free
  std::optional<std::string> alias{};    // new alias; "" clears it
  std::optional<uint32_t> txqueuelen{};  // new transmit queue length
  std::optional<uint32_t> group{};       // new device group; with no name: the group whose devices all change
  LinkTuning tuning{};                   // the rest of what ip link set takes
  // New options of the device as a bridge's port (IFLA_INFO_SLAVE_KIND
  // bridge); instead of `kind`, as ip takes one type per line.
  std::optional<BridgePortOptions> bridge_port{};
  // New options of the device's own kind (IFLA_LINKINFO), which must be its
  // kind: a BridgeOptions sends its fields that are set, a MacvlanOptions its
  // mode (`link` must be empty), an OtherKind its kind and info_data. Other kinds are
  // refused (EINVAL): their options are fixed at creation or not modelled.
  std::optional<LinkKind> kind{};
};

// Counters from IFLA_STATS64, as `ip -s link` shows them.
struct LinkStats {
  uint64_t rx_packets = 0;         // packets received
  uint64_t tx_packets = 0;         // packets sent
  uint64_t rx_bytes = 0;           // bytes received
  uint64_t tx_bytes = 0;           // bytes sent
  uint64_t rx_errors = 0;          // bad packets received
  uint64_t tx_errors = 0;          // packets that failed to send
  uint64_t rx_dropped = 0;         // received, then dropped (no buffer, ...)
  uint64_t tx_dropped = 0;         // dropped on the way out
  uint64_t rx_over_errors = 0;     // receive ring overruns
  uint64_t rx_missed_errors = 0;   // missed by the host (no room)
  uint64_t multicast = 0;          // multicast packets received
  uint64_t tx_carrier_errors = 0;  // carrier lost while sending
  uint64_t collisions = 0;         // collisions while sending
  // The detail of rx_errors and tx_errors (what `ip -s -s` adds).
  uint64_t rx_length_errors = 0;     // bad length
  uint64_t rx_crc_errors = 0;        // bad checksum
  uint64_t rx_frame_errors = 0;      // frame alignment
  uint64_t rx_fifo_errors = 0;       // receive FIFO overruns
  uint64_t rx_nohandler = 0;         // dropped: no protocol handler (a bridge or bond port, say)
  uint64_t tx_aborted_errors = 0;    // aborted
  uint64_t tx_fifo_errors = 0;       // transmit FIFO underruns
  uint64_t tx_window_errors = 0;     // late collisions
  uint64_t tx_heartbeat_errors = 0;  // SQE test failures
  uint32_t carrier_changes = 0;      // carrier up/down transitions (IFLA_CARRIER_CHANGES)
};

// What `ip -d link` adds: generic limits and counts, and the kind's own
// attributes. Read only when asked (LinkFilter::details): copying the
// kind's attributes costs an allocation per link. Each field is absent
// when the kernel did not send it.
struct LinkDetails {
  std::optional<uint32_t> promiscuity{};  // IFLA_PROMISCUITY: promiscuous-mode users; > 0 acts PROMISC
  std::optional<uint32_t> allmulti{};     // IFLA_ALLMULTI: all-multicast users; > 0 acts ALLMULTI
  std::optional<uint32_t> min_mtu{};      // IFLA_MIN_MTU: smallest MTU the device accepts
  std::optional<uint32_t> max_mtu{};      // IFLA_MAX_MTU: largest MTU the device accepts (0: no limit)
  std::optional<uint8_t>
      addr_gen_mode{};  // IFLA_AF_SPEC/AF_INET6/IFLA_INET6_ADDR_GEN_MODE: IN6_ADDR_GEN_MODE_*
  std::optional<uint32_t> num_tx_queues{};  // IFLA_NUM_TX_QUEUES: transmit queues allocated
  std::optional<uint32_t> num_rx_queues{};  // IFLA_NUM_RX_QUEUES: receive queues allocated
  std::optional<uint32_t> gso_max_size{};   // IFLA_GSO_MAX_SIZE: largest GSO packet the stack builds, bytes
  std::optional<uint32_t> gso_max_segs{};   // IFLA_GSO_MAX_SEGS: most segments in one GSO packet
  std::optional<uint32_t> tso_max_size{};   // IFLA_TSO_MAX_SIZE: largest TSO packet the device takes, bytes
  std::optional<uint32_t> tso_max_segs{};   // IFLA_TSO_MAX_SEGS: most segments the device's TSO takes
  std::optional<uint32_t> gro_max_size{};   // IFLA_GRO_MAX_SIZE: largest packet GRO builds, bytes
  std::string slave_kind{};                 // IFLA_INFO_SLAVE_KIND: the master's kind ("bridge"); empty: none
  // The kind's IFLA_INFO_DATA and the port's IFLA_INFO_SLAVE_DATA, as the
  // raw attribute streams (IFLA_BR_*, IFLA_VXLAN_*, IFLA_BRPORT_*, ...):
  // read them with Attributes::parse and a schema for that kind.
  std::vector<char> info_data{};
  std::vector<char> slave_data{};
};

struct BRISK_EXPORT LinkInfo {
  int ifindex = 0;                        // the kernel's index, unique in its namespace
  std::string name{};                     // IFLA_IFNAME
  std::string kind{};                     // rtnetlink kind ("veth"); empty for devices without one
  uint32_t flags = 0;                     // IFF_UP, IFF_BROADCAST, ...
  uint16_t type = 0;                      // ARPHRD_*: the link layer (ARPHRD_ETHER, ARPHRD_LOOPBACK, ...)
  uint32_t mtu = 0;                       // bytes
  std::optional<MacAddress> address{};    // absent for devices without a 6-byte address
  std::optional<MacAddress> broadcast{};  // link-layer broadcast address (IFLA_BROADCAST)
  std::string qdisc{};                    // root queueing discipline ("noqueue"); empty: none reported
  uint8_t linkmode = 0;                   // IF_LINK_MODE_DEFAULT or IF_LINK_MODE_DORMANT
  int master = 0;                         // master's ifindex; 0: none
  int link = 0;                           // parent or peer ifindex (IFLA_LINK); 0: none
  bool has_link = false;                  // IFLA_LINK was sent, even as 0 (a veth whose peer is gone)
  std::optional<int> link_netnsid{};      // set when `link` lives in another namespace
  uint32_t group = 0;                     // device group (0: default)
  uint32_t txqueuelen = 0;                // transmit queue length in packets
  std::string alias{};                    // ifalias; empty: none
  std::vector<std::string> altnames{};    // alternative names (IFLA_PROP_LIST), in the kernel's order
  uint8_t operstate = 0;                  // IF_OPER_*
  std::optional<LinkStats> stats{};       // only when asked for
  std::optional<LinkDetails> details{};   // only when asked for (LinkFilter::details)
  bool up() const;
};

struct LinkFilter {
  std::string kind{};    // only links of this kind (filtered by the kernel)
  std::string master{};  // only ports of this master (filtered by the kernel)
  bool stats = false;    // include counters
  bool details = false;  // include LinkDetails (what `ip -d` prints)
};

// Rejects names the kernel would refuse or scan for: empty, longer than 15
// bytes, ".", "..", or containing '/', ':', whitespace or '%'.
BRISK_EXPORT NlResult<void> validate_link_name(const std::string& name, const char* op);
// The same rules for a name that refers to an existing device, which may be
// an alternative name of up to 127 bytes; a longer one names no device (ENODEV).
BRISK_EXPORT NlResult<void> validate_link_ref(const std::string& name, const char* op);
// An alternative name as the kernel takes one: non-empty, no '/', whitespace
// or control character (its length, at most 127 bytes, the kernel checks).
BRISK_EXPORT NlResult<void> validate_altname(const std::string& name, const char* op);

BRISK_EXPORT NlResult<void> add_link(Connection& conn, const LinkAdd& spec);
BRISK_EXPORT NlResult<void> set_link(Connection& conn, const LinkSet& spec);
BRISK_EXPORT NlResult<void> delete_link(Connection& conn, const std::string& name);
// Deletes every device in `group`, in one request.
BRISK_EXPORT NlResult<void> delete_link_group(Connection& conn, uint32_t group);
// Alternative names (RTM_NEWLINKPROP / RTM_DELLINKPROP), all in one request;
// each then names the device wherever its name does. `name` may itself be one.
struct AltnameChange {
  std::string name{};                   // the device
  std::vector<std::string> altnames{};  // the names to add or remove
};
BRISK_EXPORT NlResult<void> add_altnames(Connection& conn, const AltnameChange& change);
BRISK_EXPORT NlResult<void> delete_altnames(Connection& conn, const AltnameChange& change);
// What get_link reads of the link besides its basic attributes.
struct LinkRead {
  bool stats = false;    // include counters
  bool details = false;  // include LinkDetails (what `ip -d` prints)
};
// One RTM_GETLINK, never a dump.
BRISK_EXPORT NlResult<LinkInfo> get_link(Connection& conn, const std::string& name,
                                         const LinkRead& read = {});
BRISK_EXPORT NlResult<LinkInfo> get_link(Connection& conn, int ifindex, const LinkRead& read = {});
BRISK_EXPORT NlResult<std::vector<LinkInfo>> list_links(Connection& conn, const LinkFilter& filter = {});
// The ifindex of `name`: the connection's cache, else one ioctl(SIOCGIFINDEX)
// in its namespace (one RTM_GETLINK where the ioctl is refused). Never a dump.
BRISK_EXPORT NlResult<int> resolve_link(Connection& conn, const std::string& name);
// Has the kernel apply the device's pending link-watch event now: its
// operstate (LOWERLAYERDOWN, NO-CARRIER) and the carrier's effect on its
// routes (linkdown), which linkwatch otherwise defers by up to a second, for
// every namespace at once. It is one RTM_GETLINK, which rtnl_getlink() syncs
// (linkwatch_sync_dev, in recent kernels: 6.18 here) and which ip sends for
// each device name it first resolves. A missing device is not an error.
BRISK_EXPORT NlResult<void> sync_link_state(Connection& conn, const std::string& name);

}  // namespace brisk::netlink
