"""The wheel carries every file the packages read at run time: a data file beside the code that
``[tool.setuptools.package-data]`` does not name works in a checkout and breaks in every install."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def shipped(path: Path) -> bool:
    for package, folder in CONFIG["package-dir"].items():
        base = ROOT / folder
        if not path.is_relative_to(base):
            continue
        relative = path.relative_to(base)
        dotted = ".".join((package, *relative.parent.parts))
        for owner, patterns in CONFIG["package-data"].items():
            if dotted != owner and not dotted.startswith(owner + "."):
                continue
            inner = Path(*dotted.split(".")[len(owner.split(".")) :], relative.name)
            if any(fnmatch(str(inner), pattern.replace("**/", "*")) for pattern in patterns):
                return True
    return False


def test_every_data_file_beside_the_code_is_in_the_wheel() -> None:
    data = [
        path
        for folder in CONFIG["package-dir"].values()
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix not in {".py", ".pyc"}
        and "__pycache__" not in path.parts
        and "site" not in path.relative_to(ROOT / folder).parts[:2]
    ]
    assert data, "no data files found: the walk is wrong"
    missing = [str(path.relative_to(ROOT)) for path in data if not shipped(path)]
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"
