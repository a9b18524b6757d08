"""The footer's contact column: the operator's social links (``VPNSITE_SOCIAL_LINKS``) when there
are any, under "Follow us", or only "Contact"; the operator's e-mail in both; and the link to the
source code (the operator's facts' ``source_code``).

The markup is the website's own (``ui/src/components/footer-contact.tsx``), prerendered by the build
in pieces (``site/forms/footer.json``); the script keeps what the server wrote (``layout.tsx``), and
``tests/integration/test_footer_contact.py`` holds what this module puts together equal to what the
components render for the same links."""

from __future__ import annotations

from typing import ClassVar

from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw
from vpnsite_adapters.operator_files.social_links import SocialLink


class FooterContact(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "following": frozenset({"RAW_LINKS", "RAW_SOURCE"}),
        "contact": frozenset({"RAW_SOURCE"}),
        "links/link": frozenset({"LABEL", "URL"}),
        "links/*": frozenset({"URL"}),
        "source": frozenset({"URL"}),
    }

    def block(self, language: str, links: tuple[SocialLink, ...], source_url: str | None = None) -> bytes:
        parts = self.of(language)
        source = fill(str(parts["source"]).encode(), {"URL": source_url}) if source_url else b""
        if not links:
            return fill_raw(str(parts["contact"]).encode(), {"SOURCE": source})
        anchors = "".join(
            fill(parts["links"][link.kind].encode(), {"URL": link.url, "LABEL": link.label}).decode()
            for link in links
        )
        return fill_raw(str(parts["following"]).encode(), {"LINKS": anchors.encode(), "SOURCE": source})
