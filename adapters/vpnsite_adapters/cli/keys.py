"""``vpnsite keys list|rotate|use|retire``: the ring of master keys (see "Secret rotation" in the
README). No secret is ever printed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from vpnsite.key_ring import KeyRing, KeyRingError, KeyUsage, retire_refusal
from vpnsite_adapters.bootstrap import Console, rotate_ring
from vpnsite_adapters.cli.tables import print_table
from vpnsite_adapters.protection.keyring_file import KeyRingFileError, load_ring, ring_path, save_ring
from vpnsite_adapters.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = commands.add_parser("keys", help="the master keys: list, rotate, retire")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    listing = key_commands.add_parser("list", help="the keys, which is current, what each still holds")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(handler=run_list, store="read")
    rotate = key_commands.add_parser("rotate", help="add a new random key and make it current")
    rotate.add_argument(
        "--stage", action="store_true", help="add it verify-only; `keys use ID` makes it current later"
    )
    rotate.set_defaults(handler=run_rotate, store="none")
    use = key_commands.add_parser("use", help="make a key of the ring current")
    use.add_argument("key_id", type=int, metavar="ID")
    use.set_defaults(handler=run_use, store="none")
    retire = key_commands.add_parser("retire", help="drop a key once nothing needs it")
    retire.add_argument("key_id", type=int, metavar="ID")
    retire.add_argument("--force", action="store_true", help="drop it even if codes or tokens still need it")
    retire.set_defaults(handler=run_retire, store="read")


def run_list(console: Console, args: argparse.Namespace) -> int:
    ring = _load(console.settings)
    if ring is None:
        return 2
    usage = console.key_usage()
    ids = sorted({*ring.ids(), *ring.retired})
    rows = []
    for key_id in ids:
        key = ring.find(key_id)
        held = usage.get(key_id, KeyUsage())
        rows.append(
            {
                "id": key_id,
                "state": _state(ring, key_id),
                "created": key.created.isoformat(timespec="seconds") if key else None,
                "codes": held.codes,
                "renewal_links": held.renewal_links,
                "server_tokens": held.server_tokens,
            }
        )
    print_table(rows, ["id", "state", "created", "codes", "renewal_links", "server_tokens"], args.json)
    return 0


def run_rotate(settings: Settings, args: argparse.Namespace) -> int:
    ring = _load(settings)
    if ring is None:
        return 2
    ring = rotate_ring(ring, args.stage)
    added = max(key.id for key in ring.rotated)
    save_ring(ring_path(settings.data_dir), ring)
    if args.stage:
        print(
            f"added key {added}, verify-only: copy the ring to every process, then `vpnsite keys use {added}`"
        )
    else:
        print(f"added key {added}; it is current")
    return 0


def run_use(settings: Settings, args: argparse.Namespace) -> int:
    return _change(settings, lambda ring: ring.use(args.key_id), f"key {args.key_id} is current")


def run_retire(console: Console, args: argparse.Namespace) -> int:
    ring = _load(console.settings)
    if ring is None:
        return 2
    try:
        retired = ring.retire(args.key_id)
    except KeyRingError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    usage = console.key_usage().get(args.key_id, KeyUsage())
    refusal = retire_refusal(args.key_id, usage, args.force)
    if refusal is not None:
        print(f"vpnsite: {refusal}", file=sys.stderr)
        return 1
    save_ring(ring_path(console.settings.data_dir), retired)
    print(f"retired key {args.key_id}: {usage.codes} licence(s) lost their code; it held {usage.describe()}")
    return 0


def _change(settings: Settings, change: Callable[[KeyRing], KeyRing], done: str) -> int:
    ring = _load(settings)
    if ring is None:
        return 2
    try:
        changed = change(ring)
    except KeyRingError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return 2
    save_ring(ring_path(settings.data_dir), changed)
    print(done)
    return 0


def _load(settings: Settings) -> KeyRing | None:
    try:
        return load_ring(ring_path(settings.data_dir))
    except KeyRingFileError as error:
        print(f"vpnsite: {error}", file=sys.stderr)
        return None


def _state(ring: KeyRing, key_id: int) -> str:
    if key_id in ring.retired:
        return "retired"
    if key_id == ring.current:
        return "current"
    key = ring.find(key_id)
    if key is not None and key.staged:
        return "staged"
    return "verifies"
