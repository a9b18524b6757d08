"""`vpnsite` whose clock a test moves: the real command (`python moved_clock.py serve …`, started
by :func:`tests.support.serve.serve` with ``launcher=LAUNCHER``), whose clock port reads the time
as the system gives it plus the seconds the test last wrote to the file ``MOVED_CLOCK_FILE`` names
(:func:`move`). Waiting out a minute's window then takes no minute, in a process the test did not
otherwise touch."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

LAUNCHER = (str(Path(__file__).resolve()),)
VARIABLE = "MOVED_CLOCK_FILE"


def move(file: Path, seconds: float) -> None:
    """Move the clocks of the processes reading ``file`` ``seconds`` further on."""
    file.write_text(str(offset(file) + seconds))


def offset(file: Path) -> float:
    try:
        return float(file.read_text() or 0)
    except FileNotFoundError:
        return 0.0


def _now(_clock: object) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=offset(Path(os.environ[VARIABLE])))


if __name__ == "__main__":
    from vpnsite_adapters.cli.main import main
    from vpnsite_adapters.runtime import clock_and_random

    clock_and_random.SystemClock.now = _now  # type: ignore[method-assign, assignment]
    sys.exit(main())
