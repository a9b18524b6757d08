"""Every setting is declared once, in `vpnsite_adapters.settings.Settings`: the loader reads
them all alike, and the README's tables are written from the declarations.
``python -m tests.unit.test_settings_declared`` writes them again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from attrs import fields

from vpnsite_adapters.settings import DECLARED, Settings, SettingsError, load_settings, settings_table

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BEGIN = (
    "<!-- settings: written from vpnsite_adapters/settings.py by"
    " `python -m tests.unit.test_settings_declared` -->\n"
)
END = "<!-- settings: end -->\n"


def readme_with_table(text: str) -> str:
    before, _, rest = text.partition(BEGIN)
    _, _, after = rest.partition(END)
    return before + BEGIN + settings_table() + END + after


def test_the_readme_shows_the_settings_as_they_are_declared() -> None:
    text = README.read_text()
    assert BEGIN in text and END in text
    assert text == readme_with_table(text), "run `python -m tests.unit.test_settings_declared`"


def test_every_variable_the_example_file_names_is_declared() -> None:
    table = settings_table()
    named = set(re.findall(r"VPNSITE_([A-Z_]+)=", (ROOT / ".env.example").read_text()))
    declared = set(re.findall(r"`VPNSITE_([A-Z_]+)`", table))
    operator = {f"OPERATOR_{part}" for part in ("NAME", "NUMBER", "ADDRESS", "EMAIL", "FOUNDER")}
    assert named - declared - operator == set()


def test_every_field_an_operator_sets_is_declared_with_a_meaning() -> None:
    undeclared = [f.name for f in fields(Settings) if DECLARED not in f.metadata]
    assert undeclared == ["secret_key_source"], "where the key came from is found, not set"
    for attribute in fields(Settings):
        if DECLARED in attribute.metadata:
            assert attribute.metadata[DECLARED].meaning.strip()


@pytest.mark.parametrize(
    "variable, text",
    [("PORT", "0"), ("THREADS", "x"), ("NODE_ADDRESS", "nowhere"), ("METRICS_TOKEN", "short"), ("DEMO", "2")],
)
def test_a_declared_reader_refuses_nonsense_with_the_variables_name(
    tmp_path: Path, variable: str, text: str
) -> None:
    with pytest.raises(SettingsError, match=f"VPNSITE_{variable}"):
        load_settings({f"VPNSITE_{variable}": text}, env_file=None, data_dir=tmp_path)


def test_a_variable_set_blank_keeps_its_default(tmp_path: Path) -> None:
    """As `.env.example` leaves ``VPNSITE_CORS_ORIGINS=`` and an operator may ``VPNSITE_PORT=``."""
    blank = {
        f"VPNSITE_{name}": " " for name in ("PORT", "HOST", "DEMO", "RATE_LIMITS", "PUBLIC_URL", "SECRET_KEY")
    }
    load_settings({}, env_file=None, data_dir=tmp_path)  # the first start makes the secret key
    default = load_settings({}, env_file=None, data_dir=tmp_path)
    assert load_settings(blank, env_file=None, data_dir=tmp_path) == default


if __name__ == "__main__":
    README.write_text(readme_with_table(README.read_text()))
