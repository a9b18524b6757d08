"""The lowest releases pyproject.toml and the website's package.json admit are past the known
vulnerabilities of the libraries that face the internet: an installer that picks the floor must not
pick a hole."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]

# The first release of each past every advisory published against it (looked up 2026-11-27).
FIXED = {
    # GHSA-9298-4cf8-g4wj and GHSA-3f84-rpwh-47g6.
    "waitress": "3.0.1",
    # CVE-2024-6221, -1681, -6839, -6844, -6866.
    "flask-cors": "6.0.0",
    # GHSA-68rp-wp8r-4726 (3.1.3: Vary: Cookie), GHSA-4grg-w6v8-c28g (3.1.1).
    "flask": "3.1.3",
    # GHSA-29vq-49wr-vm6x (3.1.6), GHSA-87hc-h4r5-73f7 (3.1.5), GHSA-q34m-jh98-gwm2 and
    # GHSA-f9vj-2wh5-fj8j (3.0.6). Flask's own floor admits older ones: named for its floor.
    "werkzeug": "3.1.6",
    # GHSA-g6cj-pr64-35w5 (50.0.0), GHSA-537c-gmf6-5ccf (48.0.1, the OpenSSL in its wheels),
    # GHSA-r6ph-v2qm-q3c2 (46.0.5).
    "cryptography": "50.0.0",
}
# GHSA-36hm-qxxp-pg3m, JSON VNode injection: fixed in 10.26.10, 10.27.3 and 10.28.2.
PREACT_FIXED = "10.28.2"


def floor(specifiers: list[tuple[str, str]]) -> Version | None:
    floors = [Version(version) for operator, version in specifiers if operator in (">=", "==", "~=")]
    return max(floors, default=None)


@pytest.mark.parametrize(("name", "fixed"), FIXED.items())
def test_no_known_vulnerable_release_is_admitted(name: str, fixed: str) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    requirement = next((Requirement(line) for line in declared if Requirement(line).name == name), None)
    assert requirement is not None, f"{name} is not named in pyproject.toml, so its floor is nobody's"
    lowest = floor([(spec.operator, spec.version) for spec in requirement.specifier])
    assert lowest is not None and lowest >= Version(fixed), f"{requirement} admits {name} below {fixed}"


def test_the_website_admits_no_vulnerable_preact() -> None:
    declared = json.loads((ROOT / "ui" / "package.json").read_text())["dependencies"]["preact"]
    locked = json.loads((ROOT / "ui" / "package-lock.json").read_text())["packages"]
    assert declared.startswith("^") and Version(declared[1:]) >= Version(PREACT_FIXED), declared
    assert locked[""]["dependencies"]["preact"] == declared, "the lock file is built from package.json"
    assert Version(locked["node_modules/preact"]["version"]) >= Version(PREACT_FIXED)
