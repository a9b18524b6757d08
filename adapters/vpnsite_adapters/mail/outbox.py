"""The default mailer: each message becomes an .eml file in a folder, so nothing is sent by
accident until an SMTP server is configured."""

from __future__ import annotations

import os
import time
from pathlib import Path

from vpnsite.mail import MailFailed, Message
from vpnsite_adapters.mail.compose import to_mime


class OutboxMailer:
    def __init__(self, folder: Path, sender: str) -> None:
        self.folder = folder
        self.sender = sender

    def send(self, message: Message) -> None:
        data = to_mime(message, self.sender)
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            name = f"{time.time_ns()}-{os.getpid()}.eml"
            path = self.folder / name
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as file:
                file.write(data)
        except OSError as error:
            raise MailFailed(f"outbox not writable: {error.strerror}") from None
