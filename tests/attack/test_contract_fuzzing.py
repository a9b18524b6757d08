"""Schemathesis against the service's own OpenAPI document: for every call, generated and
mutated inputs never get a 5xx nor an answer that breaks the document. Fixed seed, bounded
examples, so it stays within CI time."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from vpnsite_adapters.bootstrap import build_hub
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.settings import load_settings

if TYPE_CHECKING:
    from schemathesis.specs.openapi.schemas import OpenApiCase


def _app() -> object:
    data = Path(tempfile.mkdtemp(prefix="vpnsite-fuzz-"))
    settings_ = load_settings(
        {"VPNSITE_RATE_LIMITS": "off", "VPNSITE_ACCESS_LOG": "false"}, env_file=None, data_dir=data
    )
    hub = build_hub(settings_)
    hub.services.snapshot.refresh()
    return create_app(hub.services)


APP = _app()
# The archive is a zip, not JSON: tests/integration/test_vpn.py covers it.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP).exclude(path="/api/config/{token}")


@schema.parametrize()
@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_call_breaks_the_contract_or_the_server(case: OpenApiCase) -> None:
    # Not "positive data acceptance": a schema cannot say which e-mail addresses or activation
    # codes exist, so schema-valid input may rightly get a 4xx.
    # The WSGI transport hands gzip over undecoded: ask for the plain answer here (what gzip
    # sends is tests/integration/test_polling_compression.py's).
    case.call_and_validate(
        headers={"Accept-Encoding": "identity"},
        checks=[
            not_a_server_error,
            response_schema_conformance,
            status_code_conformance,
            content_type_conformance,
            unsupported_method,
        ],
    )
