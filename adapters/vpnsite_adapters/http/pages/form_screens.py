"""The screens the forms without JavaScript answer with (``http/pages/forms.py``; and the pages of the
licence e-mail's erasure link, ``http/pages/erasure_pages.py``), and the values of the visitor's each is
filled with on top of what every page has: the server's half of the slot manifest for them
(``http/pages/slot_manifest.py``)."""

from __future__ import annotations

from vpnsite_adapters.http.pages.slot_manifest import Declared

# The activation code in its five groups of four (``forms.code_slots``).
_CODE_GROUPS = frozenset(f"CODE_{group}" for group in range(1, 6))
_LICENCE = (
    frozenset({"EMAIL", "CODE", "STARTED", "ENDS", "REMAINING", "RENEW_FROM", "RENEWAL", "PHONE"})
    | _CODE_GROUPS
)
_SIGNED = frozenset(
    f"SIGNED_{name}" for name in ("EMAIL", "USER_DAYS", "SUBSCRIPTION", "USER_COMMENT", "REQUEST_ID", "SIG")
)

SCREEN_SLOTS: Declared = {
    "activation-success": frozenset(
        {"EMAIL", "DAYS", "EXPIRES", "ARCHIVE_URL", "PHONE", "RAW_ONE_TAP", "MAILED"}
    )
    | _CODE_GROUPS,
    "activation-generic": frozenset({"ERROR"}) | _SIGNED,
    "activation-already_used": frozenset(),
    "activation-rate_limited": frozenset(),
    "signup-error": frozenset({"ERROR", "EMAIL"}),
    "licence-active": _LICENCE | {"ARCHIVE_URL", "RAW_ONE_TAP", "RAW_DEVICES"},
    "licence-ended": _LICENCE,
    "licence-error": frozenset({"ERROR", "EMAIL", "CODE"}),
    # The licence e-mail's link for a phone (``/license/setup/<token>``).
    "licence-setup": frozenset({"EMAIL", "ENDS", "REMAINING", "ARCHIVE_URL", "RAW_ONE_TAP", "PHONE"}),
    # The renewal reminder's link (``/license?renew=…``): its button, and what came of it.
    "renew-link": frozenset(),
    "renew-link-done": frozenset({"ENDS"}),
    "renew-link-failed": frozenset({"ERROR"}),
    "support-sent": frozenset({"TICKET"}),
    "support-error": frozenset({"ERROR", "EMAIL", "CODE", "MESSAGE"}),
    # The licence e-mail's erasure link (``http/pages/erasure_pages.py``): each page keeps the link's
    # TOKEN in its language menu's links.
    "erasure-confirm": frozenset({"TOKEN", "EMAIL"}),
    "erasure-done": frozenset({"TOKEN", "EMAIL", "LICENCES", "ENDED", "TICKETS", "MAILS"}),
    "erasure-gone": frozenset({"TOKEN"}),
    "erasure-failed": frozenset({"TOKEN", "ERROR"}),
}
