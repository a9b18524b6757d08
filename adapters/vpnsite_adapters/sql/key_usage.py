"""How many stored keyed hashes each master key of the ring still holds, among those someone may yet
use: what `vpnsite keys list` shows and `vpnsite keys retire` weighs."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

import peewee
from attrs import frozen

from vpnsite.key_ring import KeyUsage
from vpnsite.renewals import CLOSES_AFTER_END
from vpnsite_adapters.sql.database import to_db
from vpnsite_adapters.sql.models import Models


@frozen
class SqlKeyUsage:
    db: peewee.Database
    models: Models

    def by_key(self, now: datetime) -> dict[int, KeyUsage]:
        """Codes of licences not erased that can still be checked or renewed, unused renewal links
        of such licences, and servers' tokens, per key id."""
        licences, links, servers = self.models.Licence, self.models.RenewalLink, self.models.VpnServer
        usable = (licences.ends_at > to_db(now - CLOSES_AFTER_END)) & licences.email.is_null(False)
        count = peewee.fn.COUNT(peewee.SQL("*"))
        counts: dict[str, dict[int, int]] = {
            "codes": dict(
                licences.select(licences.code_key, count).where(usable).group_by(licences.code_key).tuples()
            ),
            "renewal_links": dict(
                links.select(links.token_key, count)
                .join(licences, on=(licences.id == links.licence_id))
                .where(links.used_at.is_null() & usable)
                .group_by(links.token_key)
                .tuples()
            ),
            "server_tokens": dict(
                servers.select(servers.token_key, count)
                .where(servers.token_hash.is_null(False))
                .group_by(servers.token_key)
                .tuples()
            ),
        }
        usage: dict[int, dict[str, int]] = defaultdict(dict)
        for kind, per_key in counts.items():
            for key_id, n in per_key.items():
                usage[int(key_id)][kind] = int(n)
        return {key_id: KeyUsage(**fields) for key_id, fields in usage.items()}
