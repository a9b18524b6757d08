"""The adapters' rooms (docs/architecture.md): the root holds only the composition root, the
settings and the services handle; every other module lives in a folder that says what it is, and
no folder grows into a drawer of more than 20 modules."""

from __future__ import annotations

from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters" / "vpnsite_adapters"
ROOT_MODULES = {"__init__.py", "bootstrap.py", "settings.py", "services.py"}
MOST_MODULES = 20
# Waiting for issue 42's split of http/ by job (api/, pages/, node/).
GROWN = {"http": 38}


def test_the_root_holds_only_the_composition_root_the_settings_and_the_services_handle() -> None:
    assert {path.name for path in ADAPTERS.glob("*.py")} == ROOT_MODULES


def test_no_room_is_a_drawer() -> None:
    counts = {
        folder.relative_to(ADAPTERS).as_posix(): sum(1 for path in folder.glob("*.py") if path.name != "__init__.py")
        for folder in ADAPTERS.rglob("*")
        if folder.is_dir() and (folder / "__init__.py").is_file()
    }
    drawers = {room: count for room, count in counts.items() if count > GROWN.get(room, MOST_MODULES)}
    assert drawers == {}
