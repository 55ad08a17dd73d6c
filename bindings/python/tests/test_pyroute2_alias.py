"""`brisk.pyroute2` under the name `pyroute2`, in a clean interpreter."""

import os
import subprocess
import sys

import pytest

SCRIPT_PLAIN = r'''
import sys
import brisk.pyroute2 as bp
sys.modules['pyroute2'] = bp
import pyroute2
from pyroute2 import IPRoute, NetNS, NetlinkError, netns
from pyroute2.netlink import exceptions, rtnl
from pyroute2.netlink.rtnl import ifinfmsg, ndmsg, ifaddrmsg
import pyroute2.netlink.rtnl.ndmsg as nd2
from pyroute2.nslink import nslink
assert pyroute2 is bp and IPRoute is bp.IPRoute and NetNS is bp.NetNS
assert exceptions is bp.netlink.exceptions
assert exceptions.NetlinkError is NetlinkError is bp.NetlinkError
assert ndmsg is bp.netlink.rtnl.ndmsg and nd2 is ndmsg
assert nslink.NetNS is NetNS
assert rtnl.rt_scope['link'] == 253 and rtnl.rt_scope[253] == 'link'
assert rtnl.rt_proto['static'] == 4 and rtnl.rt_type['unicast'] == 1
assert rtnl.rtscopes['RT_SCOPE_UNIVERSE'] == 0
assert ifinfmsg.IFF_ALLMULTI == 512 and ifaddrmsg.IFA_F_PERMANENT == 128
assert ndmsg.states['permanent'] == 128 and ndmsg.states['none'] == 0
assert netns.NETNS_RUN_DIR == '/var/run/netns'
print('ok')
'''

SCRIPT_INSTALL = r'''
import sys
import brisk.pyroute2
brisk.pyroute2.install_as_pyroute2()
assert sys.modules['pyroute2.netlink.exceptions'] is \
    brisk.pyroute2.netlink.exceptions
from pyroute2.netlink import exceptions
from pyroute2 import IPRoute
assert exceptions.NetlinkError is brisk.pyroute2.NetlinkError
print('ok')
'''


@pytest.mark.parametrize('script', [SCRIPT_PLAIN, SCRIPT_INSTALL],
                         ids=['sys.modules', 'install_as_pyroute2'])
def test_alias(script):
    p = subprocess.run([sys.executable, '-c', script], capture_output=True,
                       text=True, env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == 'ok'
