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
