"""A domain message as the bytes of a MIME e-mail, written out directly for the one shape the
service sends: From, To, Subject, Date, Message-ID, Reply-To when given; a text/plain part, or
text/plain and text/html as multipart/alternative.

The standard library's ``EmailMessage`` took about 4.5 ms of CPU (and the GIL) per mail, most of
it parsing and refolding headers it had just been given. What comes out here is plain 7-bit ASCII
with CRLF line ends (RFC 5322, RFC 2045-2047), usable as it is for SMTP ``DATA`` and for an .eml:

- addresses are one plain ``local@domain`` each, checked here (never a list, a group, a comment or
  a display name); a domain in Unicode is sent in its IDNA ASCII form, and only when that form
  reads back to the given domain;
- the subject and a non-ASCII sender name become RFC 2047 encoded-words; line breaks and other
  control characters in a subject become spaces, so no input can start a header of its own;
- every header line is folded to 78 characters, except one holding a single address or message id
  too long to fit (an address is at most 254 characters, far under the 998 limit);
- bodies are UTF-8 text with every line break a CRLF (RFC 2046 §4.1.1), quoted-printable when
  mostly ASCII (readable as it is, like the links in a licence mail) and base64 otherwise, or when
  a line would start with ``From ``; lines of at most 76 characters either way, and the boundary
  holds "=_", which neither encoding can produce.
"""

from __future__ import annotations

import binascii
import re
import secrets
from email.utils import formatdate, getaddresses, make_msgid, parseaddr
from functools import lru_cache

from vpnsite.mail import Message

MAX_LINE = 78
MAX_ADDRESS = 254
MAX_LOCAL_PART = 64
MAX_ENCODED_WORD = 75  # RFC 2047 §2

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
# RFC 5321 Mailbox with a Dot-string local part and a Domain of letter-digit-hyphen labels: what
# RFC 5322 calls a dot-atom addr-spec, without quotes, comments, brackets or white space.
_ADDR_SPEC = re.compile(_ATEXT + r"+(?:\." + _ATEXT + r"+)*@" + _LABEL + r"(?:\." + _LABEL + r")*")
_PHRASE_ATOMS = re.compile(_ATEXT + r"+(?: " + _ATEXT + r"+)*")
_PLAIN_TEXT = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
# Control characters and the Unicode line and paragraph separators: refused in the sender; in a
# subject each of them, and each CRLF, becomes one space.
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SUBJECT_BREAKS = re.compile(r"\r\n|" + _CONTROLS.pattern)

_TRAILING_BLANK_PAST_76 = re.compile(rb"^([^\r\n]{74})(=20|=09)\r\n", re.MULTILINE)

_EW_PREFIX = "=?utf-8?B?"
_EW_OVERHEAD = len(_EW_PREFIX) + len("?=")


def to_mime(message: Message, sender: str) -> bytes:
    """The message as an RFC 5322 e-mail from ``sender`` (``Name <address>`` or an address).

    Raises ValueError for a recipient, a Reply-To or a sender that is not one plain address,
    or text that cannot be UTF-8 (a lone surrogate); the queue counts that as a failed message.
    """
    from_header, _, domain = _sender(sender)
    head = [
        from_header,
        _fold("To", [addr_spec(message.to)]),
        _subject(message.subject),
        "Date: " + formatdate(localtime=False) + "\r\n",
        _fold("Message-ID", [make_msgid(domain=domain)]),
    ]
    if message.reply_to:
        head.append(_fold("Reply-To", [addr_spec(message.reply_to)]))
    head.append("MIME-Version: 1.0\r\n")
    text = _part("plain", message.text)
    if not message.html:
        return "".join(head).encode("ascii") + text
    # Neither quoted-printable nor base64 can put "=_" on a line, so no part holds the boundary.
    boundary = ("=_" + secrets.token_hex(16)).encode("ascii")
    head.append(f'Content-Type: multipart/alternative;\r\n boundary="{boundary.decode()}"\r\n\r\n')
    return b"".join(
        [
            "".join(head).encode("ascii"),
            b"--" + boundary + b"\r\n",
            text,
            b"\r\n--" + boundary + b"\r\n",
            _part("html", message.html),
            b"\r\n--" + boundary + b"--\r\n",
        ]
    )


def addr_spec(address: str) -> str:
    """The address as it goes into a header and the SMTP envelope: exactly one ``local@domain``,
    the domain in ASCII. Raises ValueError (without repeating the address) for anything else."""
    local, _, domain = address.rpartition("@")
    if not domain.isascii():
        domain = _ascii_domain(domain)
    wire = f"{local}@{domain}"
    if (
        len(wire) > MAX_ADDRESS
        or len(local) > MAX_LOCAL_PART
        or "=?" in wire  # a parser would read it as an encoded-word
        or _ADDR_SPEC.fullmatch(wire) is None
    ):
        raise ValueError("not a single plain e-mail address")
    return wire


def envelope_sender(sender: str) -> str:
    """The address of the configured sender, for SMTP ``MAIL FROM``."""
    return _sender(sender)[1]


def _subject(subject: str) -> str:
    """The Subject header: read back, it is ``subject`` with each CRLF, and every other control
    character or Unicode line or paragraph separator, replaced by a space."""
    line = _SUBJECT_BREAKS.sub(" ", subject)
    first = MAX_LINE - len("Subject: ")
    if _PLAIN_TEXT.fullmatch(line) and "=?" not in line:
        words = line.split(" ")
        if len(words[0]) <= first and max(map(len, words)) < MAX_LINE:
            return _fold("Subject", words, structured=False)
    # Non-ASCII, control characters, runs of spaces, a word too long to fold, or what a reader
    # would take for an encoded-word: all of it encoded (an empty subject gives no words).
    return _fold("Subject", _encoded_words(line, first), structured=False)


@lru_cache(maxsize=16)
def _sender(sender: str) -> tuple[str, str, str]:
    """(From header, address, domain) of a configured sender, worked out once per sender."""
    if _CONTROLS.search(sender) or len(getaddresses([sender])) != 1:
        raise ValueError("the sender must be one address, with or without a display name")
    name, address = parseaddr(sender)
    wire = addr_spec(address)
    domain = wire.rpartition("@")[2]
    if not name:
        return _fold("From", [wire]), wire, domain
    if _PHRASE_ATOMS.fullmatch(name) and "=?" not in name:
        phrase = name.split(" ")
    elif name.isascii() and "=?" not in name:
        phrase = ['"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"']
    else:
        phrase = []
    if not phrase or max(map(len, phrase)) >= MAX_LINE:
        # Not ASCII, or a word too long to fold: encoded-words, which can be cut anywhere.
        phrase = _encoded_words(name, first=MAX_LINE - len("From: "))
    return _fold("From", [*phrase, f"<{wire}>"]), wire, domain


def _ascii_domain(domain: str) -> str:
    try:
        ascii_domain = domain.encode("idna").decode("ascii")
        back = ascii_domain.encode("ascii").decode("idna")
    except UnicodeError:
        raise ValueError("not a single plain e-mail address") from None
    # Python's codec is IDNA 2003, which maps some letters to others ("ß" to "ss"): an address
    # whose domain would change (other than in case) is refused rather than sent to someone
    # else's domain.
    if back.lower() != domain.lower():
        raise ValueError("an internationalised domain without an exact ASCII form")
    return ascii_domain


def _fold(name: str, tokens: list[str], structured: bool = True) -> str:
    """A header of ``tokens`` separated by spaces, folded before a token that would pass column 78.
    In a structured header the first token (an address, a message id) may move to a line of its
    own, where white space before it means nothing; in a subject it would be a leading space, so
    callers give a first word that fits beside the name."""
    line = name + ":"
    lines = []
    for position, token in enumerate(tokens):
        if len(line) + 1 + len(token) > MAX_LINE and (
            position > 0 or (structured and 1 + len(token) <= MAX_LINE)
        ):
            lines.append(line)
            line = ""
        line += " " + token
    lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def _encoded_words(text: str, first: int) -> list[str]:
    """``text`` as RFC 2047 'B' encoded-words of whole characters, the first at most ``first``
    characters long and the others at most 75, so each fits on a line of its own."""
    data = text.encode("utf-8")
    words = []
    capacity = (min(first, MAX_ENCODED_WORD) - _EW_OVERHEAD) // 4 * 3
    start = 0
    while start < len(data):
        end = start + capacity
        while end < len(data) and data[end] & 0xC0 == 0x80:
            end -= 1  # not inside a character: each encoded-word holds whole ones (RFC 2047 §5)
        words.append(_EW_PREFIX + binascii.b2a_base64(data[start:end], newline=False).decode() + "?=")
        start = end
        capacity = (MAX_ENCODED_WORD - _EW_OVERHEAD) // 4 * 3
    return words


def _part(subtype: str, text: str) -> bytes:
    """The headers and body of a text part: UTF-8 in canonical form (every CRLF, lone CR and lone
    LF a CRLF), quoted-printable or base64, ending in CRLF unless empty."""
    canonical = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    data = canonical.encode("utf-8")
    # Quoted-printable spends three characters on a byte outside ASCII, base64 four on every three
    # bytes: quoted-printable while at most about one byte in five is outside ASCII.
    body = _quoted_printable(data) if (len(data) - len(canonical)) * 10 <= len(data) else None
    encoding = "quoted-printable"
    if body is None:
        encoding, body = "base64", _base64(data)
    return (
        f"Content-Type: text/{subtype}; charset=utf-8\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n"
    ).encode("ascii") + body


def _quoted_printable(data: bytes) -> bytes | None:
    """Canonical text as quoted-printable lines of at most 76 characters; None if a line would
    start with "From ", which a mailbox file would turn into ">From "."""
    body = binascii.b2a_qp(data, istext=True)
    if b"\r\n" not in data:
        body = body.replace(b"\n", b"\r\n")  # with no line break to copy, it breaks lines with LF
    # The encoder writes a space or tab at the end of a line as =20 or =09 after counting it as one
    # character: a line of 74 before it would be 77 long.
    if b"=20\r\n" in body or b"=09\r\n" in body:
        body = _TRAILING_BLANK_PAST_76.sub(rb"\1=\r\n\2\r\n", body)
    if body.startswith(b"From ") or b"\nFrom " in body:
        return None
    if body and not body.endswith(b"\r\n"):
        # The text does not end in a line break and SMTP needs one: a soft break. The encoder
        # fills a last line to 76 (with a plain character, never an =XX), so it may need two.
        last = len(body) - body.rfind(b"\n") - 1
        body = body[:-1] + b"=\r\n" + body[-1:] if last >= 76 else body
        body += b"=\r\n"
    return body


def _base64(data: bytes) -> bytes:
    encoded = binascii.b2a_base64(data, newline=False)
    if not encoded:
        return b""
    return b"\r\n".join([encoded[at : at + 76] for at in range(0, len(encoded), 76)]) + b"\r\n"
