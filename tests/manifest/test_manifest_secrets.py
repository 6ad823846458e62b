"""Secrets stay out of addresses and plan files: env() refuses the API token, the plan key and
natural keys, and plan-file markers are keyed by the plan key or the token, which no plan file
holds."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from docsync.core.secrecy import digest_key, keyed_digest
from docsync.render.json import sensitive_marker
from tests.manifest.conftest import run_validate

Write = Any


@pytest.mark.parametrize("variable", ["DOCSYNC_TOKEN", "DOCSYNC_PLAN_KEY"])
def test_env_cannot_read_the_api_token_or_the_plan_key(write: Write, variable: str) -> None:
    path = write(
        "m.yaml",
        f"organization: o\nspaces:\n  - title: S\n    emoji: \"{{{{ env('{variable}') }}}}\"\n",
    )
    result = run_validate(str(path), env={variable: "tok_very_secret"})
    assert result.exit_code == 1
    assert f"m.yaml:4:12: spaces[0].emoji: env('{variable}') is refused" in result.output
    assert "tok_very_secret" not in result.output


@pytest.mark.parametrize(
    "value",
    ["tok_very_secret", "https://x.example/?t=tok_very_secret", "{{ env('MY_KEY') }}"],
)
def test_the_api_token_written_in_a_manifest_is_refused_at_its_value(
    write: Write, value: str
) -> None:
    """Pasted in (or read through another variable), the API token would be sent to the API as
    data and printed in plans: refused where it is, never repeated."""
    path = write(
        "m.yaml", f'organization: o\ncollections:\n  - title: C\n    description: "{value}"\n'
    )
    result = run_validate(
        str(path), env={"DOCSYNC_TOKEN": "tok_very_secret", "MY_KEY": "tok_very_secret"}
    )
    assert result.exit_code == 1
    assert "m.yaml:4:18: collections[0].description: holds the API token (DOCSYNC_TOKEN)" in (
        result.output
    )
    assert "tok_very_secret" not in result.output


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ("teams:\n  - title: \"{{ env('K') }}\"\n", "teams[0].title"),
        ("openapi:\n  - slug: \"{{ env('K') }}\"\n    source: {url: 'https://a.example/x'}\n",
         "openapi[0].slug"),
        ("sites:\n  - title: S\n    sections:\n      - title: \"x{{ env('K') }}\"\n"
         "        siteSpaces: [{space: Sp, path: p}]\n", "sites[0].sections[0].title"),
    ],
)  # fmt: skip
def test_env_in_a_natural_key_is_refused_at_the_key(write: Write, entry: str, where: str) -> None:
    path: Path = write("m.yaml", "organization: o\nspaces: [{title: Sp}]\n" + entry)
    result = run_validate(str(path), env={"K": "hidden-value"})
    assert result.exit_code == 1
    assert f"{where}: env() cannot give a" in result.output
    assert "hidden-value" not in result.output


def test_markers_are_keyed_by_the_token() -> None:
    one = keyed_digest(b'"hunter2"', digest_key({"DOCSYNC_TOKEN": "tok_a"}))
    again = keyed_digest(b'"hunter2"', digest_key({"DOCSYNC_TOKEN": "tok_a"}))
    other = keyed_digest(b'"hunter2"', digest_key({"DOCSYNC_TOKEN": "tok_b"}))
    assert one == again != other
    # Nothing a plan file holds lets a guess be checked: not a plain or fixed-salt hash.
    assert one != hashlib.sha256(b'"hunter2"').hexdigest()
    assert digest_key({}) != digest_key({"DOCSYNC_TOKEN": "tok_a"})


def test_a_plan_key_keys_the_markers_whatever_the_token() -> None:
    """CI plans with a read-only token and applies with another: DOCSYNC_PLAN_KEY, which both
    jobs hold, keys the digests instead of either token."""
    key = {"DOCSYNC_PLAN_KEY": "k-shared"}
    planned = digest_key({**key, "DOCSYNC_TOKEN": "tok_plan"})
    assert planned == digest_key({**key, "DOCSYNC_TOKEN": "tok_apply"}) == digest_key(key)
    assert planned not in (digest_key({"DOCSYNC_TOKEN": "k-shared"}), digest_key({}))
    assert planned != digest_key({"DOCSYNC_PLAN_KEY": "k-other"})


def test_the_marker_changes_with_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCSYNC_TOKEN", "tok_a")
    assert sensitive_marker("a") != sensitive_marker("b")
    assert sensitive_marker("a") == sensitive_marker("a")
