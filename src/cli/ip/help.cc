// cli/ip/help.cc: `brisk help` and `brisk link help`, the grammar brisk
// accepts in iproute2's notation (each other object keeps its own in its
// module). Only what brisk implements is listed.
#include <string>

#include "cli/ip/ip.h"
#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {

namespace {

// The kinds' part of `brisk link help`, from the kind registry: the TYPE
// line, then each kind's synopsis.
std::string kind_lines() {
  std::string types, lines;
  for (const LinkKindModule* kind : link_kinds()) {
    if (kind->synopsis.empty()) continue;
    types += (types.empty() ? "" : " | ") + std::string(kind->name);
    std::string head = std::string(kind->name) + ":";
    lines +=
        head + std::string(head.size() < 9 ? 9 - head.size() : 1, ' ') + std::string(kind->synopsis) + "\n";
  }
  return "TYPE := { " + types + " }\n" + lines;
}

// What the kinds' synopses refer to (BRIDGE_OPTION := ...).
std::string kind_glossaries() {
  std::string text;
  for (const LinkKindModule* kind : link_kinds())
    if (kind->glossary) text += std::string(kind->glossary()) + "\n";
  return text;
}

}  // namespace

std::string_view link_usage() {
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
)") + kind_lines() + R"(Names are literal: templates such as veth%d are refused.
`link set DEV type KIND ARGS` changes a bridge's options, a macvlan's mode or a vxlan's options (the kernel keeps its port);
`link set DEV type bridge_slave ARGS` a bridge port's (brisk link set DEV type bridge_slave help).
)" + kind_glossaries();
  return text;
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
