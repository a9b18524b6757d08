"""What a VPN server's node lets through to its log of OpenVPN's own lines (node/log_privacy.py):
nothing of a client's device, nothing of the hub's reachability ping, no address, no e-mail."""

from __future__ import annotations

from vpnsite_node.log_privacy import scrub, worth_logging

DROPPED = [
    "anna@example.org/198.51.100.7:50112 peer info: IV_HWADDR=02:42:ac:11:00:02",
    "anna@example.org/198.51.100.7:50112 peer info: UV_DEVICE_NAME=anna-laptop",
    "198.51.100.7:50112 peer info: IV_PLAT_VER=6.1.0",
    "TCP connection established with [AF_INET]10.77.1.1:40312",
    "10.77.1.1:40312 Connection reset, restarting [0]",
    "10.77.1.1:40312 SIGUSR1[soft,connection-reset] received, client-instance restarting",
]
KEPT = [
    "anna@example.org/198.51.100.7:50112 Connection reset, restarting [0]",
    "anna@example.org/198.51.100.7:50112 TLS: Username/auth-token authentication succeeded for username 'x'",
    "198.51.100.7:50112 TLS Error: TLS handshake failed",
    "Initialization Sequence Completed",
]


def test_device_details_and_the_hubs_ping_are_not_logged() -> None:
    assert [line for line in DROPPED if worth_logging(line)] == []


def test_what_an_operator_needs_is_logged_without_addresses_or_e_mails() -> None:
    assert all(worth_logging(line) for line in KEPT)
    written = " ".join(scrub(line) for line in KEPT)
    assert "198.51.100.7" not in written and "anna@example.org" not in written
    assert "[e-mail]/[address] Connection reset" in written
