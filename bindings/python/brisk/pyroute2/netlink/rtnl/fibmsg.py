"""pyroute2.netlink.rtnl.fibmsg: rule actions."""

from ..._codec import fibmsg  # noqa: F401
from ..._requests import FR_ACT_NAMES as _ACT

FR_ACT_NAMES = dict(_ACT)
FR_ACT_VALUES = {v: k for k, v in FR_ACT_NAMES.items()}
globals().update(FR_ACT_NAMES)
