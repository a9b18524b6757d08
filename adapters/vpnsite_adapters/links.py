"""The public addresses the service hands out, in answers and in e-mails alike, all under the
configured public URL (never the Host a request came with)."""

from __future__ import annotations


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


def renewal_url(origin: str, language: str, token: str) -> str:
    return f"{licence_url(origin, language)}?renew={token}"


def erasure_url(origin: str, language: str, token: str) -> str:
    """The licence e-mail's "Didn't sign up? Erase this address": a confirmation page in the
    licence's language (http/erasure_pages.py), whose button erases."""
    return f"{origin}{_prefix(language)}/erase/{token}"


def _prefix(language: str) -> str:
    return "" if language == "en" else f"/{language}"
