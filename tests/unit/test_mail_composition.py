"""The e-mail bytes `mail/compose.py` writes: whatever the message holds, the standard library's
parser reads back the same recipient, sender, subject and bodies, with no defect, no line over the
limits and no header an input could add."""

from __future__ import annotations

import email
import re
from email.header import decode_header, make_header
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default
from email.utils import parseaddr

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from vpnsite.mail import Message
from vpnsite_adapters.mail.compose import addr_spec, envelope_sender, to_mime

ATEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~"
SENDER = "vpnsite <no-reply@localhost>"

atoms = st.text(alphabet=ATEXT, min_size=1, max_size=12)
local_parts = st.lists(atoms, min_size=1, max_size=3).map(".".join).filter(lambda local: "=?" not in local)
labels = st.from_regex(r"[a-zA-Z0-9]([a-zA-Z0-9-]{0,8}[a-zA-Z0-9])?", fullmatch=True)
domains = st.lists(labels, min_size=1, max_size=3).map(".".join)
addresses = st.builds("{}@{}".format, local_parts, domains)

# Text with what breaks naive mail code: every kind of line break, lines a transport would touch,
# long lines, things that look like MIME or header syntax, and any other character.
_PIECES = st.sampled_from(
    ["\r\n", "\n", "\r", "\n\r", "\r\r\n", ".", "\n.\n", "\nFrom ", "From ", "--", "=", " ", "\t"]
    + ["=?utf-8?q?x?=", "\u2028", "\x85", "\x00", "\x7f", "Bcc: x@evil.example", "ü", "Привет", "🔑"]
)
_LONG_LINES = st.text(alphabet="ab ", min_size=70, max_size=300)
_NEAR_THE_LIMIT = st.integers(min_value=70, max_value=80).map("x".__mul__)  # lines are at most 76
texts = st.lists(st.one_of(st.text(), _PIECES, _LONG_LINES, _NEAR_THE_LIMIT), max_size=12).map("".join)
long_texts = st.text(min_size=1000, max_size=5000)

# What a reader gets: each CRLF, and every other control character or Unicode line or paragraph
# separator, becomes one space; a subject never spans lines.
_NOT_IN_A_SUBJECT = re.compile(r"\r\n|[\x00-\x1f\x7f-\x9f\u2028\u2029]")

display_names = st.one_of(
    st.lists(atoms, min_size=1, max_size=4).map(" ".join),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=90),
    st.text(st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"]), min_size=1, max_size=60),
    st.sampled_from(["VPN", "Служба VPN", "VPN, Inc.", 'The "VPN"', "Ünïcödé Sender", "=?utf-8?q?x?="]),
)


def sender_of(name: str, address: str) -> str:
    """How an operator would write the sender: the name as it is if it is plain words, else
    quoted."""
    if re.fullmatch(r"[A-Za-z0-9]+( [A-Za-z0-9]+)*", name):
        return f"{name} <{address}>"
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + f'" <{address}>'


def parse(data: bytes) -> EmailMessage:
    """The message as a receiver's parser reads it, checked to have no defect anywhere."""
    message = email.message_from_bytes(data, policy=default)
    assert isinstance(message, EmailMessage)
    for part in message.walk():
        assert part.defects == []
        for name, value in part.items():
            assert value.defects == (), name
    return message


def canonical(text: str) -> str:
    """A text body as it travels: every line break a CRLF. ``get_content()`` returns exactly this
    (no newline added or taken away); ``.replace("\\r\\n", "\\n")`` gives the usual str form."""
    return re.sub(r"\r\n|\r|\n", "\r\n", text)


def lines_of(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """(header lines, body lines) of the top-level message."""
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n"), body.split(b"\r\n")


def body(message: EmailMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None and part.get_content_type() == f"text/{subtype}"
    assert part.get_content_charset() == "utf-8"
    return str(part.get_content())


def encodings_of(data: bytes) -> list[str]:
    """The Content-Transfer-Encoding of each text part."""
    return [
        str(part["Content-Transfer-Encoding"])
        for part in parse(data).walk()
        if part.get_content_maintype() == "text"
    ]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    to=addresses,
    subject=texts,
    text=texts,
    html=st.none() | texts,
    reply_to=st.none() | addresses,
    name=st.none() | display_names,
    sender_address=addresses | st.just("no-reply@localhost"),
)
@example(
    to="olga@example.org",
    subject="Ваша бесплатная VPN-лицензия и код активации",
    text="Код активации: ABCD\n\n.\nFrom here\n",
    html="<p>x</p>",
    reply_to=None,
    name="VPN",
    sender_address="hello@vpn.test",
)
def test_what_is_sent_reads_back_the_same_with_no_defect(
    to: str,
    subject: str,
    text: str,
    html: str | None,
    reply_to: str | None,
    name: str | None,
    sender_address: str,
) -> None:
    sender = sender_of(name, sender_address) if name is not None else sender_address
    data = to_mime(Message(to=to, subject=subject, text=text, html=html, reply_to=reply_to), sender)
    message = parse(data)

    assert data.isascii()
    assert b"\r" not in data.replace(b"\r\n", b"") and b"\n" not in data.replace(b"\r\n", b"")
    head, rest = lines_of(data)
    assert all(len(line) <= 78 for line in head), [line for line in head if len(line) > 78]
    assert all(len(line) <= 76 for line in rest), "quoted-printable and base64 lines"
    assert set(encodings_of(data)) <= {"quoted-printable", "base64"}
    assert [header for header in message if header.lower() != "reply-to"] == [
        "From",
        "To",
        "Subject",
        "Date",
        "Message-ID",
        "MIME-Version",
        "Content-Type",
        *([] if html else ["Content-Transfer-Encoding"]),
    ]

    assert message["To"] == to and [a.addr_spec for a in message["To"].addresses] == [to]
    if reply_to:
        assert message["Reply-To"] == reply_to
        assert [a.addr_spec for a in message["Reply-To"].addresses] == [reply_to]
    else:
        assert "Reply-To" not in message
    [mailbox] = message["From"].addresses
    display_name, address = parseaddr(sender)
    assert mailbox.addr_spec == address == sender_address == envelope_sender(sender)
    raw_from = data.split(b"\r\nTo:")[0].decode()[len("From: ") :].replace("\r\n", "")
    # RFC 2047 decoding of the header as written...
    assert str(make_header(decode_header(raw_from))).endswith(f"<{address}>" if display_name else address)
    if display_name and raw_from.count("=?utf-8?B?") <= 1:
        # ...and the standard library's reading of it, which is the same when the name is one
        # encoded-word: it keeps the space between two (RFC 2047 §6.2 says to drop it).
        assert mailbox.display_name == display_name
    assert message["Subject"] == _NOT_IN_A_SUBJECT.sub(" ", subject)
    assert message["Message-ID"].endswith(f"@{sender_address.rpartition('@')[2]}>")
    assert message["Date"].datetime is not None
    assert message["MIME-Version"] == "1.0"

    assert body(message, "plain") == canonical(text)
    if html:
        assert message.get_content_type() == "multipart/alternative"
        assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]
        assert body(message, "html") == canonical(html)
    else:
        assert message.get_content_type() == "text/plain" and not message.is_multipart()


@settings(max_examples=30)
@given(text=long_texts, html=long_texts, subject=st.text(min_size=500, max_size=3000))
def test_long_bodies_and_subjects_are_folded_into_short_lines(text: str, html: str, subject: str) -> None:
    data = to_mime(Message(to="a@example.org", subject=subject, text=text, html=html), SENDER)
    message = parse(data)
    head, rest = lines_of(data)
    assert all(len(line) <= 78 for line in head)
    assert all(len(line) <= 76 for line in rest)
    assert message["Subject"] == _NOT_IN_A_SUBJECT.sub(" ", subject)
    assert body(message, "plain") == canonical(text) and body(message, "html") == canonical(html)


@pytest.mark.parametrize(
    "subject, read_back",
    [
        ("Hello\r\nBcc: victim@example.org", "Hello Bcc: victim@example.org"),
        ("Hello\nX-Injected: yes\n\nbody", "Hello X-Injected: yes  body"),
        ("a\r\rb\n\rc", "a  b  c"),
        ("tab\there\x00\x7f", "tab here  "),
        ("\u2028line\u2029", " line "),
        ("", ""),
        ("  spaced  out  ", "  spaced  out  "),
        ("=?utf-8?q?not_an_encoded_word?=", "=?utf-8?q?not_an_encoded_word?="),
    ],
)
def test_a_line_break_in_a_subject_is_a_space_and_starts_no_header(subject: str, read_back: str) -> None:
    data = to_mime(Message(to="a@example.org", subject=subject, text="x"), SENDER)
    message = parse(data)
    assert message["Subject"] == read_back
    assert message.keys() == [
        "From",
        "To",
        "Subject",
        "Date",
        "Message-ID",
        "MIME-Version",
        "Content-Type",
        "Content-Transfer-Encoding",
    ]


def test_an_ascii_subject_is_written_as_it_is_and_folded_at_spaces() -> None:
    subject = "Your free VPN licence and activation code " * 4
    data = to_mime(Message(to="a@example.org", subject=subject.strip(), text="x"), SENDER)
    head, _ = lines_of(data)
    start = head.index(b"Subject: Your free VPN licence and activation code Your free VPN licence and")
    assert head[start + 1 : start + 3] == [
        b" activation code Your free VPN licence and activation code Your free VPN",
        b" licence and activation code",
    ]
    assert b"=?" not in data and all(len(line) <= 78 for line in head)
    assert parse(data)["Subject"] == subject.strip()


_INJECTIONS = st.sampled_from(
    ["\r\n", "\n", "\r", ",", " ", "\t", "<", ">", "\x00", "\x7f", "\u2028", "\u00a0", "(", ")", '"', ";"]
    + [":", "\r\nBcc: x@evil.example", ", x@evil.example", "\\", "[", "]", "@", "..", "=?"]
)


@given(addresses, _INJECTIONS, st.data())
def test_an_address_with_anything_but_an_addr_spec_inside_is_refused(
    address: str, bad: str, data: st.DataObject
) -> None:
    position = data.draw(st.integers(min_value=0, max_value=len(address)))
    broken = address[:position] + bad + address[position:]
    for message in (
        Message(to=broken, subject="s", text="t"),
        Message(to="a@example.org", subject="s", text="t", reply_to=broken),
    ):
        with pytest.raises(ValueError) as refused:
            to_mime(message, SENDER)
        assert broken not in str(refused.value), "the reason is logged: it must not hold the address"


@settings(max_examples=500)
@given(st.text(max_size=80) | addresses | st.builds("{}@{}".format, st.text(max_size=20), st.text()))
def test_whatever_is_accepted_as_an_address_the_standard_library_takes_as_that_one_address(raw: str) -> None:
    try:
        wire = addr_spec(raw)
    except ValueError:
        return
    assert Address(addr_spec=wire).addr_spec == wire
    assert wire.isascii() and len(wire) <= 254 and wire.count("@") == 1
    if raw.isascii():
        assert wire == raw
    data = to_mime(Message(to=raw, subject="s", text="t", reply_to=raw), SENDER)
    parsed = parse(data)
    assert parsed["To"] == parsed["Reply-To"] == wire


@pytest.mark.parametrize(
    "address",
    [
        "a@b.org, c@d.org",
        "a@b.org\r\nBcc: c@d.org",
        "Name <a@b.org>",
        "<a@b.org>",
        "a(comment)@b.org",
        '"quoted local"@b.org',
        "a@[127.0.0.1]",
        "group: a@b.org;",
        "jörg@example.org",  # the standard library refuses a non-ASCII local part too
        "a@straße.de",  # IDNA 2003 would send it to strasse.de, someone else's domain
        "=?utf-8?q?a?=@b.org",
        "a@b.org ",
        "",
        "@b.org",
        "a@",
        "a@-b.org",
        "a@b..org",
        "x" * 65 + "@b.org",
        "a@" + "b" * 250 + ".org",
    ],
)
def test_what_is_refused_as_an_address(address: str) -> None:
    with pytest.raises(ValueError):
        addr_spec(address)
    with pytest.raises(ValueError):
        to_mime(Message(to=address, subject="s", text="t"), SENDER)
    if address:  # an empty Reply-To is no Reply-To
        with pytest.raises(ValueError):
            to_mime(Message(to="a@b.org", subject="s", text="t", reply_to=address), SENDER)


@pytest.mark.parametrize(
    "address, wire",
    [
        ("a@bücher.de", "a@xn--bcher-kva.de"),
        ("user@пример.рф", "user@xn--e1afmkfd.xn--p1ai"),
        ("a@BÜCHER.DE", "a@xn--bcher-kva.DE"),  # ASCII labels keep their case, as in DNS
        ("x@xn--bcher-kva.de", "x@xn--bcher-kva.de"),
        ("o'neil+vpn@Example.ORG", "o'neil+vpn@Example.ORG"),
    ],
)
def test_an_internationalised_domain_is_sent_in_its_ascii_form(address: str, wire: str) -> None:
    assert addr_spec(address) == wire
    domain, wire_domain = address.split("@")[1], wire.split("@")[1]
    parsed = parse(to_mime(Message(to=address, subject="s", text="t"), f"VPN <no-reply@{domain}>"))
    assert parsed["To"] == wire and parsed["From"].addresses[0].addr_spec == f"no-reply@{wire_domain}"
    assert envelope_sender(f"VPN <no-reply@{domain}>") == f"no-reply@{wire_domain}"


def test_a_long_address_stays_whole_on_a_line_of_its_own() -> None:
    address = "a" * 64 + "@" + ".".join(["b" * 60] * 3) + ".org"
    data = to_mime(Message(to=address, subject="s", text="t", reply_to=address), SENDER)
    head, _ = lines_of(data)
    too_long = [line for line in head if len(line) > 78]
    assert too_long == [b"To: " + address.encode(), b"Reply-To: " + address.encode()]
    assert parse(data)["To"] == address
    middling = "a" * 30 + "@" + "b" * 40 + ".org"  # too long beside "Reply-To: ", short enough alone
    head, _ = lines_of(to_mime(Message(to=middling, subject="s", text="t", reply_to=middling), SENDER))
    assert all(len(line) <= 78 for line in head) and b" " + middling.encode() in head


@pytest.mark.parametrize(
    "sender, name, address",
    [
        ("vpnsite <no-reply@localhost>", "vpnsite", "no-reply@localhost"),
        ("no-reply@localhost", "", "no-reply@localhost"),
        ("VPN <hello@vpn.test>", "VPN", "hello@vpn.test"),
        ('"VPN, Inc." <hello@vpn.test>', "VPN, Inc.", "hello@vpn.test"),
        ("Служба VPN <hello@vpn.test>", "Служба VPN", "hello@vpn.test"),
        ("hello@vpn.test (VPN)", "VPN", "hello@vpn.test"),
    ],
)
def test_the_sender_is_read_as_one_mailbox_and_written_again(sender: str, name: str, address: str) -> None:
    parsed = parse(to_mime(Message(to="a@b.org", subject="s", text="t"), sender))
    [mailbox] = parsed["From"].addresses
    assert (mailbox.display_name, mailbox.addr_spec) == (name, address)
    assert envelope_sender(sender) == address


@pytest.mark.parametrize(
    "sender",
    [
        "a@b.org, c@d.org",
        "VPN <a@b.org>, c@d.org",
        "VPN <a@b.org>\r\nBcc: c@d.org",
        "VPN\n <a@b.org>",
        "VPN <not an address>",
        "VPN",
        "",
        "VPN <jörg@b.org>",
    ],
)
def test_a_sender_that_is_not_one_mailbox_is_refused(sender: str) -> None:
    with pytest.raises(ValueError):
        to_mime(Message(to="a@b.org", subject="s", text="t"), sender)
    with pytest.raises(ValueError):
        envelope_sender(sender)


def test_text_that_cannot_be_utf8_is_refused_as_a_value_error() -> None:
    for message in (
        Message(to="a@b.org", subject="s", text="lone \ud800 surrogate"),
        Message(to="a@b.org", subject="lone \udfff", text="t"),
        Message(to="a@b.org", subject="s", text="t", html="\ud800"),
    ):
        with pytest.raises(ValueError):
            to_mime(message, SENDER)


def test_each_message_has_its_own_boundary_and_id() -> None:
    message = Message(to="a@b.org", subject="s", text="t", html="<p>h</p>")
    first, second = parse(to_mime(message, SENDER)), parse(to_mime(message, SENDER))
    assert first.get_boundary() != second.get_boundary()
    assert first["Message-ID"] != second["Message-ID"]
    boundary = first.get_boundary()
    assert boundary is not None and boundary.startswith("=_") and len(boundary) <= 70


def test_an_empty_body_reads_back_empty() -> None:
    parsed = parse(to_mime(Message(to="a@b.org", subject="s", text="", html=None), SENDER))
    assert body(parsed, "plain") == ""
    parsed = parse(to_mime(Message(to="a@b.org", subject="s", text="", html="<p>h</p>"), SENDER))
    assert body(parsed, "plain") == "" and body(parsed, "html") == "<p>h</p>"


def test_mostly_ascii_text_is_quoted_printable_and_readable_as_it_is() -> None:
    link = "https://vpn.example/api/config/Ab9_-xAb9_-xAb9_-x"
    text = f"Your archive (the link works for 7 days; do not share it):\n{link}\n\nCode: ABCD-EFGH\n"
    data = to_mime(Message(to="a@b.org", subject="s", text=text, html=f'<a href="{link}">x</a>'), SENDER)
    assert encodings_of(data) == ["quoted-printable", "quoted-printable"]
    assert f"\r\n{link}\r\n".encode() in data and b"Code: ABCD-EFGH" in data
    french = "Nous avons bien reçu votre message\u00a0: ticket 12345, réponse sous 48 heures.\n"
    assert encodings_of(to_mime(Message(to="a@b.org", subject="s", text=french), SENDER)) == [
        "quoted-printable"
    ]


def test_text_mostly_outside_ascii_is_base64() -> None:
    text = "Ваша бесплатная VPN-лицензия готова.\nКод активации: ABCD-EFGH\n"
    assert encodings_of(to_mime(Message(to="a@b.org", subject="s", text=text), SENDER)) == ["base64"]


@pytest.mark.parametrize("text", ["From the start", "a\nFrom here\n", "x" * 75 + "From there"])
def test_a_line_that_would_start_with_from_is_sent_in_base64(text: str) -> None:
    data = to_mime(Message(to="a@b.org", subject="s", text=text), SENDER)
    assert encodings_of(data) == ["base64"] and b"\nFrom " not in data
    assert body(parse(data), "plain") == canonical(text)


LINE_LIMIT_BODIES = ["x" * 75, "x" * 76, "x" * 77, "x" * 76 + "\n", "é" + "x" * 74, "x" * 73 + "é."]
LINE_LIMIT_BODIES += [
    "x" * 75 + " ",
    "x" * 74 + "=",
    "x" * 74 + " \r",
    "x" * 74 + "\t\nnext",
    "x" * 73 + " \n",
]


@pytest.mark.parametrize("text", LINE_LIMIT_BODIES)
@pytest.mark.parametrize("html", [None, "<p>h</p>"])
def test_a_body_at_the_line_limit_keeps_to_it_and_reads_back_exactly(text: str, html: str | None) -> None:
    data = to_mime(Message(to="a@b.org", subject="s", text=text, html=html), SENDER)
    assert all(len(line) <= 76 for line in lines_of(data)[1])
    assert body(parse(data), "plain") == canonical(text)
