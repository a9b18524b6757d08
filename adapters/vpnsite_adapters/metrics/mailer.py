"""A mailer that counts the messages its mailer did not take, for the operator's metrics."""

from __future__ import annotations

from prometheus_client import Counter

from vpnsite.mail import Mailer, MailFailed, Message


class CountedMailer:
    def __init__(self, mailer: Mailer, failures: Counter) -> None:
        self.mailer = mailer
        self.failures = failures

    def send(self, message: Message) -> None:
        try:
            self.mailer.send(message)
        except MailFailed:
            self.failures.inc()
            raise
