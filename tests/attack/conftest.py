"""The attack tests use the integration fixtures (real databases, real services)."""

from tests.integration.conftest import *  # noqa: F403
