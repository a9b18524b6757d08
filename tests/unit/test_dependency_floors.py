"""The lowest releases pyproject.toml admits are past the known vulnerabilities of the libraries
that face the internet: an installer that picks the floor must not pick a hole."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# The newest release of each with a published advisory against it (waitress: GHSA-9298-4cf8-g4wj
# and GHSA-3f84-rpwh-47g6, fixed in 3.0.1; flask-cors: CVE-2024-6221, -1681, -6839, -6844, -6866,
# fixed only in 6.0).
VULNERABLE = {"waitress": "3.0.0", "flask-cors": "5.0.1"}


@pytest.mark.parametrize(("name", "release"), VULNERABLE.items())
def test_no_known_vulnerable_release_is_admitted(name: str, release: str) -> None:
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    requirement = next(Requirement(line) for line in declared if Requirement(line).name == name)
    assert not requirement.specifier.contains(release), f"{requirement} admits {name} {release}"
