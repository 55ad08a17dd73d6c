"""rtnetlink message decoding and encoding for brisk.pyroute2.

Decoded messages are dict subclasses shaped the way pyroute2 0.7.2 shows
them: header fields as keys, ``'attrs'`` as a list of ``(name, value)``
tuples, ``'header'``, ``'event'``.  Attribute tables below are written
from the kernel's uapi headers (attribute numbers and wire types) and
from pyroute2's documented presentation of the values; the code is ours.

Speed matters more than generality here: every decoder is a plain
function over (buffer, start, end, family) built on precompiled
``struct.Struct`` objects, values are tuples and dicts, no per-attribute
objects.
"""

import os
import struct
import threading
from collections import namedtuple
from socket import AF_INET, AF_INET6, inet_ntop, inet_pton

AF_UNSPEC = 0
AF_BRIDGE = 7
AF_MPLS = 28

NLA_F_NESTED = 0x8000
NLA_F_NET_BYTEORDER = 0x4000
NLA_TYPE_MASK = 0x3FFF

_HDR = struct.Struct('=IHHII')
_NLA = struct.Struct('=HH')
_U8 = struct.Struct('=B')
_U16 = struct.Struct('=H')
_U32 = struct.Struct('=I')
_I32 = struct.Struct('=i')
_U64 = struct.Struct('=Q')
_BE16 = struct.Struct('>H')
_BE32 = struct.Struct('>I')
_BE64 = struct.Struct('>Q')

Stats = namedtuple('Stats', ('qsize', 'delta', 'delay'))
_ZERO_STATS = Stats(0, 0, 0)


class UnsupportedArgument(ValueError):
    """brisk.pyroute2 cannot do what pyroute2 would do with this argument."""


# ---------------------------------------------------------------------------
# message objects


class nlmsg_base(dict):
    """A decoded netlink message or nested attribute, as pyroute2 shows it."""

    __slots__ = ('_raw',)
    prefix = ''

    # 0.7.2 API ---------------------------------------------------------
    def get_attr(self, attr, default=None):
        for cell in self.get_attrs_list():
            if cell[0] == attr:
                return cell[1]
        return default

    def get_attrs(self, attr):
        return [cell[1] for cell in self.get_attrs_list() if cell[0] == attr]

    def get_attrs_list(self):
        return dict.get(self, 'attrs') or ()

    def get_encoded(self, attr, default=None):
        return self.get_attr(attr, default)

    @classmethod
    def name2nla(cls, name):
        name = name.upper()
        if name.find(cls.prefix) == -1:
            name = cls.prefix + name
        return name

    @classmethod
    def nla2name(cls, name):
        return name[(name.find(cls.prefix) + 1) * len(cls.prefix):].lower()

    def get_nested(self, *keys):
        pointer = self
        for key in keys:
            if isinstance(pointer, nlmsg_base):
                nla = pointer.name2nla(key) if pointer.prefix else key.upper()
                value = pointer.get_attr(nla)
                if value is None and key in pointer:
                    value = dict.__getitem__(pointer, key)
                pointer = value
            elif isinstance(pointer, dict):
                pointer = pointer.get(key)
            else:
                return None
        return pointer

    def get(self, key, default=None):
        # pyroute2 0.7.2 documents get('ifname') as "field, else the NLA
        # by its short name"; its own implementation splits a str key
        # into characters and returns None.  We implement the documented
        # behaviour (see the package docstring).
        if isinstance(key, str):
            if key in self:
                ret = dict.__getitem__(self, key)
            else:
                ret = self.get_nested(key)
        elif isinstance(key, (tuple, list)):
            ret = self.get_nested(*key)
        else:
            ret = self.get_nested(key)
        return default if ret is None else ret

    def getvalue(self):
        return self

    def dump(self):
        return _plain(self)


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not isinstance(value, Stats):
        return [_plain(v) for v in value]
    return value


class nla(nlmsg_base):
    __slots__ = ()


def _nested_class(prefix):
    return type('nla_' + (prefix or 'x').strip('_').lower(), (nla,),
                {'__slots__': (), 'prefix': prefix})


class nlmsg(nlmsg_base):
    __slots__ = ()


class ifinfmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'IFLA_'


class ifaddrmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'IFA_'


class rtmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'RTA_'


class ndmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'NDA_'


class fibmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'FRA_'


class nsinfmsg(nlmsg_base):
    __slots__ = ()
    prefix = 'NSINFO_'


# ---------------------------------------------------------------------------
# value decoders: f(buf, start, end, family) -> value


def _d_none(b, s, e, f):
    return None


def _d_flag(b, s, e, f):
    return True


def _d_u8(b, s, e, f):
    return b[s]


def _d_u16(b, s, e, f):
    return _U16.unpack_from(b, s)[0]


def _d_u32(b, s, e, f):
    return _U32.unpack_from(b, s)[0]


def _d_i32(b, s, e, f):
    return _I32.unpack_from(b, s)[0]


def _d_u64(b, s, e, f):
    return _U64.unpack_from(b, s)[0]


def _d_be16(b, s, e, f):
    return _BE16.unpack_from(b, s)[0]


def _d_be32(b, s, e, f):
    return _BE32.unpack_from(b, s)[0]


def _d_be64(b, s, e, f):
    return _BE64.unpack_from(b, s)[0]


def _d_asciiz(b, s, e, f):
    raw = b[s:e]
    z = raw.find(b'\0')
    if z >= 0:
        raw = raw[:z]
    return raw.decode('utf-8', 'replace')


def _d_hex(b, s, e, f):
    return b[s:e].hex(':')


def _d_l2addr(b, s, e, f):
    return b[s:s + 6].hex(':')


def _d_lladdr(b, s, e, f):
    n = e - s
    if n == 6:
        return b[s:e].hex(':')
    if n == 4:
        return inet_ntop(AF_INET, b[s:e])
    if n == 16:
        return inet_ntop(AF_INET6, b[s:e])
    if n == 0:
        return ''
    return b[s:e].hex(':')


def _d_ipaddr(b, s, e, f):
    return inet_ntop(AF_INET6 if e - s > 8 else AF_INET, b[s:e])


def _d_ip4(b, s, e, f):
    return inet_ntop(AF_INET, b[s:e])


def _d_ip6(b, s, e, f):
    return inet_ntop(AF_INET6, b[s:e])


def _d_target(b, s, e, f):
    if f == AF_INET or f == AF_INET6:
        return inet_ntop(f, b[s:e])
    if f == AF_MPLS:
        out = []
        for off in range(s, e - 3, 4):
            v = _BE32.unpack_from(b, off)[0]
            out.append({'label': (v & 0xFFFFF000) >> 12,
                        'tc': (v & 0xE00) >> 9,
                        'bos': (v & 0x100) >> 8,
                        'ttl': v & 0xFF})
        return out
    raise TypeError('socket family not supported')


_OPERSTATES = ('UNKNOWN', 'NOTPRESENT', 'DOWN', 'LOWERLAYERDOWN',
               'TESTING', 'DORMANT', 'UP')
_OPERSTATE_CODE = {n: i for i, n in enumerate(_OPERSTATES)}


def _d_operstate(b, s, e, f):
    return _OPERSTATES[b[s]]


def _struct(fmt, names, klass=dict):
    st = struct.Struct(fmt)
    size = st.size
    names = tuple(names)

    def dec(b, s, e, f):
        if e - s < size:
            # short payload: pad as the kernel's older layouts are shorter
            raw = bytes(b[s:e]) + bytes(size - (e - s))
            return klass(zip(names, st.unpack_from(raw, 0)))
        return klass(zip(names, st.unpack_from(b, s)))
    dec.struct = st
    dec.names = names
    return dec


def _value_map(base, mapping):
    def dec(b, s, e, f):
        v = base(b, s, e, f)
        return mapping.get(v, v)
    return dec


_STATS_NAMES = (
    'rx_packets tx_packets rx_bytes tx_bytes rx_errors tx_errors '
    'rx_dropped tx_dropped multicast collisions rx_length_errors '
    'rx_over_errors rx_crc_errors rx_frame_errors rx_fifo_errors '
    'rx_missed_errors tx_aborted_errors tx_carrier_errors tx_fifo_errors '
    'tx_heartbeat_errors tx_window_errors rx_compressed tx_compressed'
).split()

_INET_CONF = (
    'dummy forwarding mc_forwarding proxy_arp accept_redirects '
    'secure_redirects send_redirects shared_media rp_filter '
    'accept_source_route bootp_relay log_martians tag arpfilter medium_id '
    'noxfrm nopolicy force_igmp_version arp_announce arp_ignore '
    'promote_secondaries arp_accept arp_notify accept_local src_vmark '
    'proxy_arp_pvlan route_localnet igmpv2_unsolicited_report_interval '
    'igmpv3_unsolicited_report_interval').split()
_INET6_CONF = (
    'forwarding hop_limit mtu accept_ra accept_redirects autoconf '
    'dad_transmits router_solicitations router_solicitation_interval '
    'router_solicitation_delay use_tempaddr temp_valid_lft '
    'temp_preferred_lft regen_max_retry max_desync_factor max_addresses '
    'force_mld_version accept_ra_defrtr accept_ra_pinfo accept_ra_rtr_pref '
    'router_probe_interval accept_ra_rt_info_max_plen proxy_ndp '
    'optimistic_dad accept_source_route mc_forwarding disable_ipv6 '
    'accept_dad force_tllao ndisc_notify').split()
_INET6_STATS = (
    'num inpkts inoctets indelivers outforwdatagrams outpkts outoctets '
    'inhdrerrors intoobigerrors innoroutes inaddrerrors inunknownprotos '
    'intruncatedpkts indiscards outdiscards outnoroutes reasmtimeout '
    'reasmreqds reasmoks reasmfails fragoks fragfails fragcreates '
    'inmcastpkts outmcastpkts inbcastpkts outbcastpkts inmcastoctets '
    'outmcastoctets inbcastoctets outbcastoctets csumerrors noectpkts '
    'ect1pkts ect0pkts cepkts').split()
_ICMP6_STATS = 'num inmsgs inerrors outmsgs outerrors csumerrors'.split()


class _Table(object):
    """One attribute space: number <-> (name, decoder, encoder)."""

    __slots__ = ('prefix', 'by_type', 'by_name', 'klass')

    def __init__(self, prefix, rows, klass=None):
        self.prefix = prefix
        self.by_type = {}
        self.by_name = {}
        self.klass = klass or _nested_class(prefix)
        for row in rows:
            num, name, dec, enc = row
            self.by_type[num] = (name, dec)
            self.by_name[name] = (num, enc)


def _rows(spec, prefix, types):
    """Parse 'NUM NAME TYPE' lines into rows using the `types` registry."""
    rows = []
    for line in spec.strip().splitlines():
        num, name, kind = line.split()
        dec, enc = types[kind] if isinstance(kind, str) else kind
        rows.append((int(num), prefix + name, dec, enc))
    return rows


def _nested_decoder(table_ref):
    def dec(b, s, e, f):
        table = table_ref() if callable(table_ref) else table_ref
        msg = table.klass()
        msg['attrs'] = decode_attrs(b, s, e, table.by_type, f)
        return msg
    return dec


def decode_attrs(b, off, end, by_type, family):
    attrs = []
    append = attrs.append
    unpack = _NLA.unpack_from
    get = by_type.get
    while off + 4 <= end:
        length, rtype = unpack(b, off)
        if length < 4:
            break
        stop = off + length
        if stop > end:
            stop = end
        ent = get(rtype & NLA_TYPE_MASK)
        if ent is None:
            append(('UNKNOWN', {'header': {'length': length, 'type': rtype}}))
        else:
            append((ent[0], ent[1](b, off + 4, stop, family)))
        off += (length + 3) & ~3
    return attrs


# ---------------------------------------------------------------------------
# value encoders: f(value, family) -> bytes payload


def _e_u8(v, f):
    return _U8.pack(v)


def _e_u16(v, f):
    return _U16.pack(v)


def _e_u32(v, f):
    return _U32.pack(v)


def _e_i32(v, f):
    return _I32.pack(v)


def _e_u64(v, f):
    return _U64.pack(v)


def _e_be16(v, f):
    return _BE16.pack(v)


def _e_be32(v, f):
    return _BE32.pack(v)


def _e_be64(v, f):
    return _BE64.pack(v)


def _e_asciiz(v, f):
    if isinstance(v, bytes):
        return v + b'\0'
    return str(v).encode('utf-8') + b'\0'


def _e_flag(v, f):
    return b''


def _e_mac(v, f):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    return bytes(int(x, 16) for x in v.split(':'))


def _e_lladdr(v, f):
    if ':' in v:
        if len(v) == 17 and '::' not in v:
            return _e_mac(v, f)
        return inet_pton(AF_INET6, v)
    if '.' in v:
        return inet_pton(AF_INET, v)
    raise TypeError('Unsupported value {}'.format(v))


def _e_ipaddr(v, f):
    return inet_pton(AF_INET6 if ':' in v else AF_INET, v)


def _e_ip4(v, f):
    return inet_pton(AF_INET, v)


def _e_ip6(v, f):
    return inet_pton(AF_INET6, v)


def _e_target(v, f):
    if f in (AF_INET, AF_INET6):
        return inet_pton(f, v)
    if f == AF_MPLS:
        if isinstance(v, dict):
            v = [v]
        out = b''
        for rec in v:
            out += _BE32.pack((rec.get('label', 0) << 12) |
                              (rec.get('tc', 0) << 9) |
                              ((1 if rec.get('bos') else 0) << 8) |
                              rec.get('ttl', 0))
        return out
    # pyroute2: family AF_UNSPEC/255 with a string target fails the same way
    raise TypeError('socket family not supported')


def _e_operstate(v, f):
    return _U8.pack(_OPERSTATE_CODE[v])


def _e_unsupported(name):
    def enc(v, f):
        raise UnsupportedArgument(
            'brisk.pyroute2 does not encode %s (value %r)' % (name, v))
    enc.unsupported = True
    return enc


def _e_struct(dec):
    st = dec.struct
    names = dec.names

    def enc(v, f):
        if isinstance(v, (bytes, bytearray)):
            return bytes(v)
        return st.pack(*[v.get(n, 0) for n in names])
    return enc


def _e_netns_fd(v, f):
    # the opened fd is recorded by the caller through _OpenFds
    return _U32.pack(_OpenFds.resolve(v))


class _FdList(threading.local):
    fds = None


class _OpenFds(object):
    """Namespace fds opened while encoding a request (closed after it).

    Per thread: requests are encoded and sent on the caller's thread.
    """

    _local = _FdList()

    @classmethod
    def resolve(cls, value):
        if isinstance(value, int):
            return value
        if isinstance(value, bytes):
            value = value.decode('utf-8')
        path = value if '/' in value else '/var/run/netns/' + value
        fd = os.open(path, os.O_RDONLY)
        if cls._local.fds is None:
            cls._local.fds = []
        cls._local.fds.append(fd)
        return fd

    @classmethod
    def take(cls):
        """Hand the open fds to the caller (who closes them)."""
        fds, cls._local.fds = cls._local.fds, None
        return fds or []

    @classmethod
    def close(cls):
        for fd in cls.take():
            try:
                os.close(fd)
            except OSError:
                pass


def _nested_encoder(table_ref):
    def enc(v, f):
        table = table_ref() if callable(table_ref) else table_ref
        if isinstance(v, dict):
            attrs = v.get('attrs', ())
        else:
            attrs = v
        return encode_attrs(attrs, table, f)
    return enc


def encode_attrs(attrs, table, family, strict=True):
    out = []
    by_name = table.by_name
    for cell in attrs:
        name, value = cell[0], cell[1]
        ent = by_name.get(name)
        if ent is None:
            if strict:
                raise UnsupportedArgument(
                    'brisk.pyroute2: unknown attribute %s' % (name,))
            continue
        payload = ent[1](value, family)
        out.append(_nla(ent[0], payload))
    return b''.join(out)


def _nla(num, payload):
    n = 4 + len(payload)
    return _NLA.pack(n, num) + payload + b'\0' * ((4 - n % 4) % 4)


# type registry: name -> (decoder, encoder)
T = {
    'none': (_d_none, _e_unsupported('a "none" attribute')),
    'flag': (_d_flag, _e_flag),
    'uint8': (_d_u8, _e_u8),
    'uint16': (_d_u16, _e_u16),
    'uint32': (_d_u32, _e_u32),
    'int32': (_d_i32, _e_i32),
    'uint64': (_d_u64, _e_u64),
    'be16': (_d_be16, _e_be16),
    'be32': (_d_be32, _e_be32),
    'be64': (_d_be64, _e_be64),
    'asciiz': (_d_asciiz, _e_asciiz),
    'hex': (_d_hex, None),
    'l2addr': (_d_l2addr, _e_mac),
    'lladdr': (_d_lladdr, _e_lladdr),
    'ipaddr': (_d_ipaddr, _e_ipaddr),
    'ip4addr': (_d_ip4, _e_ip4),
    'ip6addr': (_d_ip6, _e_ip6),
    'target': (_d_target, _e_target),
    'state': (_d_operstate, _e_operstate),
}


def _finish_rows(rows):
    out = []
    for num, name, dec, enc in rows:
        if enc is None:
            enc = _e_unsupported(name)
        out.append((num, name, dec, enc))
    return out


def _table(prefix, spec, klass=None, extra=None):
    types = dict(T)
    if extra:
        types.update(extra)
    return _Table(prefix, _finish_rows(_rows(spec, prefix, types)), klass)


# ----------------------------------------------------------------- links

_ifstats = _struct('=' + 'I' * 23, _STATS_NAMES)
_ifstats64 = _struct('=' + 'Q' * 23, _STATS_NAMES)
_ifmap = _struct('=QQQHBB', ('mem_start', 'mem_end', 'base_addr', 'irq',
                             'dma', 'port'))
_XDP_MODES = {0: None, 1: 'xdp', 2: 'xdp_generic', 3: 'xdp_offload',
              4: 'xdp_multi'}

XDP = _table('IFLA_XDP_', '''
1 FD int32
2 ATTACHED attached
3 FLAGS uint32
4 PROG_ID uint32
5 DRV_PROG_ID uint32
6 SKB_PROG_ID uint32
7 HW_PROG_ID uint32
8 EXPECTED_FD int32
''', extra={'attached': (_value_map(_d_u8, _XDP_MODES), None)})
XDP.prefix = 'IFLA_'
XDP.klass.prefix = 'IFLA_'

PROPLIST = _table('IFLA_', '''
53 ALT_IFNAME asciiz
''')

INET6 = _table('IFLA_INET6_', '''
1 FLAGS uint32
2 CONF conf
3 STATS stats
4 MCAST hex
5 CACHEINFO cache
6 ICMP6STATS icmp
7 TOKEN ip6addr
8 ADDR_GEN_MODE uint8
''', extra={
    'conf': (_struct('=' + 'I' * len(_INET6_CONF), _INET6_CONF), None),
    'stats': (_struct('=' + 'Q' * len(_INET6_STATS), _INET6_STATS), None),
    'cache': (_struct('=IIII', ('max_reasm_len', 'tstamp',
                                'reachable_time', 'retrans_time')), None),
    'icmp': (_struct('=' + 'Q' * len(_ICMP6_STATS), _ICMP6_STATS), None),
})
INET6.klass.prefix = 'IFLA_'

_AF_NAMES = {0: 'AF_UNSPEC', 1: 'AF_UNIX', 2: 'AF_INET', 3: 'AF_AX25',
             4: 'AF_IPX', 5: 'AF_APPLETALK', 6: 'AF_NETROM', 7: 'AF_BRIDGE',
             8: 'AF_ATMPVC', 9: 'AF_X25', 10: 'AF_INET6'}
_inet_conf = _struct('=' + 'I' * len(_INET_CONF), _INET_CONF)
AF_SPEC_INET = _Table('', _finish_rows(
    [(0, 'AF_UNSPEC', _d_none, None)] +
    [(k, v, _d_hex, None) for k, v in _AF_NAMES.items() if k not in (0, 2, 10)] +
    [(2, 'AF_INET', _inet_conf, None),
     (10, 'AF_INET6', _nested_decoder(INET6), None)]))

AF_SPEC_BRIDGE = _table('IFLA_BRIDGE_', '''
0 FLAGS uint16
1 MODE uint16
2 VLAN_INFO vinfo
3 VLAN_TUNNEL_INFO hex
4 MRP hex
5 CFM hex
''', extra={'vinfo': (_struct('=HH', ('flags', 'vid')), None)})
AF_SPEC_BRIDGE.klass.prefix = 'IFLA_BRIDGE_'

# IFLA_INFO_DATA per kind (kernel if_link.h enums)
_BR_ID = _struct('=H6s', ('prio', 'addr'))


def _d_br_id(b, s, e, f):
    prio, addr = _BR_ID.struct.unpack_from(b, s)
    return {'prio': prio, 'addr': addr.hex(':')}


BRIDGE_DATA = _table('IFLA_BR_', '''
1 FORWARD_DELAY uint32
2 HELLO_TIME uint32
3 MAX_AGE uint32
4 AGEING_TIME uint32
5 STP_STATE uint32
6 PRIORITY uint16
7 VLAN_FILTERING uint8
8 VLAN_PROTOCOL be16
9 GROUP_FWD_MASK uint16
10 ROOT_ID brid
11 BRIDGE_ID brid
12 ROOT_PORT uint16
13 ROOT_PATH_COST uint32
14 TOPOLOGY_CHANGE uint8
15 TOPOLOGY_CHANGE_DETECTED uint8
16 HELLO_TIMER uint64
17 TCN_TIMER uint64
18 TOPOLOGY_CHANGE_TIMER uint64
19 GC_TIMER uint64
20 GROUP_ADDR l2addr
21 FDB_FLUSH flag
22 MCAST_ROUTER uint8
23 MCAST_SNOOPING uint8
24 MCAST_QUERY_USE_IFADDR uint8
25 MCAST_QUERIER uint8
26 MCAST_HASH_ELASTICITY uint32
27 MCAST_HASH_MAX uint32
28 MCAST_LAST_MEMBER_CNT uint32
29 MCAST_STARTUP_QUERY_CNT uint32
30 MCAST_LAST_MEMBER_INTVL uint64
31 MCAST_MEMBERSHIP_INTVL uint64
32 MCAST_QUERIER_INTVL uint64
33 MCAST_QUERY_INTVL uint64
34 MCAST_QUERY_RESPONSE_INTVL uint64
35 MCAST_STARTUP_QUERY_INTVL uint64
36 NF_CALL_IPTABLES uint8
37 NF_CALL_IP6TABLES uint8
38 NF_CALL_ARPTABLES uint8
39 VLAN_DEFAULT_PVID uint16
40 PAD uint64
41 VLAN_STATS_ENABLED uint8
42 MCAST_STATS_ENABLED uint8
43 MCAST_IGMP_VERSION uint8
44 MCAST_MLD_VERSION uint8
''', extra={'brid': (_d_br_id, None)})
BRIDGE_DATA.klass.prefix = 'IFLA_'

_PORT_RANGE = _struct('>HH', ('low', 'high'))

VXLAN_DATA = _table('IFLA_VXLAN_', '''
1 ID uint32
2 GROUP ip4addr
3 LINK uint32
4 LOCAL ip4addr
5 TTL uint8
6 TOS uint8
7 LEARNING uint8
8 AGEING uint32
9 LIMIT uint32
10 PORT_RANGE prange
11 PROXY uint8
12 RSC uint8
13 L2MISS uint8
14 L3MISS uint8
15 PORT be16
16 GROUP6 ip6addr
17 LOCAL6 ip6addr
18 UDP_CSUM uint8
19 UDP_ZERO_CSUM6_TX uint8
20 UDP_ZERO_CSUM6_RX uint8
21 REMCSUM_TX uint8
22 REMCSUM_RX uint8
23 GBP flag
24 REMCSUM_NOPARTIAL flag
25 COLLECT_METADATA uint8
26 LABEL uint32
27 GPE flag
28 TTL_INHERIT flag
29 DF uint8
''', extra={'prange': (_PORT_RANGE, None)})
VXLAN_DATA.klass.prefix = 'IFLA_'


def _e_port_range(v, f):
    # pyroute2 0.7.2 encodes this struct from a dict's 'low'/'high'; a
    # tuple (as Neutron passes it) leaves both fields 0 -- and so do we,
    # so the kernel ends up in the same state.
    if isinstance(v, dict):
        return _PORT_RANGE.struct.pack(int(v.get('low', 0)),
                                       int(v.get('high', 0)))
    return _PORT_RANGE.struct.pack(0, 0)


VXLAN_DATA.by_name['IFLA_VXLAN_PORT_RANGE'] = (10, _e_port_range)

MACVLAN_MODES = {0: 'none', 1: 'private', 2: 'vepa', 4: 'bridge',
                 8: 'passthru', 16: 'source'}
_MACVLAN_MODES_R = {v: k for k, v in MACVLAN_MODES.items()}
_MACVLAN_FLAGS = {0: 'none', 1: 'nopromisc'}
_MACADDR_MODES = {0: 'add', 1: 'del', 2: 'flush', 3: 'set'}


def _e_mapped(fmt_enc, mapping):
    rev = {v: k for k, v in mapping.items()}

    def enc(v, f):
        return fmt_enc(rev.get(v, v), f)
    return enc


MACVLAN_DATA = _table('IFLA_MACVLAN_', '''
1 MODE mode
2 FLAGS mflags
3 MACADDR_MODE amode
4 MACADDR l2addr
5 MACADDR_DATA hex
6 MACADDR_COUNT uint32
''', extra={
    'mode': (_value_map(_d_u32, MACVLAN_MODES),
             _e_mapped(_e_u32, MACVLAN_MODES)),
    'mflags': (_value_map(_d_u16, _MACVLAN_FLAGS),
               _e_mapped(_e_u16, _MACVLAN_FLAGS)),
    'amode': (_value_map(_d_u32, _MACADDR_MODES),
              _e_mapped(_e_u32, _MACADDR_MODES)),
})
MACVLAN_DATA.klass.prefix = 'IFLA_'

_vlan_flags = _struct('=II', ('flags', 'mask'))
VLAN_DATA = _table('IFLA_VLAN_', '''
1 ID uint16
2 FLAGS vflags
3 EGRESS_QOS hex
4 INGRESS_QOS hex
5 PROTOCOL be16
''', extra={'vflags': (_vlan_flags, _e_struct(_vlan_flags))})
VLAN_DATA.klass.prefix = 'IFLA_'

VETH_DATA = _Table('VETH_INFO_', [])   # filled below (needs IFINFMSG)

INFO_DATA = {
    'bridge': BRIDGE_DATA,
    'vxlan': VXLAN_DATA,
    'macvlan': MACVLAN_DATA,
    'macvtap': MACVLAN_DATA,
    'vlan': VLAN_DATA,
    'veth': VETH_DATA,
}

# kinds whose link('add') brisk.pyroute2 encodes; others raise
SUPPORTED_KINDS = frozenset(('veth', 'bridge', 'vxlan', 'macvlan', 'macvtap',
                             'vlan', 'dummy'))

LINKINFO_KLASS = _nested_class('IFLA_INFO_')


def _d_linkinfo(b, s, e, f):
    # decode IFLA_INFO_KIND first: IFLA_INFO_DATA's layout depends on it
    kind = None
    off = s
    raw = []
    while off + 4 <= e:
        length, rtype = _NLA.unpack_from(b, off)
        if length < 4:
            break
        stop = min(off + length, e)
        t = rtype & NLA_TYPE_MASK
        raw.append((t, length, rtype, off + 4, stop))
        if t == 1:
            kind = _d_asciiz(b, off + 4, stop, f)
        off += (length + 3) & ~3
    attrs = []
    for t, length, rtype, s2, e2 in raw:
        if t == 1:
            attrs.append(('IFLA_INFO_KIND', kind))
        elif t == 2:
            table = INFO_DATA.get(kind)
            if table is None:
                value = _d_hex(b, s2, e2, f)
            else:
                value = table.klass()
                value['attrs'] = decode_attrs(b, s2, e2, table.by_type, f)
            attrs.append(('IFLA_INFO_DATA', value))
        elif t == 3:
            attrs.append(('IFLA_INFO_XSTATS', _d_hex(b, s2, e2, f)))
        elif t == 4:
            attrs.append(('IFLA_INFO_SLAVE_KIND', _d_asciiz(b, s2, e2, f)))
        elif t == 5:
            attrs.append(('IFLA_INFO_SLAVE_DATA', _d_hex(b, s2, e2, f)))
        elif t == 0:
            attrs.append(('IFLA_INFO_UNSPEC', None))
        else:
            attrs.append(('UNKNOWN', {'header': {'length': length,
                                                 'type': rtype}}))
    msg = LINKINFO_KLASS()
    msg['attrs'] = attrs
    return msg


def _e_linkinfo(v, f):
    attrs = v.get('attrs', ()) if isinstance(v, dict) else v
    kind = None
    for cell in attrs:
        if cell[0] == 'IFLA_INFO_KIND':
            kind = cell[1]
    out = []
    for cell in attrs:
        name, value = cell[0], cell[1]
        if name == 'IFLA_INFO_KIND':
            out.append(_nla(1, _e_asciiz(value, f)))
        elif name == 'IFLA_INFO_SLAVE_KIND':
            out.append(_nla(4, _e_asciiz(value, f)))
        elif name == 'IFLA_INFO_DATA':
            table = INFO_DATA.get(kind)
            if table is None:
                raise UnsupportedArgument(
                    'brisk.pyroute2 does not encode IFLA_INFO_DATA for '
                    'kind %r' % (kind,))
            sub = value.get('attrs', ()) if isinstance(value, dict) else value
            out.append(_nla(2 | NLA_F_NESTED, encode_attrs(sub, table, f)))
        else:
            raise UnsupportedArgument(
                'brisk.pyroute2 does not encode %s' % (name,))
    return b''.join(out)


_IFINFMSG_SPEC = '''
0 UNSPEC none
1 ADDRESS l2addr
2 BROADCAST l2addr
3 IFNAME asciiz
4 MTU uint32
5 LINK uint32
6 QDISC asciiz
7 STATS ifstats
8 COST hex
9 PRIORITY hex
10 MASTER uint32
11 WIRELESS hex
12 PROTINFO hex
13 TXQLEN uint32
14 MAP ifmap
15 WEIGHT hex
16 OPERSTATE state
17 LINKMODE uint8
18 LINKINFO linkinfo
19 NET_NS_PID uint32
20 IFALIAS asciiz
21 NUM_VF uint32
22 VFINFO_LIST hex
23 STATS64 ifstats64
24 VF_PORTS hex
25 PORT_SELF hex
26 AF_SPEC afspec
27 GROUP uint32
28 NET_NS_FD netnsfd
29 EXT_MASK uint32
30 PROMISCUITY uint32
31 NUM_TX_QUEUES uint32
32 NUM_RX_QUEUES uint32
33 CARRIER uint8
34 PHYS_PORT_ID hex
35 CARRIER_CHANGES uint32
36 PHYS_SWITCH_ID hex
37 LINK_NETNSID int32
38 PHYS_PORT_NAME asciiz
39 PROTO_DOWN uint8
40 GSO_MAX_SEGS uint32
41 GSO_MAX_SIZE uint32
42 PAD hex
43 XDP xdp
44 EVENT uint32
45 NEW_NETNSID be32
46 IF_NETNSID uint32
47 CARRIER_UP_COUNT uint32
48 CARRIER_DOWN_COUNT uint32
49 NEW_IFINDEX uint32
50 MIN_MTU uint32
51 MAX_MTU uint32
52 PROP_LIST proplist
53 ALT_IFNAME asciiz
54 PERM_ADDRESS hex
55 PROTO_DOWN_REASON hex
56 PARENT_DEV_NAME asciiz
57 PARENT_DEV_BUS_NAME asciiz
58 GRO_MAX_SIZE uint32
59 TSO_MAX_SIZE uint32
60 TSO_MAX_SEGS uint32
'''


def _d_afspec(b, s, e, f):
    table = AF_SPEC_BRIDGE if f == AF_BRIDGE else AF_SPEC_INET
    msg = table.klass()
    msg['attrs'] = decode_attrs(b, s, e, table.by_type, f)
    return msg


AF_SPEC_INET.klass.prefix = ''

IFINFMSG = _table('IFLA_', _IFINFMSG_SPEC, klass=ifinfmsg, extra={
    'ifstats': (_ifstats, None),
    'ifstats64': (_ifstats64, None),
    'ifmap': (_ifmap, None),
    'linkinfo': (_d_linkinfo, _e_linkinfo),
    'afspec': (_d_afspec, None),
    'netnsfd': (_d_u32, _e_netns_fd),
    'xdp': (_nested_decoder(XDP), None),
    'proplist': (_nested_decoder(PROPLIST), _nested_encoder(PROPLIST)),
})

_IFINFO_HDR = struct.Struct('=BxHiII')
IFINFVETH_KLASS = type('ifinfveth', (nla,), {'__slots__': (),
                                              'prefix': 'IFLA_'})


def _d_veth_peer(b, s, e, f):
    msg = IFINFVETH_KLASS()
    fam, typ, idx, flags, change = _IFINFO_HDR.unpack_from(b, s)
    msg.update(family=fam, __align=(), ifi_type=typ, index=idx, flags=flags,
               change=change)
    msg['attrs'] = decode_attrs(b, s + 16, e, IFINFMSG.by_type, f)
    return msg


def _e_veth_peer(v, f):
    attrs = v.get('attrs', ()) if isinstance(v, dict) else v
    hdr = _IFINFO_HDR.pack(v.get('family', 0), v.get('ifi_type', 0),
                           v.get('index', 0), v.get('flags', 0),
                           v.get('change', 0)) if isinstance(v, dict) \
        else _IFINFO_HDR.pack(0, 0, 0, 0, 0)
    return hdr + encode_attrs(attrs, IFINFMSG, f)


VETH_DATA.by_type[1] = ('VETH_INFO_PEER', _d_veth_peer)
VETH_DATA.by_name['VETH_INFO_PEER'] = (1 | NLA_F_NESTED, _e_veth_peer)
VETH_DATA.by_type[0] = ('VETH_INFO_UNSPEC', _d_none)
VETH_DATA.klass.prefix = 'IFLA_'

# ----------------------------------------------------------------- addresses

_addr_cache = _struct('=IIII', ('ifa_preferred', 'ifa_valid', 'cstamp',
                                'tstamp'))
IFADDRMSG = _table('IFA_', '''
0 UNSPEC hex
1 ADDRESS ipaddr
2 LOCAL ipaddr
3 LABEL asciiz
4 BROADCAST ipaddr
5 ANYCAST ipaddr
6 CACHEINFO cacheinfo
7 MULTICAST ipaddr
8 FLAGS uint32
''', klass=ifaddrmsg, extra={'cacheinfo': (_addr_cache,
                                           _e_struct(_addr_cache))})

# ----------------------------------------------------------------- routes

RTAX = _table('RTAX_', '''
0 UNSPEC none
1 LOCK uint32
2 MTU uint32
3 WINDOW uint32
4 RTT uint32
5 RTTVAR uint32
6 SSTHRESH uint32
7 CWND uint32
8 ADVMSS uint32
9 REORDERING uint32
10 HOPLIMIT uint32
11 INITCWND uint32
12 FEATURES uint32
13 RTO_MIN uint32
14 INITRWND uint32
15 QUICKACK uint32
''')
RTAX.klass.prefix = 'RTAX_'

_rt_cache = _struct('=IIiIIIII', ('rta_clntref', 'rta_lastuse',
                                  'rta_expires', 'rta_error', 'rta_used',
                                  'rta_id', 'rta_ts', 'rta_tsage'))
_mfc_stats = _struct('=QQQ', ('mfcs_packets', 'mfcs_bytes', 'mfcs_wrong_if'))

RTMSG = _Table('RTA_', [], klass=rtmsg)
NH_KLASS = type('nh', (nla,), {'__slots__': (), 'prefix': 'RTA_'})
_NH = struct.Struct('=HBBi')


def _d_multipath(b, s, e, f):
    out = []
    off = s
    while off + 8 <= e:
        length, flags, hops, oif = _NH.unpack_from(b, off)
        if length < 8:
            break
        nh = NH_KLASS()
        nh['flags'] = flags
        nh['hops'] = hops
        nh['oif'] = oif
        nh['attrs'] = decode_attrs(b, off + 8, min(off + length, e),
                                   RTMSG.by_type, f)
        out.append(nh)
        off += (length + 3) & ~3
    return out


def _e_multipath(v, f):
    out = b''
    for hop in v:
        attrs = encode_attrs(hop.get('attrs', ()), RTMSG, f)
        length = 8 + len(attrs)
        out += _NH.pack(length, hop.get('flags', 0), hop.get('hops', 0),
                        hop.get('oif', 0)) + attrs
    return out


def _d_rtvia(b, s, e, f):
    fam = _U16.unpack_from(b, s)[0]
    if fam in (AF_INET, AF_INET6):
        return {'family': fam, 'addr': inet_ntop(fam, b[s + 2:e])}
    return {'family': fam, 'addr': b[s + 2:e].hex(':')}


def _e_rtvia(v, f):
    fam = v.get('family', AF_INET)
    return _U16.pack(fam) + inet_pton(fam, v['addr'])


for _r in _finish_rows(_rows('''
0 UNSPEC none
1 DST target
2 SRC target
3 IIF uint32
4 OIF uint32
5 GATEWAY target
6 PRIORITY uint32
7 PREFSRC target
8 METRICS metrics
9 MULTIPATH multipath
10 PROTOINFO uint32
11 FLOW uint32
12 CACHEINFO cacheinfo
13 SESSION hex
14 MP_ALGO hex
15 TABLE uint32
16 MARK uint32
17 MFC_STATS mfc
18 VIA rtvia
19 NEWDST target
20 PREF uint8
21 ENCAP_TYPE uint16
22 ENCAP hex
23 EXPIRES hex
''', 'RTA_', dict(T, metrics=(_nested_decoder(RTAX), _nested_encoder(RTAX)),
                  multipath=(_d_multipath, _e_multipath),
                  cacheinfo=(_rt_cache, None), mfc=(_mfc_stats, None),
                  rtvia=(_d_rtvia, _e_rtvia)))):
    RTMSG.by_type[_r[0]] = (_r[1], _r[2])
    RTMSG.by_name[_r[1]] = (_r[0], _r[3])

# ----------------------------------------------------------------- neighbours

_nd_cache = _struct('=IIII', ('ndm_confirmed', 'ndm_used', 'ndm_updated',
                              'ndm_refcnt'))
NDMSG = _table('NDA_', '''
0 UNSPEC none
1 DST ipaddr
2 LLADDR lladdr
3 CACHEINFO cacheinfo
4 PROBES uint32
5 VLAN uint16
6 PORT be16
7 VNI uint32
8 IFINDEX uint32
9 MASTER uint32
''', klass=ndmsg, extra={'cacheinfo': (_nd_cache, None)})

# ----------------------------------------------------------------- rules

_uid_range = _struct('=II', ('start', 'end'))
_port_range = _struct('=HH', ('start', 'end'))
FIBMSG = _table('FRA_', '''
0 UNSPEC none
1 DST ipaddr
2 SRC ipaddr
3 IIFNAME asciiz
4 GOTO uint32
6 PRIORITY uint32
10 FWMARK uint32
11 FLOW uint32
12 TUN_ID be64
13 SUPPRESS_IFGROUP uint32
14 SUPPRESS_PREFIXLEN uint32
15 TABLE uint32
16 FWMASK uint32
17 OIFNAME asciiz
18 PAD hex
19 L3MDEV uint8
20 UID_RANGE uidr
21 PROTOCOL uint8
22 IP_PROTO uint8
23 SPORT_RANGE prange
24 DPORT_RANGE prange
''', klass=fibmsg, extra={'uidr': (_uid_range, _e_struct(_uid_range)),
                          'prange': (_port_range, _e_struct(_port_range))})

NSID = _table('NETNSA_', '''
0 NONE none
1 NSID uint32
2 PID uint32
3 FD uint32
4 TARGET_NSID uint32
5 CURRENT_NSID uint32
''')

# ---------------------------------------------------------------------------
# whole messages

RTM_NAMES = {
    16: 'RTM_NEWLINK', 17: 'RTM_DELLINK', 18: 'RTM_GETLINK',
    19: 'RTM_SETLINK', 20: 'RTM_NEWADDR', 21: 'RTM_DELADDR',
    22: 'RTM_GETADDR', 24: 'RTM_NEWROUTE', 25: 'RTM_DELROUTE',
    26: 'RTM_GETROUTE', 28: 'RTM_NEWNEIGH', 29: 'RTM_DELNEIGH',
    30: 'RTM_GETNEIGH', 32: 'RTM_NEWRULE', 33: 'RTM_DELRULE',
    34: 'RTM_GETRULE', 88: 'RTM_NEWNSID', 89: 'RTM_DELNSID',
    90: 'RTM_GETNSID', 2: 'NLMSG_ERROR', 3: 'NLMSG_DONE',
}

_IFA = struct.Struct('=BBBBI')
_RTM = struct.Struct('=BBBBBBBBI')
_NDM = struct.Struct('=BxxxiHBB')
_RTGEN = struct.Struct('=Bxxx')


def _header(raw, target):
    length, mtype, flags, seq, pid = _HDR.unpack_from(raw, 0)
    return {'length': length, 'type': mtype, 'flags': flags,
            'sequence_number': seq, 'pid': pid, 'error': None,
            'target': target, 'stats': _ZERO_STATS}


def decode(raw, target='localhost'):
    """Decode one complete netlink message (bytes, nlmsghdr included)."""
    length, mtype, flags, seq, pid = _HDR.unpack_from(raw, 0)
    end = min(length, len(raw))
    if mtype in (16, 17):
        fam, typ, idx, iflags, change = _IFINFO_HDR.unpack_from(raw, 16)
        msg = ifinfmsg()
        msg['family'] = fam
        msg['__align'] = ()
        msg['ifi_type'] = typ
        msg['index'] = idx
        msg['flags'] = iflags
        msg['change'] = change
        msg['attrs'] = decode_attrs(raw, 32, end, IFINFMSG.by_type, fam)
        msg['header'] = _header(raw, target)
        msg['state'] = 'up' if iflags & 1 else 'down'
    elif mtype in (20, 21):
        fam, plen, aflags, scope, idx = _IFA.unpack_from(raw, 16)
        msg = ifaddrmsg()
        msg['family'] = fam
        msg['prefixlen'] = plen
        msg['flags'] = aflags
        msg['scope'] = scope
        msg['index'] = idx
        msg['attrs'] = decode_attrs(raw, 24, end, IFADDRMSG.by_type, fam)
        msg['header'] = _header(raw, target)
    elif mtype in (24, 25):
        (fam, dlen, slen, tos, table, proto, scope, rtype,
         rflags) = _RTM.unpack_from(raw, 16)
        msg = rtmsg()
        msg['family'] = fam
        msg['dst_len'] = dlen
        msg['src_len'] = slen
        msg['tos'] = tos
        msg['table'] = table
        msg['proto'] = proto
        msg['scope'] = scope
        msg['type'] = rtype
        msg['flags'] = rflags
        msg['attrs'] = decode_attrs(raw, 28, end, RTMSG.by_type, fam)
        msg['header'] = _header(raw, target)
    elif mtype in (28, 29):
        fam, idx, state, nflags, ntype = _NDM.unpack_from(raw, 16)
        msg = ndmsg()
        msg['family'] = fam
        msg['__pad'] = ()
        msg['ifindex'] = idx
        msg['state'] = state
        msg['flags'] = nflags
        msg['ndm_type'] = ntype
        msg['attrs'] = decode_attrs(raw, 28, end, NDMSG.by_type, fam)
        msg['header'] = _header(raw, target)
    elif mtype in (32, 33):
        (fam, dlen, slen, tos, table, res1, res2, action,
         rflags) = _RTM.unpack_from(raw, 16)
        msg = fibmsg()
        msg['family'] = fam
        msg['dst_len'] = dlen
        msg['src_len'] = slen
        msg['tos'] = tos
        msg['table'] = table
        msg['res1'] = res1
        msg['res2'] = res2
        msg['action'] = action
        msg['flags'] = rflags
        msg['attrs'] = decode_attrs(raw, 28, end, FIBMSG.by_type, fam)
        msg['header'] = _header(raw, target)
    elif mtype in (88, 89):
        msg = nlmsg()
        msg['rtgen_family'] = raw[16]
        msg['attrs'] = decode_attrs(raw, 20, end, NSID.by_type, 0)
        msg['header'] = _header(raw, target)
        msg.__class__ = _NSIDMSG
    else:
        msg = nlmsg()
        msg['header'] = _header(raw, target)
    msg['event'] = RTM_NAMES.get(mtype, mtype)
    msg._raw = raw
    return msg


_NSIDMSG = type('nsidmsg', (nlmsg_base,), {'__slots__': (),
                                           'prefix': 'NETNSA_'})


def ack(target):
    """The NLMSG_ERROR(0) acknowledgement pyroute2 returns for changes."""
    msg = nlmsg()
    msg['header'] = {'length': 36, 'type': 2, 'flags': 256,
                     'sequence_number': 0, 'pid': 0, 'error': None,
                     'target': target, 'stats': _ZERO_STATS}
    msg['event'] = 'NLMSG_ERROR'
    return msg


def build(mtype, flags, body, attrs, table, family):
    """A complete request: nlmsghdr + fixed body + encoded attributes."""
    payload = body + encode_attrs(attrs, table, family)
    return _HDR.pack(16 + len(payload), mtype, flags, 0, 0) + payload


def ifinfo_body(family=0, ifi_type=0, index=0, flags=0, change=0):
    return _IFINFO_HDR.pack(family, ifi_type, index, flags, change)


def ifaddr_body(family=0, prefixlen=0, flags=0, scope=0, index=0):
    return _IFA.pack(family, prefixlen, flags, scope, index)


def rt_body(family, dst_len, src_len, tos, table, proto, scope, rtype, flags):
    return _RTM.pack(family, dst_len, src_len, tos, table, proto, scope,
                     rtype, flags)


def nd_body(family, ifindex, state, flags, ndm_type):
    return _NDM.pack(family, ifindex, state, flags, ndm_type)


def rewrite_type(raw, mtype, flags):
    """Re-use a received message as a request of another type."""
    length = _U32.unpack_from(raw, 0)[0]
    return _HDR.pack(length, mtype, flags, 0, 0) + bytes(raw[16:length])
