"""Build time of the personal archive for eight servers (UDP and TCP profiles each), the median of
many builds against the budget of 20 ms; the baseline in the same run is zipping the same bytes
without building anything.

Usage: ``python bench/archive.py``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import zipfile
from io import BytesIO
from pathlib import Path

from vpnsite.fleet import SPEC_LOCATIONS, VpnServer
from vpnsite_adapters.vpn.keystore import initialise, load_keys
from vpnsite_adapters.vpn.profiles import archive, client_profile, endpoints

RUNS = 300
BUDGET_MS = 20.0


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        initialise(Path(folder))
        keys = load_keys(Path(folder), b"bench-secret" * 4)
        servers = [
            VpnServer(location, host=f"198.51.100.{n}", udp_port=1194, tcp_port=443)
            for n, location in enumerate(SPEC_LOCATIONS, 1)
        ]
        udp: dict[str, int | None] = {s.location.id: 1194 for s in servers}
        tcp: dict[str, int | None] = {s.location.id: 443 for s in servers}

        def build(licence: str) -> bytes:
            ca = keys.ca.certificate_pem().decode()
            key = keys.client_key_pem(licence)
            found = endpoints(servers, udp, tcp)
            return archive({e.file_name: client_profile(e, ca, key) for e in found}, "en", None)

        sample = build("licence-0")
        with zipfile.ZipFile(BytesIO(sample)) as zipped:
            files = {name: zipped.read(name) for name in zipped.namelist()}

        def zip_only() -> bytes:
            buffer = BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
                for name, data in files.items():
                    zipped.writestr(name, data)
            return buffer.getvalue()

        timings, baseline = [], []
        for run in range(RUNS):
            started = time.perf_counter()
            build(f"licence-{run}")
            timings.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            zip_only()
            baseline.append((time.perf_counter() - started) * 1000)
    median, base = statistics.median(timings), statistics.median(baseline)
    print(
        f"archive for {len(servers)} servers ({len(files) - 1} profiles, {len(sample):,} bytes): "
        f"median {median:.2f} ms (zipping alone {base:.2f} ms, ratio {median / base:.2f}); "
        f"{median / BUDGET_MS:.0%} of the {BUDGET_MS:.0f} ms budget"
    )


if __name__ == "__main__":
    main()
