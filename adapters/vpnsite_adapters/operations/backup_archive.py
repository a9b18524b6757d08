"""The backup file: a gzipped tar of ``manifest.json`` (what made it and when: no personal data),
``secrets/`` (the data directory's files) and ``database/`` (the database's copy)."""

from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
import time
import zlib
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import IO, Any

FORMAT = "vpnsite-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SECRETS = "secrets"
DATABASE = "database"
SECRET_KEY = "secret.key"
_TOP = {MANIFEST, SECRETS, DATABASE}


class UnreadableBackup(Exception):
    """Not a vpnsite backup, damaged, or of a format this vpnsite does not know."""


def manifest(database: str, schema_version: int, tables: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    try:
        version = metadata.version("vpnsite")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "vpnsite_version": version,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "database": database,
        "schema_version": schema_version,
        "tables": {name: list(columns) for name, columns in tables.items()},
    }


def write_archive(
    out: IO[bytes], described: Mapping[str, Any], secrets: Mapping[str, bytes], database_dir: Path
) -> None:
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        _add(tar, MANIFEST, json.dumps(described, indent=2).encode())
        for name, content in sorted(secrets.items()):
            _add(tar, f"{SECRETS}/{name}", content)
        for path in sorted(database_dir.iterdir()):
            info = tar.gettarinfo(str(path), f"{DATABASE}/{path.name}")
            info.mode, info.uid, info.gid, info.uname, info.gname = 0o600, 0, 0, "", ""
            with path.open("rb") as file:
                tar.addfile(info, file)


def _add(tar: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(content), 0o600, int(time.time())
    tar.addfile(info, io.BytesIO(content))


def read_archive(path: Path, into: Path) -> dict[str, Any]:
    """Unpack a backup into the empty directory ``into``; its manifest, checked."""
    unreadable = UnreadableBackup(f"{path} is not a vpnsite backup, or it is damaged")
    try:
        # The whole stream first: gzip's checksum is only checked at its end.
        with gzip.open(path) as whole:
            while whole.read(1 << 20):
                pass
        with tarfile.open(path, mode="r:gz") as tar:
            for member in tar:
                _extract(tar, member, into, unreadable)
    except FileNotFoundError:
        raise UnreadableBackup(f"{path} does not exist") from None
    except (tarfile.TarError, EOFError, zlib.error, OSError):
        raise unreadable from None
    try:
        described = json.loads((into / MANIFEST).read_text())
    except (OSError, ValueError):
        raise unreadable from None
    if not isinstance(described, dict) or described.get("format") != FORMAT:
        raise unreadable
    if described.get("format_version") != FORMAT_VERSION:
        raise UnreadableBackup(
            f"{path} is in a backup format this vpnsite does not know: use a newer vpnsite"
        )
    tables = described.get("tables")
    if (
        described.get("database") not in ("sqlite", "postgresql")
        or not isinstance(described.get("schema_version"), int)
        or not isinstance(tables, dict)
        or not all(isinstance(columns, list) for columns in tables.values())
        or not (into / SECRETS / SECRET_KEY).is_file()
    ):
        raise unreadable
    return described


def _extract(tar: tarfile.TarFile, member: tarfile.TarInfo, into: Path, unreadable: Exception) -> None:
    """Only regular files and folders, only under the backup's own names: nothing a crafted file
    could place elsewhere."""
    name = PurePosixPath(member.name)
    if name.is_absolute() or ".." in name.parts or not name.parts or name.parts[0] not in _TOP:
        raise unreadable
    target = into.joinpath(*name.parts)
    if member.isdir():
        target.mkdir(parents=True, exist_ok=True, mode=0o700)
        return
    source = tar.extractfile(member) if member.isreg() else None
    if source is None:
        raise unreadable
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with source, os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
        while chunk := source.read(1 << 20):
            file.write(chunk)


def secret_files(data_dir: Path, leave_out: set[Path]) -> dict[str, Path]:
    """Every regular file of the data directory but ``leave_out`` and the developer's mailbox
    (``outbox/``), by its path relative to the directory."""
    found: dict[str, Path] = {}
    for folder, folders, files in os.walk(data_dir):
        if Path(folder) == data_dir and "outbox" in folders:
            folders.remove("outbox")
        for name in files:
            path = Path(folder) / name
            if path not in leave_out and path.is_file() and not path.is_symlink():
                found[path.relative_to(data_dir).as_posix()] = path
    return found
