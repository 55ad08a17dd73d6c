"""pyroute2.netlink.exceptions, same classes and semantics."""

import os


class NetlinkError(Exception):
    """A netlink error: ``code`` is the positive errno, ``args`` is
    ``(code, message)`` where the message is the kernel's extended ack
    text when there is one, else ``os.strerror(code)``."""

    def __init__(self, code, msg=None):
        msg = msg or os.strerror(code)
        super(NetlinkError, self).__init__(code, msg)
        self.code = code
        self.extra_code = 0


class NetlinkDecodeError(Exception):
    def __init__(self, exception):
        self.exception = exception


class NetlinkHeaderDecodeError(NetlinkDecodeError):
    pass


class NetlinkDataDecodeError(NetlinkDecodeError):
    pass


class NetlinkNLADecodeError(NetlinkDecodeError):
    pass


class IPSetError(NetlinkError):
    pass


class NetlinkDumpInterrupted(NetlinkError):
    def __init__(self, code=-1, msg='dump interrupted'):
        super(NetlinkDumpInterrupted, self).__init__(code, msg)


class SkipInode(Exception):
    def __init__(self, code=0, msg=None):
        super(SkipInode, self).__init__(code, msg)
        self.code = code


class ChaoticException(Exception):
    pass
