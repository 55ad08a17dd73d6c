// cli/ip/help.cc: `brisk OBJECT help`, the grammar brisk accepts, per object,
// in iproute2's notation. Only what brisk implements is listed.
#include <string>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

std::string_view object_usage(Object object) {
  switch (object) {
    case Object::link: {
      static const std::string text = std::string(R"(Usage: brisk link add [ link DEV ] [ name ] NAME
                       [ mtu MTU ] [ address LLADDR ] [ txqueuelen PACKETS ]
                       [ master DEV | vrf NAME | nomaster ] [ alias NAME ] [ group GROUP ] [ up | down ]
                       [ index IDX ] [ FLAGS ] [ TUNING ] type TYPE [ ARGS ]
       brisk link set { dev DEV | DEV } [ up | down ] [ mtu MTU ] [ address LLADDR ]
                       [ name NEWNAME ] [ master DEV | vrf NAME | nomaster ] [ netns { NAME | PID } ]
                       [ alias NAME ] [ txqueuelen PACKETS ] [ group GROUP ]
                       [ FLAGS ] [ index IDX (with netns) ]
                       [ type { bridge | bridge_slave | macvlan | macvtap | vxlan } ARGS ] [ TUNING ]
       brisk link del { dev DEV | DEV | group GROUP } [ type TYPE ]
       brisk link show [ [ dev ] DEV ] [ master DEV | vrf NAME | nomaster ] [ type TYPE | type KIND_slave ]
                       [ group GROUP ] [ up ]
       brisk link property add [ dev ] DEV [ altname NAME ... ]
       brisk link property del [ dev ] DEV [ altname NAME ... ]
DEV := a device's name or one of its altnames
FLAGS := [ { promisc | arp | multicast | allmulticast } { on | off } ]
TUNING := [ state { UP | DOWN | DORMANT | ... } ] [ mode { default | dormant } ] [ link-netns NAME | link-netnsid ID ]
          [ protodown_reason { 0..31 } { on | off } ] [ addrgenmode { eui64 | none | stable_secret | random } ] [ numtxqueues N ] [ numrxqueues N ]
          [ gso_max_size BYTES ] [ gso_max_segs N ] [ gro_max_size BYTES ] [ broadcast LLADDR ]
          [ { carrier | protodown | dynamic | trailers } { on | off } ]
          [ { xdp | xdpgeneric | xdpdrv | xdpoffload } off ]
GROUP := { default | NAME from /etc/iproute2/group | NUMBER }
TYPE := { veth | bridge | macvlan | macvtap | vxlan | vlan }
veth:    [ peer [ name ] NAME [ netns NAME ] [ what link add takes for a device, but type ] ]
bridge:  BRIDGE_OPTION...
macvlan, macvtap: link DEV [ mode { private | vepa | bridge | passthru | source } ]
vxlan:   { id VNI | external [ vnifilter ] } [ dstport PORT ] [ srcport MIN MAX ] [ local ADDR ]
         [ remote ADDR | group ADDR dev DEV ] [ dev DEV ] [ ttl { 1..255 | auto | inherit } ]
         [ tos { TOS | inherit } ] [ df { unset | set | inherit } ] [ flowlabel LABEL ]
         [ ageing SECONDS | none ] [ maxaddress NUMBER | unlimited ] [ [no]learning ] [ [no]proxy ]
         [ [no]rsc ] [ [no]l2miss ] [ [no]l3miss ] [ [no]udpcsum ] [ [no]udp6zerocsumtx ]
         [ [no]udp6zerocsumrx ] [ [no]remcsumtx ] [ [no]remcsumrx ] [ gbp ] [ gpe ]
vlan:    link DEV id VLANID [ protocol { 802.1Q | 802.1ad } ]
Names are literal: templates such as veth%d are refused.
`link set DEV type KIND ARGS` changes a bridge's options, a macvlan's mode or a vxlan's options (the kernel keeps its port);
`link set DEV type bridge_slave ARGS` a bridge port's (brisk link set DEV type bridge_slave help).
)") + std::string(bridge_usage()) + "\n";
      return text;
    }
    case Object::address:
      return R"(Usage: brisk address { add | change | replace | del } IFADDR dev DEV
                       [ label LABEL ] [ { broadcast | brd } { ADDR | + | - } ] [ anycast ADDR ]
                       [ scope SCOPE ] [ metric METRIC ] [ valid_lft LFT ] [ preferred_lft LFT ]
                       [ noprefixroute ] [ nodad ] [ optimistic ] [ home ] [ mngtmpaddr ] [ autojoin ]
       brisk address show [ [ dev ] DEV ] [ scope SCOPE ] [ to PREFIX ] [ FLAG... ]
                          [ label PATTERN ] [ up ] [ LINK_SELECTOR ]
       brisk address flush [ [ dev ] DEV ] [ scope SCOPE ] [ to PREFIX ] [ FLAG... ]
                          [ label PATTERN ] [ LINK_SELECTOR ]
LINK_SELECTOR := [ master DEV | vrf NAME | nomaster ] [ type TYPE | type KIND_slave ]
IFADDR := PREFIX | ADDR peer PREFIX (10.0.0.1/24, fd00::1/64, 10.8.0.1 peer 10.8.0.2)
          (an IPv4 ADDR deleted without /LEN matches it at any length, as ip's wildcard deletion)
SCOPE := { host | link | global | NUMBER }
LFT := { forever | SECONDS }
FLAG := [ - ] { permanent | dynamic | secondary | primary | tentative | deprecated |
                dadfailed | temporary | home | mngtmpaddr | noprefixroute | nodad |
                optimistic | autojoin | stable-privacy }
)";
    case Object::route:
      return R"(Usage: brisk route { add | del | replace | change | chg | prepend | append } ROUTE
       brisk route show [ SELECTOR ]
       brisk route flush SELECTOR
       brisk route get [ fibmatch ] [ connected ] [ notify ] [ to ] ADDRESS
                       [ from ADDRESS iif DEV ] [ oif DEV ] [ tos TOS ] [ mark NUMBER ]
                       [ vrf NAME ] [ uid NUMBER ] [ ipproto PROTOCOL ]
                       [ sport NUMBER ] [ dport NUMBER ] [ as [ to ] ADDRESS ]
       brisk route save [ SELECTOR ] > FILE   (ip's format)
       brisk route { restore | showdump } < FILE
SELECTOR := [ [ to ] [ root | match | exact ] PREFIX ] [ dev DEV ] [ iif DEV ]
            [ table { TABLE_ID | all } ] [ proto RTPROTO ] [ scope SCOPE ] [ type TYPE ]
            [ via [ inet | inet6 ] PREFIX ] [ src PREFIX ] [ metric NUMBER ]
            [ tos TOS ] [ mark NUMBER ] [ from [ root | match | exact ] PREFIX ]
            [ realms REALM ] [ vrf NAME ] [ cached | cloned ]
ROUTE := [ TYPE ] { PREFIX | default } [ via ADDRESS ] [ dev DEV ] [ metric NUMBER ]
         [ table TABLE_ID | vrf NAME ] [ scope SCOPE ] [ proto RTPROTO ] [ src ADDRESS ] [ onlink ]
         [ tos TOS ] [ nhid ID ] [ from PREFIX ] [ realms REALM ] [ expires SECONDS ]
         [ pref { low | medium | high } ] [ METRIC [ lock ] VALUE ]...
         [ features ecn ] [ congctl [ lock ] NAME ] [ nexthop NH ]... [ encap ENCAP ]
ENCAP := { ip [ id ID ] [ dst ADDR ] [ src ADDR ] [ tos TOS ] [ ttl TTL ] [ key ] [ csum ] [ seq ] |
           ip6 [ id ID ] [ dst ADDR ] [ src ADDR ] [ tc TC ] [ hoplimit HOPS ] [ key ] [ csum ] [ seq ] |
           mpls LABEL[/LABEL...] [ ttl TTL ] }
NH := [ via ADDRESS ] [ dev DEV ] [ weight NUMBER ] [ onlink ] [ realms [ FROM/ ]TO ]
TYPE := { unicast | local | broadcast | multicast | anycast | throw | unreachable |
          prohibit | blackhole | nat }
REALM := [ REALM_ID/ ]REALM_ID, a NAME from rt_realms or a NUMBER
(local, broadcast, anycast and nat routes go to table local unless one is named;
 from and expires are IPv6's)
TABLE_ID := { main | local | default | NAME from rt_tables | NUMBER }
SCOPE := { host | link | global | NAME from rt_scopes | NUMBER }
RTPROTO := { kernel | boot | static | dhcp | ... | NAME from rt_protos | NUMBER }
METRIC := { mtu | advmss | window | initcwnd | initrwnd | quickack | rtt | rttvar |
            ssthresh | cwnd | reordering | hoplimit | rto_min | fastopen_no_cookie }
)";
    case Object::rule:
      return R"(Usage: brisk rule { add | del } SELECTOR ACTION
       brisk rule flush [ SELECTOR ]
       brisk rule [ { list | show } [ SELECTOR ] ]
       brisk rule save > FILE        (the rules of one family, -4 unless -6; ip's format)
       brisk rule restore < FILE     (adds each saved rule again, as ip rule restore)
SELECTOR := [ not ] [ from PREFIX ] [ to PREFIX ] [ tos TOS ]
            [ fwmark FWMARK[/MASK] ]
            [ iif STRING ] [ oif STRING ] [ pref NUMBER ] [ l3mdev ]
            [ uidrange NUMBER-NUMBER ]
            [ ipproto PROTOCOL ]
            [ sport [ NUMBER | NUMBER-NUMBER ] ]
            [ dport [ NUMBER | NUMBER-NUMBER ] ]
            [ tun_id NUMBER ]
ACTION := [ table TABLE_ID ]
          [ protocol PROTO ]
          [ nat ADDRESS ]
          [ realms [SRCREALM/]DSTREALM ]
          [ goto NUMBER ]
          [ { blackhole | unreachable | prohibit | nop } ]
          SUPPRESSOR
SUPPRESSOR := [ suppress_prefixlength NUMBER ]
              [ suppress_ifgroup DEVGROUP ]
TABLE_ID := [ local | main | default | NAME from rt_tables | NUMBER ]
Without -6 (or -4) rules are IPv4's, as in ip.
)";
    case Object::neigh:
      return R"(Usage: brisk neigh { add | del | change | replace }
                 { ADDR [ lladdr { LLADDR | null } ] [ nud STATE ] | proxy ADDR }
                 dev DEV [ router ] [ use ] [ managed ] [ extern_learn ]
                 [ protocol PROTO ]
       brisk neigh show [ proxy ] [ dev DEV ] [ [ to ] PREFIX ] [ nud { STATE | all } ]...
                 [ master DEV | vrf NAME | nomaster ] [ protocol { PROTO | all } ] [ unused ]
       brisk neigh flush SELECTOR...    (show's selectors, at least one)
       brisk neigh get { [ to ] ADDR dev DEV | proxy ADDR [ dev DEV ] }
STATE := { delay | failed | incomplete | noarp | none |
           permanent | probe | reachable | stale | NUMBER }
)";
    case Object::netns:
      return R"(Usage: brisk netns list
       brisk netns add NAME
       brisk [ -all ] netns del NAME
       brisk [ -all ] netns exec NAME COMMAND...
       brisk netns attach NAME PID
       brisk netns set NAME { NSID | auto }
       brisk netns identify [ PID ]
       brisk netns pids NAME
       brisk netns monitor
       brisk netns list-id [ target-nsid NSID ] [ nsid NSID ]
Namespaces are bind mounts under /run/netns, shared with ip netns.
monitor prints "add NAME" and "delete NAME" as names come and go there, until
SIGINT or SIGTERM. list-id shows the ids given here to other namespaces (or,
with target-nsid, by the namespace with that id here), by their names.
exec enters the namespace, a /sys of its own and /etc/netns/NAME files over /etc,
then runs COMMAND with no shell.
)";
    case Object::fdb:
      return R"(Usage: brisk fdb { add | del } LLADDR dev DEV [ self ] [ master ]
                       [ static | dynamic | permanent ] [ vlan VID ] [ dst ADDR ]
       brisk fdb show [ br BRIDGE ]
)";
    case Object::tuntap:
      return R"(Usage: brisk tuntap { add | del | show | list | lst | help } [ dev PHYS_DEV ]
       [ mode { tun | tap } ] [ user USER ] [ group GROUP ]
       [ one_queue ] [ pi ] [ vnet_hdr ] [ multi_queue ] [ name NAME ]

Where: USER  := { STRING | NUMBER }
       GROUP := { STRING | NUMBER }
brisk tap is the same object. Without a name add lets the kernel pick tunN or tapN.
)";
    case Object::nexthop:
      return R"(Usage: brisk nexthop { list | flush } [ protocol ID ] SELECTOR
       brisk nexthop { add | replace } id ID NH [ protocol ID ]
       brisk nexthop { get | del } id ID
       brisk nexthop bucket list BUCKET_SELECTOR
       brisk nexthop bucket get id ID index INDEX
SELECTOR := [ id ID ] [ dev DEV ] [ vrf NAME ] [ master DEV ]
            [ groups ] [ fdb ]
BUCKET_SELECTOR := SELECTOR | [ nhid ID ]
NH := { blackhole | [ via [ inet | inet6 ] ADDRESS ] [ dev DEV ] [ onlink ]
        [ encap ENCAP (as for routes: brisk route help) ] |
        group GROUP [ fdb ] [ type TYPE [ TYPE_ARGS ] ] }
GROUP := [ <id[,weight]>/<id[,weight]>/... ]
TYPE := { mpath | resilient }
TYPE_ARGS := [ RESILIENT_ARGS ]
RESILIENT_ARGS := [ buckets BUCKETS ] [ idle_timer IDLE ]
                  [ unbalanced_timer UNBALANCED ]
Routes name a nexthop by id: brisk route add PREFIX nhid ID.
)";
    case Object::maddr:
      return R"(Usage: brisk maddr [ add | del ] MULTIADDR dev STRING
       brisk maddr show [ dev STRING ]
add and del end a batch, as they end ip: the lines after them are not run.
)";
    case Object::addrlabel:
      return R"(Usage: brisk addrlabel { add | del } prefix PREFIX [ dev DEV ] [ label LABEL ]
       brisk addrlabel [ list | flush | help ]
The table is IPv6's (the kernel keeps no other); flush empties it, defaults too.
)";
    case Object::token:
      return R"(Usage: brisk token [ list | set | del | get ] [ TOKEN ] [ dev DEV ]
TOKEN is an IPv6 address whose low 64 bits become the interface id of DEV's
SLAAC addresses; del (or ::) takes it away. list shows every device's but
loopback and NOARP ones.
)";
    case Object::ntable:
      return R"(Usage: brisk ntable change name NAME [ dev DEV ]
        [ thresh1 VAL ] [ thresh2 VAL ] [ thresh3 VAL ] [ gc_int MSEC ]
        [ PARMS ]
       brisk ntable show [ dev DEV | none ] [ name NAME ]
PARMS := [ base_reachable MSEC ] [ retrans MSEC ] [ gc_stale MSEC ]
         [ delay_probe MSEC ] [ queue LEN ]
         [ app_probes VAL ] [ ucast_probes VAL ] [ mcast_probes VAL ]
         [ anycast_delay MSEC ] [ proxy_delay MSEC ] [ proxy_queue LEN ]
         [ locktime MSEC ]
NAME is arp_cache (IPv4) or ndisc_cache (IPv6). The thresholds and gc_int are
the table's; PARMS are its defaults, or DEV's own. -s adds each table's config
and counters; dev none shows the tables without their devices.
)";
    case Object::netconf:
      return R"(Usage: brisk netconf show [ dev DEV ]
Each family's settings of every device (or DEV's), then of all and of default
(what new devices get). -4 or -6 shows one family's.
)";
    case Object::monitor:
      return R"(Usage: brisk monitor [ all | OBJECTS ] [ label ] [ dev DEVICE ]
OBJECTS := { link | address | route | mroute | prefix | neigh | netconf |
             rule | nsid | nexthop | stats }
Global options: -t[imestamp] (a "Timestamp:" line per event), -ts[hort] (a
[YYYY-MM-DDTHH:MM:SS.uuuuuu] prefix), -4 | -6 (the events of one family),
-o[neline], -d[etails], -s[tatistics], -n[etns] NAME.
)";
  }
  return {};
}

std::string_view general_usage() {
  return R"(Usage: brisk [ OPTIONS ] OBJECT { COMMAND | help }
       brisk [ -force ] -batch FILE
       brisk run [ OPTIONS ] -- PROGRAM [ ARGS... ]   (brisk run --help)
       brisk run --batch FILE [ -j N ]
       brisk bench { spawn | link | containers | ip }  (brisk bench --help)
       brisk demo
OBJECT := { link | address | addrlabel | maddress | route | rule | neigh | ntable | netns |
           netconf | fdb | tuntap | token | monitor | nexthop }
OPTIONS := { -V[ersion] | -n[etns] NAME | -j[son] | -p[retty] | -d[etails] |
             -s[tatistics] | -h[uman-readable] | -iec | -br[ief] | -o[neline] |
             -t[imestamp] | -ts[hort] | -N[umeric] | -a[ll] | -rc[vbuf] SIZE |
             -c[olor][={ always | auto | never }] | -l[oops] N |
             -4 | -6 | -0 | -M | -B | -f[amily] { inet | inet6 | link | mpls | bridge } |
             -force | -- }
)";
}

}  // namespace brisk::ipcli
