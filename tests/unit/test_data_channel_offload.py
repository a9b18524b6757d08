"""What the node reads from OpenVPN's start-up lines about data channel offload."""

from __future__ import annotations

from vpnsite_node.openvpn import data_channel_offload


def test_the_kernel_module_decides_unless_an_option_turns_it_off() -> None:
    assert data_channel_offload("DCO version: N/A") == (
        False,
        "the kernel has no ovpn-dco module (modprobe ovpn-dco-v2)",
    )
    assert data_channel_offload("DCO version: 0.2.20231117") == (True, "ovpn-dco 0.2.20231117")
    off = data_channel_offload("Note: --fragment disables data channel offload.")
    assert off is not None and off[0] is False and "--fragment" in off[1]
    assert data_channel_offload("TUN/TAP device tun-udp opened") is None
