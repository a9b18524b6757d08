"""The operator's social links (``VPNSITE_SOCIAL_LINKS``), shown in the footer of every page beside
the operator's e-mail; none when the setting is empty.

``x=https://x.com/examplevpn, telegram=https://t.me/examplevpn, Mastodon=https://mastodon.social/@x``:
entries separated by commas, each a name and an https address. A known network (``x``,
``telegram``) is drawn as its icon, and its address must be on that network's own host; any other
name is a label, shown as written."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from attrs import frozen


class SocialLinksError(ValueError):
    pass


# Each network the footer has an icon for (ui/src/components/layout.tsx: SOCIAL_ICONS), and the
# hosts its pages are on.
KNOWN_NETWORKS: dict[str, tuple[str, ...]] = {
    "x": ("x.com", "twitter.com"),
    "telegram": ("t.me", "telegram.me"),
}
MAX_LINKS = 6
_MAX_URL = 300
_MAX_LABEL = 24
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_LABEL = re.compile(r"^\w(?:[\w .'+-]*[\w.+])?$")


@frozen
class SocialLink:
    # A known network ("x", "telegram"), or "link" for a labelled one.
    kind: str
    label: str
    url: str


def read_social_links(text: str | None) -> tuple[SocialLink, ...]:
    """The links of ``VPNSITE_SOCIAL_LINKS``, in the order given; an error that says which entry
    is wrong and why."""
    links: list[SocialLink] = []
    for entry in (text or "").split(","):
        if not entry.strip():
            continue
        name, equals, url = entry.strip().partition("=")
        name, url = name.strip(), url.strip()
        if not equals or not name or not url:
            raise SocialLinksError(
                f"VPNSITE_SOCIAL_LINKS: {entry.strip()!r} is not name=https://address"
                " (e.g. x=https://x.com/yourname, telegram=https://t.me/yourchannel)"
            )
        links.append(_link(name, url))
    if len(links) > MAX_LINKS:
        raise SocialLinksError(f"VPNSITE_SOCIAL_LINKS: at most {MAX_LINKS} links, not {len(links)}")
    names = [link.label.casefold() for link in links]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        raise SocialLinksError(f"VPNSITE_SOCIAL_LINKS: {', '.join(doubled)} given more than once")
    return tuple(links)


def _link(name: str, url: str) -> SocialLink:
    kind = name.lower() if name.lower() in KNOWN_NETWORKS else "link"
    if kind == "link" and (
        len(name) > _MAX_LABEL or not _LABEL.match(name) or any(_control(char) for char in name)
    ):
        raise SocialLinksError(
            f"VPNSITE_SOCIAL_LINKS: {name!r} is neither a known network ({', '.join(KNOWN_NETWORKS)})"
            f" nor a label (letters, digits, spaces and .'+-, at most {_MAX_LABEL} characters)"
        )
    host = _https_host(name, url)
    hosts = KNOWN_NETWORKS.get(kind)
    if hosts is not None and not any(host == known or host.endswith("." + known) for known in hosts):
        raise SocialLinksError(
            f"VPNSITE_SOCIAL_LINKS: the {name} address must be on {' or '.join(hosts)}, not {host}"
        )
    return SocialLink(kind, name if kind == "link" else kind, url)


def _https_host(name: str, url: str) -> str:
    problem = f"VPNSITE_SOCIAL_LINKS: the address of {name} must be an https:// URL"
    if len(url) > _MAX_URL or any(char.isspace() or _control(char) for char in url):
        raise SocialLinksError(f"{problem} of at most {_MAX_URL} characters, with no spaces: {url!r}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise SocialLinksError(f"{problem}, not {url!r}") from None
    host = (parts.hostname or "").lower()
    if not url.startswith("https://") or not _HOST.match(host):
        raise SocialLinksError(f"{problem} with a host name, not {url!r}")
    if parts.username is not None or parts.password is not None or port not in (None, 443):
        raise SocialLinksError(f"{problem} with no user name, password or port, not {url!r}")
    return host


def _control(char: str) -> bool:
    return unicodedata.category(char)[0] == "C"
