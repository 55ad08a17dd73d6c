"""Pure-Python stand-in for ``brisk._brisk.Netlink`` -- DEVELOPMENT ONLY.

The package uses ``brisk._brisk.Netlink`` (C++) whenever it imports; this
module exists so the Python side can be developed and tested before the
extension is built.  Same interface: ``Netlink(netns_path=None)`` with
``request(msg)``, ``batch(msgs)``, ``close()``, ``fileno()``, and the
``create_netns``/``delete_netns``/``list_netns`` helpers (which here
shell out to ``ip netns``).
"""

import ctypes
import ctypes.util
import errno
import os
import socket
import struct
import subprocess
import threading

NETLINK_ROUTE = 0
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLM_F_MULTI = 0x2
NLM_F_DUMP_INTR = 0x10
NLM_F_ACK_TLVS = 0x200
NLMSG_ERROR = 2
NLMSG_DONE = 3
CLONE_NEWNET = 0x40000000
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_GET_STRICT_CHK = 12

_HDR = struct.Struct('=IHHII')
_libc = None


def _setns_socket(path):
    """Create a NETLINK_ROUTE socket inside the namespace at `path`."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
    result = {}

    def work():
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as e:
            result['error'] = e
            return
        try:
            if _libc.setns(fd, CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                result['error'] = OSError(err, os.strerror(err), path)
                return
            result['sock'] = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                           NETLINK_ROUTE)
        finally:
            os.close(fd)

    # setns() affects the calling thread only: do it on a throwaway thread
    t = threading.Thread(target=work)
    t.start()
    t.join()
    if 'error' in result:
        raise result['error']
    return result['sock']


class Netlink(object):
    def __init__(self, netns_path=None):
        if netns_path is None:
            self._sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                       NETLINK_ROUTE)
        else:
            self._sock = _setns_socket(netns_path)
        self._sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self._sock.bind((0, 0))
        self._lock = threading.Lock()
        self._seq = 0

    def fileno(self):
        return self._sock.fileno()

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _next_seq(self):
        self._seq = (self._seq + 1) & 0xFFFFFFFF or 1
        return self._seq

    @staticmethod
    def _stamp(msg, seq):
        length, mtype, flags, _, _ = _HDR.unpack_from(msg, 0)
        return _HDR.pack(length, mtype, flags | NLM_F_ACK, seq, 0) + \
            bytes(msg[16:])

    @staticmethod
    def _error(data, off, length, flags):
        code = -struct.unpack_from('=i', data, off + 16)[0]
        extack = ''
        if flags & NLM_F_ACK_TLVS:
            inner_len = _HDR.unpack_from(data, off + 20)[0]
            body = 4 + (16 if flags & 0x100 else inner_len)
            a = off + 16 + ((body + 3) & ~3)
            while a + 4 <= off + length:
                alen, atype = struct.unpack_from('=HH', data, a)
                if alen < 4:
                    break
                if atype == 1:
                    extack = bytes(data[a + 4:a + alen]).split(b'\0')[0] \
                        .decode('utf-8', 'replace')
                a += (alen + 3) & ~3
        return code, extack

    def request(self, msg):
        with self._lock:
            while True:
                res = self._request(msg)
                if res is not None:
                    return res

    def _request(self, msg):
        seq = self._next_seq()
        flags = _HDR.unpack_from(msg, 0)[2]
        dump = (flags & NLM_F_DUMP) == NLM_F_DUMP
        self._sock.send(self._stamp(msg, seq))
        replies = []
        intr = False
        while True:
            data = self._sock.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                length, mtype, mflags, mseq, _ = _HDR.unpack_from(data, off)
                if length < 16:
                    break
                if mseq != seq:
                    off += (length + 3) & ~3
                    continue
                if mflags & NLM_F_DUMP_INTR:
                    intr = True
                if mtype == NLMSG_ERROR:
                    code, extack = self._error(data, off, length, mflags)
                    return (code, extack, replies)
                if mtype == NLMSG_DONE:
                    # a dump ends here (the kernel sends no ACK after it);
                    # the DONE payload carries the dump's error, if any
                    if intr:
                        return None   # restart the dump
                    code = 0
                    if length >= 20:
                        code = -struct.unpack_from('=i', data, off + 16)[0]
                    return (code if code > 0 else 0, '', replies)
                replies.append(bytes(data[off:off + length]))
                off += (length + 3) & ~3

    def batch(self, msgs):
        with self._lock:
            seqs = []
            buf = []
            for m in msgs:
                s = self._next_seq()
                seqs.append(s)
                buf.append(self._stamp(m, s))
            results = {}
            # many per sendmsg: send in chunks below the socket buffer
            chunk, size = [], 0
            for b in buf:
                chunk.append(b)
                size += len(b)
                if size > 32768:
                    self._sock.send(b''.join(chunk))
                    self._collect(results, seqs, len(chunk))
                    chunk, size = [], 0
            if chunk:
                self._sock.send(b''.join(chunk))
                self._collect(results, seqs, len(chunk))
            return [results[s] for s in seqs]

    def _collect(self, results, seqs, n):
        want = len(results) + n
        while len(results) < want:
            data = self._sock.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                length, mtype, mflags, mseq, _ = _HDR.unpack_from(data, off)
                if length < 16:
                    break
                if mtype == NLMSG_ERROR:
                    results[mseq] = self._error(data, off, length, mflags)
                off += (length + 3) & ~3


def _ip_netns(*args):
    name = args[-1]
    p = subprocess.run(('ip', 'netns') + args, capture_output=True,
                       text=True)
    if p.returncode != 0:
        text = p.stderr.strip()
        code = errno.EEXIST if 'exist' in text else errno.ENOENT \
            if 'No such' in text else errno.EPERM
        raise OSError(code, text, name)


def create_netns(name):
    _ip_netns('add', name)


def delete_netns(name):
    _ip_netns('del', name)


def list_netns():
    try:
        return sorted(os.listdir('/run/netns'))
    except FileNotFoundError:
        return []
