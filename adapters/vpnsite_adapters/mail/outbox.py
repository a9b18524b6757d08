"""The default mailer: each message becomes an .eml file in a folder, so nothing is sent by
accident until an SMTP server is configured."""

from __future__ import annotations

import contextlib
import os
import time
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import getaddresses
from pathlib import Path

from vpnsite.emails import mailbox_key, normalise_email
from vpnsite.mail import MailFailed, Message
from vpnsite.retention import RetentionPlan, deletes_mail
from vpnsite_adapters.mail.compose import to_mime


class OutboxMailer:
    def __init__(self, folder: Path, sender: str) -> None:
        self.folder = folder
        self.sender = sender
        self._made = False

    def send(self, message: Message) -> None:
        data = to_mime(message, self.sender)
        try:
            if not self._made:
                self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                self._made = True
            path = os.path.join(self.folder, f"{time.time_ns()}-{os.getpid()}.eml")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as file:
                file.write(data)
        except OSError as error:
            # The folder may have been taken away since: made again on the next message.
            self._made = False
            raise MailFailed(f"outbox not writable: {error.strerror}") from None


def erase_from_outbox(folder: Path, address: str) -> int:
    """Delete the outbox's messages about ``address`` (to it, or with replies going to it, as a
    ticket's copy to support has): erasure reaches the files mail was written to instead of sent.
    How many were deleted."""
    wanted = mailbox_key(normalise_email(address))
    deleted = 0
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return 0
    for name in names:
        path = folder / name
        if not name.endswith(".eml") or path.is_symlink():
            continue
        with path.open("rb") as file:
            head = BytesHeaderParser(policy=default).parse(file)
        named = [str(head.get(field, "")) for field in ("To", "Reply-To")]
        if any(mailbox_key(found) == wanted for _, found in getaddresses(named) if found):
            path.unlink()
            deleted += 1
    return deleted


def written_at(path: Path) -> datetime:
    """When the outbox wrote a message: its name begins with the time in nanoseconds."""
    stamp = path.name.split("-", 1)[0]
    if stamp.isdigit():
        return datetime.fromtimestamp(int(stamp) / 1e9, UTC)
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


class OutboxFolder:
    """The erasures' port (``erasures.OutboxCopies``) on the outbox folder, and its retention
    (``retention.RetainedFiles``): a message written there was sent, so it goes when the queue's
    row for it would (``retention.deletes_mail``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def erase(self, email: str) -> int:
        return erase_from_outbox(self.folder, email)

    def apply_retention(self, plan: RetentionPlan) -> int:
        deleted = 0
        for path in sorted(self.folder.glob("*.eml")):
            with contextlib.suppress(FileNotFoundError):
                if not path.is_symlink() and deletes_mail(plan, written_at(path), waiting=False):
                    path.unlink()
                    deleted += 1
        return deleted
