"""The adapters' rooms (docs/architecture.md): the root holds only the composition root, the
settings and the services handle; every other module lives in a folder that says what it is, and
no folder grows into a drawer of more than 20 modules."""

from __future__ import annotations

import tomllib
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters" / "vpnsite_adapters"
ROOT_MODULES = {"__init__.py", "bootstrap.py", "settings.py", "services.py"}
MOST_MODULES = 20


def test_the_root_holds_only_the_composition_root_the_settings_and_the_services_handle() -> None:
    assert {path.name for path in ADAPTERS.glob("*.py")} == ROOT_MODULES


def test_no_room_is_a_drawer() -> None:
    counts = {
        folder.relative_to(ADAPTERS).as_posix(): sum(
            1 for path in folder.glob("*.py") if path.name != "__init__.py"
        )
        for folder in ADAPTERS.rglob("*")
        if folder.is_dir() and (folder / "__init__.py").is_file()
    }
    drawers = {room: count for room, count in counts.items() if count > MOST_MODULES}
    assert drawers == {}


def test_every_room_ships_in_the_wheel() -> None:
    """pyproject.toml lists the packages one by one: a room left out of the list works from a
    checkout and is missing from the installed service."""
    listed = set(
        tomllib.loads((ADAPTERS.parents[1] / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    rooms = {
        ".".join(("vpnsite_adapters", *folder.relative_to(ADAPTERS).parts))
        for folder in [ADAPTERS, *ADAPTERS.rglob("*")]
        if (folder / "__init__.py").is_file()
    }
    assert rooms - listed == set()


def test_the_cli_asks_the_console_for_what_it_needs_never_for_the_store() -> None:
    """The composition root builds every use case and reading a command asks for (``Console``);
    the store stays inside it, so no command can write past a rule the core keeps."""
    from vpnsite_adapters.bootstrap import Console

    assert not hasattr(Console, "store")
    reaching = [
        path.name
        for path in (ADAPTERS / "cli").glob("*.py")
        if "._store" in path.read_text(encoding="utf-8") or ".store." in path.read_text(encoding="utf-8")
    ]
    assert reaching == []
