"""IPRoute / NetNS: pyroute2 0.7.2's RTNL API over brisk's transport."""

import errno
import gc
import os
import struct
import warnings
from socket import AF_INET, AF_INET6, AF_UNSPEC

from .. import _codec as C
from .. import _requests as R
from .. import _transport
from .._codec import UnsupportedArgument
from ..netlink.exceptions import NetlinkError

DEFAULT_TABLE = 254
# ifinfomsg's ifi_index, after the 16-byte nlmsghdr and 4 bytes of family, pad and type.
_IFI_INDEX = struct.Struct('=i')
NETNS_RUN_DIR = '/var/run/netns'

# IPRoute(...) keywords that change nothing observable here
_HARMLESS_KWARGS = frozenset(('ext_ack', 'rcvsize', 'sndbuf', 'rcvbuf',
                              'netns_path', 'libc', 'family'))


def _check_kwargs(cls, kwarg):
    for key, value in kwarg.items():
        if key in _HARMLESS_KWARGS:
            continue
        if key in ('nlm_generator', 'strict_check', 'all_ns') and not value:
            continue
        raise UnsupportedArgument(
            'brisk.pyroute2 %s(): %s=%r is not supported'
            % (cls.__name__, key, value))


def _raise(code, extack):
    raise NetlinkError(code, extack or None)


class RTNL_API(object):
    """The request methods; subclasses provide ``self.transport``."""

    target = 'localhost'
    strict_check = False
    nlm_generator = False

    # ------------------------------------------------------------ plumbing
    def _request(self, req):
        try:
            code, extack, replies = self.transport.request(req.data)
        finally:
            C._OpenFds.close()
        if code:
            _raise(code, extack)
        return replies

    def _decode_all(self, replies):
        target = self.target
        decode = C.decode
        if len(replies) < 64 or not gc.isenabled():
            return [decode(r, target) for r in replies]
        # a big dump allocates hundreds of thousands of dicts and tuples,
        # none in a cycle: collecting during it only costs time (3x here)
        gc.disable()
        try:
            return [decode(r, target) for r in replies]
        finally:
            gc.enable()

    def _change(self, req, with_ack=True):
        replies = self._request(req)
        out = self._decode_all(replies)
        if with_ack:
            out.append(C.ack(self.target))
        return tuple(out)

    def _flush(self, msgs, mtype, flags):
        """Deletes what a dump returned: each message sent back as the
        delete, all in one pipelined batch. pyroute2 sends these without
        waiting for errors; so do we. Returns the messages, as pyroute2."""
        msgs = list(msgs)
        if msgs:
            self.transport.batch([C.rewrite_type(m._raw, mtype, flags)
                                  for m in msgs])
        return msgs

    def filter_messages(self, dump_filter, msgs):
        return tuple(self._genmatch(dump_filter, msgs))

    @staticmethod
    def _genmatch(dump_filter, msgs):
        if callable(dump_filter):
            for msg in msgs:
                if dump_filter(msg):
                    yield msg
            return
        if not isinstance(dump_filter, dict):
            yield from ()
            return
        keys = []
        for key, want in dump_filter.items():
            if isinstance(key, str):
                keys.append(((key,), want))
            elif isinstance(key, tuple):
                keys.append((key, want))
        for msg in msgs:
            for nkey, want in keys:
                value = msg.get_nested(*nkey)
                if value is not None and callable(want):
                    if not want(value):
                        break
                elif want != value:
                    break
            else:
                yield msg

    # ------------------------------------------------------------ links
    def link(self, command, **kwarg):
        req, dump_filter = R.link_request(command, kwarg)
        if command in ('dump', 'get'):
            msgs = self._decode_all(self._request(req))
            if command == 'dump' and dump_filter is not None:
                if isinstance(dump_filter, dict):
                    dump_filter = R.link_filter(dump_filter)
                return self.filter_messages(dump_filter, msgs)
            return tuple(msgs)
        return self._change(req)

    def link_lookup(self, match=None, **kwarg):
        if set(kwarg) in ({'index'}, {'ifname'}, {'index', 'ifname'}):
            # A kernel-filtered get; only the answer's ifi_index is read, so
            # none of its attributes is decoded.
            try:
                replies = self._request(R.link_request('get', kwarg)[0])
            except NetlinkError:
                return []
            for reply in replies:
                return [_IFI_INDEX.unpack_from(reply, 20)[0]]
            return None
        return [link['index']
                for link in self.get_links(match=match or kwarg)]

    def get_links(self, *argv, **kwarg):
        result = []
        links = argv or [0]
        if links[0] == 'all':
            links = [0]
        cmd = 'dump' if links[0] == 0 else 'get'
        for index in links:
            if index > 0:
                kwarg['index'] = index
            result.extend(self.link(cmd, **dict(kwarg)))
        return result

    def get_vlans(self, **kwarg):
        dump_filter, kwarg = R.get_dump_filter(kwarg)
        return self.link('dump', family=C.AF_BRIDGE, ext_mask=2,
                         match=dump_filter)

    # ------------------------------------------------------------ addresses
    def addr(self, command, *argv, **kwarg):
        if command in ('get', 'set'):
            return []
        if argv:
            warnings.warn('positional arguments for IPRoute.addr() are '
                          'deprecated, use keyword arguments',
                          DeprecationWarning)
            kwarg.update(zip(('index', 'address', 'prefixlen', 'family',
                              'scope', 'match'), argv))
        if 'mask' in kwarg:
            R.warn_mask()
        req, dump_filter = R.addr_request(command, kwarg)
        if command == 'dump':
            msgs = self._decode_all(self._request(req))
            if dump_filter is not None:
                return self.filter_messages(dump_filter, msgs)
            return tuple(msgs)
        return self._change(req, with_ack=False)

    def get_addr(self, family=AF_UNSPEC, match=None, **kwarg):
        return self.addr('dump', family=family, match=match or kwarg)

    def flush_addr(self, *argv, **kwarg):
        return self._flush(self.get_addr(*argv, **kwarg), R.RTM_DELADDR,
                           R.NLM_F_CREATE | R.NLM_F_REQUEST)

    # ------------------------------------------------------------ routes
    def route(self, command, **kwarg):
        req, match = R.route_request(command, kwarg, self.strict_check)
        if req.mtype == R.RTM_GETROUTE:
            msgs = self._decode_all(self._request(req))
            if match:
                return self.filter_messages(match, msgs)
            return tuple(msgs)
        out = self._change(req)
        if match:
            return self.filter_messages(match, out)
        return out

    def get_routes(self, family=255, match=None, **kwarg):
        if isinstance(kwarg.get('dst'), str):
            return self.route('get', dst=kwarg['dst'])
        return self.route('dump', family=family, match=match or kwarg)

    def get_default_routes(self, family=AF_UNSPEC, table=DEFAULT_TABLE):
        return [x for x in self.get_routes(family, table=table)
                if x.get_attr('RTA_DST', None) is None and x['dst_len'] == 0]

    def flush_routes(self, *argv, **kwarg):
        return self._flush(self.get_routes(*argv, **kwarg), R.RTM_DELROUTE,
                           R.NLM_F_REQUEST)

    # ------------------------------------------------------------ neighbours
    def neigh(self, command, **kwarg):
        req, dump_filter = R.neigh_request(command, kwarg)
        if req.mtype == R.RTM_GETNEIGH:
            msgs = self._decode_all(self._request(req))
            if command == 'dump' and dump_filter:
                return self.filter_messages(dump_filter, msgs)
            return tuple(msgs)
        return self._change(req)

    def fdb(self, command, **kwarg):
        dump_filter = None
        if command == 'dump':
            dump_filter, kwarg = R.get_dump_filter(kwarg)
        kwarg['family'] = C.AF_BRIDGE
        if 'nud' in kwarg:
            kwarg['state'] = kwarg.pop('nud')
        noarp, permanent, reachable = 0x40, 0x80, 0x02
        if command in ('add', 'del', 'append') and \
                not kwarg.get('state', 0) & noarp:
            kwarg['state'] = kwarg.pop('state', 0) | noarp
            if not kwarg.get('state', 0) & (permanent | reachable):
                kwarg['state'] |= permanent
            if not kwarg.get('flags', 0) & (0x02 | 0x04):
                kwarg['flags'] = kwarg.get('flags', 0) | 0x02
        if dump_filter is not None:
            kwarg['match'] = dump_filter
        return self.neigh(command, **kwarg)

    def get_neighbours(self, family=AF_UNSPEC, match=None, **kwarg):
        return self.neigh('dump', family=family, match=match or kwarg)

    # ------------------------------------------------------------ rules
    def rule(self, command, **kwarg):
        if command == 'set':
            return None
        req, match = R.rule_request(command, kwarg)
        if req.mtype == R.RTM_GETRULE:
            msgs = self._decode_all(self._request(req))
        else:
            msgs = self._change(req)
        if match:
            return self.filter_messages(match, msgs)
        return tuple(msgs)

    def get_rules(self, family=AF_UNSPEC, match=None, **kwarg):
        return self.rule((R.RTM_GETRULE, R.F_DUMP), family=family,
                         match=match or kwarg)

    def flush_rules(self, *argv, **kwarg):
        return self._flush(self.get_rules(*argv, **kwarg), R.RTM_DELRULE,
                           R.NLM_F_CREATE | R.NLM_F_REQUEST)

    # ------------------------------------------------------------ netns info
    def get_netnsid(self, nsid=None, pid=None, fd=None, target_nsid=None):
        attrs = []
        for name, value in (('NETNSA_NSID', nsid), ('NETNSA_PID', pid),
                            ('NETNSA_FD', fd),
                            ('NETNSA_TARGET_NSID', target_nsid)):
            if value is not None:
                attrs.append((name, value))
        data = C.build(90, R.NLM_F_REQUEST, b'\0\0\0\0', attrs, C.NSID, 0)
        code, extack, replies = self.transport.request(data)
        if code:
            _raise(code, extack)
        for r in self._decode_all(replies):
            return {'nsid': r.get_attr('NETNSA_NSID'),
                    'current_nsid': r.get_attr('NETNSA_CURRENT_NSID')}
        return None

    def get_netns_info(self, list_proc=False):
        if list_proc:
            raise UnsupportedArgument(
                'brisk.pyroute2 get_netns_info(): list_proc=True is not '
                'supported')
        peers = {}
        for link in self.get_links():
            nsid = link.get_attr('IFLA_LINK_NETNSID')
            if nsid is not None:
                peers.setdefault(nsid, []).append(
                    link.get_attr('IFLA_IFNAME'))
        seen = set()
        try:
            names = os.listdir(NETNS_RUN_DIR)
        except OSError:
            names = []
        for name in names:
            path = '%s/%s' % (NETNS_RUN_DIR, name)
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                inode = os.fstat(fd).st_ino
                if inode in seen:
                    continue
                seen.add(inode)
                nsid = 0xFFFFFFFF
                try:
                    info = self.get_netnsid(fd=fd)
                    if info and info['nsid'] is not None:
                        nsid = info['nsid']
                except Exception:
                    pass
            finally:
                os.close(fd)
            item = C.nsinfmsg()
            item['inode'] = inode
            item['netnsid'] = nsid
            item['attrs'] = [('NSINFO_PATH', path)]
            for peer in peers.get(nsid, []):
                item['attrs'].append(('NSINFO_PEER', peer))
            item['header'] = {'length': 0, 'type': 500, 'flags': 0,
                              'sequence_number': 0, 'pid': 0, 'error': None,
                              'target': self.target, 'stats': C._ZERO_STATS}
            item['event'] = 'RTM_NEWNETNS'
            yield item

    # ------------------------------------------------------------ batches
    def batch(self, undo=True):
        """Queue change requests; send them in one transport.batch call.

        See ``Batch`` for what may be queued and how failures unwind.
        """
        return Batch(self, undo)

    # ------------------------------------------------------------ misc
    def _unsupported(name):
        def method(self, *argv, **kwarg):
            raise UnsupportedArgument(
                'brisk.pyroute2: IPRoute.%s() is not supported' % (name,))
        method.__name__ = name
        return method

    bind = _unsupported('bind')          # event subscription
    get = _unsupported('get')
    dump = _unsupported('dump')
    nlm_request = _unsupported('nlm_request')
    put = _unsupported('put')
    tc = _unsupported('tc')
    get_qdiscs = _unsupported('get_qdiscs')
    get_classes = _unsupported('get_classes')
    get_filters = _unsupported('get_filters')
    brport = _unsupported('brport')
    vlan_filter = _unsupported('vlan_filter')
    stats = _unsupported('stats')
    poll = _unsupported('poll')
    del _unsupported

    def fileno(self):
        return self.transport.fileno()

    def close(self, code=None):
        t = getattr(self, 'transport', None)
        if t is not None:
            self.transport = None
            t.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class IPRoute(RTNL_API):
    """pyroute2.IPRoute: RTNL in the caller's network namespace."""

    def __init__(self, *argv, **kwarg):
        if argv:
            raise UnsupportedArgument(
                'brisk.pyroute2 IPRoute(): positional arguments are not '
                'supported')
        _check_kwargs(type(self), kwarg)
        self.transport = _transport.Netlink(None)


def _netns_path(name):
    if os.path.dirname(name):
        return name
    return '%s/%s' % (NETNS_RUN_DIR, name)


class NetNS(RTNL_API):
    """pyroute2.NetNS: RTNL inside a named network namespace.

    No helper process: the transport's socket is created inside the
    namespace.  ``flags`` follow pyroute2: ``os.O_CREAT`` (default)
    creates a missing namespace, ``O_CREAT | O_EXCL`` refuses an
    existing one, ``0`` requires it to exist.
    """

    def __init__(self, netns, flags=os.O_CREAT, target=None, libc=None):
        from .. import netns as _netns
        self.transport = None
        self.netns = netns
        self.flags = flags
        self.target = target or netns
        path = _netns_path(netns)
        base = os.path.basename(netns)
        if base in _netns.listnetns(os.path.dirname(path)):
            if flags & (os.O_CREAT | os.O_EXCL) == (os.O_CREAT | os.O_EXCL):
                raise OSError(errno.EEXIST, 'netns exists', netns)
        elif flags & os.O_CREAT:
            _netns.create(netns)
        try:
            self.transport = _transport.Netlink(path)
        except OSError as e:
            # pyroute2 reports the os.open() of the namespace file
            raise OSError(e.errno, e.strerror, path.encode('ascii'))

    def clone(self):
        return type(self)(self.netns, self.flags)

    def remove(self):
        from .. import netns as _netns
        _netns.remove(self.netns)


class Batch(object):
    """``with ipr.batch() as b: b.link('add', ...); b.addr('add', ...)``

    Requests are translated exactly like the plain calls and sent, on
    exit, in one ``Netlink.batch`` call: many per sendmsg, one result each.
    A batch sends changes only; gets, dumps and flushes read replies and
    are refused (ValueError).

    ``undo=True`` (the default) accepts creating commands alone ('add' for
    link/addr/route/neigh/rule): their undo is the matching delete, built
    from the same arguments.  If any request fails, the ones that succeeded
    are undone (in reverse order) and NetlinkError(code of the first
    failure) is raised, its message naming the failed request's index.
    'set', 'replace', 'del' and friends are refused there: undoing them
    needs the prior kernel state, which a one-round-trip batch does not
    read.

    ``undo=False`` accepts every change and undoes nothing, as
    ``ip -force -batch``: each request is attempted, and if any failed,
    NetlinkError of the first failure is raised once all were sent, the
    others staying in place.

    ``b.results`` holds the per-request ``(errno, extack)`` list.

    Without undo, a run of at least COALESCE_MIN plain link deletes (by
    ``index=`` or ``ifname=`` alone) is one group delete in the kernel, as
    brisk's C++ Batch does it: each delete alone waits for an RCU grace
    period, about 20 ms on a 2-core VM, the group once.
    """

    # What each kind may batch: its change commands.
    CHANGES = {
        'link': ('add', 'set', 'del', 'remove', 'delete', 'change', 'replace'),
        'addr': ('add', 'del', 'remove', 'delete', 'replace'),
        'route': ('add', 'del', 'remove', 'delete', 'change', 'replace', 'append'),
        'neigh': ('add', 'set', 'del', 'remove', 'delete', 'change', 'replace', 'append'),
        'rule': ('add', 'del', 'remove', 'delete'),
    }
    BUILDERS = {
        'link': R.link_request, 'addr': R.addr_request, 'route': R.route_request,
        'neigh': R.neigh_request, 'rule': R.rule_request,
    }

    # Shortest run of link deletes worth a coalesced delete (it costs a dump).
    COALESCE_MIN = 4

    def __init__(self, ipr, undo=True):
        self.ipr = ipr
        self.undo = bool(undo)
        self.requests = []
        self._deletes = []
        self.results = None
        self.rollback = None
        self._fds = []

    def _queue(self, kind, command, kwarg):
        if command not in self.CHANGES[kind]:
            raise UnsupportedArgument(
                'brisk.pyroute2 batch: %s(%r) cannot be batched: a batch '
                'sends changes and reads nothing back' % (kind, command))
        if self.undo and command != 'add':
            raise UnsupportedArgument(
                'brisk.pyroute2 batch: %s(%r) cannot be undone (only "add" '
                'can: its undo is a delete); use batch(undo=False)'
                % (kind, command))
        try:
            req = self.BUILDERS[kind](command, kwarg, want_undo=self.undo)[0]
        finally:
            # net_ns_fd etc. opened while encoding stay open until sent
            self._fds += C._OpenFds.take()
        if self.undo and req.undo is None:
            raise UnsupportedArgument(
                'brisk.pyroute2 batch: %s add needs ifname= or index= so '
                'it can be undone' % (kind,))
        self.requests.append(req)
        self._deletes.append(self._plain_link_delete(kind, command, kwarg))
        return len(self.requests) - 1

    @staticmethod
    def _plain_link_delete(kind, command, kwarg):
        """The ifindex or name a plain link delete names; None otherwise."""
        if kind != 'link' or command not in ('del', 'remove', 'delete'):
            return None
        if set(kwarg) == {'index'} and isinstance(kwarg['index'], int):
            return kwarg['index']
        if set(kwarg) == {'ifname'} and isinstance(kwarg['ifname'], str):
            return kwarg['ifname']
        return None

    def _send(self, transport):
        """Every request, in order, with runs of plain link deletes (without
        undo) coalesced by the transport: one RCU grace period for a run
        instead of one per link."""
        results = []
        i, n = 0, len(self.requests)
        while i < n:
            j = i
            if not self.undo:
                while j < n and self._deletes[j] is not None:
                    j += 1
            if j - i >= self.COALESCE_MIN:
                results += transport.delete_links(self._deletes[i:j])
            else:
                j = i + 1
                while j < n and (self.undo or self._deletes[j] is None or
                                 not self._run_from(j)):
                    j += 1
                results += transport.batch([r.data for r in self.requests[i:j]])
            i = j
        return [tuple(r) for r in results]

    def _run_from(self, i):
        """Whether a coalescible run of deletes starts at i."""
        end = i
        while end < len(self._deletes) and self._deletes[end] is not None:
            end += 1
        return end - i >= self.COALESCE_MIN

    def link(self, command, **kwarg):
        return self._queue('link', command, kwarg)

    def addr(self, command, **kwarg):
        return self._queue('addr', command, kwarg)

    def route(self, command, **kwarg):
        return self._queue('route', command, kwarg)

    def neigh(self, command, **kwarg):
        return self._queue('neigh', command, kwarg)

    def rule(self, command, **kwarg):
        return self._queue('rule', command, kwarg)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        try:
            if exc_type is None and self.requests:
                self.commit()
        finally:
            for fd in self._fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._fds = []
        return False

    def commit(self):
        transport = self.ipr.transport
        self.results = results = self._send(transport)
        failed = [i for i, (code, _) in enumerate(results) if code]
        if not failed:
            return results
        first = failed[0]
        code, extack = results[first]
        if not self.undo:
            raise NetlinkError(
                code, 'batch request #%d (%s) failed: %s; %d of %d failed, '
                'the others are in place' % (
                    first, self.requests[first].what,
                    extack or os.strerror(code), len(failed),
                    len(results)))
        done = [self.requests[i] for i, (code, _) in enumerate(results)
                if not code]
        self.rollback = []
        if done:
            self.rollback = transport.batch([r.undo for r in reversed(done)])
        raise NetlinkError(
            code, 'batch request #%d (%s) failed: %s; %d request(s) undone'
            % (first, self.requests[first].what,
               extack or os.strerror(code), len(done)))


__all__ = ['IPRoute', 'NetNS', 'RTNL_API', 'Batch', 'AF_INET', 'AF_INET6']
