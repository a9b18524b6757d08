"""The public addresses the service hands out, in answers and in e-mails alike, all under the
configured public URL (never the Host a request came with)."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

# A host name as DNS spells it (IDNA in its xn-- form), one label (localhost) or more.
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
# Characters that make a URL something else in a page (quotes, markup) or stand for more than the
# site's own address (a path, a query, a fragment, a user name).
_NOT_IN_AN_ORIGIN = set("\"'`<>\\?#@")


class PublicUrlError(ValueError):
    pass


def public_origin(text: str) -> str:
    """``VPNSITE_PUBLIC_URL`` as the site's links start: ``http(s)://host[:port]``, without the
    trailing slash; an error that says what is wrong with anything else. The site is served at
    the root of that address (its pages name ``/assets/…`` and ``/api/…``), so a path is refused
    too."""
    url = text.strip().rstrip("/")

    def refused(why: str) -> PublicUrlError:
        return PublicUrlError(
            f"VPNSITE_PUBLIC_URL must be the address visitors use, such as https://vpn.example.com:"
            f" {why}, not {text!r}"
        )

    if any(char.isspace() or char in _NOT_IN_AN_ORIGIN or not char.isprintable() for char in url):
        raise refused("no quotes, spaces, markup, user name, query or fragment")
    absolute = "an absolute http:// or https:// URL, with a port from 1 to 65535 if any"
    try:
        parts = urlsplit(url)
        port, host = parts.port, parts.hostname or ""
    except ValueError:
        raise refused(absolute) from None
    if parts.scheme not in ("http", "https") or not url.startswith(f"{parts.scheme}://") or port == 0:
        raise refused(absolute)
    if parts.path:
        raise refused("the site's address alone, with no path")
    if not _HOST.match(host) and not _is_ip_address(host):
        raise refused("a host name (in its xn-- form if it is internationalised) or an IP address")
    return url


def _is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def archive_url(origin: str, token: str) -> str:
    return f"{origin}/api/config/{token}"


def profile_url(origin: str, token: str, file_name: str) -> str:
    """One profile of the archive ``token`` opens (``nl-amsterdam-udp.ovpn``, ``nl-amsterdam.conf``)."""
    return f"{origin}/api/profile/{token}/{file_name}"


def profile_qr_url(origin: str, token: str, image_name: str) -> str:
    """A QR code of a profile's link (``nl-amsterdam-udp.svg`` or ``.png``)."""
    return f"{origin}/api/profile-qr/{token}/{image_name}"


def openvpn_import_url(profile: str) -> str:
    """OpenVPN Connect's documented import form (3.3.6 and later): its scheme, then the HTTPS URL
    it downloads the profile from."""
    return f"openvpn://import-profile/{profile}"


def licence_url(origin: str, language: str) -> str:
    return f"{origin}{_prefix(language)}/license"


def setup_url(origin: str, language: str, token: str) -> str:
    """The licence e-mail's personal link for a phone: the licence with its servers' one-tap
    profiles (http/pages/forms.py: setup_page), under the archive's signed token."""
    return f"{licence_url(origin, language)}/setup/{token}"


def support_url(origin: str, language: str) -> str:
    return f"{origin}{_prefix(language)}/support"


def renewal_url(origin: str, language: str, token: str) -> str:
    return f"{licence_url(origin, language)}?renew={token}"


def erasure_url(origin: str, language: str, token: str) -> str:
    """The licence e-mail's "Didn't sign up? Erase this address": a confirmation page in the
    licence's language (http/pages/erasure_pages.py), whose button erases."""
    return f"{origin}{_prefix(language)}/erase/{token}"


def local_path(route: str, language: str) -> str:
    """A route in a language, as the site's links name it: ("/", "ru") → "/ru"."""
    if language == "en":
        return route
    return _prefix(language) + ("" if route == "/" else route)


def _prefix(language: str) -> str:
    return "" if language == "en" else f"/{language}"
