"""docs/architecture.md stays true: every file, function, method and port it names exists, and
every port of the core is in its table."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Protocol

import vpnsite

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
NAMED = re.findall(r"`([^`\s]+)`", DOC)
WHERE = (ROOT / "adapters" / "vpnsite_adapters", ROOT / "src" / "vpnsite", ROOT / "src", ROOT)


def _file(named: str) -> Path | None:
    return next((base / named for base in WHERE if (base / named).exists()), None)


def test_every_file_and_function_it_names_exists() -> None:
    missing = []
    for named in NAMED:
        path, _, function = named.partition(":")
        if not path.endswith((".py", "/", ".md", ".toml")):
            continue
        found = _file(path)
        if found is None or (function and function not in _defined(found)):
            missing.append(named)
    assert missing == []


def _defined(path: Path) -> set[str]:
    """The functions and classes a file defines, at any depth, and its classes' methods as
    ``Class.method``."""
    defined = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        if isinstance(node, ast.ClassDef):
            defined |= {f"{node.name}.{item.name}" for item in node.body if isinstance(item, ast.FunctionDef)}
    return defined


def test_every_port_of_the_core_is_in_the_table_and_every_port_in_the_table_exists() -> None:
    ports = set()
    for module in pkgutil.iter_modules(vpnsite.__path__):
        loaded = importlib.import_module(f"vpnsite.{module.name}")
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and value.__module__ == loaded.__name__
                and Protocol in getattr(value, "__mro__", ())[1:]
            ):
                ports.add(f"{module.name}.{name}")
    first_column = [row.split("|")[1] for row in DOC.splitlines() if row.startswith("| `")]
    in_table = {named for cell in first_column for named in re.findall(r"`([a-z_]+\.[A-Z]\w+)`", cell)}
    assert in_table == ports
