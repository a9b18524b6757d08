"""The e-mails, in the recipient's language (its catalogue: ``catalogue.py``), as plain text and
simple HTML. The licence e-mail shows the code in groups of four as the site does, says how to set
up a phone from the licence page (one tap, or its QR code), offers a way out to whoever did not
sign up (a link that erases the address, after a confirmation), and ends with the operator's
identity, as the site's footer gives it."""

from __future__ import annotations

from datetime import date
from html import escape

from vpnsite.codes import code_groups
from vpnsite.mail import Message
from vpnsite_adapters.operator_files.identity import DEMO_OPERATOR, Operator
from vpnsite_adapters.texts.catalogue import catalogue
from vpnsite_adapters.texts.formatting import format_date, plural
from vpnsite_adapters.texts.languages import HTML_LANG


def _label(text: str, language: str) -> str:
    """``text`` followed by a colon as the language writes it (French puts a no-break space before it)."""
    return text + catalogue(language).colon


def _page(language: str, body: str) -> str:
    return (
        f'<!doctype html><html lang="{escape(HTML_LANG.get(language, language))}">'
        f'<body style="font-family:sans-serif;line-height:1.5">{body}</body></html>'
    )


def licence_email(
    to: str,
    code: str,
    ends: date,
    archive_url: str,
    licence_url: str,
    erase_url: str,
    language: str,
    operator: Operator | None = None,
    setup_url: str = "",
    support_url: str = "",
) -> Message:
    """The licence and its code; without an operator (the demo, tests) the fictitious demo one is
    named, as on the site. Anyone may have typed the address: ``erase_url`` erases it (after a
    confirmation). ``setup_url``: the personal link that opens the licence with its servers on a
    phone, nothing to type (signed as the archive's, for as long); ``support_url``: the support
    page."""
    t = catalogue(language).licence
    steps = t.steps
    until = t.until.format(date=format_date(ends, language))
    grouped = " ".join(code_groups(code))
    who = operator or DEMO_OPERATOR
    identity = t.operator.format(name=who.name, number=who.number, address=who.address)
    text = "\n".join(
        [
            f"{t.intro}",
            "",
            f"{_label(t.code, language)} {grouped}",
            until,
            "",
            _label(t.archive, language),
            archive_url,
            "",
            _label(t.steps_title, language),
            *(f"{number}. {step}" for number, step in enumerate(steps, 1)),
            "",
            _label(t.phone_title, language),
            _label(t.phone_open, language),
            setup_url or licence_url,
            t.phone_tap,
            t.phone_qr,
            "",
            f"{_label(t.check, language)} {licence_url}",
            *([f"{_label(t.help, language)} {support_url}"] if support_url else []),
            "",
            f"{t.not_you} {_label(t.erase, language)}",
            erase_url,
            t.erase_note,
            "",
            identity,
        ]
    )
    items = "".join(f"<li>{escape(step)}</li>" for step in steps)
    help_line = f'<p><a href="{escape(support_url)}">{escape(t.help)}</a></p>' if support_url else ""
    html = _page(
        language,
        f"<p>{escape(t.intro)}</p>"
        f'<p>{escape(_label(t.code, language))}<br><strong style="font-size:1.3em;letter-spacing:.05em">'
        f"{escape(grouped)}</strong></p>"
        f"<p>{escape(until)}</p>"
        f'<p><a href="{escape(archive_url)}">{escape(t.archive)}</a></p>'
        f"<h3>{escape(t.steps_title)}</h3><ol>{items}</ol>"
        f"<h3>{escape(t.phone_title)}</h3>"
        f'<p><a href="{escape(setup_url or licence_url)}">{escape(t.phone_open)}</a>.</p>'
        f"<p>{escape(t.phone_tap)} {escape(t.phone_qr)}</p>"
        f'<p><a href="{escape(licence_url)}">{escape(t.check)}</a></p>'
        f"{help_line}"
        f'<p>{escape(t.not_you)} <a href="{escape(erase_url)}">{escape(t.erase)}</a><br>'
        f'<span style="font-size:.85em;color:#555">{escape(t.erase_note)}</span></p>'
        f'<hr><p style="font-size:.85em;color:#555">{escape(identity)}</p>',
    )
    return Message(to=to, subject=t.subject, text=text, html=html)


def renewal_reminder(to: str, ends: date, days: int, renew_url: str, language: str) -> Message:
    texts = catalogue(language)
    t = texts.reminder
    when = format_date(ends, language)
    term = plural(days, texts.days, language)
    body = t.body.format(date=when, days=term)
    text = f"{body}\n\n{renew_url}\n\n{t.same}\n"
    html = _page(
        language,
        f"<p>{escape(body)}</p>"
        f'<p><a href="{escape(renew_url)}" style="font-weight:bold">'
        f"{escape(t.button.format(days=term))}</a></p>"
        f"<p>{escape(t.same)}</p>",
    )
    return Message(to=to, subject=t.subject.format(date=when), text=text, html=html)


def ticket_acknowledgement(to: str, number: str, language: str, support_address: str) -> Message:
    """That a ticket was opened, its number and how to add to it; nothing the sender wrote, since
    anyone may have typed this address. Replies go to the support team."""
    t = catalogue(language).ticket
    paragraphs = [
        t.body.format(number=number),
        t.add.format(number=number),
        t.again,
        t.not_you,
    ]
    text = "\n\n".join(paragraphs) + "\n"
    html = _page(language, "".join(f"<p>{escape(paragraph)}</p>" for paragraph in paragraphs))
    return Message(
        to=to, subject=t.subject.format(number=number), text=text, html=html, reply_to=support_address
    )


def ticket_for_support(
    support_address: str, number: str, sender: str, message: str, language: str, code_given: bool
) -> Message:
    """The ticket as the support team gets it: answering it replies to the visitor."""
    text = (
        f"Ticket {number}\nFrom: {sender}\nLanguage: {language}\n"
        f"Activation code given: {'yes' if code_given else 'no'}\n\n"
        f"{message}\n"
    )
    return Message(to=support_address, subject=f"[{number}] Support request", text=text, reply_to=sender)
