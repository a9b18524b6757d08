"""E-mail addresses: what is accepted, how it is normalised, and how two are compared."""

from __future__ import annotations

import unicodedata
from email.headerregistry import Address
from email.utils import getaddresses

import idna
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from vpnsite.emails import MAX_ADDRESS, MAX_LOCAL_PART, address_to_mail, mailbox_key, normalise_email
from vpnsite.errors import InvalidField

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
local_parts = st.text(alphabet=ASCII_LETTERS + "0123456789+_", min_size=1, max_size=30)
labels = st.text(alphabet=ASCII_LETTERS + "0123456789", min_size=1, max_size=20)
domains = st.lists(labels, min_size=1, max_size=3).map(lambda parts: ".".join([*parts, "org"]))
addresses = st.builds(lambda local, domain: f"{local}@{domain}", local_parts, domains)

# Letters of other scripts, upper and lower case, for internationalised local parts and domains.
unicode_letters = st.characters(
    categories=["Lu", "Ll"], min_codepoint=0xC0, max_codepoint=0x52F
) | st.sampled_from("пример")


def idna_label(text: str) -> bool:
    """A label IDNA 2008 (with UTS #46's mapping, as browsers and mail programs apply it) encodes."""
    try:
        ascii_label = idna.encode(text, uts46=True).decode("ascii")
    except idna.IDNAError:
        return False
    return 0 < len(ascii_label) <= 63


def canonical_domain(domain: str) -> str:
    """The domain's one form, as the idna package gives it: its labels mapped, lower-cased and
    in Unicode."""
    return idna.decode(idna.encode(domain, uts46=True))


idn_labels = st.text(unicode_letters, min_size=1, max_size=12).filter(idna_label)
idn_addresses = st.builds(
    lambda local, label, tld: f"{local}@{label}.{tld}",
    st.text(unicode_letters | st.sampled_from("abc.+_"), min_size=1, max_size=20).filter(
        lambda local: not (local.startswith(".") or local.endswith(".") or ".." in local)
    ),
    idn_labels,
    st.sampled_from(["de", "рф", "com", "org", "bücher"]),
)


def refusal(address: str) -> str | None:
    try:
        normalise_email(address)
    except InvalidField as refused:
        assert refused.field == "email"
        return refused.kind
    return None


@given(addresses | idn_addresses)
def test_normalising_keeps_the_local_part_and_writes_the_domain_in_its_one_form_idempotently(
    address: str,
) -> None:
    normal = normalise_email(address)
    local, domain = address.split("@")
    assert normal == f"{unicodedata.normalize('NFC', local)}@{canonical_domain(domain)}"
    assert normalise_email(normal) == normal
    assert normalise_email(f"  {address}\t\n") == normal


@settings(max_examples=300)
@given(st.text(max_size=300) | st.builds("{}@{}".format, st.text(max_size=70), st.text(max_size=200)))
def test_whatever_is_accepted_is_accepted_again_unchanged_and_keeps_every_rule(raw: str) -> None:
    try:
        normal = normalise_email(raw)
    except InvalidField as refused:
        assert refused.kind in {"missing", "email_invalid", "email_too_long"}
        return
    assert normalise_email(normal) == normal
    assert normal.count("@") == 1
    local, domain = normal.split("@")
    assert 0 < len(local) <= MAX_LOCAL_PART and len(normal) <= MAX_ADDRESS
    assert "." in domain and domain == domain.lower()
    assert not any(char.isspace() or unicodedata.category(char).startswith("C") for char in normal)


def test_lower_casing_that_lengthens_the_domain_cannot_push_an_address_over_254() -> None:
    # "İ" lower-cases to two characters: accepting this 254-character address would keep one of
    # 255 that is then refused everywhere else (found by the property above).
    domain = "İb." + ".".join(["c" * 60] * 3) + ".org"
    address = "a" * (MAX_ADDRESS - 1 - len(domain)) + "@" + domain
    assert len(address) == MAX_ADDRESS
    assert refusal(address) == "email_too_long"
    assert refusal(address.replace("İ", "I")) is None


@given(addresses | idn_addresses)
def test_case_variants_are_the_same_person(address: str) -> None:
    # Only true case variants: "ı".upper() is "I", whose lower case is another letter; and a domain
    # with "ß", which IDNA 2008 keeps apart from "ss" (straße.de and strasse.de are two domains).
    assume(address.upper().casefold() == address.lower().casefold() == address.casefold())
    domain = address.split("@")[1]
    assume(canonical_domain(domain.upper()) == canonical_domain(domain.lower()) == canonical_domain(domain))
    upper, lower = normalise_email(address.upper()), normalise_email(address.lower())
    assert mailbox_key(upper) == mailbox_key(lower) == mailbox_key(normalise_email(address))


untagged = st.builds(
    lambda local, domain: f"{local}@{domain}",
    st.text(alphabet=ASCII_LETTERS + "0123456789_", min_size=1, max_size=30),
    domains,
)


@given(untagged, untagged)
def test_different_mailboxes_are_different_people(a: str, b: str) -> None:
    assume(a.lower() != b.lower())
    assert mailbox_key(normalise_email(a)) != mailbox_key(normalise_email(b))


@pytest.mark.parametrize(
    ("address", "kept"),
    [
        ("user@пример.рф", "user@пример.рф"),
        ("a@bücher.de", "a@bücher.de"),
        ("anna@BÜCHER.DE", "anna@bücher.de"),
        ("jörg@example.org", "jörg@example.org"),
        ("почта@почта.рф", "почта@почта.рф"),
        ("a.b+c@sub.example.co.uk", "a.b+c@sub.example.co.uk"),
        ("x@xn--bcher-kva.de", "x@bücher.de"),
        ("x@XN--BCHER-KVA.DE", "x@bücher.de"),
        ("用户@例子.广告", "用户@例子.广告"),
    ],
)
def test_internationalised_addresses_are_accepted_and_kept_in_one_form(address: str, kept: str) -> None:
    assert normalise_email(address) == kept


@given(idn_addresses)
def test_any_internationalised_domain_that_idna_can_encode_is_accepted(address: str) -> None:
    assert refusal(address) is None


def test_the_limits_are_inclusive() -> None:
    assert refusal("x" * MAX_LOCAL_PART + "@example.org") is None
    assert refusal("x" * (MAX_LOCAL_PART + 1) + "@example.org") == "email_invalid"
    domain = ".".join(["d" * 60] * 3) + "." + "e" * 10 + ".org"
    exact = "x" * (MAX_ADDRESS - 1 - len(domain)) + "@" + domain
    assert len(exact) == MAX_ADDRESS and refusal(exact) is None
    assert refusal("x" + exact) == "email_too_long"


@pytest.mark.parametrize(
    "address, kind",
    [
        ("", "missing"),
        ("   ", "missing"),
        ("plainaddress", "email_invalid"),
        ("@example.org", "email_invalid"),
        ("user@", "email_invalid"),
        ("two@@example.org", "email_invalid"),
        ("a@b@example.org", "email_invalid"),
        ("user@localhost", "email_invalid"),
        ("user@printer.local", "email_invalid"),
        ("user@example.invalid", "email_invalid"),
        ("user@xn--bcher.de", "email_invalid"),
        ("user@example.123", "email_invalid"),
        ("user@example..org", "email_invalid"),
        ("user@.example.org", "email_invalid"),
        ("user@example.org.", "email_invalid"),
        ("us er@example.org", "email_invalid"),
        ("user@exa mple.org", "email_invalid"),
        ("user\x00@example.org", "email_invalid"),
        ("user@example.org\u200b", "email_invalid"),
        ("user@-example.org", "email_invalid"),
        ("user@example-.org", "email_invalid"),
        ("user@exa_mple.org", "email_invalid"),
        ("user@" + "l" * 64 + ".org", "email_invalid"),
        (".user@example.org", "email_invalid"),
        ("user.@example.org", "email_invalid"),
        ("us..er@example.org", "email_invalid"),
        ("x" * (MAX_LOCAL_PART + 1) + "@example.org", "email_invalid"),
        ("a@" + "b" * 250 + ".org", "email_too_long"),
    ],
)
def test_what_is_refused_and_why(address: str, kind: str) -> None:
    assert refusal(address) == kind


@given(
    addresses,
    st.sampled_from([" ", "\n", "\t", "\r", "\x07", "\x7f", "\u200b", "\u2028", "\u3000"]),
    st.data(),
)
def test_no_address_with_a_space_or_control_character_inside_gets_through(
    address: str, bad: str, data: st.DataObject
) -> None:
    position = data.draw(st.integers(min_value=1, max_value=len(address) - 1))
    assert refusal(address[:position] + bad + address[position:]) == "email_invalid"


@given(addresses, st.integers(min_value=2, max_value=4))
def test_exactly_one_at_sign(address: str, ats: int) -> None:
    local, domain = address.split("@")
    assert refusal(local + "@" * ats + domain) == "email_invalid"
    assert refusal(local + "." + domain) == "email_invalid"


@given(local_parts, labels)
def test_the_domain_needs_a_dot(local: str, label: str) -> None:
    assert refusal(f"{local}@{label}") == "email_invalid"


@given(
    st.builds(
        # Within the address: whitespace around it is trimmed, as a pasted address needs.
        "x{}{}{}@example.org".format,
        st.text(max_size=10),
        st.sampled_from([",", "<", ">", '"', "(", ")", ";", ":", "[", "]", "\\", " "]),
        st.text(max_size=10),
    )
)
def test_an_address_that_could_be_read_as_several_recipients_is_refused(raw: str) -> None:
    with pytest.raises(InvalidField):
        normalise_email(raw)


@given(
    st.text(max_size=80)
    | st.builds("{}@{}".format, st.text(max_size=30), st.text(max_size=30))
    | idn_addresses
    | addresses
)
def test_every_address_a_licence_is_issued_to_is_exactly_one_mailbox_in_a_header(raw: str) -> None:
    """What the SMTP adapter writes into To and Reply-To parses back as that one address."""
    try:
        normal = address_to_mail(raw)
    except InvalidField:
        return
    mailbox = Address(addr_spec=normal)
    assert mailbox.addr_spec == normal
    assert [address for _, address in getaddresses([normal])] == [normal]


def test_the_addresses_of_the_security_review_are_refused() -> None:
    for raw in ("attacker,victim@example.net", "a<b>@example.net", '"x"@example.net', "a b@example.net"):
        with pytest.raises(InvalidField):
            normalise_email(raw)


def spellings(local: str, data: st.DataObject) -> str:
    """``local``@gmail.com as a person or a stranger might type it: any case, dots anywhere
    (never two together or at an end), a ``+tag``, either of Google's domains."""
    letters = [data.draw(st.sampled_from([char, char.upper()])) for char in local]
    dotted = "".join(
        letter + ("." if data.draw(st.booleans()) and position < len(letters) - 1 else "")
        for position, letter in enumerate(letters)
    )
    tag = data.draw(st.sampled_from(["", "+x", "+news", "+a.b"]))
    domain = data.draw(st.sampled_from(["gmail.com", "GMail.com", "googlemail.com", "GOOGLEMAIL.COM"]))
    return f"{dotted}{tag}@{domain}"


@given(st.from_regex(r"[a-z0-9]{1,20}", fullmatch=True), st.data())
def test_every_spelling_of_one_gmail_address_is_one_mailbox(local: str, data: st.DataObject) -> None:
    one, other = spellings(local, data), spellings(local, data)
    assert mailbox_key(normalise_email(one)) == mailbox_key(normalise_email(other)) == f"{local}@gmail.com"


@given(addresses | idn_addresses | untagged)
def test_the_mailbox_of_a_mailbox_is_itself(address: str) -> None:
    key = mailbox_key(normalise_email(address))
    assert mailbox_key(key) == key


@given(idn_addresses)
def test_an_internationalised_domain_is_one_mailbox_in_unicode_and_in_its_ascii_form(address: str) -> None:
    """As typed on the site, and as a mail header (the outbox's files) writes it."""
    local, domain = normalise_email(address).split("@")
    ascii_form = idna.encode(domain, uts46=True).decode("ascii")
    assert mailbox_key(f"{local}@{ascii_form}") == mailbox_key(f"{local}@{domain}")
    assert mailbox_key(f"{local}@{ascii_form.upper()}") == mailbox_key(f"{local}@{domain}")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Victim@Example.org", "victim+news@example.org"),
        ("v.ictim@gmail.com", "victim@googlemail.com"),
        ("VICTIM+x@GoogleMail.com", "vic.tim@gmail.com"),
        ("anna@bücher.de", "ANNA@XN--BCHER-KVA.DE"),
    ],
)
def test_the_review_s_spellings_of_one_mailbox(one: str, other: str) -> None:
    assert mailbox_key(normalise_email(one)) == mailbox_key(normalise_email(other))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("v.ictim@example.org", "victim@example.org"),  # dots matter outside Gmail
        ("victim@gmail.com", "victim@gmail.co"),
        ("anna@bücher.de", "anna@bucher.de"),
    ],
)
def test_what_is_not_one_mailbox(one: str, other: str) -> None:
    assert mailbox_key(normalise_email(one)) != mailbox_key(normalise_email(other))


def test_an_address_kept_before_the_rules_still_has_a_mailbox() -> None:
    """Stored under the old rule (a domain IDNA 2008 refuses): no error, a key all the same."""
    assert mailbox_key("Anna@ŀ.DE") == "anna@ŀ.de"


@given(idn_addresses | addresses)
@example("jörg@example.org")
@example("почта@почта.рф")
@example("用户@例子.广告")
def test_a_licence_is_issued_only_to_an_address_the_service_can_write_to(address: str) -> None:
    """A local part in another script is reached only by SMTPUTF8, which the service's mail does not
    speak: a sign-up refuses it; the same address, held from before, is still read as it was kept."""
    local = address.rpartition("@")[0]
    if local.isascii():
        assert address_to_mail(address) == normalise_email(address)
    else:
        with pytest.raises(InvalidField) as refused:
            address_to_mail(address)
        assert (refused.value.field, refused.value.kind) == ("email", "email_invalid")
        assert normalise_email(address).rpartition("@")[0] == unicodedata.normalize("NFC", local)
