"""``vpnsite-openvpn-hook CONFIG KIND``: what an OpenVPN server runs for each login, connect,
disconnect and tls-crypt-v2 key check. It asks the hub and fails closed: any error, any answer
but yes, or no answer within 3 seconds refuses the client. It logs no address."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

from vpnsite_adapters.vpn.pki import licence_of_metadata

TIMEOUT_SECONDS = 3.0
DENY_LIST = "denied-licences.txt"


def ask_hub(config: dict[str, str], call: str, body: dict[str, str]) -> int:
    request = urllib.request.Request(
        config["hub"].rstrip("/") + f"/api/node/{call}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {config['token']}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def login(config: dict[str, str], credentials_file: str) -> bool:
    lines = Path(credentials_file).read_text().splitlines()
    if len(lines) < 2:
        return False
    return ask_hub(config, "login", {"username": lines[0], "password": lines[1]}) == 200


def report(config: dict[str, str], call: str) -> bool:
    # OpenVPN names its variables in lower case.
    return ask_hub(config, call, {"username": os.environ.get("username", "")}) == 200  # noqa: SIM112


def key_allowed(config_dir: Path) -> bool:
    """Only keys this hub made (they carry a licence id), and none of an ended or erased licence."""
    metadata_file = os.environ.get("metadata_file")  # noqa: SIM112
    if os.environ.get("metadata_type") != "0" or not metadata_file:  # noqa: SIM112
        return False
    metadata = Path(metadata_file).read_bytes()
    licence = licence_of_metadata(metadata if metadata.startswith(b"\x00") else b"\x00" + metadata)
    if licence is None:
        return False
    deny_list = config_dir / DENY_LIST
    denied = set(deny_list.read_text().split()) if deny_list.exists() else set()
    return licence not in denied


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: vpnsite-openvpn-hook CONFIG.json login|connect|disconnect|tls-crypt-v2-verify [FILE]")
        return 1
    config_path, kind = Path(args[0]), args[1]
    try:
        config = json.loads(config_path.read_text())
        if kind == "login":
            allowed = login(config, args[2])
        elif kind == "connect":
            allowed = report(config, "connect")
        elif kind == "disconnect":
            report(config, "disconnect")
            allowed = True
        elif kind == "tls-crypt-v2-verify":
            allowed = key_allowed(config_path.parent)
        else:
            allowed = False
    except Exception as error:  # fail closed, whatever went wrong
        print(f"vpnsite hook {kind}: refused ({type(error).__name__})", file=sys.stderr)
        return 1
    return 0 if allowed else 1


if __name__ == "__main__":
    sys.exit(main())
