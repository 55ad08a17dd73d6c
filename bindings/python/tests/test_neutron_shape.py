"""Drive brisk.pyroute2 the way OpenStack Neutron's privileged ip_lib does.

`NeutronIpLib` below re-expresses (in our own code) the pyroute2 calls,
arguments, result handling and errno checks of Neutron's
neutron/privileged/agent/linux/ip_lib.py and the agent-side parsers, as
catalogued in /tmp/research/neutron_pyroute2.md.  It only ever touches
the library through `import pyroute2` names, so it runs unchanged against
the real pyroute2 0.7.2 and against brisk.pyroute2 installed as
`pyroute2` (sys.modules aliasing); the two runs, in different namespaces,
must give the same results.
"""

import errno
import importlib
import os
import socket
import sys

import pytest

FAMILY = {4: socket.AF_INET, 6: socket.AF_INET6}


class NotFound(RuntimeError):
    pass


class NamespaceNotFound(RuntimeError):
    pass


class NotSupported(RuntimeError):
    pass


class AddressExists(RuntimeError):
    pass


def load_pyroute2_names():
    """Import everything Neutron imports, by the `pyroute2` name."""
    mods = {}
    mods['pyroute2'] = importlib.import_module('pyroute2')
    mods['iproute'] = importlib.import_module('pyroute2.iproute')
    mods['netns'] = importlib.import_module('pyroute2.netns')
    mods['netlink'] = importlib.import_module('pyroute2.netlink')
    mods['exceptions'] = importlib.import_module('pyroute2.netlink.exceptions')
    mods['rtnl'] = importlib.import_module('pyroute2.netlink.rtnl')
    mods['ifinfmsg'] = importlib.import_module(
        'pyroute2.netlink.rtnl.ifinfmsg')
    mods['ndmsg'] = importlib.import_module('pyroute2.netlink.rtnl.ndmsg')
    mods['ifaddrmsg'] = importlib.import_module(
        'pyroute2.netlink.rtnl.ifaddrmsg')
    return mods


class NeutronIpLib(object):
    def __init__(self, mods):
        self.m = mods
        self.pyroute2 = mods['pyroute2']
        self.NetlinkError = mods['exceptions'].NetlinkError
        states = mods['ndmsg'].states
        self.nud_names = {v: k for k, v in states.items()}

    # -- sockets ----------------------------------------------------------
    def iproute(self, namespace):
        if namespace:
            return self.pyroute2.NetNS(namespace, flags=0)
        return self.m['iproute'].IPRoute()

    def scope_number(self, scope):
        scope = 'universe' if scope == 'global' else scope
        return self.m['rtnl'].rt_scope.get(scope, scope)

    def translate(self, e, device, namespace):
        if e.code == errno.ENODEV:
            raise NotFound(device)
        if e.code == errno.EOPNOTSUPP:
            raise NotSupported(device)
        raise e

    def link_id(self, device, namespace):
        with self.iproute(namespace) as ip:
            found = ip.link_lookup(ifname=device)
        if not found:
            raise NotFound(device)
        return found[0]

    def _run(self, what, command, device, namespace, **kw):
        try:
            with self.iproute(namespace) as ip:
                idx = self.link_id(device, namespace)   # nested open
                if what == 'link':
                    return getattr(ip, what)(command, index=idx, **kw)
                if what == 'neigh':
                    return ip.neigh(command, ifindex=idx, **kw)
                return ip.addr(command, index=idx, **kw)
        except self.NetlinkError as e:
            self.translate(e, device, namespace)
        except OSError as e:
            if e.errno == errno.ENOENT:
                raise NamespaceNotFound(namespace)
            raise

    def make_serializable(self, value):
        nl = self.m['netlink']
        if isinstance(value, list):
            return [self.make_serializable(v) for v in value]
        if isinstance(value, nl.nla_slot):
            return [value[0], self.make_serializable(value[1])]
        if isinstance(value, nl.nla_base):
            return self.make_serializable(value.dump())
        if isinstance(value, dict):
            return {k: self.make_serializable(v) for k, v in value.items()}
        if isinstance(value, tuple):
            return tuple(self.make_serializable(v) for v in value)
        if isinstance(value, bytes):
            return value.decode()
        return value

    # -- namespaces -------------------------------------------------------
    def create_netns(self, name):
        pid = os.fork()
        if pid == 0:
            try:
                self.m['netns']._create(name)
            except OSError as e:
                os._exit(0 if e.errno == errno.EEXIST else 1)
            except BaseException:
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            raise RuntimeError('create_netns failed')

    def remove_netns(self, name):
        try:
            self.m['netns'].remove(name)
        except OSError as e:
            if e.errno != errno.ENOENT:
                raise

    def list_netns(self, **kw):
        return self.m['netns'].listnetns(**kw)

    def open_namespace(self, name):
        with self.pyroute2.NetNS(name, flags=0):
            pass

    # -- links ------------------------------------------------------------
    def create_interface(self, ifname, namespace, kind, **kw):
        ifname = ifname[:15]
        try:
            with self.iproute(namespace) as ip:
                phys = kw.pop('physical_interface', None)
                if phys:
                    key = 'vxlan_link' if kind == 'vxlan' else 'link'
                    kw[key] = self.link_id(phys, namespace)
                return ip.link('add', ifname=ifname, kind=kind, **kw)
        except OSError as e:
            if e.errno == errno.ENOENT:
                raise NamespaceNotFound(namespace)
            raise

    def delete_interface(self, ifname, namespace):
        self._run('link', 'del', ifname, namespace)

    def interface_exists(self, ifname, namespace):
        try:
            return bool(self.link_id(ifname, namespace))
        except NotFound:
            return False
        except OSError as e:
            if e.errno == errno.ENOENT:
                return False
            raise

    def set_link_flags(self, device, namespace, flags):
        link = self._run('link', 'get', device, namespace)[0]
        return self._run('link', 'set', device, namespace,
                         flags=flags | link['flags'])

    def set_link_attribute(self, device, namespace, **attrs):
        return self._run('link', 'set', device, namespace, **attrs)

    def get_link_attributes(self, device, namespace):
        link = self._run('link', 'get', device, namespace)[0]
        return {
            'mtu': link.get_attr('IFLA_MTU'),
            'qlen': link.get_attr('IFLA_TXQLEN'),
            'state': link.get_attr('IFLA_OPERSTATE'),
            'qdisc': link.get_attr('IFLA_QDISC'),
            'brd': link.get_attr('IFLA_BROADCAST'),
            'link/ether': link.get_attr('IFLA_ADDRESS'),
            'alias': link.get_attr('IFLA_IFALIAS'),
            'allmulticast': bool(link['flags'] &
                                 self.m['ifinfmsg'].IFF_ALLMULTI),
        }

    def get_link_devices(self, namespace, **kw):
        index = kw.pop('index') if 'index' in kw else 'all'
        with self.iproute(namespace) as ip:
            return self.make_serializable(ip.get_links(index, **kw))

    # -- addresses --------------------------------------------------------
    def add_ip_address(self, version, ip, prefixlen, device, namespace,
                       scope, broadcast=None):
        try:
            self._run('addr', 'add', device, namespace, address=ip,
                      mask=prefixlen, family=FAMILY[version],
                      broadcast=broadcast, scope=self.scope_number(scope))
        except self.NetlinkError as e:
            if e.code == errno.EEXIST:
                raise AddressExists(ip)
            raise

    def delete_ip_address(self, version, ip, prefixlen, device, namespace):
        try:
            self._run('addr', 'delete', device, namespace, address=ip,
                      mask=prefixlen, family=FAMILY[version])
        except self.NetlinkError as e:
            if e.code == errno.EADDRNOTAVAIL:
                return
            raise

    def flush_ip_addresses(self, version, device, namespace):
        with self.iproute(namespace) as ip:
            idx = self.link_id(device, namespace)
            ip.flush_addr(index=idx, family=FAMILY[version])

    def get_ip_addresses(self, namespace, **kw):
        with self.iproute(namespace) as ip:
            return self.make_serializable(ip.get_addr(**kw))

    def parse_addresses(self, raw, device):
        ifa = self.m['ifaddrmsg']
        scopes = {0: 'global', 200: 'site', 253: 'link', 254: 'host'}
        out = []
        for a in raw:
            attrs = dict(a['attrs'])
            flags = attrs['IFA_FLAGS']
            out.append({
                'name': attrs.get('IFA_LABEL') or device,
                'cidr': '%s/%s' % (attrs['IFA_ADDRESS'], a['prefixlen']),
                'scope': scopes[a['scope']],
                'broadcast': attrs.get('IFA_BROADCAST'),
                'dynamic': not bool(flags & ifa.IFA_F_PERMANENT),
                'dadfailed': bool(flags & ifa.IFA_F_DADFAILED),
                'event': a['event'],
            })
        return sorted(out, key=repr)

    # -- neighbours -------------------------------------------------------
    def add_neigh_entry(self, version, ip, mac, device, namespace, **kw):
        self._run('neigh', 'replace', device, namespace, dst=ip, lladdr=mac,
                  family=FAMILY[version],
                  state=self.m['ndmsg'].states['permanent'], **kw)

    def delete_neigh_entry(self, version, ip, mac, device, namespace):
        try:
            self._run('neigh', 'delete', device, namespace, dst=ip,
                      lladdr=mac, family=FAMILY[version])
        except self.NetlinkError as e:
            if e.code == errno.ENOENT:
                return
            raise

    def dump_neigh_entries(self, version, device, namespace, **kw):
        dump = self._run('neigh', 'dump', device, namespace,
                         family=FAMILY[version], **kw)
        out = []
        for entry in dump:
            attrs = dict(entry['attrs'])
            out.append({'dst': attrs['NDA_DST'],
                        'lladdr': attrs.get('NDA_LLADDR'),
                        'state': self.nud_names[entry['state']],
                        'device': device})
        return sorted(out, key=repr)

    # -- routes -----------------------------------------------------------
    def route_args(self, cidr, device, via, table, metric, scope, proto,
                   namespace, version):
        args = {'family': FAMILY[version]}
        if not scope:
            scope = 'global' if via else 'link'
        scope = self.scope_number(scope)
        if scope:
            args['scope'] = scope
        if cidr:
            args['dst'] = cidr
        if table:
            args['table'] = int(table)
        if metric:
            args['priority'] = int(metric)
        if proto:
            args['proto'] = self.m['rtnl'].rt_proto[proto]
        if isinstance(via, (list, tuple)):
            args['multipath'] = []
            for hop in via:
                mp = {'oif': self.link_id(hop['device'], namespace),
                      'gateway': hop['via']}
                if hop.get('weight'):
                    mp['hops'] = hop['weight'] - 1
                args['multipath'].append(mp)
        else:
            if via:
                args['gateway'] = via
            if device:
                args['oif'] = self.link_id(device, namespace)
        return args

    def add_ip_route(self, namespace, cidr, version, device=None, via=None,
                     table=None, metric=None, scope=None, proto='static'):
        kw = self.route_args(cidr, device, via, table, metric, scope, proto,
                             namespace, version)
        with self.iproute(namespace) as ip:
            ip.route('replace', **kw)

    def delete_ip_route(self, namespace, cidr, version, device=None,
                        via=None, table=None, scope=None):
        kw = self.route_args(cidr, device, via, table, None, scope, None,
                             namespace, version)
        try:
            with self.iproute(namespace) as ip:
                ip.route('del', **kw)
        except self.NetlinkError as e:
            if e.code == errno.ESRCH:
                return
            raise

    def list_ip_routes(self, namespace, version, device=None, table=None):
        kw = {'family': FAMILY[version], 'table': table or 254}
        if device:
            kw['oif'] = self.link_id(device, namespace)
        with self.iproute(namespace) as ip:
            routes = self.make_serializable(ip.route('show', **kw))
            names = {l['index']: l.get_attr('IFLA_IFNAME')
                     for l in ip.get_links()}

        def get(obj, name):
            for a in obj.get('attrs', []):
                if a[0] == name:
                    return a[1]

        out = []
        for r in routes:
            cidr = get(r, 'RTA_DST')
            cidr = '%s/%s' % (cidr, r['dst_len']) if cidr else \
                {socket.AF_INET: '0.0.0.0/0',
                 socket.AF_INET6: '::/0'}[r['family']]
            value = {'table': int(get(r, 'RTA_TABLE')), 'cidr': cidr,
                     'metric': get(r, 'RTA_PRIORITY') or 0,
                     'source_prefix': get(r, 'RTA_PREFSRC'),
                     'scope': int(r['scope']),
                     'proto': self.m['rtnl'].rt_proto[r['proto']]}
            mp = get(r, 'RTA_MULTIPATH')
            if mp:
                value['device'] = None
                value['via'] = sorted(
                    [{'device': names[int(h['oif'])],
                      'via': get(h, 'RTA_GATEWAY'),
                      'weight': int(h['hops']) + 1} for h in mp], key=repr)
            else:
                value['device'] = names.get(int(get(r, 'RTA_OIF')))
                value['via'] = get(r, 'RTA_GATEWAY')
            out.append(value)
        return sorted(out, key=repr)

    # -- rules ------------------------------------------------------------
    def rule_args(self, version, ip=None, iif=None, table=None,
                  priority=None, to=None):
        args = {'family': FAMILY[version]}
        if iif:
            args['iifname'] = iif
        elif ip:
            addr, _, plen = ip.partition('/')
            args['src'] = addr
            args['src_len'] = int(plen or (32 if version == 4 else 128))
        if to:
            addr, _, plen = to.partition('/')
            args['dst'] = addr
            args['dst_len'] = int(plen or (32 if version == 4 else 128))
        if table:
            args['table'] = int(table)
        if priority:
            args['priority'] = int(priority)
        return args

    def add_ip_rule(self, namespace, **kw):
        try:
            with self.iproute(namespace) as ip:
                ip.rule('add', **kw)
        except self.NetlinkError as e:
            if e.code != errno.EEXIST:
                raise

    def delete_ip_rule(self, namespace, **kw):
        try:
            with self.iproute(namespace) as ip:
                ip.rule('del', **kw)
        except self.NetlinkError as e:
            if e.code != errno.ENOENT:
                raise

    def list_ip_rules(self, namespace, version):
        with self.iproute(namespace) as ip:
            rules = self.make_serializable(
                ip.get_rules(family=FAMILY[version], match=None))
        out = []
        for rule in rules:
            rule['attrs'] = {k: v for k, v in rule['attrs']}
            out.append({'priority': str(rule['attrs'].get('FRA_PRIORITY', 0)),
                        'table': rule['attrs']['FRA_TABLE'],
                        'from': rule['attrs'].get('FRA_SRC'),
                        'src_len': rule['src_len'],
                        'to': rule['attrs'].get('FRA_DST'),
                        'iif': rule['attrs'].get('FRA_IIFNAME'),
                        'action': rule['action']})
        return sorted(out, key=repr)


def neutron_flow(lib, ns, ns2, phys_ns):
    """One Neutron-shaped agent run; returns what the agent would see."""
    seen = {}
    lib.create_netns(ns)
    lib.create_netns(ns)            # EEXIST is success
    lib.create_netns(ns2)
    lib.open_namespace(ns)
    seen['listed'] = [ns in lib.list_netns(), ns2 in lib.list_netns()]

    # devices: veth with the peer moved to ns2, a bridge, a vxlan
    lib.create_interface('qr-aaaaaaaa-bbbbbbbbbb', ns, 'veth',
                         peer={'ifname': 'qr-peer', 'net_ns_fd': ns2})
    lib.create_interface('tap-one', ns, 'veth', peer={'ifname': 'tap-one-p'})
    lib.create_interface('brq-1', ns, 'bridge')
    lib.create_interface('vxlan-42', ns, 'vxlan', vxlan_id=42,
                         vxlan_group='239.1.1.1',
                         physical_interface='tap-one', vxlan_ttl=8,
                         vxlan_tos=0, vxlan_proxy=True, vxlan_port=4789,
                         vxlan_port_range=('1000', '2000'))
    try:
        lib.create_interface('brq-1', ns, 'bridge')
        seen['dup_link'] = None
    except lib.NetlinkError as e:
        seen['dup_link'] = e.code
    dev = 'qr-aaaaaaaa-bbb'
    seen['exists'] = [lib.interface_exists(dev, ns),
                      lib.interface_exists('nope', ns),
                      lib.interface_exists('qr-peer', ns2)]
    lib.set_link_attribute(dev, ns, mtu=1450)
    lib.set_link_attribute(dev, ns, address='FA:16:3E:00:00:01')
    lib.set_link_attribute(dev, ns, ifalias='router port')
    lib.set_link_attribute(dev, ns, state='up')
    lib.set_link_attribute('qr-peer', ns2, state='up')
    lib.set_link_flags(dev, ns, lib.m['ifinfmsg'].IFF_ALLMULTI)
    lib.set_link_attribute('tap-one', ns,
                           master=lib.link_id('brq-1', ns))
    lib._run('link', 'set', 'brq-1', ns, kind='bridge', br_stp_state=1)
    lib._run('link', 'set', 'brq-1', ns, kind='bridge',
             br_forward_delay=1000)
    attrs = lib.get_link_attributes(dev, ns)
    del attrs['state']               # carrier timing
    seen['link_attrs'] = attrs
    devices = lib.get_link_devices(ns)
    seen['devices'] = sorted(
        (d['index'], dict(d['attrs'])['IFLA_IFNAME'],
         (dict(dict(d['attrs']).get('IFLA_LINKINFO', {'attrs': []})['attrs'])
          .get('IFLA_INFO_KIND')))
        for d in devices)
    one = lib.get_link_devices(ns, ifname='brq-1')
    data = dict(dict(dict(one[0]['attrs'])['IFLA_LINKINFO']['attrs'])
                ['IFLA_INFO_DATA']['attrs'])
    seen['bridge'] = (data['IFLA_BR_STP_STATE'],
                      data['IFLA_BR_FORWARD_DELAY'])
    vx = lib.get_link_devices(ns, ifname='vxlan-42')
    vdata = dict(dict(dict(vx[0]['attrs'])['IFLA_LINKINFO']['attrs'])
                 ['IFLA_INFO_DATA']['attrs'])
    seen['vxlan'] = (vdata['IFLA_VXLAN_ID'], vdata['IFLA_VXLAN_GROUP'],
                     vdata['IFLA_VXLAN_LINK'] == lib.link_id('tap-one', ns),
                     vdata['IFLA_VXLAN_PORT'], vdata['IFLA_VXLAN_TTL'],
                     vdata['IFLA_VXLAN_PORT_RANGE'])
    for bad in (lambda: lib.set_link_attribute('nope', ns, mtu=1400),
                lambda: lib.set_link_attribute(dev, 'bpt-missing-ns',
                                               mtu=1400)):
        try:
            bad()
        except (NotFound, NamespaceNotFound) as e:
            seen.setdefault('errors', []).append(type(e).__name__)

    # addresses
    lib.add_ip_address(4, '10.0.0.1', 24, dev, ns, 'global', '10.0.0.255')
    lib.add_ip_address(4, '10.0.1.1', 24, dev, ns, 'link')
    lib.add_ip_address(6, '2001:db8::1', 64, dev, ns, 'global')
    try:
        lib.add_ip_address(4, '10.0.0.1', 24, dev, ns, 'global')
    except AddressExists:
        seen['dup_addr'] = True
    idx = lib.link_id(dev, ns)
    seen['addrs'] = lib.parse_addresses(
        lib.get_ip_addresses(ns, index=idx), dev)
    seen['addr_filters'] = [
        len(lib.get_ip_addresses(ns, index=idx, family=socket.AF_INET)),
        len(lib.get_ip_addresses(ns, address='10.0.0.1')),
        len(lib.get_ip_addresses(ns, index=idx, address='10.0.0.1',
                                 mask=24)),
        len(lib.get_ip_addresses(ns, scope=253))]
    lib.delete_ip_address(4, '10.0.1.1', 24, dev, ns)
    lib.delete_ip_address(4, '10.0.1.1', 24, dev, ns)     # EADDRNOTAVAIL

    # neighbours
    lib.add_neigh_entry(4, '10.0.0.7', 'fa:16:3e:00:00:07', dev, ns)
    lib.add_neigh_entry(4, '10.0.0.7', 'fa:16:3e:00:00:17', dev, ns)
    lib.add_neigh_entry(6, '2001:db8::7', 'fa:16:3e:00:00:08', dev, ns)
    seen['neigh4'] = lib.dump_neigh_entries(4, dev, ns)
    seen['neigh6'] = [e for e in lib.dump_neigh_entries(6, dev, ns)
                      if e['state'] == 'permanent']
    lib.delete_neigh_entry(4, '10.0.0.7', 'fa:16:3e:00:00:17', dev, ns)
    lib.delete_neigh_entry(4, '10.0.0.7', 'fa:16:3e:00:00:17', dev, ns)
    seen['neigh4_after'] = lib.dump_neigh_entries(4, dev, ns)

    # routes
    lib.add_ip_route(ns, '10.1.0.0/24', 4, via='10.0.0.2')
    lib.add_ip_route(ns, '10.2.0.0/24', 4, device=dev, metric=100)
    lib.add_ip_route(ns, '0.0.0.0/0', 4, via='10.0.0.254', table=100)
    lib.add_ip_route(ns, None, 4, via='10.0.0.253', table=1000)
    lib.add_ip_route(ns, '2001:db8:1::/64', 6, via='2001:db8::2',
                     metric=10)
    lib.add_ip_route(ns, '10.3.0.0/24', 4,
                     via=[{'device': dev, 'via': '10.0.0.2', 'weight': 1},
                          {'device': dev, 'via': '10.0.0.3', 'weight': 3}])
    lib.add_ip_route(ns, '10.1.0.0/24', 4, via='10.0.0.3', metric=5)
    seen['routes4'] = lib.list_ip_routes(ns, 4)
    seen['routes4_dev'] = lib.list_ip_routes(ns, 4, device=dev)
    seen['routes6'] = [r for r in lib.list_ip_routes(ns, 6)
                       if not r['cidr'].startswith('fe80')]
    seen['routes100'] = lib.list_ip_routes(ns, 4, table=100)
    seen['routes1000'] = lib.list_ip_routes(ns, 4, table=1000)
    lib.delete_ip_route(ns, '10.2.0.0/24', 4, device=dev)
    lib.delete_ip_route(ns, '10.2.0.0/24', 4, device=dev)      # ESRCH
    seen['routes4_after'] = lib.list_ip_routes(ns, 4)

    # rules
    lib.add_ip_rule(ns, **lib.rule_args(4, ip='10.0.0.0/24', table=100,
                                        priority=100))
    lib.add_ip_rule(ns, **lib.rule_args(4, ip='10.0.0.0/24', table=100,
                                        priority=100))     # EEXIST
    lib.add_ip_rule(ns, **lib.rule_args(4, iif=dev, table=1000,
                                        priority=101))
    lib.add_ip_rule(ns, **lib.rule_args(6, ip='2001:db8::/64', table=100,
                                        priority=102, to='2001:db8:9::/64'))
    seen['rules4'] = lib.list_ip_rules(ns, 4)
    seen['rules6'] = lib.list_ip_rules(ns, 6)
    lib.delete_ip_rule(ns, **lib.rule_args(4, iif=dev, table=1000,
                                           priority=101))
    lib.delete_ip_rule(ns, **lib.rule_args(4, iif=dev, table=1000,
                                           priority=101))  # ENOENT
    seen['rules4_after'] = lib.list_ip_rules(ns, 4)

    # flush and delete
    lib.flush_ip_addresses(4, dev, ns)
    seen['after_flush'] = lib.parse_addresses(
        lib.get_ip_addresses(ns, index=idx), dev)
    lib.delete_interface('vxlan-42', ns)
    lib.delete_interface(dev, ns)
    seen['gone'] = [lib.interface_exists(dev, ns),
                    lib.interface_exists('qr-peer', ns2)]
    try:
        lib.delete_interface(dev, ns)
    except NotFound:
        seen['del_missing'] = 'NotFound'
    lib.remove_netns(ns2)
    lib.remove_netns(ns2)                 # ENOENT swallowed
    try:
        lib.open_namespace(ns2)
    except OSError as e:
        seen['open_removed'] = (type(e).__name__, e.errno)
    return seen


@pytest.fixture
def brisk_as_pyroute2(brisk_pr2):
    """brisk.pyroute2 registered as `pyroute2` for the test's duration."""
    saved = {k: v for k, v in sys.modules.items()
             if k == 'pyroute2' or k.startswith('pyroute2.')}
    for k in saved:
        del sys.modules[k]
    try:
        brisk_pr2.install_as_pyroute2()
        mods = load_pyroute2_names()
        assert mods['pyroute2'] is brisk_pr2
        assert mods['exceptions'].NetlinkError is brisk_pr2.NetlinkError
        from pyroute2 import IPRoute, NetNS  # noqa: F401
        from pyroute2.netlink.rtnl import ifinfmsg, ndmsg  # noqa: F401
        assert NetNS is brisk_pr2.NetNS
        assert ndmsg.states['permanent'] == 128 and \
            ndmsg.states['none'] == 0 and len(ndmsg.states) == 9
        yield mods
    finally:
        for k in [k for k in sys.modules
                  if k == 'pyroute2' or k.startswith('pyroute2.')]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_neutron_flow_matches_pyroute2(make_ns, pyroute2_real,
                                       brisk_as_pyroute2):
    names = [make_ns(create=False) for _ in range(4)]
    ours = neutron_flow(NeutronIpLib(brisk_as_pyroute2), names[0], names[1],
                        None)
    sys_mods = {k: v for k, v in sys.modules.items()
                if k == 'pyroute2' or k.startswith('pyroute2.')}
    # the oracle: real pyroute2 modules
    for k in sys_mods:
        del sys.modules[k]
    try:
        real_mods = load_pyroute2_names()
        assert 'brisk' not in real_mods['pyroute2'].__name__
        real = neutron_flow(NeutronIpLib(real_mods), names[2], names[3],
                            None)
    finally:
        for k in [k for k in sys.modules
                  if k == 'pyroute2' or k.startswith('pyroute2.')]:
            del sys.modules[k]
        sys.modules.update(sys_mods)
    for key in sorted(set(real) | set(ours)):
        assert ours.get(key) == real.get(key), key
    # and a few absolute facts an agent relies on
    assert ours['dup_link'] == errno.EEXIST
    assert ours['link_attrs']['mtu'] == 1450
    assert ours['link_attrs']['link/ether'] == 'fa:16:3e:00:00:01'
    assert ours['link_attrs']['allmulticast'] is True
    assert ours['bridge'] == (1, 1000)
    assert ours['vxlan'][:3] == (42, '239.1.1.1', True)
    assert ours['errors'] == ['NotFound', 'NamespaceNotFound']
    assert ours['open_removed'] == ('FileNotFoundError', errno.ENOENT)
    assert {r['cidr'] for r in ours['routes4']} >= {
        '10.1.0.0/24', '10.2.0.0/24', '10.3.0.0/24'}
    assert [r['cidr'] for r in ours['routes100']] == ['0.0.0.0/0']
    assert [r['table'] for r in ours['routes1000']] == [1000]
    assert [n['lladdr'] for n in ours['neigh4']] == ['fa:16:3e:00:00:17']
    assert ours['neigh4_after'] == []
    assert '100' in [r['priority'] for r in ours['rules4']]
    assert '101' not in [r['priority'] for r in ours['rules4_after']]
    assert '2001:db8::1/64' in [a['cidr'] for a in ours['after_flush']]
    assert not [a for a in ours['after_flush'] if '.' in a['cidr']]
    assert ours['addr_filters'][2] == 0      # pyroute2: mask= never matches
    assert ours['gone'] == [False, False]
