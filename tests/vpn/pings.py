"""Pings through a tunnel five times a second with their times, and the hole a restart left in
them: used by the restart tests and by bench/restart_gap.py."""

from __future__ import annotations

import re
import subprocess

from attrs import frozen


class TimedPings:
    """Pings five times a second with their times (``ping -D``), to measure a hole to the tenth."""

    def __init__(self, namespace: str, address: str, seconds: int) -> None:
        self.process = subprocess.Popen(
            [
                "ip",
                "netns",
                "exec",
                namespace,
                "ping",
                "-D",
                "-i",
                "0.2",
                "-W",
                "1",
                "-w",
                str(seconds),
                address,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def answered(self) -> list[float]:
        output, _ = self.process.communicate(timeout=120)
        return [float(at) for at in re.findall(r"^\[(\d+\.\d+)\] \d+ bytes from", output, re.M)]


@frozen
class Hole:
    seconds: float  # the longest time without an answer
    back: float  # when the first answer after it came (time.time())


def hole_after(answered: list[float], since: float) -> Hole | None:
    """The longest time without an answer among the answers from ``since`` on, and when it ended;
    None when nothing was answered after ``since``."""
    after = [at for at in answered if at > since]
    if len(after) < 2:
        return None
    seconds, back = max((b - a, b) for a, b in zip(after, after[1:], strict=False))
    return Hole(seconds, back)
